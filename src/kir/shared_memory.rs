//! `kir-shared-memory`: every array a kernel keeps in shared memory, and its size, before code
//! generation: the user's `shared` arrays and the vector variables that do not live in
//! registers, the copies of indexed computed vectors (`kir-indexed-copies`), and the scratch
//! buffers of the collectives: a reduction's or a scan's partials, as `kir-collectives` planned
//! them (one slot per warp, double-buffered for an unrolled sweep's slots, when the block has
//! more than one warp), the one-element slot through which thread 0 broadcasts an atomic's old
//! value, a grid-wide statement's ticket and prefix. A recomputed vector variable's collectives
//! are counted at each use, where code generation evaluates its initializer.
//!
//! The driver checks the total against the target's static limit (E0812) before code
//! generation; code generation allocates the same arrays and checks that its total is this one
//! (a difference is a loomc bug).
//!
//! Sizes are the NVPTX data layout's: a `Bool` is a byte, a `Range` two `Int32`s, a record its
//! fields at their natural alignment; every array is aligned to 16 bytes, so each takes its size
//! rounded up to 16.

use super::consumers::{self, Name, Visitor, Walk};
use super::{CollectivePlan, Module, SharedArray};
use crate::check::types::{Len, RecordTable, Scalar, Ty};
use crate::check::Checked;
use crate::syntax::ast::{CollectiveOp, Expr, ExprId, ExprKind, Stmt as Ast};
use crate::syntax::span::Span;
use std::collections::BTreeMap;

pub fn run(module: &mut Module, checked: &Checked) {
    for kernel in &mut module.kernels {
        let mut counter = Counter {
            arrays: Vec::new(),
            collectives: kernel.collectives.clone().unwrap_or_default(),
        };
        consumers::walk(kernel, checked, &mut counter);
        kernel.shared_arrays = Some(counter.arrays);
    }
}

struct Counter {
    arrays: Vec<SharedArray>,
    /// `kir-collectives`' plans: which collectives have shared partials, and how many slots.
    collectives: BTreeMap<Span, CollectivePlan>,
}

impl<'a> Visitor<'a> for Counter {
    fn statement(&mut self, walk: &Walk<'a>, stmt: &'a Ast) {
        match stmt {
            Ast::Let {
                name, init, span, ..
            } => {
                let var = walk.checked.locals.get(&name.span);
                let is_recomputed = walk.is_recomputed(name.span);
                if let (Some(Ty::Array { elem, dims, .. }), false, false) =
                    (var, walk.is_register_vector(name.span), is_recomputed)
                {
                    let count = dims.iter().try_fold(1u64, |acc, d| match d {
                        Len::Static(n) => Some(acc.saturating_mul(*n)),
                        Len::Dynamic => None,
                    });
                    if let Some(count) = count {
                        self.array(walk, &name.name, elem, count, *span);
                    }
                }
                // A recomputed variable's initializer is evaluated where it is used.
                if let (Some(init), false) = (init, is_recomputed) {
                    self.collectives(walk, init, None);
                }
                self.kept_atomic(walk, init.as_ref(), *span);
            }
            Ast::Assign {
                target,
                value,
                span,
            } => {
                let grid = walk.grid_collective(*span);
                if let Some(collective) = grid {
                    self.grid(walk, collective, target, value, *span);
                }
                self.collectives(walk, target, grid);
                self.collectives(walk, value, grid);
                self.kept_atomic(walk, Some(value), *span);
            }
            Ast::If { cond, .. } | Ast::While { cond, .. } => self.collectives(walk, cond, None),
            Ast::For { range, .. } => self.collectives(walk, range, None),
            Ast::Return { value, .. } => {
                if let Some(v) = value {
                    self.collectives(walk, v, None);
                }
            }
            Ast::Call { call, .. } => self.collectives(walk, call, None),
        }
    }
}

impl Counter {
    /// The slots of the shared partials `kir-collectives` gave the collective at `span`.
    fn partials(&self, span: Span) -> Option<u64> {
        let plan = self.collectives.get(&span)?;
        plan.partials.map(u64::from)
    }

    fn array(&mut self, walk: &Walk<'_>, name: &str, elem: &Ty, count: u64, span: Span) {
        let bytes =
            layout(elem, &walk.checked.records).map(|(size, _)| count.max(1).saturating_mul(size));
        if let Some(bytes) = bytes {
            self.arrays.push(SharedArray {
                name: name.to_string(),
                span,
                bytes,
            });
        }
    }

