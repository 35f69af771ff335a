//! `f /. v`: one uniform value per block, with warp shuffles and one barrier.
//!
//! The combining order is the vector's order whenever it matters: `f` is never given its
//! operands swapped, and elements are only grouped, never reordered, so any associative `f`
//! works (matrix products, "first non-zero", ...).
//!
//! 1. **Per thread.** When `f` is provably commutative (`kir/commute.rs`: `sum`, `prod`, `min`,
//!    `max`, `x + y`, ...) or every thread holds at most one element (length ≤ `BLOCKSIZE`),
//!    thread `t` folds its elements `t, t + BLOCKSIZE, ...` sequentially: coalesced loads, one
//!    `f` per element, as in hand-written CUDA. Otherwise the vector is cut into tiles of
//!    `BLOCKSIZE` elements, each tile is combined by the whole block (steps 2-3) and the tile
//!    results are folded in tile order. `kir-sweeps` decides which (`Combine`) and the sweep.
//! 2. **Warp.** A shuffle-down tree (`shfl.sync.down`, offsets 1, 2, 4, 8, 16) combines lane `i`
//!    with lane `i + offset` as `f(mine, theirs)`, so lane 0 ends with its warp's fold in lane
//!    order.
//! 3. **Block.** Lane 0 of each warp writes its result to a small shared array (one slot per
//!    warp, double-buffered for an unrolled sweep's slots), one barrier, then *every* warp reads
//!    the partials and folds them with another shuffle tree, and `shfl.sync.idx` broadcasts
//!    lane 0's result: the result is uniform without a second barrier. With one warp per block
//!    there is no shared memory and no barrier at all.
//!
//! Threads without elements take part in the shuffles; their values are never combined, except
//! where `f`'s identity is known (`sum`, `prod`, `min`, `max`: `kir/commute.rs`, `combining`) and the
//! vector is walked by a block-stride loop: then every thread starts from the identity, which
//! combines to the same bits, and the shuffle trees need no test of which lanes hold a value.
//! The reduction of an empty vector is zero of the element type.
//!
//! Steps 2-3 are `kir-collectives`' steps for the reduction (`kir::Step`, printed by
//! `--emit=kir`), emitted by `steps.rs`; step 1 is here.

use super::body::{ArrayRef, Body, Result};
use super::error::CodegenError;
use super::memory::Element;
use super::steps::Expansion;
use super::vector::{Pos, Sweep};
use super::warp::Lanes;
use crate::check::types::Ty;
use crate::check::Callee;
use crate::kir::{Identity, Start};
use crate::syntax::ast::{CollectiveOp, Expr, ExprKind};
use crate::syntax::span::Span;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValueEnum, IntValue};
use inkwell::IntPredicate;

