//! `f /: v` (left, prefix) and `f :/ v` (right, suffix) scans: inclusive, per block, fused into
//! the statement that consumes them.
//!
//! A scan is computed one tile of `BLOCKSIZE` elements at a time, inside the consumer's sweep
//! (`vector.rs`): thread `t` holds element `tile * BLOCKSIZE + t`. Per tile:
//! 1. **Warp scan** (Kogge-Stone with shuffles): for a left scan, lane `i` takes
//!    `f(lane i - offset's, mine)` (`shfl.sync.up`) for offsets 1, 2, 4, 8, 16; for a right scan
//!    `f(mine, lane i + offset's)` (`shfl.sync.down`). Lane `i` then holds the fold of its
//!    warp's elements up to (from) itself.
//! 2. **Block combine**: the last (first) valid lane of each warp writes its warp's total to a
//!    small shared array, one barrier, every warp scans the warps' totals with the same shuffles
//!    and combines the total of the warps before (after) it into its lanes. The tile's total
//!    comes out uniform, from a `shfl.sync.idx`.
//! 3. **Carry**: the combination of all earlier tiles (later ones, visited first, for a right
//!    scan) is combined into every element and into the new carry.
//!
//! `f`'s operands are always in vector order, so non-commutative associative functions work.
//! The shared array is double-buffered by tile parity: the next tile's writes cannot overtake
//! this tile's reads, because every thread passes the next tile's barrier first. One barrier per
//! tile; none when a block is one warp.

use super::body::{Body, Result};
use super::error::CodegenError;
use super::intrinsics::ShuffleKind;
use super::reduce::scratch_access;
use super::sync::AccessKind;
use super::vector::{Pos, Shape, Sweep};
use crate::kir::SweepPlan;
use crate::syntax::ast::{CollectiveOp, Expr, ExprKind};
use crate::syntax::span::Span;
use crate::syntax::visit::scans_in;
use inkwell::values::BasicValueEnum;
use inkwell::IntPredicate;

