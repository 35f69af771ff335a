//! `kir-collectives`: how each reduction and scan is expanded at the kernel's block size, before
//! code generation emits it (`codegen/reduce.rs`, `codegen/scan.rs`).
//!
//! - **The warp.** A warp is 32 lanes, or the whole block when `BLOCKSIZE` is smaller; every
//!   shuffle's `membermask` names exactly the lanes that exist. (`shfl.sync` with a lane outside
//!   the block in its mask is undefined: at block sizes 2 to 16 the mask is `2^BLOCKSIZE - 1`.)
//! - **The tree.** A reduction and a right scan shuffle down, a left scan up, at offsets 1, 2, 4,
//!   ... below the warp's width.
//! - **The block.** With more than one warp, each warp's result goes through a shared array of
//!   partials (one slot per warp, double-buffered for the slots of an unrolled sweep; a loop over
//!   tiles has a barrier after each tile instead) and one barrier; with one warp, none.
//! - **The start** (reductions). A reduction whose threads fold their elements first, in a
//!   block-stride loop, starts every thread from `f`'s identity where it is known
//!   (`kir/commute.rs`): every lane then holds a value, and the trees test no lanes. Otherwise
//!   the first element starts the fold and the trees combine only the lanes that hold one.
//!
//! - **The steps.** Each plan is expanded into the steps code generation emits, in order
//!   (`Step`). A reduction: the warp's tree (testing that the partner lane holds a value unless
//!   every lane holds one), then with more than one warp lane 0 stores the warp's result into
//!   `partials[warp]`, the barrier, every warp loads the partials (lanes below the warps that
//!   hold one) and folds them with a second tree, and lane 0 broadcasts the result. A scan: the
//!   warp's tree (up: lanes at or above the offset take it, held or not, since nothing flows
//!   down; down: lanes whose partner holds one), then with more than one warp the warp's total
//!   goes to `partials[warp]` from the lane that holds it (the last lane of a left scan's warp,
//!   lane 0 of a right scan's), the barrier, the partials are loaded and scanned by a second
//!   tree, each lane combines the warps before (after) it, and, over several tiles, the tile's
//!   total is broadcast for the carry, which starts from `f`'s identity where it is known
//!   (every tile then combines it; else the first tile takes none). Every shuffle's clamp (its
//!   `c` operand) is the warp's last lane (down, idx) or 0 (up).
//! - **The counts.** The steps depend on how many of the block's threads hold a value in a tile
//!   (`CollectiveSteps`): each collective gets one list per count its sweeps give it. The count
//!   is known when compiled where the sweep's length is (`check::types::Len`, the shorter of a
//!   store's destination and value, the whole block for a reduction started from the identity)
//!   and the sweep unrolled (`kir-sweeps`): `clamp(len - slot * BLOCKSIZE, 0, BLOCKSIZE)` per
//!   slot, `min(len, BLOCKSIZE)` for a reduction folded per thread; a loop over tiles, a grid-wide
//!   chunk or a run-time length gives a run-time count. From it: each warp's lanes that hold a
//!   value (all of them in a full block; the count in a block of one warp) and the warps that
//!   hold one. A known full warp (block) drops a reduction's lane test (its partials' test), and
//!   makes a left scan's last lane its writer. A scan in an unrolled sweep of one slot covers one
//!   tile and stops before its total and carry. A scan in a store that names its own target gets
//!   the steps of the store's buffer too (an unrolled sweep of `kir-sweeps`' `buffer` slots):
//!   `kir-accesses` decides after this pass whether the store computes its elements ahead.
//!
//! A recomputed vector's collectives (evaluated again at each use) are planned once, by span,
//! with the steps for the tiles of every sweep that uses them: every copy is expanded the same
//! way.

mod tiles;

