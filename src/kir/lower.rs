//! `kir-lower`: the checked program to kernel IR. Structure only: what each statement does at
//! block level, which arrays it touches and how, which collectives it holds. Nothing is decided
//! here; the passes after it decide.

use super::stage::{is_vector, reductions, stage, total_len};
use super::{Element, ExprRef, Kernel, Module, Param, Stmt, Subscript};
use crate::check::types::Ty;
use crate::check::Checked;
use crate::syntax::ast::{Block, Expr, ExprKind, Item, KernelDecl, TypeExpr};

pub fn module(checked: &Checked) -> Module {
    let kernels = checked
        .kernels
        .iter()
        .filter_map(|facts| match checked.program.items.get(facts.item) {
            Some(Item::Kernel(decl)) => Some(kernel(
                checked,
                facts.item,
                (facts.block_size, facts.block_rows),
                decl,
            )),
            _ => None,
        })
        .collect();
    Module {
        kernels,
        fast_math: false,
    }
}

fn kernel(
    checked: &Checked,
    item: usize,
    (block_size, block_rows): (u32, u32),
    decl: &KernelDecl,
) -> Kernel {
    let params = decl
        .params
        .iter()
        .map(|p| Param {
            name: p.name.name.clone(),
            span: p.name.span,
            ty_span: p.ty.span(),
            array: matches!(p.ty, TypeExpr::Array { .. }),
            written: None,
            scratch: p.scratch.then(|| p.ty.made_text()),
        })
        .collect();
    Kernel {
        name: decl.name.name.clone(),
        item,
        span: decl.name.span,
        block_size,
        block_rows,
        grid_2d: None,
        params,
        body: block(checked, &decl.body),
        register_vectors: None,
        recomputed_vectors: None,
        indexed_copies: None,
        sweeps: None,
        collectives: None,
        merged_guards: None,
        store_orders: None,
        barriers: None,
        shared_arrays: None,
        limits: Vec::new(),
    }
}

fn block(checked: &Checked, block: &Block) -> Vec<Stmt> {
    block.stmts.iter().map(|s| stmt(checked, s)).collect()
}

fn stmt(checked: &Checked, stmt: &crate::syntax::ast::Stmt) -> Stmt {
    use crate::syntax::ast::Stmt as Ast;
    if let Ast::Assign {
        target,
        value,
        span,
    } = stmt
    {
        let found = crate::check::grid::find(checked, value)
            .or_else(|| crate::check::grid::find(checked, target));
        if let Some((collective, call)) = found {
            return grid(checked, stmt, collective, call, *span);
        }
    }
    plain_stmt(checked, stmt)
}

/// A grid-wide statement (`check/grid.rs` accepted it): the statement itself, wrapped with
/// its collective, its scratch array and the stage that reduces a block's chunk.
fn grid(
    checked: &Checked,
    stmt: &crate::syntax::ast::Stmt,
    collective: &Expr,
    call: &Expr,
    span: crate::syntax::span::Span,
) -> Stmt {
    let (op, args) = match (&collective.kind, &call.kind) {
        (ExprKind::Collective { op, .. }, ExprKind::Call { args, .. }) => (*op, &args[..]),
        _ => return plain_stmt(checked, stmt),
    };
    let (Some(operand), Some(scratch)) = (args.first(), args.get(1)) else {
        return plain_stmt(checked, stmt);
    };
    Stmt::Grid {
        op,
        collective: ExprRef::of(collective),
        scratch: root_name(scratch),
        aggregate: stage(checked, operand, None),
        stmt: Box::new(plain_stmt(checked, stmt)),
        span,
    }
}

