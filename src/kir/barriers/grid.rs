//! `kir-barriers` on a grid-wide statement (`kir::Stmt::Grid`), as code generation makes it
//! (`codegen/grid.rs`, `Body::grid_stmt`): the collective's bound arguments computed, the
//! ticket broadcast from thread 0 through a `shared`
//! slot (its write, then every thread's read: a barrier between them), the operand `v` of
//! `grid(v, scratch)` prepared, the chunk's aggregate (a reduction over a run-time number of
//! positions), the prefix broadcast like the ticket, then the statement itself: a reduce's
//! total stored by thread 0 (the collective is a value by then, with no access of its own), a
//! scan's statement over the chunk (its operand prepared already, its bound arguments computed
//! again where the statement prepares its value). The look-back and the finish
//! touch only `scratch`, through atomics and thread 0's stores, which barrier placement does
//! not follow (they order themselves across blocks).

use super::{shown_name, Placer, Step};
use crate::kir::access::{Access, AccessKind, Who};
use crate::kir::affine::Poly;
use crate::kir::consumers::{is_vector, Walk};
use crate::syntax::ast::{CollectiveOp, Expr, ExprKind, FuncRef};
use crate::syntax::span::Span;

/// The parts of a grid-wide statement's collective `f /. grid(v, scratch)`.
struct GridParts<'e> {
    collective: &'e Expr,
    func: &'e FuncRef,
    call: &'e Expr,
    operand: &'e Expr,
    scan: bool,
}

fn parts<'e>(walk: &Walk<'_>, target: &'e Expr, value: &'e Expr) -> Option<GridParts<'e>> {
    let checked = walk.checked;
    let (collective, call) = crate::check::grid::find(checked, value)
        .or_else(|| crate::check::grid::find(checked, target))?;
    let (ExprKind::Collective { op, func, .. }, ExprKind::Call { args, .. }) =
        (&collective.kind, &call.kind)
    else {
        return None;
    };
    let [operand, scratch] = args.as_slice() else {
        return None;
    };
    // The scratch array is found by name (a row's subscript would be computed first).
    if !matches!(scratch.kind, ExprKind::Name(_)) {
        return None;
    }
    Some(GridParts {
        collective,
        func,
        call,
        operand,
        scan: *op != CollectiveOp::Reduce,
    })
}

impl Placer {
    /// Grid-wide statement `target <- value` at `span`, made.
    pub(super) fn grid_statement(
        &mut self,
        walk: &Walk<'_>,
        target: &Expr,
        value: &Expr,
        span: Span,
    ) {
        let Some(grid) = parts(walk, target, value) else {
            return self.uncover(span, "a grid-wide statement");
        };
        let mut steps = Vec::new();
        match self.chunk_steps(walk, &grid, span, &mut steps) {
            Ok(()) => self.steps(steps),
            Err(why) => return self.uncover(span, why),
        }
        // The statement, with the collective's value known (a reduce) or its operand prepared
        // (a scan): `Body::assign` as for any statement.
        if grid.scan {
            if !is_vector(walk.checked.ty(target.id)) {
                return self.uncover(span, "a grid-wide scan into a scalar");
            }
            self.grid_window = Some((grid.call.id, grid.collective.id));
            self.prepare_assign(walk, target, value, span);
            if self.uncovered.is_none() {
                let scatter = walk.is_scatter(span);
                self.store(walk, span, target, value, scatter);
            }
            self.grid_window = None;
        } else {
            if is_vector(walk.checked.ty(target.id)) {
                return self.uncover(span, "a grid-wide reduce in a vector statement");
            }
            self.grid_total = Some(grid.collective.id);
            self.scalar_assign(walk, target, value, span);
            self.grid_total = None;
        }
    }

    /// The steps before the statement itself: the collective's bound arguments, computed for
    /// the aggregate and the look-back (a scan's statement computes them again where it
    /// prepares its value, `vector_steps`; a reduce's total is a value by then), the ticket,
    /// the operand prepared, the chunk's aggregate, the prefix.
    fn chunk_steps(
        &self,
        walk: &Walk<'_>,
        grid: &GridParts<'_>,
        span: Span,
        out: &mut Vec<Step>,
    ) -> Result<(), &'static str> {
        self.bound_args(
            walk,
            grid.func,
            "a grid-wide statement with a bound array",
            out,
        )?;
        broadcast("grid.ticket", grid.collective, span, out);
        self.vector_steps(walk, grid.operand, out)?;
        self.reduction_sweep(walk, grid.collective, grid.operand, None, out)?;
        broadcast("grid.prefix", grid.collective, span, out);
        Ok(())
    }
}

/// A value thread 0 computes and every thread reads (`Body::leader_broadcast`): thread 0's
/// write of a one-element `shared` slot, then every thread's read of it, each announced on its
/// own.
fn broadcast(what: &str, collective: &Expr, span: Span, out: &mut Vec<Step>) {
    let array = format!("{what}#{}", collective.id.0);
    let access = |kind, who| Access {
        name: shown_name(&array),
        array: array.clone(),
        kind,
        who,
        span,
    };
    let zero = Some(Poly::constant(0));
    out.push(Step::Touch(vec![access(
        AccessKind::Write,
        Who::Leader(zero.clone()),
    )]));
    out.push(Step::Touch(vec![access(AccessKind::Read, Who::All(zero))]));
}