use super::commute::{self, Combining};
use super::{
    CollectivePlan, CollectiveSteps, Combine, Consumer, Count, Direction, Identity, Kernel,
    LaneTest, Module, Source, Start, Step, Sweep, Tiles, Values, Writer,
};
use crate::check::types::Ty;
use crate::check::Checked;
use crate::syntax::ast::{CollectiveOp, Expr, ExprKind, Item};
use crate::syntax::span::Span;
use crate::syntax::visit::{visit_block, visit_expr};
use std::collections::BTreeMap;
use tiles::{fold_tiles, Tiling};

/// Lanes in a full warp.
const WARP: u32 = 32;

pub fn run(module: &mut Module, checked: &Checked) {
    for kernel in &mut module.kernels {
        let tiling = Tiling::of(kernel, checked);
        kernel.collectives = Some(plans(kernel, checked, &tiling));
    }
}

/// The plan of every reduction and scan of `kernel`, by span.
fn plans(kernel: &Kernel, checked: &Checked, tiling: &Tiling) -> BTreeMap<Span, CollectivePlan> {
    let mut plans = BTreeMap::new();
    let Some(Item::Kernel(decl)) = checked.program.items.get(kernel.item) else {
        return plans;
    };
    visit_block(&decl.body, &mut |e| {
        visit_expr(e, &mut |e| {
            if let ExprKind::Collective { op, .. } = &e.kind {
                if *op != CollectiveOp::Map {
                    plans.insert(e.span, plan(kernel, checked, tiling, e, *op));
                }
            }
        })
    });
    plans
}

fn plan(
    kernel: &Kernel,
    checked: &Checked,
    tiling: &Tiling,
    e: &Expr,
    op: CollectiveOp,
) -> CollectivePlan {
    let block_size = kernel.block_size.max(1);
    let width = block_size.min(WARP);
    let warps = (block_size / WARP).max(1);
    let mask = if width == WARP {
        u32::MAX
    } else {
        (1u32 << width) - 1
    };
    let shape = Shape {
        block_size,
        width,
        warps,
    };
    let start = start(kernel, checked, e);
    // Every thread holds a value when each starts from the identity: the trees test no lanes.
    let every = matches!(start, Some(Start::Identity(_)));
    let folds = || -> Vec<CollectiveSteps> {
        fold_tiles(tiling, start, e.span, block_size)
            .into_iter()
            .map(|(count, tiles)| shape.fold_steps(count, tiles, every))
            .collect()
    };
    let (steps, aggregate) = match op {
        CollectiveOp::Reduce => (folds(), Vec::new()),
        // A grid-wide scan (it has a start) also reduces its chunk, tile by tile.
        _ => (
            tiling
                .scan(e.span)
                .map(|(count, tiles)| shape.scan_steps(op, count, tiles, identity(checked, e)))
                .collect(),
            match start {
                Some(_) => folds(),
                None => Vec::new(),
            },
        ),
    };
    CollectivePlan {
        op,
        width,
        warps,
        mask,
        partials: (warps > 1).then_some(match tiling.alternates(e.span, start) {
            true => 2 * warps,
            false => warps,
        }),
        start,
        steps,
        aggregate,
    }
}

/// The block's warps.
#[derive(Clone, Copy)]
struct Shape {
    block_size: u32,
    /// Lanes per warp.
    width: u32,
    warps: u32,
}

impl Shape {
    /// How many lanes of each warp, and how many warps, hold a value when `count` of the block's
    /// threads do: every lane of every warp for a full block; a block of one warp, its count.
    fn holders(self, count: Count) -> (Count, Count) {
        match count {
            Count::Known(n) if n >= self.block_size => {
                (Count::Known(self.width), Count::Known(self.warps))
            }
            Count::Known(n) => (
                match self.warps {
                    1 => Count::Known(n.min(self.width)),
                    _ => Count::RunTime,
                },
                Count::Known(n.div_ceil(self.width)),
            ),
            Count::RunTime => (Count::RunTime, Count::RunTime),
        }
    }