impl<'a, 'ctx> Body<'a, 'ctx> {
    /// The scan `e` at one position: `x` is the operand's element there (zero where invalid).
    /// Runs in block-uniform code.
    pub fn block_scan(
        &mut self,
        e: &Expr,
        op: CollectiveOp,
        x: BasicValueEnum<'ctx>,
        pos: &Pos<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let (f, bound_exprs, _, _) = self.collective_parts(e)?;
        let mut bound = Vec::with_capacity(bound_exprs.len());
        for arg in bound_exprs {
            bound.push(self.arg_value(arg)?);
        }
        let left = op == CollectiveOp::ScanLeft;
        // `earlier` and `later` in vector order.
        let combine =
            |this: &mut Self, earlier: BasicValueEnum<'ctx>, later: BasicValueEnum<'ctx>| {
                this.combine(f, e, &bound, earlier, later)
            };
        let elem_ty = self.ty_of(e).element().clone();
        let reg_ty = self.reg_type(&elem_ty, e.span)?;
        let zero = reg_ty.const_zero();
        let lanes = self.lanes(e.span)?;
        let in_warp = self.warp_count(pos.count, &lanes)?;
        let mine = self
            .b
            .build_int_compare(IntPredicate::ULT, lanes.lane, in_warp, "mine")?;

        // 1. Warp scan.
        let mut v = x;
        let mut offset = 1u32;
        while offset < lanes.width {
            let off = self.i32(i64::from(offset));
            let kind = if left {
                ShuffleKind::Up
            } else {
                ShuffleKind::Down
            };
            let other = self.shuffle(kind, v, off, &lanes)?;
            let takes = if left {
                let far = self
                    .b
                    .build_int_compare(IntPredicate::UGE, lanes.lane, off, "")?;
                self.b.build_and(far, mine, "takes")?
            } else {
                let partner = self.b.build_int_add(lanes.lane, off, "")?;
                self.b
                    .build_int_compare(IntPredicate::ULT, partner, in_warp, "takes")?
            };
            let current = v;
            v = self.value_when(takes, current, &mut |this| {
                if left {
                    combine(this, other, current)
                } else {
                    combine(this, current, other)
                }
            })?;
            offset *= 2;
        }

        // 2. Block combine. The tile's total is only needed to carry into another tile.
        let total = if lanes.warps == 1 {
            if pos.single {
                return Ok(v);
            }
            let source = if left {
                self.b.build_int_sub(in_warp, self.i32(1), "last")?
            } else {
                self.i32(0)
            };
            self.shuffle(ShuffleKind::Idx, v, source, &lanes)?
        } else {
            let scratch = self.scratch_for(e, &elem_ty, lanes.warps, 2, "scan.partials")?;
            // The warp's total is in its last valid lane (left) or lane 0 (right). One fixed
            // lane writes it: the last when every warp is full, else lane 0 after a broadcast.
            let full = in_warp.is_const();
            let (writer_lane, warp_total) = match (left, full) {
                (true, true) => (self.i32(i64::from(lanes.width - 1)), v),
                (true, false) => {
                    let last = self.b.build_int_sub(in_warp, self.i32(1), "last")?;
                    let last = self
                        .b
                        .build_and(last, self.i32(i64::from(lanes.width - 1)), "")?;
                    (
                        self.i32(0),
                        self.shuffle(ShuffleKind::Idx, v, last, &lanes)?,
                    )
                }
                (false, _) => (self.i32(0), v),
            };
            let is_writer =
                self.b
                    .build_int_compare(IntPredicate::EQ, lanes.lane, writer_lane, "")?;
            let any = self
                .b
                .build_int_compare(IntPredicate::SGT, in_warp, self.i32(0), "")?;
            let writes = self.b.build_and(is_writer, any, "writes")?;
            let slot = self.scratch_slot(pos.parity, lanes.warps, lanes.warp)?;
            self.when(writes, &mut |this| {
                this.store_element(&scratch, &slot, warp_total, e.span)
            })?;
            self.collective_barrier(e.span, "a scan")?;
            let warps = self.warps_with(pos.count, &lanes)?;
            let reads = self
                .b
                .build_int_compare(IntPredicate::ULT, lanes.lane, warps, "")?;
            // Masked: only lanes below the number of warps read, and the mask says so plainly.
            let lane = self
                .b
                .build_and(lanes.lane, self.i32(i64::from(lanes.warps - 1)), "")?;
            let theirs = self.scratch_slot(pos.parity, lanes.warps, lane)?;
            let mut partial = self.value_when(reads, zero, &mut |this| {
                this.load_element(&scratch, &theirs, e.span)
            })?;
            let mut offset = 1u32;
            while offset < lanes.warps {
                let off = self.i32(i64::from(offset));
                let kind = if left {
                    ShuffleKind::Up
                } else {
                    ShuffleKind::Down
                };
                let other = self.shuffle(kind, partial, off, &lanes)?;
                // Left: lane `l` takes lane `l - off`'s partial when there is one. Lanes past
                // the warps hold zeros and combine them too, unread: a lane below the warps
                // reads only lanes below itself, and the broadcasts below read lanes below the
                // warps. (`l >= off` alone is the first stage's test again: one compare.)
                let takes = if left {
                    self.b
                        .build_int_compare(IntPredicate::UGE, lanes.lane, off, "takes")?
                } else {
                    let partner = self.b.build_int_add(lanes.lane, off, "")?;
                    self.b
                        .build_int_compare(IntPredicate::ULT, partner, warps, "takes")?
                };
                let current = partial;
                partial = self.value_when(takes, current, &mut |this| {
                    if left {
                        combine(this, other, current)
                    } else {
                        combine(this, current, other)
                    }
                })?;
                offset *= 2;
            }
            // The warps before this one (after it, for a right scan). `shfl.sync.idx` reads lane
            // `b & 31`: warp 0's `0 - 1` and the last warp's `warps` need no mask (their results
            // are not taken), and none is built.
            let (neighbour, has_neighbour) = if left {
                let before = self.b.build_int_sub(lanes.warp, self.i32(1), "")?;
                let has =
                    self.b
                        .build_int_compare(IntPredicate::UGT, lanes.warp, self.i32(0), "")?;
                (before, has)
            } else {
                let after = self.b.build_int_add(lanes.warp, self.i32(1), "")?;
                let has = self
                    .b
                    .build_int_compare(IntPredicate::ULT, after, warps, "")?;
                (after, has)
            };
            let outside = self.shuffle(ShuffleKind::Idx, partial, neighbour, &lanes)?;
            let takes = self.b.build_and(has_neighbour, mine, "")?;
            let current = v;
            v = self.value_when(takes, current, &mut |this| {
                if left {
                    combine(this, outside, current)
                } else {
                    combine(this, current, outside)
                }
            })?;
            if pos.single {
                return Ok(v);
            }
            let source = if left {
                self.b.build_int_sub(warps, self.i32(1), "last")?
            } else {
                self.i32(0)
            };
            self.shuffle(ShuffleKind::Idx, partial, source, &lanes)?
        };

        // 3. Carry from the tiles visited before.
        let carry = self.scan_carry(e, reg_ty)?;
        let c = self.b.build_load(reg_ty, carry, "carry")?;
        let not_first = self.b.build_not(pos.first, "")?;
        // A grid-wide scan's carry starts at the block's prefix (`grid.rs`), if it has one.
        let not_first = match self.grid_seed {
            Some((id, has_prefix)) if id == e.id => {
                self.b.build_or(not_first, has_prefix, "carried")?
            }
            _ => not_first,
        };
        let carries = self.b.build_and(not_first, mine, "")?;
        let current = v;
        let v = self.value_when(carries, current, &mut |this| {
            if left {
                combine(this, c, current)
            } else {
                combine(this, current, c)
            }
        })?;
        let new_carry = self.value_when(not_first, total, &mut |this| {
            if left {
                combine(this, c, total)
            } else {
                combine(this, total, c)
            }
        })?;
        self.b.build_store(carry, new_carry)?;
        Ok(v)
    }