impl<'a, 'ctx> Body<'a, 'ctx> {
    pub fn collective_parts<'e>(
        &self,
        e: &'e Expr,
    ) -> Result<(Callee, &'e [Expr], &'e Expr, CollectiveOp)> {
        match &e.kind {
            ExprKind::Collective {
                op, func, operand, ..
            } => {
                // Unreachable from a checked program: the checker rejects a collective in a
                // `func` (E0302), and `prepare` evaluates every collective of a vector
                // statement in uniform code before the statement's sweep starts.
                if self.lane_depth > 0 || !self.is_kernel() {
                    return Err(CodegenError::internal(
                        format!("`{}` inside per-element code", op.symbol()),
                        e.span,
                    ));
                }
                Ok((self.callee(e)?, &func.bound_args, operand, *op))
            }
            _ => Err(CodegenError::internal("not a collective", e.span)),
        }
    }

    /// `f(bound..., a, b)`.
    pub fn combine(
        &mut self,
        f: Callee,
        e: &Expr,
        bound: &[BasicValueEnum<'ctx>],
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let mut values = bound.to_vec();
        values.push(a);
        values.push(b);
        match f {
            Callee::Func(item) => self.call_func(item, &values, e.span),
            _ => Err(CodegenError::internal(
                "a builtin as the function of a reduction or scan",
                e.span,
            )),
        }
    }

    /// The shared scratch array of collective `e`: `slots` elements, as `kir-collectives`
    /// planned (`CollectivePlan::partials`: one per warp, or two where an unrolled sweep's tiles
    /// alternate halves).
    pub fn scratch_for(
        &mut self,
        e: &Expr,
        elem: &Ty,
        slots: u32,
        what: &str,
    ) -> Result<ArrayRef<'ctx>> {
        if let Some(array) = self.scratch.get(&e.id) {
            return Ok(array.clone());
        }
        let array = self.shared_array(what, elem, &[u64::from(slots)], e.span)?;
        self.scratch.insert(e.id, array.clone());
        Ok(array)
    }

    /// Element `parity * warps + i` of `scratch`; `i` is below `warps`.
    pub fn scratch_slot(
        &self,
        scratch: &ArrayRef<'ctx>,
        parity: IntValue<'ctx>,
        warps: u32,
        i: IntValue<'ctx>,
        span: Span,
    ) -> Result<Element<'ctx>> {
        // A half the plan did not allocate would be another array's memory.
        let slots = scratch
            .dims
            .first()
            .and_then(|d| d.get_zero_extended_constant());
        let half = parity.get_zero_extended_constant();
        match (slots, half) {
            (Some(slots), Some(half)) if (half + 1) * u64::from(warps) <= slots => {}
            _ => {
                return Err(CodegenError::internal(
                    "a tile's half of the partials outside the planned array",
                    span,
                ))
            }
        }
        let base = self
            .b
            .build_int_mul(parity, self.i32(i64::from(warps)), "")?;
        let i = self.b.build_int_add(base, i, "slot")?;
        Ok(Element {
            index: self.index64(i, false)?,
            in_bounds: None,
        })
    }

    /// `f /. v`.
    pub fn reduce(&mut self, e: &Expr) -> Result<BasicValueEnum<'ctx>> {
        if let Some((id, total)) = self.grid_value {
            if id == e.id {
                return Ok(total);
            }
        }
        // A reduction inside a grid-wide statement's uniform part reduces its whole operand.
        let window = self.grid_window.take();
        let result = self.reduce_whole(e);
        self.grid_window = window;
        result
    }

    fn reduce_whole(&mut self, e: &Expr) -> Result<BasicValueEnum<'ctx>> {
        let (f, bound_exprs, operand, _) = self.collective_parts(e)?;
        let result_ty = self.ty_of(e).clone();
        let zero = self.zero_of(&result_ty, e.span)?;
        let mut bound = Vec::with_capacity(bound_exprs.len());
        for arg in bound_exprs {
            bound.push(self.arg_value(arg)?);
        }
        let shape = self.prepare(operand)?;
        if shape.bound == Some(0) {
            return Ok(zero);
        }
        self.located(e.span, |this| {
            this.reduce_prepared(e, f, &bound, operand, shape)
        })
    }

    /// `f /. operand` for collective `e` (a reduce, or a grid-wide scan's aggregate: its
    /// element type is the result's), `operand` prepared to `shape`.
    pub(super) fn reduce_prepared(
        &mut self,
        e: &Expr,
        f: Callee,
        bound: &[BasicValueEnum<'ctx>],
        operand: &Expr,
        shape: super::vector::Shape<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let zero = self.zero_of(self.ty_of(e).element(), e.span)?;
        let result_ty = self.ty_of(e).element().clone();
        // kir-sweeps: per thread (commutative, or one element per thread) or by tiles; over a
        // grid-wide chunk either way (both walk the chunk's positions, `walked`).
        let plan = self.planned(crate::kir::Consumer::Reduce(e.span))?;
        let per_thread = plan.combine == Some(crate::kir::Combine::PerThread);
        self.touch(e.span)?;
        self.before_scans(operand)?;
        let shape = self.materialise_mixed_scans(&[operand], shape, &plan, e.span)?;
        self.check_sweep(plan.sweep, &shape, e.span)?;
        let expansion = self.collective_plan(e.span)?;
        let scratch = if let Some(slots) = expansion.partials {
            let array = self.scratch_for(e, &result_ty, slots, "reduce.partials")?;
            // The previous run of this reduction (in a loop) may still be reading it.
            self.touch(e.span)?;
            Some(array)
        } else {
            None
        };
        let reduce = match per_thread {
            true => Self::reduce_per_thread,
            false => Self::reduce_by_tiles,
        };
        let result = reduce(
            self,
            e,
            f,
            bound,
            operand,
            &shape,
            plan.sweep,
            scratch.as_ref(),
        )?;
        if shape.len.is_const() {
            return Ok(result);
        }
        let nonempty =
            self.b
                .build_int_compare(IntPredicate::SGT, shape.len, self.i32(0), "nonempty")?;
        Ok(self.b.build_select(nonempty, result, zero, "reduced")?)
    }

    /// Step 1 for commutative `f` (or one element per thread), then steps 2-3 once.
    ///
    /// The lane numbers are made after step 1, where the fold needs them: `tid & 31` made
    /// before a block-stride loop is held in a register across it (ptxas does not recompute it
    /// after), one register more in mul-matr-vec (bench/results/static-2026-12-07.md).
    #[allow(clippy::too_many_arguments)]
    fn reduce_per_thread(
        &mut self,
        e: &Expr,
        f: Callee,
        bound: &[BasicValueEnum<'ctx>],
        operand: &Expr,
        shape: &super::vector::Shape<'ctx>,
        sweep: Sweep,
        scratch: Option<&ArrayRef<'ctx>>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let ty = self.ty_of(e).element().clone();
        let reg_ty = self.reg_type(&ty, e.span)?;
        let acc = self.alloca(reg_ty, "acc")?;
        let block_size = self.block_size(e.span)?;
        // A grid-wide chunk's positions are `lo + k`, `k < len`.
        let (len, offset) = self.walked(shape)?;
        if sweep == Sweep::Stride {
            if let Some(identity) = self.reduction_identity(&ty, e.span)? {
                // Every thread starts from `f`'s identity: no peeled first element, and every
                // thread holds a value (the identity where it owns no element), so the shuffle
                // trees combine full warps without testing which lanes hold one. The same bits
                // as the peeled form: combining with the identity changes nothing.
                self.b.build_store(acc, identity)?;
                self.block_stride_loop(len, e.span, &mut |this, k| {
                    let pos = Pos {
                        k: this.at_offset(offset, k)?,
                        valid: this.bool_const(true),
                        slot: None,
                        count: len,
                        first: this.bool_const(false),
                        parity: this.i32(0),
                        single: false,
                    };
                    let x = this.elem_merged(operand, &pos)?;
                    let a = this.b.build_load(reg_ty, acc, "acc")?;
                    let r = this.combine(f, e, bound, a, x)?;
                    this.b.build_store(acc, r)?;
                    Ok(())
                })?;
                let v = self.b.build_load(reg_ty, acc, "acc")?;
                let everyone = self.i32(i64::from(block_size));
                let parity = self.i32(0);
                let lanes = self.lanes(e.span)?;
                let tile = (everyone, parity, true);
                return self.block_fold(e, f, bound, v, tile, &lanes, scratch);
            }
            // Peeled: the first element initialises the accumulator.
            let tid = self.tid()?;
            let has = self
                .b
                .build_int_compare(IntPredicate::SLT, tid, len, "has")?;
            self.when(has, &mut |this| {
                let pos = Pos {
                    k: this.at_offset(offset, tid)?,
                    valid: this.bool_const(true),
                    slot: None,
                    count: len,
                    first: this.bool_const(true),
                    parity: this.i32(0),
                    single: false,
                };
                let x = this.elem_merged(operand, &pos)?;
                this.b.build_store(acc, x)?;
                let next = this
                    .b
                    .build_int_add(tid, this.i32(i64::from(block_size)), "")?;
                this.build_counted_loop(
                    next,
                    len,
                    this.i32(i64::from(block_size)),
                    &mut |this, k| {
                        let pos = Pos {
                            k: this.at_offset(offset, k)?,
                            ..pos
                        };
                        let x = this.elem_merged(operand, &pos)?;
                        let a = this.b.build_load(reg_ty, acc, "acc")?;
                        let r = this.combine(f, e, bound, a, x)?;
                        this.b.build_store(acc, r)?;
                        Ok(())
                    },
                )
            })?;
        } else {
            self.b.build_store(acc, reg_ty.const_zero())?;
            // Visiting tiles backwards (the operand holds a right scan), a thread's first
            // element is not in the first tile visited: it needs a flag.
            let reverse = shape.right_scan;
            let has = self.alloca(self.cx.context.bool_type().into(), "has")?;
            self.b.build_store(has, self.bool_const(false))?;
            self.sweep(shape, sweep, reverse, e.span, &mut |this, pos| {
                this.tile_prepare(operand, pos)?;
                this.when(pos.valid, &mut |this| {
                    let x = this.elem_merged(operand, pos)?;
                    match (pos.first.get_zero_extended_constant(), reverse) {
                        (Some(1), false) => {
                            this.b.build_store(acc, x)?;
                        }
                        // Forward: a valid position after the first means the first was valid.
                        (Some(_), false) => {
                            let a = this.b.build_load(reg_ty, acc, "acc")?;
                            let r = this.combine(f, e, bound, a, x)?;
                            this.b.build_store(acc, r)?;
                        }
                        _ => {
                            let a = this.b.build_load(reg_ty, acc, "acc")?;
                            let seen = this
                                .b
                                .build_load(this.cx.context.bool_type(), has, "seen")?
                                .into_int_value();
                            let r = this
                                .value_when(seen, x, &mut |this| this.combine(f, e, bound, a, x))?;
                            this.b.build_store(acc, r)?;
                            this.b.build_store(has, this.bool_const(true))?;
                        }
                    }
                    Ok(())
                })
            })?;
        }
        let v = self.b.build_load(reg_ty, acc, "acc")?;
        // Threads 0 .. min(n, BLOCKSIZE) hold a value.
        let holders = self.smin(len, self.i32(i64::from(block_size)))?;
        let parity = self.i32(0);
        let lanes = self.lanes(e.span)?;
        let tile = (holders, parity, true);
        self.block_fold(e, f, bound, v, tile, &lanes, scratch)
    }

    /// The identity `kir-collectives` chose to start the reduction at `span` from, as a
    /// constant of its register type; `None` where it starts from its first element.
    fn reduction_identity(
        &self,
        ty: &Ty,
        span: crate::syntax::span::Span,
    ) -> Result<Option<BasicValueEnum<'ctx>>> {
        let Some(Start::Identity(identity)) = self.collective_plan(span)?.start else {
            return Ok(None);
        };
        Ok(Some(self.identity_value(ty, identity, span)?))
    }

    /// `identity` as a constant of the register type of `ty`, a collective's element type.
    pub(super) fn identity_value(
        &self,
        ty: &Ty,
        identity: Identity,
        span: Span,
    ) -> Result<BasicValueEnum<'ctx>> {
        Ok(match (self.reg_type(ty, span)?, identity) {
            (BasicTypeEnum::FloatType(float), Identity::Float(value)) => {
                float.const_float(value).into()
            }
            (BasicTypeEnum::IntType(int), Identity::Int { bits, value })
                if int.get_bit_width() == bits =>
            {
                int.const_int(value, false).into()
            }
            _ => {
                return Err(CodegenError::internal(
                    "a collective's identity that is not of its element type",
                    span,
                ))
            }
        })
    }

    /// Non-commutative `f` over more than `BLOCKSIZE` elements: each tile combined by the whole
    /// block, the tiles' results folded in order.
    #[allow(clippy::too_many_arguments)]
    fn reduce_by_tiles(
        &mut self,
        e: &Expr,
        f: Callee,
        bound: &[BasicValueEnum<'ctx>],
        operand: &Expr,
        shape: &super::vector::Shape<'ctx>,
        sweep: Sweep,
        scratch: Option<&ArrayRef<'ctx>>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let ty = self.ty_of(e).element().clone();
        let reg_ty = self.reg_type(&ty, e.span)?;
        let zero = reg_ty.const_zero();
        let carry = self.alloca(reg_ty, "carry")?;
        self.b.build_store(carry, zero)?;
        // A right scan's tiles are visited from the last: each tile then comes before the
        // carry in the vector's order, so it is `f`'s first operand.
        let reverse = shape.right_scan;
        // Made once, before the tiles: every tile's fold uses them.
        let lanes = self.lanes(e.span)?;
        self.sweep(shape, sweep, reverse, e.span, &mut |this, pos| {
            this.tile_prepare(operand, pos)?;
            let x = this.value_when(pos.valid, zero, &mut |this| this.elem_merged(operand, pos))?;
            let tile = (pos.count, pos.parity, false);
            let t = this.block_fold(e, f, bound, x, tile, &lanes, scratch)?;
            let c = this.b.build_load(reg_ty, carry, "carry")?;
            let not_first = this.b.build_not(pos.first, "")?;
            let r = this.value_when(not_first, t, &mut |this| {
                if reverse {
                    this.combine(f, e, bound, t, c)
                } else {
                    this.combine(f, e, bound, c, t)
                }
            })?;
            this.b.build_store(carry, r)?;
            Ok(())
        })?;
        Ok(self.b.build_load(reg_ty, carry, "reduced")?)
    }

    /// Steps 2-3, as `kir-collectives` expanded them (`steps.rs`): the fold, in thread order, of
    /// the values of threads `0 .. count`, as a uniform value (meaningless when `count` is 0).
    /// `tile`: `count`, the tile's parity, and whether the fold is the only one (per thread)
    /// rather than one per tile.
    #[allow(clippy::too_many_arguments)]
    fn block_fold(
        &mut self,
        e: &Expr,
        f: Callee,
        bound: &[BasicValueEnum<'ctx>],
        v: BasicValueEnum<'ctx>,
        (count, parity, one_tile): (IntValue<'ctx>, IntValue<'ctx>, bool),
        lanes: &Lanes<'ctx>,
        scratch: Option<&ArrayRef<'ctx>>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let plan = self.collective_plan(e.span)?;
        // A grid-wide scan reduces its chunk with its aggregate's steps.
        let steps = match plan.op {
            CollectiveOp::Reduce => &plan.steps,
            _ => &plan.aggregate,
        };
        let mut expansion = Expansion {
            e,
            f,
            bound,
            lanes: *lanes,
            count,
            parity,
            scratch: scratch.cloned(),
            what: "a reduction",
            one_tile,
            first: None,
        };
        self.expand(steps, &mut expansion, v)?
            .broadcast
            .ok_or_else(|| CodegenError::internal("a reduction's steps without a result", e.span))
    }
}
