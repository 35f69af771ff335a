//! Warps: lane and warp ids, shuffles of values of any type, and how many lanes and warps hold
//! a value; the trees that reductions and scans are made of are `kir-collectives`' steps
//! (`steps.rs`).
//!
//! A shuffle moves 32 bits: wider values travel as `i32` pieces (`Int64`, `Float64`), narrower
//! ones widened (`Bool`, the `i8` of a `Bool` field), records field by field. Every shuffle is
//! executed by every thread of the warp (they stand in block-uniform code); lanes without a value
//! take part and their results are ignored, and the combining function is only ever called on
//! values that came from real elements (it is branched around otherwise: a `func` may loop on
//! garbage).

use super::body::{Body, Result};
use super::error::CodegenError;
use super::intrinsics::{Intrinsic, ShuffleKind};
use crate::syntax::span::Span;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValueEnum, IntValue};

/// A thread's place in its warp, and the warp's shape for this block size.
#[derive(Debug, Clone, Copy)]
pub struct Lanes<'ctx> {
    pub lane: IntValue<'ctx>,
    pub warp: IntValue<'ctx>,
    /// Threads per warp: 32, or `BLOCKSIZE` when that is smaller.
    pub width: u32,
    /// Warps per block.
    pub warps: u32,
    /// The `membermask` of every shuffle: all the warp's threads.
    pub mask: IntValue<'ctx>,
}

