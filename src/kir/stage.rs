//! How a vector expression becomes a stage of the kernel IR: its length, the arrays it reads
//! and how, its collectives; and the reductions of a uniform expression as stages of their own.
//! Shared by the statements' lowering (`lower.rs`) and the atomics' (`atomic.rs`).

use super::{Collective, Element, ExprRef, Stage};
use crate::check::types::{Len, Ty};
use crate::check::Checked;
use crate::syntax::ast::{CollectiveOp, Expr, ExprKind};
use crate::syntax::visit::visit_expr;

pub(super) fn is_vector(ty: &Ty) -> bool {
    matches!(ty, Ty::Vector { .. } | Ty::Array { .. })
}

/// The number of elements of an array of these dimensions, when every one is known.
pub(super) fn total_len(dims: &[Len]) -> Len {
    dims.iter()
        .try_fold(1u64, |acc, d| match d {
            Len::Static(n) => acc.checked_mul(*n),
            Len::Dynamic => None,
        })
        .map_or(Len::Dynamic, Len::Static)
}

/// The stage of vector expression `e`; `reduce`: the reduction that consumes it.
pub(super) fn stage(checked: &Checked, e: &Expr, reduce: Option<&Expr>) -> Stage {
    let len = match checked.ty(e.id) {
        Ty::Vector { len, .. } => *len,
        Ty::Array { dims, .. } => total_len(dims),
        Ty::Range => checked
            .range_lens
            .get(&e.id)
            .copied()
            .unwrap_or(Len::Dynamic),
        _ => Len::Dynamic,
    };
    let cols = checked.ty(e.id).tile_shape().map(|(_, c)| c);
    let mut reads = Vec::new();
    let mut collectives = Vec::new();
    visit_expr(e, &mut |x| match &x.kind {
        ExprKind::Index {
            base, checked: c, ..
        } => {
            if let ExprKind::Name(name) = &base.kind {
                reads.push(Element {
                    array: name.name.clone(),
                    checked: *c,
                    whole: false,
                });
            }
        }
        ExprKind::Name(name)
            if is_vector(checked.ty(x.id))
                && !reads.iter().any(|r: &Element| r.array == name.name) =>
        {
            reads.push(Element {
                array: name.name.clone(),
                checked: false,
                whole: true,
            });
        }
        ExprKind::Collective { op, .. } if *op != CollectiveOp::Reduce => {
            collectives.push(Collective {
                op: *op,
                expr: ExprRef::of(x),
            })
        }
        _ => {}
    });
    // An array named as the base of an index is read through the index, not as a whole.
    let indexed: Vec<String> = reads
        .iter()
        .filter(|r| !r.whole)
        .map(|r| r.array.clone())
        .collect();
    reads.retain(|r| !r.whole || !indexed.contains(&r.array));
    if let Some(r) = reduce {
        collectives.push(Collective {
            op: CollectiveOp::Reduce,
            expr: ExprRef::of(r),
        });
    }
    Stage {
        expr: ExprRef::of(e),
        len,
        cols,
        reads,
        collectives,
    }
}

/// The reductions of a uniform expression, each with the stage of its operand, innermost
/// first.
pub(super) fn reductions(checked: &Checked, e: &Expr) -> Vec<Stage> {
    let mut found = Vec::new();
    visit_expr(e, &mut |x| {
        if let ExprKind::Collective {
            op: CollectiveOp::Reduce,
            operand,
            ..
        } = &x.kind
        {
            found.push(stage(checked, operand, Some(x)));
        }
    });
    found.reverse();
    found
}
