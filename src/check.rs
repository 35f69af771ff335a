//! The checker: names and scopes, types, the uniform/vector distinction, where collectives may
//! stand, `func` restrictions, recursion and block sizes. Its output is everything code
//! generation needs to know beyond the AST itself.

mod error;
pub mod types;

use crate::diagnostics::Diagnostic;
use crate::syntax::ast::{ExprId, Program};
use serde::Serialize;
use std::collections::HashMap;
use types::{RecordTable, Scalar, Ty};

pub use error::{CheckError, CODES};

#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// `--block-size`: the default `BLOCKSIZE` of kernels without `@blocksize(N)`.
    pub block_size: u32,
}

/// What a call expression (or the function operand of a collective) refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Callee {
    /// A `func`: its index in `Checked::program.items`.
    Func(usize),
    /// `Float32(x)` and friends (elementwise on vectors).
    Cast(Scalar),
    Builtin(Builtin),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Builtin {
    /// `block(b)`: the Range `[b*BLOCKSIZE, (b+1)*BLOCKSIZE)`.
    Block,
    /// `range(a, b)`: the Range `[a, b)`.
    Range,
    /// `select(c, a, b)`: elementwise choice.
    Select,
}

#[derive(Debug, Clone, Serialize)]
pub struct KernelFacts {
    /// Index in `Checked::program.items`.
    pub item: usize,
    pub name: String,
    /// `@blocksize(N)` if given, else `--block-size`.
    pub block_size: u32,
}

/// A checked program: the AST (user items first, then the standard library's) and the facts the
/// checker established about it.
#[derive(Debug, Clone)]
pub struct Checked {
    pub program: Program,
    pub records: RecordTable,
    /// The type of every expression, indexed by `ExprId`.
    pub expr_types: Vec<Ty>,
    /// The target of every `Call` expression, and of every `Collective`'s function operand,
    /// keyed by the id of the `Call` or `Collective` expression.
    pub callees: HashMap<ExprId, Callee>,
    /// Kernels in source order.
    pub kernels: Vec<KernelFacts>,
}

impl Checked {
    pub fn ty(&self, id: ExprId) -> &Ty {
        &self.expr_types[id.0 as usize]
    }
}

/// Checks `program` (which already includes the standard library). Returns the facts and every
/// diagnostic found; the driver stops if any of them is an error.
pub fn check(program: Program, options: &CheckOptions) -> (Checked, Vec<Diagnostic>) {
    let _ = options;
    todo!("checker: {}", program.items.len())
}
