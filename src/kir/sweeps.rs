//! `kir-sweeps`: how each consumer of a block vector walks its positions, and how each
//! reduction combines. Element `k` belongs to thread `k mod BLOCKSIZE`; a consumer (a vector
//! store, a vector variable's initializer, the shared copy of an indexed vector, a reduction, a
//! per-element atomic) visits its positions with one of three sweeps:
//! - `unrolled N`: the length has a compile-time bound of at most `UNROLL_SLOTS` positions per
//!   thread, or a register vector is involved: one straight-line copy per slot `s`
//!   (`k = t + s * BLOCKSIZE`), so register vectors are indexed with constants;
//! - `stride`: a block-stride loop, thread-divergent (the usual CUDA loop);
//! - `tiles`: a loop over tiles of `BLOCKSIZE` positions that every thread runs the same number
//!   of times, for consumers that need the whole block at every tile (scans, order-preserving
//!   reductions), so that their barriers stay in uniform control flow.
//!
//! A reduction combines `per-thread` (each thread folds the elements it owns first: needs a
//! commutative function, or at most one element per thread) or `by tiles` (each tile combined by
//! the whole block, the tiles' results folded in order). A grid-wide chunk's aggregate too: a
//! commutative function is folded per thread in a block-stride loop over the chunk and combined
//! across the block once, from the identity where it has one (every thread holds a value, so the
//! shuffles need no lane tests); folding by tiles would combine across the block at every tile,
//! with the lane tests of a tile that may be partial and two barriers per tile
//! (examples/exclusive_scan, when the tile loop still held two tiles per trip: 741 SASS
//! instructions by tiles, 574 per thread).
//!
//! A statement holding both a left and a right scan over more than one tile computes its scans
//! ahead, each in its own direction, into private slots (`scans ahead N`); more than
//! `BUFFER_SLOTS` slots is error E0811, reported here.
//! A vector store also says how it would sweep if it had to buffer its values (it reads its own
//! target at other positions, which `kir-accesses` decides next): `buffer N` slots per thread,
//! or `buffer none` when that would need a run-time number of registers (`kir-accesses` reports
//! E0811 for a buffered store then).
//!
//! Lengths are the checker's (`Len::Static`) where it knows them, else the shortest known length
//! of the vector operands: a vector expression is as long as its shortest operand. A Range whose
//! length is a run-time value with a constant bound (`Checked::range_bounds`: a block's slice cut
//! at the array's end, `range(B * BLOCKSIZE, min(n, (B + 1) * BLOCKSIZE))`) counts as that
//! bound where it is at most `BLOCKSIZE`: one unrolled slot per thread and a per-thread
//! reduction, in one tile, instead of a loop over tiles that runs once.

use super::consumers::{self, is_vector, Dest, Name, Visitor, Walk};
use super::{Combine, Consumer, Limit, Module, Sweep, SweepPlan};
use crate::check::types::Ty;
use crate::check::{Builtin, Callee};
use crate::syntax::ast::{CollectiveOp, Expr, ExprKind};
use crate::syntax::span::Span;
use std::collections::BTreeMap;

/// Up to this many slots per thread, a vector with a compile-time length bound is walked with
/// straight-line code instead of a loop.
const UNROLL_SLOTS: u64 = 4;

/// At most this many elements per thread are computed into registers ahead of a store (a
/// statement that reads its own target, mixed scans).
pub const BUFFER_SLOTS: u64 = 64;

pub fn run(module: &mut Module, checked: &crate::check::Checked) {
    for kernel in &mut module.kernels {
        let mut planner = Planner::default();
        consumers::walk(kernel, checked, &mut planner);
        kernel.sweeps = Some(planner.plans);
        kernel.limits.extend(planner.limits);
    }
}

/// What the kernel IR knows of a vector expression's positions.
#[derive(Debug, Clone, Copy, Default)]
struct Shape {
    /// A compile-time upper bound of the length.
    bound: Option<u64>,
    /// It reads a register vector (or is stored into one): its positions must be unrolled.
    registers: bool,
    left_scan: bool,
    right_scan: bool,
}

impl Shape {
    /// Both operands' shapes: the length is the shorter one's.
    fn meet(self, other: Shape) -> Shape {
        Shape {
            bound: match (self.bound, other.bound) {
                (Some(x), Some(y)) => Some(x.min(y)),
                (x, y) => x.or(y),
            },
            registers: self.registers || other.registers,
            left_scan: self.left_scan || other.left_scan,
            right_scan: self.right_scan || other.right_scan,
        }
    }

    fn mixed_scans(&self) -> bool {
        self.left_scan && self.right_scan
    }
}

/// The decisions for one kernel.
#[derive(Default)]
struct Planner {
    plans: BTreeMap<Consumer, SweepPlan>,
    limits: Vec<Limit>,
}

