//! Grid-wide collectives: `f /. grid(v, scratch)` and `f /: grid(v, scratch)` reduce or scan a
//! whole vector across every block of the launch in one statement (docs/language.md, "Grid-wide
//! reduce and scan"). This module checks where they may stand, after the kernel body was
//! checked: E0700 (placement), E0701 (a statement every block must reach), E0702 (the scratch
//! array), E0703 (the element type).
//!
//! Why these rules: the blocks coordinate through `scratch` (a ticket counter, a count of
//! finished blocks and one published word per block). A block that never reaches the statement
//! would leave the count short (the scratch array would not be reset for the next launch), and
//! a statement that runs twice in one launch would reuse a ticket counter that the first run has
//! not reset yet; so a grid-wide statement stands at the top level of a kernel without `return`,
//! and each has a scratch array of its own that nothing else touches. A block publishes its
//! aggregate and a flag in one 64-bit word, so the element type has at most 32 bits.

use super::ctx::FnCtx;
use super::error::{CheckError, GridError, Placement, ScratchProblem};
use super::types::{Scalar, Ty};
use super::{Builtin, Callee, Checked};
use crate::syntax::ast::{Block, CollectiveOp, Expr, ExprKind, Item, Stmt};
use crate::syntax::span::Span;
use crate::syntax::visit::visit_expr;

/// The grid-wide collective of `e` (one of a statement's expressions) and its `grid(...)`
/// call: the first collective whose operand is a call of the builtin `grid`.
pub fn find<'e>(checked: &Checked, e: &'e Expr) -> Option<(&'e Expr, &'e Expr)> {
    if let ExprKind::Collective { operand, .. } = &e.kind {
        if is_grid_call(checked, operand) {
            return Some((e, operand));
        }
    }
    children(e).into_iter().find_map(|c| find(checked, c))
}

/// The direct subexpressions of `e`.
pub fn children(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_) | ExprKind::Name(_) => vec![],
        ExprKind::Unary { operand, .. } => vec![operand],
        ExprKind::Binary { lhs, rhs, .. } => vec![lhs, rhs],
        ExprKind::Call { args, .. } => args.iter().collect(),
        ExprKind::Index { base, indices, .. } => {
            std::iter::once(&**base).chain(indices.iter()).collect()
        }
        ExprKind::Field { base, .. } => vec![base],
        ExprKind::Record { fields } => fields.iter().map(|f| &f.value).collect(),
        ExprKind::VectorLit { elems } => elems.iter().collect(),
        ExprKind::Collective { func, operand, .. } => func
            .bound_args
            .iter()
            .chain(std::iter::once(&**operand))
            .collect(),
    }
}

/// Whether `e` is a call of the builtin `grid`.
pub fn is_grid_call(checked: &Checked, e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Call { .. })
        && checked.callees.get(&e.id) == Some(&Callee::Builtin(Builtin::Grid))
}

/// The statement's expressions, in source order.
fn stmt_exprs(stmt: &Stmt) -> Vec<&Expr> {
    match stmt {
        Stmt::Let { init, .. } => init.iter().collect(),
        Stmt::Assign { target, value, .. } => vec![target, value],
        Stmt::If { cond, .. } | Stmt::While { cond, .. } => vec![cond],
        Stmt::For { range, .. } => vec![range],
        Stmt::Return { value, .. } => value.iter().collect(),
        Stmt::Call { call, .. } => vec![call],
    }
}

fn nested_blocks(stmt: &Stmt) -> Vec<&Block> {
    match stmt {
        Stmt::If {
            then_branch,
            else_branch,
            ..
        } => std::iter::once(then_branch)
            .chain(else_branch.iter())
            .collect(),
        Stmt::For { body, .. } | Stmt::While { body, .. } => vec![body],
        _ => vec![],
    }
}

/// A grid call found in a kernel body, with what the walk knows about it.
struct Found {
    call: Span,
    scratch: Option<(String, Span)>,
    stmt: Span,
    /// The enclosing compound statement, if any.
    inside: Option<Span>,
}

impl FnCtx<'_, '_> {
    fn is_grid(&self, e: &Expr) -> bool {
        matches!(e.kind, ExprKind::Call { .. })
            && self.cx.callees.get(&e.id) == Some(&Callee::Builtin(Builtin::Grid))
    }