    /// The carry of scan `e` across tiles: one private variable per scan.
    pub(super) fn scan_carry(
        &mut self,
        e: &Expr,
        reg_ty: inkwell::types::BasicTypeEnum<'ctx>,
    ) -> Result<inkwell::values::PointerValue<'ctx>> {
        if let Some(ptr) = self.scan_carries.get(&e.id) {
            return Ok(*ptr);
        }
        let ptr = self.alloca(reg_ty, "scan.carry")?;
        self.scan_carries.insert(e.id, ptr);
        Ok(ptr)
    }

    /// Before a sweep that computes the scans inside `e`: their scratch arrays may still be
    /// read by a previous run of the same statement (in a loop).
    pub fn before_scans(&mut self, e: &Expr) -> Result<()> {
        let block_size = self.block_size(e.span)?;
        if block_size <= 32 {
            return Ok(());
        }
        let mut scans = Vec::new();
        scans_in(e, &mut scans);
        for scan in scans {
            let elem = self.ty_of(scan).element().clone();
            let array = self.scratch_for(scan, &elem, block_size / 32, 2, "scan.partials")?;
            self.touch(vec![scratch_access(&array, AccessKind::Write, scan)])?;
        }
        Ok(())
    }
}

impl<'a, 'ctx> Body<'a, 'ctx> {
    /// A consumer whose vector holds both a left and a right scan over more than one tile: one
    /// sweep cannot serve both (a left scan's carry needs the tiles in increasing order, a right
    /// scan's in decreasing order). Each scan is computed ahead, innermost first, in a sweep of
    /// its own direction, into a private array of one slot per tile (`materialised`); the
    /// consumer's sweep then reads them like register vectors. `kir-sweeps` decides the number
    /// of slots (`scans ahead`, at most `BUFFER_SLOTS`; E0811 beyond). Returns the consumer's
    /// shape: no scans left, walked by unrolled slots.
    pub fn materialise_mixed_scans(
        &mut self,
        exprs: &[&Expr],
        shape: Shape<'ctx>,
        plan: &SweepPlan,
        span: Span,
    ) -> Result<Shape<'ctx>> {
        if !(shape.left_scan && shape.right_scan) {
            return Ok(shape);
        }
        // kir-sweeps decided it (and reported E0811 where it needs more than BUFFER_SLOTS); one
        // tile needs nothing ahead: the one sweep computes both.
        let Some(slots) = plan.scans_ahead else {
            return Ok(shape);
        };
        let mut scans = Vec::new();
        for e in exprs {
            scans_in(e, &mut scans);
        }
        // Pre-order reversed: every scan after the scans inside it.
        scans.reverse();
        let pass = Shape {
            registers: true,
            left_scan: false,
            right_scan: false,
            ..shape
        };
        let sweep = Sweep::Unrolled { slots };
        for scan in scans {
            let ExprKind::Collective { op, operand, .. } = &scan.kind else {
                continue;
            };
            let op = *op;
            let reg_ty = self.reg_type(self.ty_of(scan).element(), scan.span)?;
            let buffer = self.alloca_array(reg_ty, slots, "scan.values")?;
            let zero = self.zero_of(self.ty_of(operand).element(), operand.span)?;
            let reverse = op == CollectiveOp::ScanRight;
            self.sweep(&pass, sweep, reverse, span, &mut |this, pos| {
                this.tile_prepare(operand, pos)?;
                let x = this.value_when(pos.valid, zero, &mut |this| this.elem(operand, pos))?;
                let y = this.located(scan.span, |this| this.block_scan(scan, op, x, pos))?;
                let slot = pos.slot.ok_or_else(|| {
                    CodegenError::internal("an unrolled sweep without slots", span)
                })?;
                let ptr = this.slot_ptr(buffer, reg_ty, slots, slot)?;
                this.b.build_store(ptr, y)?;
                Ok(())
            })?;
            self.materialised.insert(scan.id, (buffer, reg_ty, slots));
        }
        Ok(pass)
    }
}
