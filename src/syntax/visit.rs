//! Walks over the AST that several lowerings need (which funcs are used, which variables a loop
//! assigns, which vector variables are indexed).

use crate::syntax::ast::{Block, Expr, ExprKind, Stmt};

/// Calls `f` on `expr` and every expression inside it.
pub fn visit_expr<'e>(expr: &'e Expr, f: &mut dyn FnMut(&'e Expr)) {
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
            Stmt::Call { call, .. } => visit_expr(call, f),
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