    /// Checks every grid-wide collective of a kernel body (after the body was checked).
    pub(super) fn grid_collectives(&mut self, body: &Block) {
        let mut found = Vec::new();
        let mut returns = None;
        let mut names: Vec<(String, Span)> = Vec::new();
        self.grid_block(body, None, &mut found, &mut returns, &mut names);
        let mut seen: Vec<(String, Span)> = Vec::new();
        for f in &found {
            let because = f.inside.map(|s| (s, false)).or(returns.map(|r| (r, true)));
            if let Some((because, returns)) = because {
                self.error(CheckError::Grid(GridError::NotEveryBlock {
                    span: f.call,
                    because,
                    returns,
                }));
            }
            let Some((name, span)) = &f.scratch else {
                continue;
            };
            if let Some((_, first)) = seen.iter().find(|(n, _)| n == name) {
                self.error(CheckError::Grid(GridError::Scratch {
                    span: *span,
                    problem: ScratchProblem::UsedElsewhere,
                    other: Some(*first),
                    ty: String::new(),
                }));
                continue;
            }
            seen.push((name.clone(), *span));
            // Any other mention of the scratch array, outside the grid calls.
            if let Some((_, other)) = names.iter().find(|(n, s)| {
                n == name
                    && !found
                        .iter()
                        .any(|g| g.scratch.as_ref().is_some_and(|(_, gs)| gs == s))
            }) {
                self.error(CheckError::Grid(GridError::Scratch {
                    span: *other,
                    problem: ScratchProblem::UsedElsewhere,
                    other: Some(*span),
                    ty: String::new(),
                }));
            }
            let _ = f.stmt;
        }
    }

    fn grid_block(
        &mut self,
        block: &Block,
        inside: Option<Span>,
        found: &mut Vec<Found>,
        returns: &mut Option<Span>,
        names: &mut Vec<(String, Span)>,
    ) {
        for stmt in &block.stmts {
            if let Stmt::Return { span, .. } = stmt {
                returns.get_or_insert(*span);
            }
            for e in stmt_exprs(stmt) {
                visit_expr(e, &mut |x| {
                    if let ExprKind::Name(id) = &x.kind {
                        names.push((id.name.clone(), id.span));
                    }
                });
            }
            self.grid_stmt(stmt, inside, found);
            let here = Some(inside.unwrap_or(stmt.span()));
            for b in nested_blocks(stmt) {
                self.grid_block(b, here, found, returns, names);
            }
        }
    }

    /// The grid calls of one statement (not of its nested blocks): placement, scratch, type.
    fn grid_stmt(&mut self, stmt: &Stmt, inside: Option<Span>, found: &mut Vec<Found>) {
        let exprs = stmt_exprs(stmt);
        let mut calls: Vec<&Expr> = Vec::new();
        for e in &exprs {
            collect_calls(e, &mut calls);
        }
        let calls: Vec<&Expr> = calls.into_iter().filter(|c| self.is_grid(c)).collect();
        if calls.is_empty() {
            return;
        }
        let mut placed = 0usize;
        for call in &calls {
            let mut parents = Vec::new();
            let path = exprs.iter().find_map(|root| {
                parents.clear();
                path_to(root, call.id, &mut parents).then(|| parents.clone())
            });
            let parents: Vec<&Expr> = path.unwrap_or_default();
            let reason = self.grid_placement(stmt, &parents);
            if let Err(reason) = reason {
                self.error(CheckError::Grid(GridError::Placement {
                    span: call.span,
                    reason,
                }));
                continue;
            }
            placed += 1;
            let mut local = None;
            // The scratch argument is checked on its own (E0702).
            let scratch_ids: Vec<_> = calls
                .iter()
                .filter_map(|c| match &c.kind {
                    ExprKind::Call { args, .. } => args.get(1).map(|a| a.id),
                    _ => None,
                })
                .collect();
            for e in &exprs {
                visit_expr(e, &mut |x| {
                    if scratch_ids.contains(&x.id) {
                        return;
                    }
                    if let ExprKind::Name(id) = &x.kind {
                        let block_local = match &self.cx.expr_types[x.id.0 as usize] {
                            Ty::Vector { .. } => true,
                            Ty::Array { space, .. } => *space != super::types::Space::Global,
                            _ => false,
                        };
                        if block_local && local.is_none() {
                            local = Some(id.span);
                        }
                    }
                });
            }
            if let Some(span) = local {
                self.error(CheckError::Grid(GridError::Placement {
                    span,
                    reason: Placement::BlockLocal,
                }));
                continue;
            }
            if placed > 1 {
                self.error(CheckError::Grid(GridError::Placement {
                    span: call.span,
                    reason: Placement::NotAlone,
                }));
                continue;
            }
            // Any other scan in the statement would be cut at the blocks' chunks.
            let mut other_scan = None;
            for e in &exprs {
                visit_expr(e, &mut |x| {
                    if let ExprKind::Collective {
                        op: CollectiveOp::ScanLeft | CollectiveOp::ScanRight,
                        operand,
                        ..
                    } = &x.kind
                    {
                        if operand.id != call.id && other_scan.is_none() {
                            other_scan = Some(x.span);
                        }
                    }
                });
            }
            if let Some(span) = other_scan {
                self.error(CheckError::Grid(GridError::Placement {
                    span,
                    reason: Placement::NotAlone,
                }));
            }
            if let Some(collective) = parents.last() {
                let elem = self.cx.expr_types[collective.id.0 as usize]
                    .element()
                    .clone();
                let ok = match &elem {
                    Ty::Scalar(s) => s.bits() <= 32 || *s == Scalar::Bool,
                    Ty::Error => true,
                    _ => false,
                };
                if !ok {
                    let ty = elem.display(&self.cx.records).to_string();
                    self.error(CheckError::Grid(GridError::ElementType {
                        span: collective.span,
                        ty,
                    }));
                }
            }
            let scratch = self.grid_scratch(call);
            found.push(Found {
                call: call.span,
                scratch,
                stmt: stmt.span(),
                inside,
            });
        }
    }

