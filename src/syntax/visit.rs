//! Walks over the AST that several lowerings need (which funcs are used, which variables a loop
//! assigns, which vector variables are indexed).

use crate::syntax::ast::{Block, CollectiveOp, Expr, ExprKind, Item, Stmt, TypeExpr};

/// Calls `f` on `expr` and every expression inside it.
pub fn visit_expr<'e>(expr: &'e Expr, f: &mut dyn FnMut(&'e Expr)) {
    f(expr);
    each_child(expr, &mut |c| visit_expr(c, f));
}

/// The scans inside vector expression `e`, in pre-order, not those inside a reduction (which
/// sweeps on its own): the scans a consumer's sweep computes (code generation's `scan.rs`, and
/// `kir-barriers`, which follows it).
pub fn scans_in<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    scans_in_skipping(e, &|_| false, &|_| None, out);
}

/// The scans a sweep over vector expression `e` computes, in pre-order: [`scans_in`], less
/// those inside an indexed computed vector (`is_copy` of its base: `kir-indexed-copies` stores
/// it into a `shared` copy before the statement, and that copy's sweep computes them), but not
/// less those in its subscripts. A name for which `initializer` gives an expression (a vector
/// evaluated again at each use, in a program where uses are not yet replaced by it) stands for
/// that expression's scans. `kir-collectives` (the tiles each scan is computed in),
/// `kir-barriers` (their partials and barriers) and code generation (`codegen/scan.rs`) take
/// the scans of a sweep from here.
pub fn scans_in_skipping<'e>(
    e: &'e Expr,
    is_copy: &dyn Fn(&Expr) -> bool,
    initializer: &dyn Fn(&str) -> Option<&'e Expr>,
    out: &mut Vec<&'e Expr>,
) {
    match &e.kind {
        ExprKind::Collective {
            op: CollectiveOp::Reduce,
            ..
        } => return,
        ExprKind::Collective {
            op: CollectiveOp::ScanLeft | CollectiveOp::ScanRight,
            ..
        } => out.push(e),
        ExprKind::Index { base, indices, .. } if is_copy(base) => {
            for index in indices {
                scans_in_skipping(index, is_copy, initializer, out);
            }
            return;
        }
        ExprKind::Name(name) => {
            if let Some(init) = initializer(&name.name) {
                scans_in_skipping(init, is_copy, initializer, out);
            }
        }
        _ => {}
    }
    each_child(e, &mut |c| scans_in_skipping(c, is_copy, initializer, out));
}

/// Calls `f` on each expression directly inside `expr`, in source order.
pub fn each_child<'e>(expr: &'e Expr, f: &mut dyn FnMut(&'e Expr)) {
    match &expr.kind {
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_) | ExprKind::Name(_) => {}
        ExprKind::Unary { operand, .. } => f(operand),
        ExprKind::Binary { lhs, rhs, .. } => {
            f(lhs);
            f(rhs);
        }
        ExprKind::Call { args, .. } => args.iter().for_each(f),
        ExprKind::Index { base, indices, .. } => {
            f(base);
            indices.iter().for_each(f);
        }
        ExprKind::Field { base, .. } => f(base),
        ExprKind::Record { fields } => fields.iter().for_each(|fi| f(&fi.value)),
        ExprKind::VectorLit { elems } => elems.iter().for_each(f),
        ExprKind::Collective { func, operand, .. } => {
            func.bound_args.iter().for_each(&mut *f);
            f(operand);
        }
    }
}