    /// The `c` operand of a shuffle: the highest lane a value may come from (down, idx), the
    /// warp's last (in a block of fewer than 32 threads, lanes past it do not exist, and reading
    /// one is undefined in PTX: it is outside the mask; a lane whose source would lie past it
    /// keeps its own value, as at lane 31 of a full warp); for up, lane 0, the lowest.
    fn clamp(self, direction: Direction) -> u32 {
        match direction {
            Direction::Down => self.width - 1,
            Direction::Up => 0,
        }
    }

    /// A reduction's fold of the block's values into one uniform value: lane 0 of each warp
    /// ends with its warp's fold in lane order, every warp then folds the warps' partials, and
    /// the result is broadcast from lane 0 (every warp folds the partials: no second barrier). A
    /// tree tests that the partner lane (warp) holds a value unless every one does.
    fn fold_steps(self, count: Count, tiles: Tiles, every: bool) -> CollectiveSteps {
        let (lanes, warps) = self.holders(count);
        let test = |holders: Count, of: u32| match holders {
            _ if every => LaneTest::Every,
            Count::Known(n) if n >= of => LaneTest::Every,
            _ => LaneTest::PartnerHolds,
        };
        let shuffle = |values, offset, test| Step::Shuffle {
            values,
            direction: Direction::Down,
            offset,
            test,
            clamp: self.clamp(Direction::Down),
        };
        let broadcast = |values| Step::Broadcast {
            values,
            from: Source::Lane(0),
            clamp: self.clamp(Direction::Down),
        };
        let lanes_test = test(lanes, self.width);
        let mut steps: Vec<Step> = tree(self.width)
            .map(|o| shuffle(Values::Lanes, o, lanes_test))
            .collect();
        if self.warps == 1 {
            steps.push(broadcast(Values::Lanes));
        } else {
            let partials_test = test(warps, self.warps);
            steps.push(Step::StorePartial(Writer::Lane(0)));
            steps.push(Step::Barrier);
            steps.push(Step::LoadPartials {
                mask: self.warps - 1,
            });
            steps.extend(tree(self.warps).map(|o| shuffle(Values::Partials, o, partials_test)));
            steps.push(broadcast(Values::Partials));
        }
        CollectiveSteps {
            count,
            lanes,
            warps,
            tiles,
            steps,
        }
    }

    /// A scan of one tile: Kogge-Stone trees over the lanes and then the warps' totals, the
    /// warps before (after) each lane combined in, the tile's total broadcast, and the carry
    /// from the tiles before (a scan over one tile stops before its total). A left scan's values
    /// travel up and its totals sit in the last lanes (the warp's last lane when the warp is
    /// known full); a right scan's travel down and sit in lane 0.
    ///
    /// Only what flows into a lane that holds an element is tested. A lane past the tile's
    /// count holds zero (`codegen::Body::block_scan`'s operand), and in a left scan nothing
    /// travels down, so its lanes and warps combine with every partner below, held or not: a
    /// held lane never receives from one above it. A right scan's values travel down, from lanes
    /// that may hold nothing, so its trees test the partner. The last combines (the neighbour
    /// warps, the carry) change only the lane's own value, which nothing reads where the lane
    /// holds no element: they test no lane. (Evaluating `f` on such a lane is safe: no LOOM
    /// operation is undefined for any operand.)
    fn scan_steps(
        self,
        op: CollectiveOp,
        count: Count,
        tiles: Tiles,
        carry_from: Option<Identity>,
    ) -> CollectiveSteps {
        let (lanes, warps) = self.holders(count);
        let left = op == CollectiveOp::ScanLeft;
        let direction = if left { Direction::Up } else { Direction::Down };
        let (lanes_test, partials_test, last) = if left {
            (LaneTest::PartnerBelow, LaneTest::PartnerBelow, Source::Last)
        } else {
            (
                LaneTest::PartnerHolds,
                LaneTest::PartnerHolds,
                Source::Lane(0),
            )
        };
        let idx = self.clamp(Direction::Down);
        let shuffle = |values, offset, test| Step::Shuffle {
            values,
            direction,
            offset,
            test,
            clamp: self.clamp(direction),
        };
        let mut steps: Vec<Step> = tree(self.width)
            .map(|o| shuffle(Values::Lanes, o, lanes_test))
            .collect();
        let values = if self.warps == 1 {
            Values::Lanes
        } else {
            steps.push(Step::StorePartial(match (left, lanes) {
                (true, Count::Known(n)) if n == self.width => Writer::Lane(self.width - 1),
                (true, _) => Writer::LastHolder { clamp: idx },
                (false, _) => Writer::Lane(0),
            }));
            steps.push(Step::Barrier);
            steps.push(Step::LoadPartials {
                mask: self.warps - 1,
            });
            steps.extend(tree(self.warps).map(|o| shuffle(Values::Partials, o, partials_test)));
            steps.push(Step::NeighbourWarps {
                direction,
                clamp: idx,
            });
            Values::Partials
        };
        if tiles == Tiles::Several {
            steps.push(Step::Broadcast {
                values,
                from: last,
                clamp: idx,
            });
            steps.push(Step::Carry {
                direction,
                from: carry_from,
            });
        }
        CollectiveSteps {
            count,
            lanes,
            warps,
            tiles,
            steps,
        }
    }
}

