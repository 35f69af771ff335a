//! Parses LOOM source with the grammar in `loom.pest` and lowers pest pairs to the AST.

use super::ast::Program;
use super::span::FileId;
use crate::diagnostics::Diagnostic;

/// Parses one source file. Expression ids start at `first_expr_id` so that several files (the
/// user's program and the standard library) can share one id space; `Program::expr_count` says
/// where the next file should start.
pub fn parse(file: FileId, source: &str, first_expr_id: u32) -> Result<Program, Vec<Diagnostic>> {
    let _ = (file, source, first_expr_id);
    todo!("parser")
}
