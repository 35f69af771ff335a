//! The steps of a collective's expansion (`kir::Step`), emitted as `kir-collectives` lists them:
//! the offsets, the lanes each step tests, the partials' slots, the lanes read from and the
//! shuffles' clamps are the step's, and the number of lanes (warps) that hold a value is the
//! steps' where it is known when compiled. What is left here is what only the emitted code
//! knows: the values, and a count known only at run time, from the tile's.

use super::body::{ArrayRef, Body, Result};
use super::error::CodegenError;
use super::intrinsics::ShuffleKind;
use super::warp::Lanes;
use crate::check::Callee;
use crate::kir::{
    CollectiveSteps, Count, Direction, Identity, LaneTest, Source, Step, Tiles, Values, Writer,
};
use crate::syntax::ast::Expr;
use inkwell::values::{BasicValueEnum, IntValue};
use inkwell::IntPredicate;

/// What the steps of one collective work on.
pub(super) struct Expansion<'e, 'ctx> {
    /// The collective (a grid-wide scan's, for its aggregate).
    pub e: &'e Expr,
    pub f: Callee,
    pub bound: &'e [BasicValueEnum<'ctx>],
    pub lanes: Lanes<'ctx>,
    /// How many of the block's first threads hold a value.
    pub count: IntValue<'ctx>,
    /// The tile's half of the partials.
    pub parity: IntValue<'ctx>,
    /// The partials, where the caller made them (a reduction's); a scan's are made at its
    /// first store.
    pub scratch: Option<ArrayRef<'ctx>>,
    /// What the barrier is inside, for its reports: `a reduction`, `a scan`.
    pub what: &'static str,
    /// The sweep has one tile (a reduction folded per thread, a scan in an unrolled sweep of one
    /// slot): `kir-collectives` planned it so (a scan then ends before its total).
    pub one_tile: bool,
    /// A scan's first tile (no carry yet); `None` for a reduction.
    pub first: Option<IntValue<'ctx>>,
}

/// The values after the steps: each lane's, and the broadcast one (a reduction's result, a
/// scan's tile total).
pub(super) struct Expanded<'ctx> {
    pub lanes: BasicValueEnum<'ctx>,
    pub broadcast: Option<BasicValueEnum<'ctx>>,
}

/// The values and counts as the steps go.
struct State<'ctx> {
    /// How many warps hold a value, as `kir-collectives` planned it.
    planned_warps: Count,
    v: BasicValueEnum<'ctx>,
    partial: Option<BasicValueEnum<'ctx>>,
    broadcast: Option<BasicValueEnum<'ctx>>,
    /// Lanes of this warp that hold a value.
    in_warp: IntValue<'ctx>,
    /// Warps that hold a value, from the partials' load on.
    warps: Option<IntValue<'ctx>>,
}