    /// The slot of a once-per-block atomic whose old value goes to a variable.
    fn kept_atomic(&mut self, walk: &Walk<'_>, call: Option<&Expr>, span: Span) {
        if !walk.keeps_atomic_old(span) {
            return;
        }
        let Some(ExprKind::Call { args, .. }) = call.map(|c| &c.kind) else {
            return;
        };
        let Some(ExprKind::Index { base, .. }) = args.first().map(|a| &a.kind) else {
            return;
        };
        if let Ty::Array { elem, .. } = walk.checked.ty(base.id) {
            self.array(walk, "atomic.old", elem, 1, span);
        }
    }

    /// A grid-wide statement: thread 0's ticket and prefix, and its chunk's reduction partials.
    fn grid(
        &mut self,
        walk: &Walk<'_>,
        collective: ExprId,
        target: &Expr,
        value: &Expr,
        span: Span,
    ) {
        let Some(e) = find(value, collective).or_else(|| find(target, collective)) else {
            return;
        };
        let elem = walk.checked.ty(e.id).element().clone();
        self.array(walk, "grid.ticket", &Ty::INT32, 1, span);
        if let Some(slots) = self.partials(e.span) {
            self.array(walk, "reduce.partials", &elem, slots, e.span);
        }
        self.array(walk, "grid.prefix", &elem, 1, span);
    }

    /// The copies and the collectives' partials inside `e`, each evaluation of a recomputed
    /// variable's initializer included (`grid`: the grid-wide collective, counted with its
    /// statement).
    fn collectives(&mut self, walk: &Walk<'_>, e: &Expr, grid: Option<ExprId>) {
        match &e.kind {
            ExprKind::Name(name) => {
                if let Some(Name::Recomputed(init)) = walk.lookup(&name.name) {
                    let init: &Expr = init;
                    self.collectives(walk, init, grid);
                }
                return;
            }
            ExprKind::Index { base, .. } if walk.is_indexed_copy(base.span) => {
                if let Ty::Vector {
                    elem,
                    len: Len::Static(n),
                    ..
                } = walk.checked.ty(base.id)
                {
                    self.array(walk, "indexed", elem, *n, base.span);
                }
            }
            ExprKind::Collective { op, operand, .. } if Some(e.id) != grid => {
                let elem = walk.checked.ty(e.id).element().clone();
                match (op, self.partials(e.span)) {
                    (CollectiveOp::Reduce, Some(slots))
                        if super::sweeps::bound(walk, operand) != Some(0) =>
                    {
                        self.array(walk, "reduce.partials", &elem, slots, e.span)
                    }
                    (CollectiveOp::ScanLeft | CollectiveOp::ScanRight, Some(slots)) => {
                        self.array(walk, "scan.partials", &elem, slots, e.span)
                    }
                    _ => {}
                }
            }
            _ => {}
        }
        crate::syntax::visit::each_child(e, &mut |c| self.collectives(walk, c, grid));
    }
}

/// The expression `id` inside `e`.
fn find(e: &Expr, id: ExprId) -> Option<&Expr> {
    let mut found = None;
    crate::syntax::visit::visit_expr(e, &mut |x| {
        if x.id == id {
            found = Some(x);
        }
    });
    found
}

/// Size and alignment in bytes of a value of `ty` in memory, in the NVPTX data layout.
fn layout(ty: &Ty, records: &RecordTable) -> Option<(u64, u64)> {
    match ty {
        Ty::Scalar(Scalar::Bool) => Some((1, 1)),
        Ty::Scalar(s) => {
            let bytes = u64::from(s.bits() / 8);
            Some((bytes, bytes))
        }
        Ty::Range => Some((8, 4)),
        Ty::Record(id) => {
            let (mut size, mut align) = (0u64, 1u64);
            for field in records.fields(*id) {
                let (s, a) = layout(&field.ty, records)?;
                size = size.div_ceil(a) * a + s;
                align = align.max(a);
            }
            Some((size.div_ceil(align) * align, align))
        }
        Ty::Array { .. } | Ty::Vector { .. } | Ty::Unit | Ty::Error => None,
    }
}