impl<'a> Visitor<'a> for Planner {
    fn store(
        &mut self,
        walk: &Walk<'a>,
        consumer: Consumer,
        dest: Dest<'a>,
        value: &'a Expr,
        grid: bool,
    ) {
        let dest = match dest {
            Dest::Variable { name, registers } => Shape {
                bound: walk.static_len_of_local(name),
                registers,
                ..Shape::default()
            },
            Dest::Target { target, scatter } => destination(walk, target, scatter),
            Dest::Copy => Shape {
                bound: walk.static_len(value),
                ..Shape::default()
            },
        };
        self.plan_store(walk, consumer, dest, value, grid);
    }

    fn reduce(&mut self, walk: &Walk<'a>, reduce: &'a Expr, operand: &'a Expr, grid: bool) {
        let mut shape = shape(walk, operand);
        if grid {
            // The chunk has a run-time length.
            shape.bound = None;
        }
        self.plan_reduce(walk, reduce, shape, grid);
    }

    fn atomic(&mut self, walk: &Walk<'a>, call: &'a Expr, span: Span) {
        self.plan_atomic(walk, call, span);
    }
}

impl Planner {
    /// A store of `value` into a destination of shape `dest`.
    fn plan_store(
        &mut self,
        walk: &Walk<'_>,
        consumer: Consumer,
        dest: Shape,
        value: &Expr,
        grid: bool,
    ) {
        let shape = if is_vector(walk.checked.ty(value.id)) {
            dest.meet(shape(walk, value))
        } else {
            dest
        };
        let block_size = walk.block_size;
        let Some((shape, scans_ahead)) = self.scans_ahead(shape, block_size, consumer.span())
        else {
            return;
        };
        let Some((sweep, why)) = self.sweep(&shape, false, grid, block_size, consumer.span())
        else {
            return;
        };
        // Buffered: every element computed into registers before any is stored.
        let buffered = match shape.bound {
            Some(bound) if bound.div_ceil(block_size) <= BUFFER_SLOTS => Shape {
                registers: true,
                ..shape
            },
            _ => shape,
        };
        let buffer = match decide(&buffered, false, grid, block_size) {
            Ok((Sweep::Unrolled { slots }, _)) => Some(slots),
            _ => None,
        };
        self.plans.insert(
            consumer,
            SweepPlan {
                sweep,
                why,
                combine: None,
                scans_ahead,
                buffer: Some(buffer),
            },
        );
    }

    /// Reduction `e` of an operand of shape `shape`; `grid`: over a grid-wide chunk.
    fn plan_reduce(&mut self, walk: &Walk<'_>, e: &Expr, shape: Shape, grid: bool) {
        let ExprKind::Collective { func, .. } = &e.kind else {
            return;
        };
        let block_size = walk.block_size;
        let commutative = match walk.checked.callees.get(&e.id) {
            Some(f) => super::commute::is_commutative(walk.checked, *f, func.bound_args.len()),
            None => false,
        };
        let combine = if commutative || (!grid && shape.bound.is_some_and(|n| n <= block_size)) {
            Combine::PerThread
        } else {
            Combine::ByTiles
        };
        let Some((shape, scans_ahead)) = self.scans_ahead(shape, block_size, e.span) else {
            return;
        };
        let whole_block = combine == Combine::ByTiles;
        let Some((sweep, why)) = self.sweep(&shape, whole_block, grid, block_size, e.span) else {
            return;
        };
        self.plans.insert(
            Consumer::Reduce(e.span),
            SweepPlan {
                sweep,
                why,
                combine: Some(combine),
                scans_ahead,
                buffer: None,
            },
        );
    }

    /// A per-element atomic (`call`): its subscripts' and operands' positions.
    fn plan_atomic(&mut self, walk: &Walk<'_>, call: &Expr, span: Span) {
        let ExprKind::Call { args, .. } = &call.kind else {
            return;
        };
        let Some((place, operands)) = args.split_first() else {
            return;
        };
        let ExprKind::Index { indices, .. } = &place.kind else {
            return;
        };
        let shape = indices
            .iter()
            .chain(operands)
            .filter(|e| is_vector(walk.checked.ty(e.id)))
            .map(|e| shape(walk, e))
            .reduce(Shape::meet)
            .unwrap_or_default();
        let block_size = walk.block_size;
        let Some((shape, scans_ahead)) = self.scans_ahead(shape, block_size, span) else {
            return;
        };
        let Some((sweep, why)) = self.sweep(&shape, false, false, block_size, span) else {
            return;
        };
        self.plans.insert(
            Consumer::Atomic(span),
            SweepPlan {
                sweep,
                why,
                combine: None,
                scans_ahead,
                buffer: None,
            },
        );
    }

