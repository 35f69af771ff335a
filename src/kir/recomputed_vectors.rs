//! `kir-recomputed-vectors`: the vector variables of run-time length (`e: Float32[] <- exp /~
//! (x[B] - m)` where the row length is a parameter). A thread holds a fixed number of register
//! slots, so such a variable cannot live in registers, and a kernel cannot allocate global
//! memory; each use evaluates its initializer again instead, which needs no launch-time size and
//! no extra memory traffic beyond what the initializer reads. The checker (`check/recompute.rs`)
//! has already rejected (`E0307`) the variables for which a use would see another value.
//!
//! Code generation reads the decision through [`substitute`]: the checked program with every
//! use of a recomputed variable replaced by its initializer and the declaration removed.

use super::{walk_stmts, Module, Stmt};
use crate::check::types::Len;
use crate::check::Checked;
use crate::syntax::ast::{Block, Expr, ExprKind, Item, Stmt as Ast};
use crate::syntax::span::Span;
use std::collections::{BTreeSet, HashMap};

pub fn run(module: &mut Module, _checked: &Checked) {
    for kernel in &mut module.kernels {
        let mut recomputed = BTreeSet::new();
        walk_stmts(&kernel.body, &mut |stmt| {
            if let Stmt::Vector {
                name_span,
                shared: false,
                len: Len::Dynamic,
                init: Some(_),
                ..
            } = stmt
            {
                recomputed.insert(*name_span);
            }
        });
        kernel.recomputed_vectors = Some(recomputed);
    }
}

/// `checked` with the recomputed vector variables of `module` substituted by their
/// initializers, or `None` when there are none. The copies keep their expression ids, so the
/// checker's facts about them (types, callees, lengths) hold at every use.
pub fn substitute(checked: &Checked, module: &Module) -> Option<Checked> {
    let mut recomputed = BTreeSet::new();
    for kernel in &module.kernels {
        recomputed.extend(kernel.recomputed_vectors.iter().flatten().copied());
    }
    if recomputed.is_empty() {
        return None;
    }
    let mut out = checked.clone();
    for item in &mut out.program.items {
        if let Item::Kernel(decl) = item {
            in_block(&mut decl.body, &recomputed, &mut HashMap::new());
        }
    }
    Some(out)
}

/// Substitutes in `block`; `defs` maps the recomputed variables in scope to their initializers
/// (already substituted themselves, so that one may be defined from another).
fn in_block(block: &mut Block, recomputed: &BTreeSet<Span>, defs: &mut HashMap<String, Expr>) {
    let outer = defs.clone();
    let stmts = std::mem::take(&mut block.stmts);
    for mut stmt in stmts {
        if let Ast::Let {
            name,
            init: Some(init),
            ..
        } = &mut stmt
        {
            in_expr(init, defs);
            if recomputed.contains(&name.span) {
                defs.insert(name.name.clone(), init.clone());
                continue;
            }
            // A variable of the same name hides the recomputed one.
            defs.remove(&name.name);
            block.stmts.push(stmt);
            continue;
        }
        match &mut stmt {
            Ast::Let { .. } => {}
            Ast::Assign { target, value, .. } => {
                in_expr(target, defs);
                in_expr(value, defs);
            }
            Ast::If {
                cond,
                then_branch,
                else_branch,
                ..
            } => {
                in_expr(cond, defs);
                in_block(then_branch, recomputed, defs);
                if let Some(e) = else_branch {
                    in_block(e, recomputed, defs);
                }
            }
            Ast::For { range, body, .. } => {
                in_expr(range, defs);
                in_block(body, recomputed, defs);
            }
            Ast::While { cond, body, .. } => {
                in_expr(cond, defs);
                in_block(body, recomputed, defs);
            }
            Ast::Return { value, .. } => {
                if let Some(v) = value {
                    in_expr(v, defs);
                }
            }
            Ast::Call { call, .. } => in_expr(call, defs),
        }
        block.stmts.push(stmt);
    }
    *defs = outer;
}

fn in_expr(expr: &mut Expr, defs: &HashMap<String, Expr>) {
    if defs.is_empty() {
        return;
    }
    if let ExprKind::Name(id) = &expr.kind {
        if let Some(init) = defs.get(&id.name) {
            *expr = init.clone();
        }
        return;
    }
    match &mut expr.kind {
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_) | ExprKind::Name(_) => {}
        ExprKind::Unary { operand, .. } => in_expr(operand, defs),
        ExprKind::Binary { lhs, rhs, .. } => {
            in_expr(lhs, defs);
            in_expr(rhs, defs);
        }
        ExprKind::Call { args, .. } => args.iter_mut().for_each(|a| in_expr(a, defs)),
        ExprKind::Index { base, indices, .. } => {
            in_expr(base, defs);
            indices.iter_mut().for_each(|i| in_expr(i, defs));
        }
        ExprKind::Field { base, .. } => in_expr(base, defs),
        ExprKind::Record { fields } => fields.iter_mut().for_each(|f| in_expr(&mut f.value, defs)),
        ExprKind::VectorLit { elems } => elems.iter_mut().for_each(|e| in_expr(e, defs)),
        ExprKind::Collective { func, operand, .. } => {
            func.bound_args.iter_mut().for_each(|a| in_expr(a, defs));
            in_expr(operand, defs);
        }
    }
}
