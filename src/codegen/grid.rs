//! Grid-wide reduce and left scan (`kir::Stmt::Grid`): `total[0] <- f /. grid(v, scratch)`,
//! `y <- f /: grid(v, scratch)`. A decoupled look-back, as CUB's single-pass scan does it, over
//! one chunk of positions per block:
//!
//! 1. **Ticket.** Thread 0 draws `ticket <- atomic_add(scratch[0], 1)` and broadcasts it (a
//!    shared slot, one barrier). Chunks go by ticket, not by `B`: a block waits only on blocks
//!    that drew a lower ticket, which are running already (they drew it), so the wait ends
//!    whatever order the hardware starts blocks in and however few are resident at once.
//! 2. **Chunk.** `per = ceil(ceil(n / BLOCKS) / BLOCKSIZE) * BLOCKSIZE` positions per ticket (a
//!    multiple of `BLOCKSIZE`, so element `k` still belongs to thread `k mod BLOCKSIZE`);
//!    ticket `j` has `[j * per, min((j + 1) * per, n))`. Tickets past the last chunk do nothing
//!    but step 6.
//! 3. **Aggregate.** The block reduces its chunk with `f`: the usual block reduction, as
//!    `kir-sweeps` planned it (per thread in a block-stride loop over the chunk where `f`
//!    commutes, else by tiles, in order).
//! 4. **Look-back** (thread 0). The block publishes `(AGGREGATE, aggregate)` in
//!    `scratch[2 + ticket]` (flag and value in one 64-bit word, written by one atomic exchange, so
//!    no reader sees one without the other), then reads the words of tickets `ticket - 1`,
//!    `ticket - 2`, ... (atomic reads, spinning while a word is still zero) back to the nearest
//!    `INCLUSIVE` word, and folds forward from it to `ticket - 1`, so that the prefix is the left
//!    fold of the aggregates whatever the timing (a `Float32` sum keeps its bits); it publishes
//!    `(INCLUSIVE, f(prefix, aggregate))` and broadcasts the prefix (a shared slot, a barrier).
//!    Ticket 0 publishes its aggregate as inclusive at once.
//! 5. **The statement**, over the chunk: a scan's carry starts at the prefix (blocks after the
//!    first), so element `k` gets `f(prefix, f(v[lo], ..., v[k]))`; a reduce is stored by the
//!    block of the last chunk, the only one that holds the total.
//! 6. **Finish** (thread 0): `membar.gl`, `atomic_add(scratch[1], 1)`; the block that counts
//!    last (every other block is past its look-back) zeroes `scratch`, so the next launch finds
//!    it as the first did.
//!
//! The CPU backend runs each block to its end on one worker thread; a block that spins waits on
//! lower tickets, which blocks running on other workers hold (or, with one worker, which have
//! finished), so it cannot deadlock either.

use super::body::{Body, Result};
use super::error::CodegenError;
use super::intrinsics::Intrinsic;
use super::memory::Element;
use crate::check::types::{Scalar, Ty};
use crate::syntax::ast::{CollectiveOp, Expr, ExprKind};
use crate::syntax::span::Span;
use inkwell::llvm_sys::core::LLVMSetVolatile;
use inkwell::llvm_sys::LLVMAtomicRMWBinOp;
use inkwell::values::{AsValueRef, BasicValueEnum, IntValue, PointerValue};
use inkwell::IntPredicate;

/// The flags in the high half of a published word.
const AGGREGATE: u64 = 1;
const INCLUSIVE: u64 = 2;