    /// A left and a right scan over more than one tile are computed ahead into private slots,
    /// each in its own direction: the consumer then reads them like register vectors. `None`
    /// (and a limit) when that needs more than `BUFFER_SLOTS` slots or a run-time number.
    fn scans_ahead(
        &mut self,
        shape: Shape,
        block_size: u64,
        span: Span,
    ) -> Option<(Shape, Option<u32>)> {
        if !shape.mixed_scans() || one_tile(&shape, block_size) {
            return Some((shape, None));
        }
        let slots = shape
            .bound
            .map(|b| b.div_ceil(block_size))
            .filter(|s| *s <= BUFFER_SLOTS)
            .and_then(|s| u32::try_from(s).ok());
        let Some(slots) = slots else {
            self.limits.push(Limit::NeedsStaticLength {
                what: "a statement with both a left and a right scan over more than one block's worth of elements",
                why: "it computes each scan into registers first, in the scan's own direction, and each thread's number of registers is fixed when the kernel is compiled (at most 64 elements per thread)",
                span,
            });
            return None;
        };
        let ahead = Shape {
            registers: true,
            left_scan: false,
            right_scan: false,
            ..shape
        };
        Some((ahead, Some(slots)))
    }

    /// [`decide`], an impossible shape recorded as an internal limit: the passes before it
    /// (register vectors have a compile-time length; mixed scans are computed ahead) rule one
    /// out.
    fn sweep(
        &mut self,
        shape: &Shape,
        whole_block: bool,
        grid: bool,
        block_size: u64,
        span: Span,
    ) -> Option<(Sweep, &'static str)> {
        match decide(shape, whole_block, grid, block_size) {
            Ok(decided) => Some(decided),
            Err(why) => {
                self.limits.push(Limit::Internal { why, span });
                None
            }
        }
    }
}

fn one_tile(shape: &Shape, block_size: u64) -> bool {
    shape.bound.is_some_and(|b| b.div_ceil(block_size) <= 1)
}

