//! Why a vector variable of run-time length cannot be recomputed at each use (E0307's reasons;
//! `check/recompute.rs` decides), as data.

use crate::syntax::span::Span;

/// The most expression nodes a recomputed variable's initializer may stand for, its recomputed
/// variables substituted.
pub const MAX_RECOMPUTED_NODES: u64 = 4096;

/// Why a vector variable of run-time length cannot be recomputed at each use.
#[derive(Debug, Clone, PartialEq)]
pub enum NotRecomputed {
    /// Its initializer is a uniform value (`w: Float32[n] <- 0`): there is no expression to
    /// recompute, only an array to fill.
    UniformFill,
    /// `v <- ...` or `v[i] <- ...` after the definition.
    Assigned { at: Span },
    /// A later statement writes (or declares again) `name`, which the initializer reads.
    Changed { name: String, at: Span },
    /// Substituted, its initializer would be `nodes` expression nodes.
    TooLarge { nodes: u64 },
}