impl<'a, 'ctx> Body<'a, 'ctx> {
    /// A grid-wide statement `target <- value` (the kernel IR's `Stmt::Grid`), whose store over
    /// the block's chunk is the IR's `stmt`.
    pub fn grid_stmt(
        &mut self,
        stmt: &crate::kir::Stmt,
        target: &Expr,
        value: &Expr,
        span: Span,
    ) -> Result<()> {
        let checked = self.cx.checked;
        let (collective, call) = crate::check::grid::find(checked, value)
            .or_else(|| crate::check::grid::find(checked, target))
            .ok_or_else(|| CodegenError::internal("a grid statement without `grid(...)`", span))?;
        let (ExprKind::Call { args, .. }, ExprKind::Collective { op, .. }) =
            (&call.kind, &collective.kind)
        else {
            return Err(CodegenError::internal("a malformed grid collective", span));
        };
        let op = *op;
        let (Some(operand), Some(scratch_expr)) = (args.first(), args.get(1)) else {
            return Err(CodegenError::internal("`grid` without two arguments", span));
        };
        let (f, bound_exprs, _, _) = self.collective_parts(collective)?;
        let mut bound = Vec::with_capacity(bound_exprs.len());
        for arg in bound_exprs {
            bound.push(self.arg_value(arg)?);
        }
        let elem_ty = self.ty_of(collective).element().clone();
        let reg_ty = self.reg_type(&elem_ty, span)?;
        let scratch = self.array(scratch_expr)?;
        let i64t = self.cx.context.i64_type();

        // 1. Ticket.
        let ticket = self.leader_broadcast(&Ty::INT32, "grid.ticket", span, &mut |this| {
            let counter = this.scratch_word(&scratch, this.i32(0), span)?;
            let old = this.atomic_word(LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpAdd, counter, 1)?;
            Ok(this
                .b
                .build_int_truncate(old, this.cx.context.i32_type(), "ticket")?
                .into())
        })?;
        let ticket = ticket.into_int_value();

        // 2. Chunk.
        let shape = self.prepare(operand)?;
        let n = shape.len;
        let size = self.i32(i64::from(self.block_size(span)?));
        let blocks = self.sreg(Intrinsic::NctaidX)?;
        let per_block = self.ceil_div(n, blocks)?;
        let tiles = self.ceil_div(per_block, size)?;
        let per = self.b.build_int_mul(tiles, size, "grid.per")?;
        let per = self.smax(per, size)?;
        let start = self.b.build_int_mul(ticket, per, "")?;
        let lo = self.smin(start, n)?;
        let end = self.b.build_int_add(lo, per, "")?;
        let hi = self.smin(end, n)?;
        let chunks = self.ceil_div(n, per)?;
        let chunks = self.smax(chunks, self.i32(1))?;
        let last = self.b.build_int_sub(chunks, self.i32(1), "grid.last")?;
        let active = self
            .b
            .build_int_compare(IntPredicate::SLE, ticket, last, "grid.active")?;
        let has_prefix =
            self.b
                .build_int_compare(IntPredicate::SGT, ticket, self.i32(0), "grid.has_prefix")?;

        // 3. Aggregate.
        let shape = super::vector::Shape {
            bound: None,
            ..shape
        };
        self.grid_window = Some((lo, hi));
        let aggregate = self.located(span, |this| {
            this.reduce_prepared(collective, f, &bound, operand, shape)
        });
        self.grid_window = None;
        let aggregate = aggregate?;

        // 4. Look-back.
        let combine_fn = |this: &mut Self, a: BasicValueEnum<'ctx>, b: BasicValueEnum<'ctx>| {
            this.combine(f, collective, &bound, a, b)
        };
        let prefix = self.leader_broadcast(&elem_ty, "grid.prefix", span, &mut |this| {
            let result = this.alloca(reg_ty, "grid.prefix")?;
            this.b.build_store(result, reg_ty.const_zero())?;
            this.when(active, &mut |this| {
                let mine = this.b.build_int_add(ticket, this.i32(2), "")?;
                let mine = this.scratch_word(&scratch, mine, span)?;
                let first = this.b.build_not(has_prefix, "")?;
                this.build_if_else(
                    first,
                    &mut |this| {
                        let word = this.pack(INCLUSIVE, aggregate, &elem_ty, span)?;
                        this.publish(mine, word)
                    },
                    &mut |this| {
                        let word = this.pack(AGGREGATE, aggregate, &elem_ty, span)?;
                        this.publish(mine, word)?;
                        let prefix = this.look_back(
                            &scratch,
                            ticket,
                            &elem_ty,
                            reg_ty,
                            span,
                            &mut |this, a, b| combine_fn(this, a, b),
                        )?;
                        this.b.build_store(result, prefix)?;
                        let inclusive = combine_fn(this, prefix, aggregate)?;
                        let word = this.pack(INCLUSIVE, inclusive, &elem_ty, span)?;
                        this.publish(mine, word)
                    },
                )
            })?;
            Ok(this.b.build_load(reg_ty, result, "grid.prefix")?)
        })?;

        // 5. The statement over the chunk.
        let result = if op == CollectiveOp::Reduce {
            let total = self.value_when(has_prefix, aggregate, &mut |this| {
                combine_fn(this, prefix, aggregate)
            })?;
            let is_last =
                self.b
                    .build_int_compare(IntPredicate::EQ, ticket, last, "grid.is_last")?;
            self.grid_value = Some((collective.id, total));
            self.grid_store_guard = Some(is_last);
            let r = self.store_stmt(stmt, target, value, span);
            self.grid_value = None;
            self.grid_store_guard = None;
            r
        } else {
            let carry = self.scan_carry(collective, reg_ty)?;
            // Every tile combines a carry that starts from the identity: the first block's is it.
            let prefix = match self.carry_start(collective)? {
                Some(identity) => {
                    self.b
                        .build_select(has_prefix, prefix, identity, "grid.carry")?
                }
                None => prefix,
            };
            self.b.build_store(carry, prefix)?;
            self.grid_window = Some((lo, hi));
            self.grid_seed = Some((collective.id, has_prefix));
            let r = self.store_stmt(stmt, target, value, span);
            self.grid_window = None;
            self.grid_seed = None;
            r
        };
        result?;

        // 6. Finish.
        let _ = i64t;
        self.once_per_block(&mut |this| {
            this.membar()?;
            let done = this.scratch_word(&scratch, this.i32(1), span)?;
            let old = this.atomic_word(LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpAdd, done, 1)?;
            let blocks = this
                .b
                .build_int_z_extend(blocks, this.cx.context.i64_type(), "")?;
            let others = this.b.build_int_sub(blocks, this.i64(1), "")?;
            let last_done =
                this.b
                    .build_int_compare(IntPredicate::EQ, old, others, "grid.last_done")?;
            this.build_if(last_done, &mut |this| {
                this.membar()?;
                let words = this.b.build_int_add(
                    this.b
                        .build_int_truncate(blocks, this.cx.context.i32_type(), "")?,
                    this.i32(2),
                    "",
                )?;
                this.build_counted_loop(this.i32(0), words, this.i32(1), &mut |this, i| {
                    let word = this.scratch_word(&scratch, i, span)?;
                    this.b.build_store(word, this.i64(0))?;
                    Ok(())
                })
            })
        })?;
        Ok(())
    }

