//! Code generation errors, as data.

/// Every diagnostic id this stage can produce (the UI suite checks each one is tested).
pub const CODES: &[&str] = &[];

pub enum CodegenError {}