fn plain_stmt(checked: &Checked, stmt: &crate::syntax::ast::Stmt) -> Stmt {
    use crate::syntax::ast::Stmt as Ast;
    if let Some(atomic) = super::atomic::lower(checked, stmt) {
        return atomic;
    }
    match stmt {
        Ast::Let {
            name,
            init,
            shared,
            span,
            ..
        } => match checked.locals.get(&name.span) {
            Some(Ty::Array { dims, .. }) => Stmt::Vector {
                name: name.name.clone(),
                name_span: name.span,
                shared: *shared,
                len: total_len(dims),
                init: init.as_ref().map(|e| stage(checked, e, None)),
                span: *span,
            },
            _ => Stmt::Scalar {
                name: name.name.clone(),
                init: init.as_ref().map(ExprRef::of),
                span: *span,
            },
        },
        Ast::Assign {
            target,
            value,
            span,
        } => {
            if let Some((target, subscripts)) = scatter_target(checked, target) {
                Stmt::Scatter {
                    target,
                    subscripts,
                    stage: stage(checked, value, None),
                    span: *span,
                }
            } else if is_vector(checked.ty(target.id)) {
                Stmt::VectorStore {
                    target: element(target).unwrap_or(Element {
                        array: root_name(target),
                        checked: false,
                        whole: true,
                    }),
                    stage: stage(checked, value, None),
                    span: *span,
                }
            } else {
                Stmt::Uniform {
                    target: root_name(target),
                    memory: element(target),
                    value: ExprRef::of(value),
                    reductions: reductions(checked, value),
                    span: *span,
                }
            }
        }
        Ast::If {
            cond,
            then_branch,
            else_branch,
            span,
        } => Stmt::If {
            cond: ExprRef::of(cond),
            then_body: block(checked, then_branch),
            else_body: else_branch
                .as_ref()
                .map(|b| block(checked, b))
                .unwrap_or_default(),
            span: *span,
        },
        Ast::For {
            var,
            range,
            body,
            span,
            ..
        } => Stmt::For {
            var: var.name.clone(),
            range: ExprRef::of(range),
            body: block(checked, body),
            sequential: None,
            span: *span,
        },
        Ast::While { cond, body, span } => Stmt::While {
            cond: ExprRef::of(cond),
            body: block(checked, body),
            span: *span,
        },
        Ast::Return { span, .. } => Stmt::Return { span: *span },
        // The checker accepts only atomics as calls on their own line (lowered above).
        Ast::Call { span, .. } => Stmt::Return { span: *span },
    }
}

/// A vector assignment's target whose positions are computed per element: a vector among its
/// subscripts, or a range that is not the last one (a column). The other vector targets (a
/// whole array, `a[r]`, a row `a[i]`, `a[i, r]`) are contiguous: a `VectorStore`.
fn scatter_target(checked: &Checked, target: &Expr) -> Option<(Element, Vec<Subscript>)> {
    let ExprKind::Index {
        base,
        indices,
        checked: c,
    } = &target.kind
    else {
        return None;
    };
    if !is_vector(checked.ty(target.id)) {
        return None;
    }
    if let (Some((_, cols)), [rows_range, cols_range]) =
        (checked.ty(target.id).tile_shape(), indices.as_slice())
    {
        // A two-dimensional slice `a[r, s]`: row `r.start + k / cols`, column
        // `s.start + k % cols`.
        if *checked.ty(rows_range.id) == Ty::Range && *checked.ty(cols_range.id) == Ty::Range {
            return Some((
                Element {
                    array: root_name(base),
                    checked: *c,
                    whole: false,
                },
                vec![
                    Subscript::TileRows {
                        range: ExprRef::of(rows_range),
                        cols,
                    },
                    Subscript::TileCols {
                        range: ExprRef::of(cols_range),
                        cols,
                    },
                ],
            ));
        }
    }
    let last = indices.len().checked_sub(1)?;
    let contiguous = indices
        .iter()
        .enumerate()
        .all(|(d, index)| match checked.ty(index.id) {
            Ty::Range => d == last,
            ty => !is_vector(ty),
        });
    if contiguous {
        return None;
    }
    let subscripts = indices
        .iter()
        .map(|index| match checked.ty(index.id) {
            Ty::Range => Subscript::Range(ExprRef::of(index)),
            ty if is_vector(ty) => Subscript::Vector(stage(checked, index, None)),
            _ => Subscript::Uniform(ExprRef::of(index)),
        })
        .collect();
    Some((
        Element {
            array: root_name(base),
            checked: *c,
            whole: false,
        },
        subscripts,
    ))
}

/// The array an indexed place writes (`a[i]`, `a[[r]]`, `a[i].f`).
fn element(target: &Expr) -> Option<Element> {
    let mut place = target;
    loop {
        match &place.kind {
            ExprKind::Field { base, .. } => place = base,
            ExprKind::Index { base, checked, .. } => {
                return Some(Element {
                    array: root_name(base),
                    checked: *checked,
                    whole: false,
                })
            }
            _ => return None,
        }
    }
}

/// The variable a place belongs to (`x`, `a` of `a[i].f`).
fn root_name(place: &Expr) -> String {
    match &place.kind {
        ExprKind::Name(name) => name.name.clone(),
        ExprKind::Index { base, .. } | ExprKind::Field { base, .. } => root_name(base),
        _ => String::from("?"),
    }
}