    /// The address of `scratch[i]`.
    fn scratch_word(
        &self,
        scratch: &super::body::ArrayRef<'ctx>,
        i: IntValue<'ctx>,
        span: Span,
    ) -> Result<PointerValue<'ctx>> {
        let i = self.index64(i, false)?;
        self.element_ptr(scratch, i, span)
    }

    /// `atomicrmw volatile OP ptr, value monotonic` on an `i64` word: volatile, so that the
    /// optimiser keeps a spinning read (`or 0`) an atomic instead of making it a plain load.
    fn atomic_word(
        &self,
        op: LLVMAtomicRMWBinOp,
        ptr: PointerValue<'ctx>,
        value: u64,
    ) -> Result<IntValue<'ctx>> {
        let value = self.cx.context.i64_type().const_int(value, false);
        self.atomic_word_value(op, ptr, value)
    }

    fn atomic_word_value(
        &self,
        op: LLVMAtomicRMWBinOp,
        ptr: PointerValue<'ctx>,
        value: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>> {
        let old = self.atomicrmw(op, ptr, value.into())?;
        // SAFETY: `old` is the `atomicrmw` instruction just built.
        unsafe { LLVMSetVolatile(old.as_value_ref(), 1) };
        Ok(old.into_int_value())
    }

    /// Publishes `word` at `ptr` (an atomic exchange: one indivisible 64-bit write).
    fn publish(&self, ptr: PointerValue<'ctx>, word: IntValue<'ctx>) -> Result<()> {
        self.atomic_word_value(LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpXchg, ptr, word)?;
        Ok(())
    }

    /// `membar.gl`: orders this thread's accesses to global memory as every thread of the GPU
    /// sees them (LLVM 19's NVPTX back end cannot select a `fence`).
    fn membar(&self) -> Result<()> {
        self.b
            .build_call(self.intrinsic(Intrinsic::MembarGl), &[], "")?;
        Ok(())
    }

    /// `flag << 32 | bits(v)`: a value of at most 32 bits and its flag in one word.
    fn pack(
        &self,
        flag: u64,
        v: BasicValueEnum<'ctx>,
        ty: &Ty,
        span: Span,
    ) -> Result<IntValue<'ctx>> {
        let i32t = self.cx.context.i32_type();
        let i64t = self.cx.context.i64_type();
        let bits = match ty {
            Ty::Scalar(Scalar::Float32) => self.b.build_bit_cast(v, i32t, "")?.into_int_value(),
            // `Float16` and `BFloat16`: their 16 bits.
            Ty::Scalar(Scalar::Float16 | Scalar::BFloat16) => {
                let i16t = self.cx.context.i16_type();
                let half = self.b.build_bit_cast(v, i16t, "")?.into_int_value();
                self.b.build_int_z_extend(half, i32t, "")?
            }
            Ty::Scalar(s) if s.is_integer() || *s == Scalar::Bool => {
                let v = v.into_int_value();
                if v.get_type().get_bit_width() < 32 {
                    self.b.build_int_z_extend(v, i32t, "")?
                } else {
                    v
                }
            }
            _ => {
                return Err(CodegenError::internal(
                    "a grid-wide collective of an element wider than 32 bits (the checker rejects it, E0703)",
                    span,
                ))
            }
        };
        let wide = self.b.build_int_z_extend(bits, i64t, "")?;
        let flag = i64t.const_int(flag << 32, false);
        Ok(self.b.build_or(wide, flag, "word")?)
    }

    /// The value of a published word.
    fn unpack(
        &self,
        word: IntValue<'ctx>,
        ty: &Ty,
        reg_ty: inkwell::types::BasicTypeEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let i32t = self.cx.context.i32_type();
        let low = self.b.build_int_truncate(word, i32t, "")?;
        Ok(match ty {
            Ty::Scalar(Scalar::Float32) => self.b.build_bit_cast(low, reg_ty, "")?,
            Ty::Scalar(Scalar::Float16 | Scalar::BFloat16) => {
                let i16t = self.cx.context.i16_type();
                let half = self.b.build_int_truncate(low, i16t, "")?;
                self.b.build_bit_cast(half, reg_ty, "")?
            }
            _ => {
                let int = reg_ty.into_int_type();
                if int.get_bit_width() < 32 {
                    self.b.build_int_truncate(low, int, "")?.into()
                } else {
                    low.into()
                }
            }
        })
    }

    /// Thread 0's look-back from `ticket - 1`: the left fold, in vector order, of the values of
    /// every ticket before it, `f(...f(f(a0, a1), a2)..., a(ticket - 1))`, bit for bit whatever
    /// the timing. It walks back to the nearest inclusive word (spinning on words still empty),
    /// then folds forward from it: a word met on the way forward that has become inclusive
    /// meanwhile is taken as the fold so far. Folding backwards as the walk goes (`f(v, acc)`)
    /// would group a `Float32` sum by how many aggregates the timing left before the inclusive
    /// word, and the total would change from run to run on a GPU (it did, 2026-11-27); each
    /// inclusive word, by induction, is the left fold, so the forward fold from any of them is
    /// the same left fold.
    #[allow(clippy::too_many_arguments)]
    fn look_back(
        &mut self,
        scratch: &super::body::ArrayRef<'ctx>,
        ticket: IntValue<'ctx>,
        ty: &Ty,
        reg_ty: inkwell::types::BasicTypeEnum<'ctx>,
        span: Span,
        combine: &mut dyn FnMut(
            &mut Self,
            BasicValueEnum<'ctx>,
            BasicValueEnum<'ctx>,
        ) -> Result<BasicValueEnum<'ctx>>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let context = self.cx.context;
        let i32t = context.i32_type();
        let acc = self.alloca(reg_ty, "lookback.acc")?;
        let index = self.alloca(i32t.into(), "lookback.index")?;
        let from = self.b.build_int_sub(ticket, self.i32(1), "")?;
        self.b.build_store(index, from)?;
        let spin = context.append_basic_block(self.function, "lookback.spin");
        let ready = context.append_basic_block(self.function, "lookback.ready");
        let found = context.append_basic_block(self.function, "lookback.found");
        self.b.build_unconditional_branch(spin)?;

        // Back: spin until the word of ticket `index` holds a flag; stop at an inclusive one.
        self.b.position_at_end(spin);
        let i = self.b.build_load(i32t, index, "i")?.into_int_value();
        let (word, flag) = self.read_word(scratch, i, span)?;
        let empty = self
            .b
            .build_int_compare(IntPredicate::EQ, flag, self.i64(0), "")?;
        self.b.build_conditional_branch(empty, spin, ready)?;
        self.b.position_at_end(ready);
        let inclusive = self.is_inclusive(flag)?;
        let next = self.b.build_int_sub(i, self.i32(1), "")?;
        self.b.build_store(index, next)?;
        // Ticket 0 always publishes an inclusive word, so the walk stops there at the latest.
        self.b.build_conditional_branch(inclusive, found, spin)?;

        // Forward: from the inclusive word of ticket `i` to `ticket - 1`, every word already
        // published (the walk back saw each one).
        self.b.position_at_end(found);
        let v = self.unpack(word, ty, reg_ty)?;
        self.b.build_store(acc, v)?;
        let after = self.b.build_int_add(i, self.i32(1), "")?;
        self.build_counted_loop(after, ticket, self.i32(1), &mut |this, k| {
            let (word, flag) = this.read_word(scratch, k, span)?;
            let v = this.unpack(word, ty, reg_ty)?;
            let inclusive = this.is_inclusive(flag)?;
            let so_far = this.b.build_load(reg_ty, acc, "")?;
            let folded = combine(this, so_far, v)?;
            let next = this.b.build_select(inclusive, v, folded, "")?;
            this.b.build_store(acc, next)?;
            Ok(())
        })?;
        Ok(self.b.build_load(reg_ty, acc, "lookback")?)
    }

    /// The word of ticket `i` (an atomic read) and its flag.
    fn read_word(
        &self,
        scratch: &super::body::ArrayRef<'ctx>,
        i: IntValue<'ctx>,
        span: Span,
    ) -> Result<(IntValue<'ctx>, IntValue<'ctx>)> {
        let slot = self.b.build_int_add(i, self.i32(2), "")?;
        let ptr = self.scratch_word(scratch, slot, span)?;
        let word = self.atomic_word(LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpOr, ptr, 0)?;
        let shift = self.cx.context.i64_type().const_int(32, false);
        let flag = self.b.build_right_shift(word, shift, false, "flag")?;
        Ok((word, flag))
    }

    fn is_inclusive(&self, flag: IntValue<'ctx>) -> Result<IntValue<'ctx>> {
        let inclusive = self.cx.context.i64_type().const_int(INCLUSIVE, false);
        Ok(self
            .b
            .build_int_compare(IntPredicate::EQ, flag, inclusive, "inclusive")?)
    }

    /// A value computed by thread 0 (`compute`), broadcast to every thread through a
    /// one-element shared array: a shared store, one barrier, a shared load.
    fn leader_broadcast(
        &mut self,
        ty: &Ty,
        name: &str,
        span: Span,
        compute: &mut dyn FnMut(&mut Self) -> Result<BasicValueEnum<'ctx>>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let slot = self.shared_array(name, ty, &[1], span)?;
        self.touch(span)?;
        let first = Element {
            index: self.i64(0),
            in_bounds: None,
        };
        self.once_per_block(&mut |this| {
            let v = compute(this)?;
            this.store_element(&slot, &first, v, span)
        })?;
        self.touch(span)?;
        self.load_element(&slot, &first, span)
    }
}