impl<'a, 'ctx> Body<'a, 'ctx> {
    /// Emits the steps `kir-collectives` planned for this tile (`planned`: one list per count of
    /// the threads that hold a value) on `v`, this thread's value.
    pub(super) fn expand(
        &mut self,
        planned: &[CollectiveSteps],
        x: &mut Expansion<'_, 'ctx>,
        v: BasicValueEnum<'ctx>,
    ) -> Result<Expanded<'ctx>> {
        let planned = steps_for(planned, x)?;
        let steps = &planned.steps;
        let in_warp = match planned.lanes {
            Count::Known(lanes) => self.i32(i64::from(lanes)),
            Count::RunTime => self.warp_count(x.count, &x.lanes)?,
        };
        let mut s = State {
            v,
            partial: None,
            broadcast: None,
            in_warp,
            warps: None,
            planned_warps: planned.warps,
        };
        for step in steps {
            self.step(step, x, &mut s)?;
        }
        Ok(Expanded {
            lanes: s.v,
            broadcast: s.broadcast,
        })
    }

    fn step(
        &mut self,
        step: &Step,
        x: &mut Expansion<'_, 'ctx>,
        s: &mut State<'ctx>,
    ) -> Result<()> {
        let lanes = x.lanes;
        match *step {
            Step::Shuffle {
                values,
                direction,
                offset,
                test,
                clamp,
            } => {
                let (current, count) = match values {
                    Values::Lanes => (s.v, s.in_warp),
                    Values::Partials => (self.partial(s, x)?, self.warps(s, x)?),
                };
                let off = self.i32(i64::from(offset));
                let kind = match direction {
                    Direction::Down => ShuffleKind::Down,
                    Direction::Up => ShuffleKind::Up,
                };
                let other = self.shuffle(kind, current, off, clamp, &lanes)?;
                let takes = self.lane_test(test, off, count, x)?;
                let combined = self.value_when(takes, current, &mut |this| {
                    this.in_order(x, direction, current, other)
                })?;
                match values {
                    Values::Lanes => s.v = combined,
                    Values::Partials => s.partial = Some(combined),
                }
            }
            Step::StorePartial(writer) => {
                let scratch = self.partials_of(x)?;
                let (writer_lane, value) = match writer {
                    Writer::Lane(lane) => (self.i32(i64::from(lane)), s.v),
                    Writer::LastHolder { clamp } => {
                        let last = self.b.build_int_sub(s.in_warp, self.i32(1), "last")?;
                        let last =
                            self.b
                                .build_and(last, self.i32(i64::from(lanes.width - 1)), "")?;
                        let total = self.shuffle(ShuffleKind::Idx, s.v, last, clamp, &lanes)?;
                        (self.i32(0), total)
                    }
                };
                let is_writer =
                    self.b
                        .build_int_compare(IntPredicate::EQ, lanes.lane, writer_lane, "")?;
                let any =
                    self.b
                        .build_int_compare(IntPredicate::SGT, s.in_warp, self.i32(0), "")?;
                let writes = self.b.build_and(is_writer, any, "writes")?;
                let slot =
                    self.scratch_slot(&scratch, x.parity, lanes.warps, lanes.warp, x.e.span)?;
                let span = x.e.span;
                self.when(writes, &mut |this| {
                    this.store_element(&scratch, &slot, value, span)
                })?;
            }
            Step::Barrier => self.collective_barrier(x.e.span, x.what)?,
            Step::LoadPartials { mask } => {
                let scratch = self.partials_of(x)?;
                let warps = match s.planned_warps {
                    Count::Known(warps) => self.i32(i64::from(warps)),
                    Count::RunTime => self.warps_with(x.count, &lanes)?,
                };
                s.warps = Some(warps);
                let reads = self
                    .b
                    .build_int_compare(IntPredicate::ULT, lanes.lane, warps, "")?;
                // Masked: only lanes below the number of warps read, and the mask says so
                // plainly.
                let lane = self
                    .b
                    .build_and(lanes.lane, self.i32(i64::from(mask)), "")?;
                let theirs = self.scratch_slot(&scratch, x.parity, lanes.warps, lane, x.e.span)?;
                let zero = s.v.get_type().const_zero();
                let span = x.e.span;
                s.partial = Some(self.value_when(reads, zero, &mut |this| {
                    this.load_element(&scratch, &theirs, span)
                })?);
            }
            Step::NeighbourWarps { direction, clamp } => {
                let partial = self.partial(s, x)?;
                let warps = self.warps(s, x)?;
                // `shfl.sync.idx` reads lane `b & 31`: warp 0's `0 - 1` and the last warp's
                // `warps` need no mask (their results are not taken), and none is built.
                let (neighbour, has_neighbour) = match direction {
                    Direction::Up => {
                        let before = self.b.build_int_sub(lanes.warp, self.i32(1), "")?;
                        let has = self.b.build_int_compare(
                            IntPredicate::UGT,
                            lanes.warp,
                            self.i32(0),
                            "",
                        )?;
                        (before, has)
                    }
                    Direction::Down => {
                        let after = self.b.build_int_add(lanes.warp, self.i32(1), "")?;
                        let has = self
                            .b
                            .build_int_compare(IntPredicate::ULT, after, warps, "")?;
                        (after, has)
                    }
                };
                let outside = self.shuffle(ShuffleKind::Idx, partial, neighbour, clamp, &lanes)?;
                let current = s.v;
                s.v = self.value_when(has_neighbour, current, &mut |this| {
                    this.in_order(x, direction, current, outside)
                })?;
            }
            Step::Broadcast {
                values,
                from,
                clamp,
            } => {
                let (value, count) = match values {
                    Values::Lanes => (s.v, s.in_warp),
                    Values::Partials => (self.partial(s, x)?, self.warps(s, x)?),
                };
                let source = match from {
                    Source::Lane(lane) => self.i32(i64::from(lane)),
                    Source::Last => self.b.build_int_sub(count, self.i32(1), "last")?,
                };
                s.broadcast = Some(self.shuffle(ShuffleKind::Idx, value, source, clamp, &lanes)?);
            }
            Step::Carry { direction, from } => self.carry(direction, from, x, s)?,
        }
        Ok(())
    }

    /// Whether a lane combines at a shuffle step by `off` over values of which `count` are held.
    fn lane_test(
        &mut self,
        test: LaneTest,
        off: IntValue<'ctx>,
        count: IntValue<'ctx>,
        x: &Expansion<'_, 'ctx>,
    ) -> Result<IntValue<'ctx>> {
        let lane = x.lanes.lane;
        Ok(match test {
            LaneTest::Every => self.bool_const(true),
            LaneTest::PartnerHolds => {
                // A reduction's partner lane is named (the verifier's notes may quote it).
                let name = if x.first.is_none() { "partner" } else { "" };
                let partner = self.b.build_int_add(lane, off, name)?;
                self.b
                    .build_int_compare(IntPredicate::ULT, partner, count, "takes")?
            }
            LaneTest::PartnerBelow => {
                self.b
                    .build_int_compare(IntPredicate::UGE, lane, off, "takes")?
            }
        })
    }

    /// The carry of the tiles visited before, combined into each value (a lane that holds no
    /// element is not read), and the tile's total into the new carry. From `f`'s identity
    /// (`from`, stored before the first tile: `Body::before_scans`, `grid.rs`), every tile
    /// combines it; else the first tile, which has none, takes it from no one.
    fn carry(
        &mut self,
        direction: Direction,
        from: Option<Identity>,
        x: &Expansion<'_, 'ctx>,
        s: &mut State<'ctx>,
    ) -> Result<()> {
        let (Some(first), Some(total)) = (x.first, s.broadcast) else {
            return Err(CodegenError::internal(
                "a carry without a tile, or before the tile's total",
                x.e.span,
            ));
        };
        let reg_ty = s.v.get_type();
        let carry = self.scan_carry(x.e, reg_ty)?;
        let c = self.b.build_load(reg_ty, carry, "carry")?;
        if from.is_some() {
            s.v = self.in_order(x, direction, s.v, c)?;
            let new_carry = self.in_order(x, direction, total, c)?;
            self.b.build_store(carry, new_carry)?;
            return Ok(());
        }
        let not_first = self.b.build_not(first, "")?;
        // A grid-wide scan's carry starts at the block's prefix (`grid.rs`), if it has one.
        let not_first = match self.grid_seed {
            Some((id, has_prefix)) if id == x.e.id => {
                self.b.build_or(not_first, has_prefix, "carried")?
            }
            _ => not_first,
        };
        let current = s.v;
        s.v = self.value_when(not_first, current, &mut |this| {
            this.in_order(x, direction, current, c)
        })?;
        let new_carry = self.value_when(not_first, total, &mut |this| {
            this.in_order(x, direction, total, c)
        })?;
        self.b.build_store(carry, new_carry)?;
        Ok(())
    }

    /// `f(mine, theirs)` when `theirs` comes from later in the vector (`Down`), else
    /// `f(theirs, mine)`.
    fn in_order(
        &mut self,
        x: &Expansion<'_, 'ctx>,
        direction: Direction,
        mine: BasicValueEnum<'ctx>,
        theirs: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        match direction {
            Direction::Down => self.combine(x.f, x.e, x.bound, mine, theirs),
            Direction::Up => self.combine(x.f, x.e, x.bound, theirs, mine),
        }
    }

    /// The collective's partials: the caller's, or a scan's own.
    fn partials_of(&mut self, x: &mut Expansion<'_, 'ctx>) -> Result<ArrayRef<'ctx>> {
        if let Some(scratch) = &x.scratch {
            return Ok(scratch.clone());
        }
        let elem = self.ty_of(x.e).element().clone();
        let slots = self.collective_plan(x.e.span)?.partials.ok_or_else(|| {
            CodegenError::internal("a scan's partials in a block of one warp", x.e.span)
        })?;
        let scratch = self.scratch_for(x.e, &elem, slots, "scan.partials")?;
        x.scratch = Some(scratch.clone());
        Ok(scratch)
    }

    fn partial(&self, s: &State<'ctx>, x: &Expansion<'_, 'ctx>) -> Result<BasicValueEnum<'ctx>> {
        s.partial
            .ok_or_else(|| CodegenError::internal("partials used before they are loaded", x.e.span))
    }

    fn warps(&self, s: &State<'ctx>, x: &Expansion<'_, 'ctx>) -> Result<IntValue<'ctx>> {
        s.warps
            .ok_or_else(|| CodegenError::internal("partials used before they are loaded", x.e.span))
    }
}

/// The steps `kir-collectives` planned for a tile in which `x.count` threads hold a value: those
/// for that count where code generation knows it when compiled, else those for a run-time count.
/// The plan and the sweep must agree on which counts are known, and on whether there is one tile:
/// an internal error otherwise.
fn steps_for<'p>(
    planned: &'p [CollectiveSteps],
    x: &Expansion<'_, '_>,
) -> Result<&'p CollectiveSteps> {
    let count = x
        .count
        .get_sign_extended_constant()
        .and_then(|c| u32::try_from(c).ok())
        .map_or(Count::RunTime, Count::Known);
    let tiles = match x.one_tile {
        true => Tiles::One,
        false => Tiles::Several,
    };
    planned
        .iter()
        .find(|p| p.count == count && p.tiles == tiles)
        .ok_or_else(|| {
            let count = match count {
                Count::Known(n) => format!("{n} threads"),
                Count::RunTime => "a run-time number of threads".to_string(),
            };
            let tiles = match tiles {
                Tiles::One => "one tile",
                Tiles::Several => "several tiles",
            };
            CodegenError::internal(
                format!("kir-collectives planned no steps for {count} holding a value, in {tiles}"),
                x.e.span,
            )
        })
}