impl<'a, 'ctx> Body<'a, 'ctx> {
    /// `kir-collectives`' expansion of the collective at `span`, borrowed from the kernel IR
    /// (not from the body: the caller may go on emitting code while it reads the steps).
    pub fn collective_plan(&self, span: Span) -> Result<&'a crate::kir::CollectivePlan> {
        let plans = self.collectives;
        plans.and_then(|plans| plans.get(&span)).ok_or_else(|| {
            CodegenError::internal(
                "kir-collectives planned no expansion for this collective",
                span,
            )
        })
    }

    /// Lane and warp of this thread, in the warp shape `kir-collectives` gave the collective at
    /// `span`. Collectives need `BLOCKSIZE` to be a power of two (the checker's E0305), so a
    /// block is a whole number of warps or a part of one.
    pub fn lanes(&mut self, span: Span) -> Result<Lanes<'ctx>> {
        let block_size = self.block_size(span)?;
        let plan = self.collective_plan(span)?;
        if !block_size.is_power_of_two() || plan.width * plan.warps != block_size {
            return Err(CodegenError::internal(
                "a collective with a BLOCKSIZE that is not a power of two, or not its plan's",
                span,
            ));
        }
        let tid = self.tid()?;
        let lane = if plan.warps == 1 {
            tid
        } else {
            let last = self.i32(i64::from(plan.width - 1));
            self.b.build_and(tid, last, "lane")?
        };
        let warp = if plan.warps == 1 {
            self.i32(0)
        } else {
            let shift = self.i32(i64::from(plan.width.trailing_zeros()));
            self.b.build_right_shift(tid, shift, false, "warp")?
        };
        let mask = self
            .cx
            .context
            .i32_type()
            .const_int(u64::from(plan.mask), false);
        Ok(Lanes {
            lane,
            warp,
            width: plan.width,
            warps: plan.warps,
            mask,
        })
    }

    /// `shfl.sync` of a value of any register type, with `c` operand `clamp` (`kir-collectives`'
    /// step says which).
    pub fn shuffle(
        &mut self,
        kind: ShuffleKind,
        v: BasicValueEnum<'ctx>,
        arg: IntValue<'ctx>,
        clamp: u32,
        lanes: &Lanes<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let b = &self.b;
        let i32t = self.cx.context.i32_type();
        let i64t = self.cx.context.i64_type();
        Ok(match v.get_type() {
            BasicTypeEnum::IntType(t) if t.get_bit_width() == 32 => self
                .shuffle_i32(kind, v.into_int_value(), arg, clamp, lanes)?
                .into(),
            BasicTypeEnum::IntType(t) if t.get_bit_width() < 32 => {
                let wide = b.build_int_z_extend(v.into_int_value(), i32t, "")?;
                let moved = self.shuffle_i32(kind, wide, arg, clamp, lanes)?;
                self.b.build_int_truncate(moved, t, "")?.into()
            }
            BasicTypeEnum::IntType(t) if t.get_bit_width() == 64 => self
                .shuffle_i64(kind, v.into_int_value(), arg, clamp, lanes)?
                .into(),
            // `Float16` and `BFloat16`: their 16 bits, widened to an `i32` piece.
            BasicTypeEnum::FloatType(t)
                if t == self.cx.context.f16_type() || t == self.cx.context.bf16_type() =>
            {
                let i16t = self.cx.context.i16_type();
                let bits = b.build_bit_cast(v, i16t, "")?.into_int_value();
                let wide = b.build_int_z_extend(bits, i32t, "")?;
                let moved = self.shuffle_i32(kind, wide, arg, clamp, lanes)?;
                let narrow = self.b.build_int_truncate(moved, i16t, "")?;
                self.b.build_bit_cast(narrow, t, "")?
            }
            BasicTypeEnum::FloatType(t) if t == self.cx.context.f32_type() => {
                let bits = b.build_bit_cast(v, i32t, "")?.into_int_value();
                let moved = self.shuffle_i32(kind, bits, arg, clamp, lanes)?;
                self.b.build_bit_cast(moved, t, "")?
            }
            BasicTypeEnum::FloatType(t) => {
                let bits = b.build_bit_cast(v, i64t, "")?.into_int_value();
                let moved = self.shuffle_i64(kind, bits, arg, clamp, lanes)?;
                self.b.build_bit_cast(moved, t, "")?
            }
            BasicTypeEnum::StructType(t) => {
                let mut out = t.get_undef();
                for i in 0..t.count_fields() {
                    let field = self.b.build_extract_value(v.into_struct_value(), i, "")?;
                    let moved = self.shuffle(kind, field, arg, clamp, lanes)?;
                    out = self
                        .b
                        .build_insert_value(out, moved, i, "")?
                        .into_struct_value();
                }
                out.into()
            }
            other => {
                return Err(CodegenError::Internal {
                    message: format!("a warp shuffle of {other:?}"),
                    span: None,
                })
            }
        })
    }

    fn shuffle_i64(
        &mut self,
        kind: ShuffleKind,
        v: IntValue<'ctx>,
        arg: IntValue<'ctx>,
        clamp: u32,
        lanes: &Lanes<'ctx>,
    ) -> Result<IntValue<'ctx>> {
        let i32t = self.cx.context.i32_type();
        let i64t = self.cx.context.i64_type();
        let lo = self.b.build_int_truncate(v, i32t, "lo")?;
        let high = self
            .b
            .build_right_shift(v, i64t.const_int(32, false), false, "")?;
        let hi = self.b.build_int_truncate(high, i32t, "hi")?;
        let lo = self.shuffle_i32(kind, lo, arg, clamp, lanes)?;
        let hi = self.shuffle_i32(kind, hi, arg, clamp, lanes)?;
        let lo = self.b.build_int_z_extend(lo, i64t, "")?;
        let hi = self.b.build_int_z_extend(hi, i64t, "")?;
        let hi = self.b.build_left_shift(hi, i64t.const_int(32, false), "")?;
        Ok(self.b.build_or(hi, lo, "joined")?)
    }

    fn shuffle_i32(
        &mut self,
        kind: ShuffleKind,
        v: IntValue<'ctx>,
        arg: IntValue<'ctx>,
        clamp: u32,
        lanes: &Lanes<'ctx>,
    ) -> Result<IntValue<'ctx>> {
        // The `c` operand: no segments, and the highest (lowest, for up) lane a value may come
        // from (`kir-collectives`).
        let clamp = self.i32(i64::from(clamp));
        let function = self.intrinsic(Intrinsic::Shuffle(kind));
        let call = self.b.build_call(
            function,
            &[lanes.mask.into(), v.into(), arg.into(), clamp.into()],
            "shfl",
        )?;
        call.try_as_basic_value()
            .basic()
            .map(|v| v.into_int_value())
            .ok_or_else(|| CodegenError::Internal {
                message: "shfl.sync has no value".into(),
                span: None,
            })
    }

    /// `clamp(count - warp * width, 0, width)`: how many of this warp's lanes are among the
    /// block's first `count` threads.
    pub fn warp_count(&self, count: IntValue<'ctx>, lanes: &Lanes<'ctx>) -> Result<IntValue<'ctx>> {
        let block = i64::from(lanes.width) * i64::from(lanes.warps);
        if count
            .get_sign_extended_constant()
            .is_some_and(|c| c >= block)
        {
            // Every thread of the block holds a value: every warp is full.
            return Ok(self.i32(i64::from(lanes.width)));
        }
        if lanes.warps == 1 {
            return self.smin(
                self.smax(count, self.i32(0))?,
                self.i32(i64::from(lanes.width)),
            );
        }
        let start = self
            .b
            .build_int_mul(lanes.warp, self.i32(i64::from(lanes.width)), "")?;
        let left = self.b.build_int_sub(count, start, "")?;
        let left = self.smax(left, self.i32(0))?;
        self.smin(left, self.i32(i64::from(lanes.width)))
    }

    /// How many warps hold at least one of the block's first `count` threads.
    pub fn warps_with(&self, count: IntValue<'ctx>, lanes: &Lanes<'ctx>) -> Result<IntValue<'ctx>> {
        let block = i64::from(lanes.width) * i64::from(lanes.warps);
        if count
            .get_sign_extended_constant()
            .is_some_and(|c| c >= block)
        {
            return Ok(self.i32(i64::from(lanes.warps)));
        }
        let width = self.i32(i64::from(lanes.width));
        let count = self.smax(count, self.i32(0))?;
        self.ceil_div(count, width)
    }
}
