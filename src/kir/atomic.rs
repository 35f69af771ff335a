//! `kir-lower` for the atomics (`check/atomic.rs`): a call on its own line, or the whole right
//! side of a declaration or an assignment to a variable, becomes [`Stmt::Atomic`].

use super::stage::{reductions, stage};
use super::{Element, ExprRef, Stmt};
use crate::check::types::Ty;
use crate::check::{Builtin, Callee, Checked};
use crate::syntax::ast::{Expr, ExprKind, Stmt as Ast};

/// The atomic statement `stmt` is, if it is one.
pub fn lower(checked: &Checked, stmt: &Ast) -> Option<Stmt> {
    let (call, old, span) = match stmt {
        Ast::Call { call, span } => (call, None, *span),
        Ast::Let {
            name,
            init: Some(init),
            span,
            ..
        } => (init, Some(name.name.clone()), *span),
        Ast::Assign {
            target,
            value,
            span,
        } => match &target.kind {
            ExprKind::Name(name) => (value, Some(name.name.clone()), *span),
            _ => return None,
        },
        _ => return None,
    };
    let Some(Callee::Builtin(Builtin::Atomic(op))) = checked.callees.get(&call.id) else {
        return None;
    };
    let ExprKind::Call { args, .. } = &call.kind else {
        return None;
    };
    let (place, operands) = args.split_first()?;
    let ExprKind::Index {
        base,
        indices,
        checked: is_checked,
    } = &place.kind
    else {
        return None;
    };
    let ExprKind::Name(array) = &base.kind else {
        return None;
    };
    let parts: Vec<&Expr> = indices.iter().chain(operands).collect();
    let per_element = matches!(checked.ty(call.id), Ty::Vector { .. }).then(|| {
        // The elements of the place's subscripts and of the operands; not a read of the place.
        let mut whole = stage(checked, call, None);
        whole.reads.clear();
        whole.collectives.clear();
        for part in &parts {
            let s = stage(checked, part, None);
            for read in s.reads {
                if !whole.reads.contains(&read) {
                    whole.reads.push(read);
                }
            }
            whole.collectives.extend(s.collectives);
        }
        whole
    });
    let uniform_reductions = parts
        .iter()
        .filter(|p| !matches!(checked.ty(p.id), Ty::Vector { .. } | Ty::Range))
        .flat_map(|p| reductions(checked, p))
        .collect();
    Some(Stmt::Atomic {
        op: *op,
        place: Element {
            array: array.name.clone(),
            checked: *is_checked,
            whole: false,
        },
        call: ExprRef::of(call),
        old,
        per_element,
        reductions: uniform_reductions,
        span,
    })
}
