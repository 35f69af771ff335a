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
//! The shared array is double-buffered by slot parity in an unrolled sweep: the next slot's
//! writes cannot overtake this slot's reads, because every thread passes the next slot's barrier
//! first. A loop over tiles has a barrier after each tile instead (`vector.rs`, `Sweep::Tiles`).
//! One barrier per tile (two in a loop); none inside when a block is one warp.
//!
//! Where `f`'s identity is known (`sum`, `prod`, `min`, `max`), the carry starts from it before
//! the first tile, and every tile combines it with no test of which tile is first.
//!
//! `kir-collectives` lists these steps per scan (`kir::Step`, printed by `--emit=kir`);
//! `steps.rs` emits them.

use super::body::{Body, Result};
use super::error::CodegenError;
use super::steps::Expansion;
use super::vector::{Pos, Shape, Sweep};
use crate::kir::{Step, SweepPlan};
use crate::syntax::ast::{CollectiveOp, Expr, ExprKind};
use crate::syntax::span::Span;
use crate::syntax::visit::scans_in_skipping;
use inkwell::values::BasicValueEnum;

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
        let lanes = self.lanes(e.span)?;
        let plan = self.collective_plan(e.span)?;
        if plan.op != op {
            return Err(CodegenError::internal(
                "a scan planned as another collective",
                e.span,
            ));
        }
        let mut expansion = Expansion {
            e,
            f,
            bound: &bound,
            lanes,
            count: pos.count,
            parity: pos.parity,
            scratch: None,
            what: "a scan",
            one_tile: pos.single,
            first: Some(pos.first),
        };
        Ok(self.expand(&plan.steps, &mut expansion, x)?.lanes)
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

    /// The identity scan `e`'s carry starts from, where `kir-collectives` planned one.
    pub(super) fn carry_start(&self, e: &Expr) -> Result<Option<BasicValueEnum<'ctx>>> {
        let plan = self.collective_plan(e.span)?;
        let from = plan
            .steps
            .iter()
            .flat_map(|s| &s.steps)
            .find_map(|step| match step {
                Step::Carry { from, .. } => *from,
                _ => None,
            });
        let elem = self.ty_of(e).element().clone();
        from.map(|identity| self.identity_value(&elem, identity, e.span))
            .transpose()
    }

    /// Before a sweep that computes the scans inside `e`: their scratch arrays may still be
    /// read by a previous run of the same statement (in a loop), and a carry that starts from
    /// `f`'s identity starts there (a grid-wide scan's from its block's prefix: `grid.rs`). Not
    /// an indexed vector's scans: its copy computed them, before the statement, and wrote their
    /// partials there.
    pub fn before_scans(&mut self, e: &Expr) -> Result<()> {
        let mut scans = Vec::new();
        self.scans_computed(e, &mut scans);
        for scan in scans {
            let seeded = matches!(self.grid_seed, Some((id, _)) if id == scan.id);
            if let (Some(identity), false) = (self.carry_start(scan)?, seeded) {
                let carry = self.scan_carry(scan, identity.get_type())?;
                self.b.build_store(carry, identity)?;
            }
            // kir-collectives: a block of one warp has no partials.
            let Some(slots) = self.collective_plan(scan.span)?.partials else {
                continue;
            };
            let elem = self.ty_of(scan).element().clone();
            self.scratch_for(scan, &elem, slots, "scan.partials")?;
            self.touch(scan.span)?;
        }
        Ok(())
    }
}

impl<'a, 'ctx> Body<'a, 'ctx> {
    /// The scans the sweep over `e` computes, in pre-order ([`scans_in_skipping`]): not those
    /// inside an indexed computed vector (stored into a `shared` copy before its statement:
    /// `kir-indexed-copies`), but those in its subscripts. (Each use of a recomputed vector is
    /// already its initializer here.)
    fn scans_computed<'e>(&self, e: &'e Expr, out: &mut Vec<&'e Expr>) {
        let is_copy = |base: &Expr| self.indexed_vectors.contains(&base.span);
        scans_in_skipping(e, &is_copy, &|_| None, out);
    }

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
        // Not an indexed vector's scans: its copy computed them before the statement, which
        // reads the copy (`codegen/memory.rs`), so they are not computed again.
        let mut scans = Vec::new();
        for e in exprs {
            self.scans_computed(e, &mut scans);
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
