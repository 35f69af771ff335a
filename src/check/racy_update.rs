//! W0600: a plain read-modify-write of a global array element that other blocks may update at
//! the same time (`hist[[v]] <- hist[[v]] + 1`), which loses updates when they do; the warning
//! suggests the atomic form (`atomic_add(hist[[v]], 1)`).
//!
//! Blocks run concurrently and no barrier orders them, so two blocks that read the same element,
//! add to it and store it back keep only one of the additions. A block's own elements are safe:
//! those whose subscript is computed from `B` without reading memory (`out[B]`,
//! `y[[block(B)]]`, `a[B * BLOCKSIZE + 3]`), since each block names others. Anything else may be
//! shared: a subscript read from memory (`hist[[x[block(B)]]]`: two blocks may see the same
//! value), or one that does not depend on `B` (`total[0]`: every block names it).
//!
//! The test is syntactic and errs towards silence: a variable counts as derived from `B` when
//! its declaration's value is (and no later assignment in program order makes it otherwise), and
//! nothing is reported under an `if` whose condition names `B` (`if B == 0 then total[0] <- ...`
//! is one block's update).

use super::atomic_op::AtomicOp;
use super::ctx::FnCtx;
use super::error::{CheckError, RacyUpdate};
use super::pretty::render;
use super::scope::VarKind;
use super::types::{Space, Ty};
use crate::syntax::ast::{BinaryOp, Block, Expr, ExprKind, Stmt};
use crate::syntax::span::Span;
use crate::syntax::visit::visit_expr;
use std::collections::HashSet;

/// What the walk knows at a statement.
struct Walk {
    /// Variables whose value is computed from `B` without reading memory.
    derived: HashSet<String>,
    /// Depth of `if`s whose condition names `B` (or a variable derived from it).
    block_guarded: u32,
    found: Vec<RacyUpdate>,
}

impl<'c, 'p> FnCtx<'c, 'p> {
    /// Reports every racy read-modify-write of a kernel body (after the body was checked).
    pub(super) fn racy_updates(&mut self, body: &Block) {
        let mut walk = Walk {
            derived: HashSet::new(),
            block_guarded: 0,
            found: Vec::new(),
        };
        self.racy_block(body, &mut walk);
        for w in walk.found {
            self.error(CheckError::RacyUpdate(w));
        }
    }

    fn racy_block(&self, block: &Block, walk: &mut Walk) {
        for stmt in &block.stmts {
            self.racy_stmt(stmt, walk);
        }
    }

    fn racy_stmt(&self, stmt: &Stmt, walk: &mut Walk) {
        match stmt {
            Stmt::Let { name, init, .. } => {
                if init
                    .as_ref()
                    .is_some_and(|e| self.derives_from_block(e, walk))
                {
                    walk.derived.insert(name.name.clone());
                }
            }
            Stmt::Assign {
                target,
                value,
                span,
            } => {
                if let ExprKind::Name(name) = &target.kind {
                    if !self.derives_from_block(value, walk) {
                        walk.derived.remove(&name.name);
                    }
                }
                if walk.block_guarded == 0 {
                    if let Some(w) = self.racy_assign(target, value, *span, walk) {
                        walk.found.push(w);
                    }
                }
            }
            Stmt::If {
                cond,
                then_branch,
                else_branch,
                ..
            } => {
                let guarded = self.names_block(cond, walk);
                walk.block_guarded += u32::from(guarded);
                self.racy_block(then_branch, walk);
                if let Some(b) = else_branch {
                    self.racy_block(b, walk);
                }
                walk.block_guarded -= u32::from(guarded);
            }
            Stmt::For {
                var, range, body, ..
            } => {
                if self.derives_from_block(range, walk) {
                    walk.derived.insert(var.name.clone());
                }
                self.racy_block(body, walk);
            }
            Stmt::While { body, .. } => self.racy_block(body, walk),
            Stmt::Return { .. } | Stmt::Call { .. } => {}
        }
    }