/// Offsets 1, 2, 4, ... below `width`.
fn tree(width: u32) -> impl Iterator<Item = u32> {
    (0..u32::BITS)
        .map(|i| 1u32 << i)
        .take_while(move |offset| *offset < width)
}

/// How a reduction's threads start their fold (`None` for a scan, except a grid-wide scan's,
/// whose aggregate reduces its chunk).
fn start(kernel: &Kernel, checked: &Checked, e: &Expr) -> Option<Start> {
    let sweep = kernel
        .sweeps
        .as_ref()
        .and_then(|sweeps| sweeps.get(&Consumer::Reduce(e.span)))?;
    Some(match (sweep.combine, sweep.sweep) {
        (Some(Combine::PerThread), Sweep::Stride) => match identity(checked, e) {
            Some(identity) => Start::Identity(identity),
            None => Start::FirstElement,
        },
        (Some(Combine::PerThread), _) => Start::FirstElement,
        _ => Start::ByTiles,
    })
}

/// `f`'s identity for the reduction `e`, where it is proven (`commute::combining`): `f(identity,
/// x)` is `x` for every `x`, bit for bit. Floats: `-0.0` for `+` (`-0.0 + x` is `x`, `+0.0`
/// included), `1.0` for `*`, NaN for `min`/`max` (IEEE minNum/maxNum return the other operand
/// when one is NaN). Integers: `0`, `1`, and the type's largest and smallest value.
fn identity(checked: &Checked, e: &Expr) -> Option<Identity> {
    let ExprKind::Collective { func, .. } = &e.kind else {
        return None;
    };
    let f = checked.callees.get(&e.id).copied()?;
    let op = commute::combining(checked, f, func.bound_args.len())?;
    let Ty::Scalar(scalar) = checked.ty(e.id).element() else {
        return None;
    };
    if scalar.is_float() {
        return Some(Identity::Float(match op {
            Combining::Add => -0.0,
            Combining::Mul => 1.0,
            Combining::Min | Combining::Max => f64::NAN,
        }));
    }
    if !scalar.is_integer() {
        return None;
    }
    let bits = scalar.bits();
    let all_ones = u64::MAX >> (64 - bits);
    Some(Identity::Int {
        bits,
        value: match (op, scalar.is_signed()) {
            (Combining::Add, _) => 0,
            (Combining::Mul, _) => 1,
            (Combining::Min, false) => all_ones,
            (Combining::Max, false) => 0,
            (Combining::Min, true) => all_ones >> 1,
            (Combining::Max, true) => 1u64 << (bits - 1),
        },
    })
}
