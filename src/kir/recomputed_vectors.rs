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
use crate::syntax::ast::{Block, Expr, ExprId, ExprKind, Item, Stmt as Ast};
use crate::syntax::span::Span;
use crate::syntax::visit::each_child_mut;
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
/// initializers, or `None` when there are none. Each copy gets fresh expression ids, with the
/// checker's facts (types, callees, lengths) copied from the original: code generation keeps
/// per-expression state (a scan's carry, a collective's scratch memory), which two uses of
/// one variable in a statement must not share.
pub fn substitute(checked: &Checked, module: &Module) -> Result<Option<Checked>, String> {
    let mut recomputed = BTreeSet::new();
    for kernel in &module.kernels {
        recomputed.extend(kernel.recomputed_vectors.iter().flatten().copied());
    }
    if recomputed.is_empty() {
        return Ok(None);
    }
    let mut out = checked.clone();
    let mut program = checked.program.clone();
    for item in &mut program.items {
        if let Item::Kernel(decl) = item {
            let mut copy = |init: &Expr| fresh_copy(init, &mut out);
            in_block(&mut decl.body, &recomputed, &mut HashMap::new(), &mut copy);
        }
    }
    if u32::try_from(out.expr_types.len()).is_err() {
        // The checker bounds each recomputed initializer (`check/recompute.rs`).
        return Err("recomputed vector variables made more than 2^32 expressions".to_string());
    }
    out.program = program;
    Ok(Some(out))
}

/// A copy of `init` for one use, under fresh ids that carry the original's facts.
fn fresh_copy(init: &Expr, facts: &mut Checked) -> Expr {
    let mut copy = init.clone();
    renumber(&mut copy, facts);
    copy
}

fn renumber(e: &mut Expr, facts: &mut Checked) {
    let old = e.id;
    // Past 2^32 ids the copies collide; `substitute` reports it once the walk is done.
    let new = ExprId(u32::try_from(facts.expr_types.len()).unwrap_or(u32::MAX));
    let ty = facts.ty(old).clone();
    facts.expr_types.push(ty);
    if let Some(callee) = facts.callees.get(&old).cloned() {
        facts.callees.insert(new, callee);
    }
    if let Some(len) = facts.range_lens.get(&old).copied() {
        facts.range_lens.insert(new, len);
    }
    e.id = new;
    each_child_mut(e, &mut |c| renumber(c, facts));
}

/// Substitutes in `block`; `defs` maps the recomputed variables in scope to their initializers
/// (already substituted themselves, so that one may be defined from another).
/// Substitutes in `block`, each use by `copy` of its initializer.
fn in_block(
    block: &mut Block,
    recomputed: &BTreeSet<Span>,
    defs: &mut HashMap<String, Expr>,
    copy: &mut dyn FnMut(&Expr) -> Expr,
) {
    let outer = defs.clone();
    let stmts = std::mem::take(&mut block.stmts);
    for mut stmt in stmts {
        if let Ast::Let {
            name,
            init: Some(init),
            ..
        } = &mut stmt
        {
            in_expr(init, defs, copy);
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
                in_expr(target, defs, copy);
                in_expr(value, defs, copy);
            }
            Ast::If {
                cond,
                then_branch,
                else_branch,
                ..
            } => {
                in_expr(cond, defs, copy);
                in_block(then_branch, recomputed, defs, copy);
                if let Some(e) = else_branch {
                    in_block(e, recomputed, defs, copy);
                }
            }
            Ast::For { range, body, .. } => {
                in_expr(range, defs, copy);
                in_block(body, recomputed, defs, copy);
            }
            Ast::While { cond, body, .. } => {
                in_expr(cond, defs, copy);
                in_block(body, recomputed, defs, copy);
            }
            Ast::Return { value, .. } => {
                if let Some(v) = value {
                    in_expr(v, defs, copy);
                }
            }
            Ast::Call { call, .. } => in_expr(call, defs, copy),
        }
        block.stmts.push(stmt);
    }
    *defs = outer;
}

fn in_expr(expr: &mut Expr, defs: &HashMap<String, Expr>, copy: &mut dyn FnMut(&Expr) -> Expr) {
    if defs.is_empty() {
        return;
    }
    if let ExprKind::Name(id) = &expr.kind {
        if let Some(init) = defs.get(&id.name) {
            *expr = copy(init);
        }
        return;
    }
    each_child_mut(expr, &mut |c| in_expr(c, defs, copy));
}