    /// `a[i] <- ... a[i] ...` on a kernel's array whose subscripts do not name this block's own
    /// element.
    fn racy_assign(
        &self,
        target: &Expr,
        value: &Expr,
        span: Span,
        walk: &Walk,
    ) -> Option<RacyUpdate> {
        let ExprKind::Index { base, indices, .. } = &target.kind else {
            return None;
        };
        let ExprKind::Name(array) = &base.kind else {
            return None;
        };
        let global = self.scopes.lookup(&array.name).is_some_and(|v| {
            v.kind == VarKind::Param
                && matches!(
                    v.ty,
                    Ty::Array {
                        space: Space::Global,
                        ..
                    }
                )
        });
        if !global || indices.iter().any(|i| self.derives_from_block(i, walk)) {
            return None;
        }
        let place = element_text(target)?;
        let mut read = None;
        visit_expr(value, &mut |e| {
            if read.is_none() && element_text(e).as_ref() == Some(&place) {
                read = Some(e.span);
            }
        });
        Some(RacyUpdate {
            span,
            read: read?,
            array: array.name.clone(),
            atomic: atomic_form(target, value, &place),
        })
    }

    /// Whether `e` is computed from `B` (or a variable derived from it) without reading memory.
    fn derives_from_block(&self, e: &Expr, walk: &Walk) -> bool {
        let mut names_block = false;
        let mut reads_memory = false;
        visit_expr(e, &mut |x| match &x.kind {
            ExprKind::Name(id) => {
                if id.name == "B" || walk.derived.contains(&id.name) {
                    names_block = true;
                } else if matches!(
                    self.cx.expr_types.get(x.id.0 as usize),
                    Some(Ty::Array { .. } | Ty::Vector { .. })
                ) {
                    reads_memory = true;
                }
            }
            ExprKind::Index { .. } | ExprKind::Collective { .. } => reads_memory = true,
            // A func may read memory; the builtins of ranges and casts do not.
            ExprKind::Call { callee, .. }
                if !matches!(callee.name.as_str(), "block" | "range" | "select")
                    && super::types::Scalar::from_name(&callee.name).is_none() =>
            {
                reads_memory = true;
            }
            _ => {}
        });
        names_block && !reads_memory
    }

    /// Whether a condition names `B` or a variable derived from it.
    fn names_block(&self, e: &Expr, walk: &Walk) -> bool {
        let mut names = false;
        visit_expr(e, &mut |x| {
            if let ExprKind::Name(id) = &x.kind {
                names |= id.name == "B" || walk.derived.contains(&id.name);
            }
        });
        names
    }
}

/// An element place as text, checked or not (`hist[[v]]` and `hist[v]` name the same element).
fn element_text(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Index { base, indices, .. } => {
            let subscripts: Vec<String> = indices.iter().map(render).collect();
            Some(format!("{}[{}]", render(base), subscripts.join(", ")))
        }
        _ => None,
    }
}

/// The atomic statement equivalent to `target <- value` when `value` is `target op e` (or
/// `e op target` for a commutative `op`, `min`/`max` of the two).
fn atomic_form(target: &Expr, value: &Expr, place: &str) -> Option<String> {
    let is_place = |e: &Expr| element_text(e).as_deref() == Some(place);
    let (op, other) = match &value.kind {
        ExprKind::Binary { op, lhs, rhs, .. } => {
            let op = match op {
                BinaryOp::Add => AtomicOp::Add,
                BinaryOp::Sub => AtomicOp::Sub,
                BinaryOp::BitAnd => AtomicOp::And,
                BinaryOp::BitOr => AtomicOp::Or,
                BinaryOp::BitXor => AtomicOp::Xor,
                _ => return None,
            };
            if is_place(lhs) {
                (op, rhs.as_ref())
            } else if is_place(rhs) && op != AtomicOp::Sub {
                (op, lhs.as_ref())
            } else {
                return None;
            }
        }
        ExprKind::Call { callee, args } if args.len() == 2 => {
            let op = match callee.name.as_str() {
                "min" => AtomicOp::Min,
                "max" => AtomicOp::Max,
                _ => return None,
            };
            match (is_place(&args[0]), is_place(&args[1])) {
                (true, _) => (op, &args[1]),
                (_, true) => (op, &args[0]),
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(format!(
        "{}({}, {})",
        op.name(),
        render(target),
        render(other)
    ))
}
