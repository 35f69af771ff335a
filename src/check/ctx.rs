//! The state of checking one func or kernel body, which the checker's files each add methods
//! to (`stmt.rs` statements, `expr.rs` expressions, `call.rs` calls, ...): defined here, below
//! all of them, so that none of them imports another for it.

use super::error::{BlockSizeSource, CheckError};
use super::scope::Scopes;
use super::types::Ty;
use super::Checker;
use crate::syntax::span::Span;
use std::collections::HashSet;

#[derive(Debug, Clone)]
pub(super) enum BodyKind {
    Kernel {
        block_size: u32,
        /// Rows of the block's shape (1 for a one-dimensional block); `block_size` is a multiple.
        block_rows: u32,
        source: BlockSizeSource,
        /// A kernel whose block size is not a power of two is told so once, at its first
        /// reduction or scan.
        pow2_reported: bool,
    },
    Func {
        ret: Ty,
        ret_span: Option<Span>,
        /// The func's name, for secondary labels.
        decl: Span,
    },
}

/// While the dimensions of a parameter's array type are checked: the parameters declared after
/// it (which a dimension must not use).
#[derive(Debug, Clone)]
pub(super) struct DimsMode {
    pub later: Vec<(String, Span)>,
}

pub(super) struct FnCtx<'c, 'p> {
    pub cx: &'c mut Checker<'p>,
    pub item: usize,
    pub from_stdlib: bool,
    pub kind: BodyKind,
    pub scopes: Scopes,
    /// Every variable declared anywhere in the body, to explain a use outside its scope.
    pub all_decls: Vec<(String, Span)>,
    /// Names assigned anywhere in the body: a Range variable among them has no known length.
    pub assigned: HashSet<String>,
    pub dims: Option<DimsMode>,
    /// The atomic call that stands as a statement of its own, while it is checked.
    pub atomic_statement: Option<crate::syntax::ast::ExprId>,
    /// The atomic call that is the whole right side of the declaration or assignment being
    /// checked: its old value may be used.
    pub atomic_binding: Option<crate::syntax::ast::ExprId>,
    /// Vector variables of run-time length (by the span of their name, and whether the
    /// initializer is a uniform fill), to be recomputed at each use if nothing changes what
    /// they read, else stored in a scratch row (`check/recompute.rs`, after the body).
    pub run_time_vectors: Vec<(Span, bool)>,
}

impl<'c, 'p> FnCtx<'c, 'p> {
    pub fn new(cx: &'c mut Checker<'p>, item: usize, kind: BodyKind) -> FnCtx<'c, 'p> {
        let from_stdlib = cx.items.is_stdlib(item);
        let mut scopes = Scopes::default();
        scopes.push();
        FnCtx {
            cx,
            item,
            from_stdlib,
            kind,
            scopes,
            all_decls: Vec::new(),
            assigned: HashSet::new(),
            dims: None,
            atomic_statement: None,
            atomic_binding: None,
            run_time_vectors: Vec::new(),
        }
    }

    pub fn in_func(&self) -> bool {
        matches!(self.kind, BodyKind::Func { .. })
    }

    pub fn block_size(&self) -> Option<u32> {
        match self.kind {
            BodyKind::Kernel { block_size, .. } => Some(block_size),
            BodyKind::Func { .. } => None,
        }
    }

    /// The kernel's block shape `(rows, cols)`: `(1, BLOCKSIZE)` for a one-dimensional block.
    pub fn block_shape(&self) -> Option<(u32, u32)> {
        match self.kind {
            BodyKind::Kernel {
                block_size,
                block_rows,
                ..
            } => Some((block_rows, block_size / block_rows.max(1))),
            BodyKind::Func { .. } => None,
        }
    }

    pub fn error(&mut self, error: CheckError) {
        self.cx.error(error);
    }
}