/// [`each_child`], each child mutably.
pub fn each_child_mut(expr: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    match &mut expr.kind {
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_) | ExprKind::Name(_) => {}
        ExprKind::Unary { operand, .. } => f(operand),
        ExprKind::Binary { lhs, rhs, .. } => {
            f(lhs);
            f(rhs);
        }
        ExprKind::Call { args, .. } => args.iter_mut().for_each(f),
        ExprKind::Index { base, indices, .. } => {
            f(base);
            indices.iter_mut().for_each(f);
        }
        ExprKind::Field { base, .. } => f(base),
        ExprKind::Record { fields } => fields.iter_mut().for_each(|fi| f(&mut fi.value)),
        ExprKind::VectorLit { elems } => elems.iter_mut().for_each(f),
        ExprKind::Collective { func, operand, .. } => {
            func.bound_args.iter_mut().for_each(&mut *f);
            f(operand);
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
            Stmt::Call { call, .. } => visit_expr(call, f),
        }
    }
}

pub fn visit_type_dims(ty: &TypeExpr, f: &mut dyn FnMut(&Expr)) {
    match ty {
        TypeExpr::Named { .. } => {}
        TypeExpr::Record { fields, .. } => fields.iter().for_each(|fi| visit_type_dims(&fi.ty, f)),
        TypeExpr::Array { elem, dims, .. } => {
            visit_type_dims(elem, f);
            dims.iter().for_each(|d| visit_expr(d, f));
        }
    }
}

/// Calls `f` on every expression of `item`, however nested, the array dimensions of its types
/// included (the standard library's parsed items take their expression ids this way,
/// `crate::stdlib::parsed`).
pub fn each_expr_in_item_mut(item: &mut Item, f: &mut dyn FnMut(&mut Expr)) {
    let (params, ret, body) = match item {
        Item::Func(func) => (&mut func.params, func.ret.as_mut(), &mut func.body),
        Item::Kernel(kernel) => (&mut kernel.params, None, &mut kernel.body),
        Item::TypeAlias(alias) => return each_expr_in_type_mut(&mut alias.ty, f),
    };
    params
        .iter_mut()
        .for_each(|param| each_expr_in_type_mut(&mut param.ty, f));
    ret.into_iter().for_each(|ty| each_expr_in_type_mut(ty, f));
    each_expr_in_block_mut(body, f);
}

fn each_expr_in_block_mut(block: &mut Block, f: &mut dyn FnMut(&mut Expr)) {
    for stmt in &mut block.stmts {
        match stmt {
            Stmt::Let { ty, init, .. } => {
                each_expr_in_type_mut(ty, f);
                init.iter_mut().for_each(|init| each_expr_mut(init, f));
            }
            Stmt::Assign { target, value, .. } => {
                each_expr_mut(target, f);
                each_expr_mut(value, f);
            }
            Stmt::If {
                cond,
                then_branch,
                else_branch,
                ..
            } => {
                each_expr_mut(cond, f);
                each_expr_in_block_mut(then_branch, f);
                else_branch
                    .iter_mut()
                    .for_each(|block| each_expr_in_block_mut(block, f));
            }
            Stmt::For {
                ty, range, body, ..
            } => {
                each_expr_in_type_mut(ty, f);
                each_expr_mut(range, f);
                each_expr_in_block_mut(body, f);
            }
            Stmt::While { cond, body, .. } => {
                each_expr_mut(cond, f);
                each_expr_in_block_mut(body, f);
            }
            Stmt::Return { value, .. } => value.iter_mut().for_each(|v| each_expr_mut(v, f)),
            Stmt::Call { call, .. } => each_expr_mut(call, f),
        }
    }
}

fn each_expr_in_type_mut(ty: &mut TypeExpr, f: &mut dyn FnMut(&mut Expr)) {
    match ty {
        TypeExpr::Named { .. } => {}
        TypeExpr::Record { fields, .. } => fields
            .iter_mut()
            .for_each(|field| each_expr_in_type_mut(&mut field.ty, f)),
        TypeExpr::Array { elem, dims, .. } => {
            each_expr_in_type_mut(elem, f);
            dims.iter_mut().for_each(|dim| each_expr_mut(dim, f));
        }
    }
}

fn each_expr_mut(expr: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    f(expr);
    each_child_mut(expr, &mut |child| each_expr_mut(child, f));
}
