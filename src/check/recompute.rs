//! Vector variables of run-time length (`e: Float32[] <- exp /~ (x[B] - m)` with a run-time
//! row length): they cannot live in registers (a thread holds a fixed number of elements), so
//! each use evaluates the initializer again (`kir-recomputed-vectors` records them; code
//! generation substitutes the initializer). That is only correct when every use sees what the
//! definition saw, so the variable is rejected (`E0307`, with the reason) when:
//! - it is assigned again, or indexed (a computed vector has no elements to pick: `E0205`);
//! - a statement after the definition, in its scope, writes an array or variable that the
//!   initializer reads, or declares a variable of the same name (a use would see another value);
//! - the initializer performs an atomic (each use would perform it again).
//!
//! The rule looks at the statements after the definition, not at the uses: a write with no use
//! after it is rejected too. That keeps the rule one sentence long.

use super::error::CheckError;
use super::stmt::FnCtx;
use crate::syntax::ast::{Block, Expr, ExprKind, Stmt};
use crate::syntax::span::Span;
use crate::syntax::visit::visit_expr;
use std::collections::HashSet;

/// Why a vector variable of run-time length cannot be recomputed at each use.
#[derive(Debug, Clone, PartialEq)]
pub enum NotRecomputed {
    /// Its initializer is a uniform value (`w: Float32[n] <- 0`): there is no expression to
    /// recompute, only an array to fill.
    UniformFill,
    /// `v <- ...` or `v[i] <- ...` after the definition.
    Assigned { at: Span },
    /// `v[i]`: a computed vector cannot be indexed.
    Indexed { at: Span },
    /// A later statement writes (or declares again) `name`, which the initializer reads.
    Changed { name: String, at: Span },
    /// The initializer performs an atomic.
    Atomic { at: Span },
}

impl<'c, 'p> FnCtx<'c, 'p> {
    /// Rejects the vector variables of run-time length that recomputation would get wrong (after
    /// the body was checked).
    pub(super) fn check_recomputed_vectors(&mut self, body: &Block) {
        let pending: HashSet<Span> = self.run_time_vectors.drain(..).collect();
        if pending.is_empty() {
            return;
        }
        let mut found = Vec::new();
        in_block(body, &pending, &mut found);
        for (span, name, ty_span, reason) in found {
            let ty = self
                .cx
                .locals
                .get(&span)
                .cloned()
                .unwrap_or(crate::check::types::Ty::Error);
            self.error(CheckError::DynamicRegisterVector {
                span: ty_span,
                name,
                ty,
                reason,
            });
        }
    }
}

type Finding = (Span, String, Span, NotRecomputed);

fn in_block(block: &Block, pending: &HashSet<Span>, found: &mut Vec<Finding>) {
    for (i, stmt) in block.stmts.iter().enumerate() {
        match stmt {
            Stmt::Let {
                name,
                init: Some(init),
                ..
            } if pending.contains(&name.span) => {
                if let Some(reason) = why_not(&name.name, init, &block.stmts[i + 1..]) {
                    found.push((name.span, name.name.clone(), init.span, reason));
                }
            }
            Stmt::If {
                then_branch,
                else_branch,
                ..
            } => {
                in_block(then_branch, pending, found);
                if let Some(e) = else_branch {
                    in_block(e, pending, found);
                }
            }
            Stmt::For { body, .. } | Stmt::While { body, .. } => in_block(body, pending, found),
            _ => {}
        }
    }
}

/// Why `name <- init`, followed by `rest` in its scope, cannot be recomputed at each use.
fn why_not(name: &str, init: &Expr, rest: &[Stmt]) -> Option<NotRecomputed> {
    let mut atomic = None;
    let mut reads = HashSet::new();
    visit_expr(init, &mut |e| match &e.kind {
        ExprKind::Call { callee, .. } if callee.name.starts_with("atomic_") => {
            atomic.get_or_insert(e.span);
        }
        ExprKind::Name(id) => {
            reads.insert(id.name.clone());
        }
        _ => {}
    });
    if let Some(at) = atomic {
        return Some(NotRecomputed::Atomic { at });
    }
    let mut reason = None;
    for stmt in rest {
        after(stmt, name, &reads, &mut reason);
        if reason.is_some() {
            break;
        }
    }
    reason
}

/// The first reason in `stmt` (nested statements included).
fn after(stmt: &Stmt, name: &str, reads: &HashSet<String>, reason: &mut Option<NotRecomputed>) {
    let mut indexed = |e: &Expr| {
        if let ExprKind::Index { base, .. } = &e.kind {
            if matches!(&base.kind, ExprKind::Name(id) if id.name == name) && reason.is_none() {
                *reason = Some(NotRecomputed::Indexed { at: e.span });
            }
        }
    };
    let changed = |written: &str, at: Span| {
        if written == name {
            Some(NotRecomputed::Assigned { at })
        } else if reads.contains(written) {
            Some(NotRecomputed::Changed {
                name: written.to_string(),
                at,
            })
        } else {
            None
        }
    };
    match stmt {
        Stmt::Let {
            name: declared,
            init,
            ..
        } => {
            if let Some(init) = init {
                visit_expr(init, &mut indexed);
            }
            if reason.is_none() && reads.contains(&declared.name) {
                *reason = changed(&declared.name, declared.span);
            }
        }
        Stmt::Assign { target, value, .. } => {
            visit_expr(value, &mut indexed);
            visit_expr(target, &mut indexed);
            if reason.is_none() {
                *reason = changed(&root(target), target.span);
            }
        }
        Stmt::Call { call, .. } => {
            visit_expr(call, &mut indexed);
            if let ExprKind::Call { args, .. } = &call.kind {
                if let (None, Some(place)) = (&reason, args.first()) {
                    *reason = changed(&root(place), place.span);
                }
            }
        }
        Stmt::Return { value, .. } => {
            if let Some(v) = value {
                visit_expr(v, &mut indexed);
            }
        }
        Stmt::If {
            cond,
            then_branch,
            else_branch,
            ..
        } => {
            visit_expr(cond, &mut indexed);
            for s in then_branch
                .stmts
                .iter()
                .chain(else_branch.iter().flat_map(|b| &b.stmts))
            {
                after(s, name, reads, reason);
            }
        }
        Stmt::For {
            var, range, body, ..
        } => {
            visit_expr(range, &mut indexed);
            if reason.is_none() {
                *reason = changed(&var.name, var.span).filter(|_| var.name != name);
            }
            for s in &body.stmts {
                after(s, name, reads, reason);
            }
        }
        Stmt::While { cond, body, .. } => {
            visit_expr(cond, &mut indexed);
            for s in &body.stmts {
                after(s, name, reads, reason);
            }
        }
    }
}

/// The variable an assignment target belongs to: `a` in `a[i].f`.
fn root(target: &Expr) -> String {
    let mut e = target;
    while let ExprKind::Index { base, .. } | ExprKind::Field { base, .. } = &e.kind {
        e = base;
    }
    match &e.kind {
        ExprKind::Name(id) => id.name.clone(),
        _ => String::new(),
    }
}
