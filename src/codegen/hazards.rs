//! Where kernel code needs a barrier between once-per-block stores and the block's reads.
//!
//! Uniform code runs on every thread, but a uniform store runs on thread 0 only (`out[i] <- s`).
//! "Synchronised by default" then needs a barrier
//! - between thread 0's store to an array and any thread's later read of it (read after write), and
//! - between every thread's read of an array and thread 0's later store to it (write after read).
//!
//! [`Hazards`] is the set of arrays read by every thread, and written by thread 0, since the last
//! barrier; a barrier empties it. Vector statements and collectives end with a barrier of their own.
//! Loops start their body with the effects of the whole body already in the set (the previous
//! iteration's), which is conservative and needs no fixed point. Arrays are identified by name:
//! shadowing can only add barriers, never remove one.

use crate::check::types::Ty;
use crate::check::Checked;
use crate::syntax::ast::{Block, Expr, ExprKind, Stmt};
use std::collections::BTreeSet;

#[derive(Debug, Clone, Default)]
pub struct Hazards {
    pub read_by_all: BTreeSet<String>,
    pub written_by_leader: BTreeSet<String>,
}

impl Hazards {
    pub fn clear(&mut self) {
        self.read_by_all.clear();
        self.written_by_leader.clear();
    }

    pub fn is_clean(&self) -> bool {
        self.read_by_all.is_empty() && self.written_by_leader.is_empty()
    }

    pub fn union(&mut self, other: &Hazards) {
        self.read_by_all.extend(other.read_by_all.iter().cloned());
        self.written_by_leader
            .extend(other.written_by_leader.iter().cloned());
    }

    /// What `stmts` may read and write, collected syntactically.
    pub fn of_block(checked: &Checked, block: &Block) -> Hazards {
        let mut effects = Hazards::default();
        for stmt in &block.stmts {
            effects.add_stmt(checked, stmt);
        }
        effects
    }

    pub fn of_expr(checked: &Checked, expr: &Expr) -> Hazards {
        let mut effects = Hazards::default();
        effects.add_expr(checked, expr);
        effects
    }

    fn add_stmt(&mut self, checked: &Checked, stmt: &Stmt) {
        match stmt {
            Stmt::Let { init, .. } => {
                if let Some(init) = init {
                    self.add_expr(checked, init);
                }
            }
            Stmt::Assign { target, value, .. } => {
                self.add_expr(checked, value);
                self.add_target(checked, target);
            }
            Stmt::If {
                cond,
                then_branch,
                else_branch,
                ..
            } => {
                self.add_expr(checked, cond);
                self.union(&Hazards::of_block(checked, then_branch));
                if let Some(e) = else_branch {
                    self.union(&Hazards::of_block(checked, e));
                }
            }
            Stmt::For { range, body, .. } => {
                self.add_expr(checked, range);
                self.union(&Hazards::of_block(checked, body));
            }
            Stmt::While { cond, body, .. } => {
                self.add_expr(checked, cond);
                self.union(&Hazards::of_block(checked, body));
            }
            Stmt::Return { value, .. } => {
                if let Some(v) = value {
                    self.add_expr(checked, v);
                }
            }
        }
    }

    /// The array a store goes to is written, not read; its subscripts are read.
    fn add_target(&mut self, checked: &Checked, target: &Expr) {
        match &target.kind {
            ExprKind::Name(name) => {
                if matches!(checked.ty(target.id), Ty::Array { .. }) {
                    self.written_by_leader.insert(name.name.clone());
                }
            }
            ExprKind::Index { base, indices, .. } => {
                for index in indices {
                    self.add_expr(checked, index);
                }
                self.add_target(checked, base);
            }
            ExprKind::Field { base, .. } => self.add_target(checked, base),
            _ => self.add_expr(checked, target),
        }
    }

    fn add_expr(&mut self, checked: &Checked, expr: &Expr) {
        visit_expr(expr, &mut |e| {
            if let ExprKind::Name(name) = &e.kind {
                if matches!(checked.ty(e.id), Ty::Array { .. }) {
                    self.read_by_all.insert(name.name.clone());
                }
            }
        });
    }
}

/// Calls `f` on `expr` and every expression inside it.
pub fn visit_expr(expr: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(expr);
    match &expr.kind {
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_) | ExprKind::Name(_) => {}
        ExprKind::Unary { operand, .. } => visit_expr(operand, f),
        ExprKind::Binary { lhs, rhs, .. } => {
            visit_expr(lhs, f);
            visit_expr(rhs, f);
        }
        ExprKind::Call { args, .. } => args.iter().for_each(|a| visit_expr(a, f)),
        ExprKind::Index { base, indices, .. } => {
            visit_expr(base, f);
            indices.iter().for_each(|i| visit_expr(i, f));
        }
        ExprKind::Field { base, .. } => visit_expr(base, f),
        ExprKind::Record { fields } => fields.iter().for_each(|fi| visit_expr(&fi.value, f)),
        ExprKind::VectorLit { elems } => elems.iter().for_each(|e| visit_expr(e, f)),
        ExprKind::Collective { func, operand, .. } => {
            func.bound_args.iter().for_each(|a| visit_expr(a, f));
            visit_expr(operand, f);
        }
    }
}

/// Calls `f` on every expression in `block`, including array dimensions of declarations.
pub fn visit_block(block: &Block, f: &mut dyn FnMut(&Expr)) {
    for stmt in &block.stmts {
        match stmt {
            Stmt::Let { ty, init, .. } => {
                visit_type_dims(ty, f);
                if let Some(init) = init {
                    visit_expr(init, f);
                }
            }
            Stmt::Assign { target, value, .. } => {
                visit_expr(target, f);
                visit_expr(value, f);
            }
            Stmt::If {
                cond,
                then_branch,
                else_branch,
                ..
            } => {
                visit_expr(cond, f);
                visit_block(then_branch, f);
                if let Some(e) = else_branch {
                    visit_block(e, f);
                }
            }
            Stmt::For { range, body, .. } => {
                visit_expr(range, f);
                visit_block(body, f);
            }
            Stmt::While { cond, body, .. } => {
                visit_expr(cond, f);
                visit_block(body, f);
            }
            Stmt::Return { value, .. } => {
                if let Some(v) = value {
                    visit_expr(v, f);
                }
            }
        }
    }
}

pub fn visit_type_dims(ty: &crate::syntax::ast::TypeExpr, f: &mut dyn FnMut(&Expr)) {
    use crate::syntax::ast::TypeExpr;
    match ty {
        TypeExpr::Named { .. } => {}
        TypeExpr::Record { fields, .. } => fields.iter().for_each(|fi| visit_type_dims(&fi.ty, f)),
        TypeExpr::Array { elem, dims, .. } => {
            visit_type_dims(elem, f);
            dims.iter().for_each(|d| visit_expr(d, f));
        }
    }
}