/// How a consumer walks a vector of `shape`; `whole_block`: it needs every thread at every
/// position (an order-preserving reduction combines each tile across the block); `grid`:
/// over a grid-wide chunk, whose length is a run-time value.
fn decide(
    shape: &Shape,
    whole_block: bool,
    grid: bool,
    block_size: u64,
) -> Result<(Sweep, &'static str), &'static str> {
    let bound = shape.bound.filter(|_| !grid);
    if let Some(bound) = bound {
        let slots = bound.div_ceil(block_size);
        if shape.registers || slots <= UNROLL_SLOTS {
            if shape.mixed_scans() && slots > 1 {
                return Err("a left and a right scan left in one sweep over more than one tile");
            }
            let slots = u32::try_from(slots).map_err(|_| "too many slots for a register vector")?;
            let why = if shape.registers && u64::from(slots) > UNROLL_SLOTS {
                "registers are indexed with constants"
            } else {
                "compile-time bound"
            };
            return Ok((Sweep::Unrolled { slots }, why));
        }
    }
    if shape.registers {
        return Err("a register vector without a compile-time length");
    }
    if shape.mixed_scans() {
        return Err("a left and a right scan left in one sweep over more than one tile");
    }
    Ok(if whole_block && grid {
        (
            Sweep::Tiles,
            "a grid-wide chunk, each tile combined by the whole block",
        )
    } else if whole_block {
        (
            Sweep::Tiles,
            "each tile combined by the whole block, in order",
        )
    } else if shape.left_scan || shape.right_scan {
        (Sweep::Tiles, "a scan's carry passes from tile to tile")
    } else if grid {
        (Sweep::Stride, "a grid-wide chunk's run-time length")
    } else if bound.is_some() {
        (Sweep::Stride, "more than 4 positions per thread")
    } else {
        (Sweep::Stride, "run-time length")
    })
}

/// The compile-time bound of vector expression `e`'s length, as code generation's `prepare`
/// finds it (`kir-shared-memory`: a reduction of no elements needs no scratch).
pub(super) fn bound(walk: &Walk<'_>, e: &Expr) -> Option<u64> {
    shape(walk, e).bound
}

/// What code generation's `prepare` learns of vector expression `e`.
fn shape(walk: &Walk<'_>, e: &Expr) -> Shape {
    let mut shape = shape_of_kind(walk, e);
    // A bounded run-time length counts only as one tile. Over several, each unrolled tile would
    // run or not by a run-time count while a reduction by tiles alternates its partials' halves
    // from slot to slot, and the verifier cannot see that a skipped tile skips the rest: it
    // reported a race (tests/regressions/generated_248_clipped_slice_reduced_by_tiles.loom).
    let one_tile_bound = walk.range_bound(e).filter(|n| *n <= walk.block_size);
    if let Some(n) = walk.static_len(e).or(one_tile_bound) {
        shape.bound = Some(n);
    }
    shape
}

fn shape_of_kind(walk: &Walk<'_>, e: &Expr) -> Shape {
    if let (ExprKind::Call { args, .. }, true) =
        (&e.kind, crate::check::grid::is_grid_call(walk.checked, e))
    {
        return args.first().map(|v| shape(walk, v)).unwrap_or_default();
    }
    if *walk.checked.ty(e.id) == Ty::Range {
        return Shape::default();
    }
    match &e.kind {
        ExprKind::Name(name) => match walk.lookup(&name.name) {
            Some(Name::Registers) => Shape {
                registers: true,
                ..Shape::default()
            },
            Some(Name::Recomputed(init)) => shape(walk, init),
            // The threads' rows and columns: one element per thread.
            None if name.name == "ROW" || name.name == "COL" => Shape {
                bound: Some(walk.block_size),
                ..Shape::default()
            },
            _ => Shape::default(),
        },
        ExprKind::Index { indices, .. } => index_shape(walk, e, indices),
        ExprKind::Unary { operand, .. } => shape(walk, operand),
        ExprKind::Field { base, .. } => shape(walk, base),
        ExprKind::Binary { lhs, rhs, .. } => operands_shape(walk, &[lhs, rhs], None),
        ExprKind::Call { args, .. } => {
            if walk.checked.callees.get(&e.id) == Some(&Callee::Builtin(Builtin::Transpose)) {
                return Shape::default();
            }
            let args: Vec<&Expr> = args.iter().collect();
            operands_shape(walk, &args, Some(e))
        }
        ExprKind::Collective { op, operand, .. } => {
            let mut shape = shape(walk, operand);
            match op {
                CollectiveOp::ScanLeft => shape.left_scan = true,
                CollectiveOp::ScanRight => shape.right_scan = true,
                CollectiveOp::Map | CollectiveOp::Reduce => {}
            }
            shape
        }
        ExprKind::VectorLit { elems } => Shape {
            bound: Some(elems.len() as u64),
            ..Shape::default()
        },
        _ => Shape::default(),
    }
}

/// `a[r]`, `a[[r]]`, `a[i, r]`, gathers `a[v]`: the ranges' and index vectors' positions;
/// a row `a[i]` and a two-dimensional slice have their type's length.
fn index_shape(walk: &Walk<'_>, e: &Expr, indices: &[Expr]) -> Shape {
    if let ([r, c], Some(_)) = (indices, walk.checked.ty(e.id).tile_shape()) {
        if *walk.checked.ty(r.id) == Ty::Range && *walk.checked.ty(c.id) == Ty::Range {
            return Shape::default();
        }
    }
    vector_subscripts_shape(walk, indices)
}

/// The elementwise operands' shapes; for the arguments of `call`, not those it passes to a
/// `func`'s array or `Range` parameter whole, like a uniform value.
fn operands_shape(walk: &Walk<'_>, operands: &[&Expr], call: Option<&Expr>) -> Shape {
    let passed_whole = |i: usize| call.is_some_and(|c| walk.passed_whole(c, i));
    let mut met: Option<Shape> = None;
    for (i, e) in operands.iter().enumerate() {
        if passed_whole(i) || !is_vector(walk.checked.ty(e.id)) {
            continue;
        }
        let s = shape(walk, e);
        met = Some(met.map_or(s, |m| m.meet(s)));
    }
    met.unwrap_or_default()
}

/// The positions of a vector assignment's target.
fn destination(walk: &Walk<'_>, target: &Expr, scatter: bool) -> Shape {
    if scatter {
        return scatter_destination(walk, target);
    }
    let registers = matches!(&target.kind, ExprKind::Name(n)
        if matches!(walk.lookup(&n.name), Some(Name::Registers)));
    Shape {
        bound: walk.static_len(target),
        registers,
        ..Shape::default()
    }
}

/// A scatter's positions: its vector and range subscripts', or a tile's.
fn scatter_destination(walk: &Walk<'_>, target: &Expr) -> Shape {
    let ExprKind::Index { indices, .. } = &target.kind else {
        return Shape::default();
    };
    if walk.is_tile_store(target) {
        return Shape {
            bound: walk.static_len(target),
            ..Shape::default()
        };
    }
    vector_subscripts_shape(walk, indices)
}

/// The positions of the vector and range subscripts among `indices`: the shortest's.
fn vector_subscripts_shape(walk: &Walk<'_>, indices: &[Expr]) -> Shape {
    indices
        .iter()
        .filter(|i| is_vector(walk.checked.ty(i.id)))
        .map(|i| shape(walk, i))
        .reduce(Shape::meet)
        .unwrap_or_default()
}