    /// Where a grid call may stand: `parents` runs from the statement's expression down to the
    /// call's parent.
    fn grid_placement(&self, stmt: &Stmt, parents: &[&Expr]) -> Result<(), Placement> {
        let Some(collective) = parents.last() else {
            return Err(Placement::NotAnOperand);
        };
        let ExprKind::Collective { op, operand, .. } = &collective.kind else {
            return Err(Placement::NotAnOperand);
        };
        if !self.is_grid(operand) {
            // A bound argument of a collective.
            return Err(Placement::NotAnOperand);
        }
        match op {
            CollectiveOp::Reduce | CollectiveOp::ScanLeft => {}
            other => return Err(Placement::WrongCollective(*other)),
        }
        let outer = &parents[..parents.len() - 1];
        if outer
            .iter()
            .any(|p| matches!(p.kind, ExprKind::Collective { .. }))
        {
            return Err(Placement::Nested);
        }
        let Stmt::Assign { target, value, .. } = stmt else {
            return Err(if *op == CollectiveOp::Reduce {
                Placement::ReduceNotStored
            } else {
                Placement::ScanNotStored
            });
        };
        let target_ty = &self.cx.expr_types[target.id.0 as usize];
        let vector_target = matches!(target_ty, Ty::Vector { .. } | Ty::Array { .. });
        if *op == CollectiveOp::Reduce {
            let stored = value.id == collective.id
                && matches!(target.kind, ExprKind::Index { .. })
                && !vector_target;
            if !stored {
                return Err(Placement::ReduceNotStored);
            }
        } else if !vector_target {
            return Err(Placement::ScanNotStored);
        }
        Ok(())
    }

    /// The scratch argument of `grid(v, scratch)`: a kernel parameter `UInt64[BLOCKS + 2]`.
    fn grid_scratch(&mut self, call: &Expr) -> Option<(String, Span)> {
        let ExprKind::Call { args, .. } = &call.kind else {
            return None;
        };
        let arg = args.get(1)?;
        let param = match (&arg.kind, self.cx.program.items.get(self.item)) {
            (ExprKind::Name(id), Some(Item::Kernel(k))) => {
                k.params.iter().find(|p| p.name.name == id.name).cloned()
            }
            _ => None,
        };
        let Some(param) = param else {
            self.error(CheckError::Grid(GridError::Scratch {
                span: arg.span,
                problem: ScratchProblem::NotAParameter,
                other: None,
                ty: String::new(),
            }));
            return None;
        };
        let ty = self.cx.expr_types[arg.id.0 as usize].clone();
        let right_type = matches!(&ty, Ty::Array { elem, dims, .. }
            if **elem == Ty::Scalar(Scalar::UInt64) && dims.len() == 1);
        if !right_type {
            if !ty.is_error() {
                let shown = ty.display(&self.cx.records).to_string();
                self.error(CheckError::Grid(GridError::Scratch {
                    span: arg.span,
                    problem: ScratchProblem::WrongType,
                    other: None,
                    ty: shown,
                }));
            }
            return None;
        }
        let right_length = match &param.ty {
            crate::syntax::ast::TypeExpr::Array { dims, .. } => dims
                .first()
                .and_then(|d| super::fold::linear(d, &self.cx.consts))
                .is_some_and(|l| {
                    l.constant == 2
                        && l.terms
                            == llvm_passes::affine::Combination::term("BLOCKS".to_string(), 1)
                }),
            _ => false,
        };
        if !right_length {
            let span = match &param.ty {
                crate::syntax::ast::TypeExpr::Array { span, .. } => *span,
                _ => param.span,
            };
            self.error(CheckError::Grid(GridError::Scratch {
                span,
                problem: ScratchProblem::WrongLength,
                other: Some(arg.span),
                ty: String::new(),
            }));
        }
        Some((param.name.name.clone(), arg.span))
    }
}

/// Pushes the ancestors of expression `id` inside `e` (from `e` down) and says whether it found it.
fn path_to<'e>(e: &'e Expr, id: crate::syntax::ast::ExprId, out: &mut Vec<&'e Expr>) -> bool {
    if e.id == id {
        return true;
    }
    out.push(e);
    for child in children(e) {
        if path_to(child, id, out) {
            return true;
        }
    }
    out.pop();
    false
}

fn collect_calls<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    if matches!(e.kind, ExprKind::Call { .. }) {
        out.push(e);
    }
    for child in children(e) {
        collect_calls(child, out);
    }
}
