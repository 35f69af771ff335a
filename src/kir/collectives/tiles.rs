//! The tiles `kir-collectives` expands each collective for: how many of the block's threads hold
//! a value in each tile the collective's sweeps visit, and whether a sweep has one tile or
//! several (`kir/collectives.rs`, "The counts").

use crate::check::Checked;
use crate::kir::consumers::{self, is_vector, Dest, Name, Visitor, Walk};
use crate::kir::{Consumer, Count, Kernel, Start, Sweep, SweepPlan, Tiles};
use crate::syntax::ast::{Expr, ExprKind};
use crate::syntax::span::Span;
use crate::syntax::visit::{scans_in_skipping, visit_expr};
use std::collections::{BTreeMap, BTreeSet};

/// The tiles each collective is expanded for: how many of the block's threads hold a value in
/// each, and whether its sweep has one tile or several. A scan is computed inside the sweep of
/// the consumer whose vector holds it (or, with a left and a right scan over several tiles, in
/// the sweep that computes it ahead); a reduction's own sweep folds its operand.
#[derive(Default)]
pub(super) struct Tiling {
    /// `kir-sweeps`' plans.
    plans: BTreeMap<Consumer, SweepPlan>,
    /// Each scan's tiles, by span.
    scans: BTreeMap<Span, BTreeSet<(Count, Tiles)>>,
    /// Each reduction's (and grid-wide scan's aggregate's) operand length when compiled, by
    /// span; `None` when only known at run time.
    reductions: BTreeMap<Span, Option<u64>>,
    /// The scans computed in an unrolled sweep of several slots.
    unrolled_scans: BTreeSet<Span>,
}

impl<'a> Visitor<'a> for Tiling {
    fn store(
        &mut self,
        walk: &Walk<'a>,
        consumer: Consumer,
        dest: Dest<'a>,
        value: &'a Expr,
        grid: bool,
    ) {
        // A grid-wide statement walks its block's chunk: a run-time length.
        let len = if grid {
            None
        } else {
            walk.store_len(dest, value)
        };
        let mut scans = Vec::new();
        scans_in(walk, value, &mut scans);
        if let Dest::Target { target, .. } = dest {
            scans_in(walk, target, &mut scans);
        }
        self.add_scans(walk, consumer, len, &scans);
        // A store that reads its own target at other positions computes every element into
        // registers first, in an unrolled sweep of its buffer's slots (`kir-accesses` decides
        // which stores, after this pass: any that names its target may be one).
        let buffer = self.plans.get(&consumer).and_then(|plan| plan.buffer);
        if let (Dest::Target { target, .. }, Some(Some(slots))) = (dest, buffer) {
            if reads_own_target(target, value) {
                let tiles = tiles_of(Sweep::Unrolled { slots }, len, walk.block_size);
                self.add(&scans, &tiles);
            }
        }
    }

    fn reduce(&mut self, walk: &Walk<'a>, reduce: &'a Expr, operand: &'a Expr, grid: bool) {
        let len = if grid { None } else { walk.static_len(operand) };
        self.reductions.insert(reduce.span, len);
        let mut scans = Vec::new();
        scans_in(walk, operand, &mut scans);
        self.add_scans(walk, Consumer::Reduce(reduce.span), len, &scans);
    }

    fn atomic(&mut self, walk: &Walk<'a>, call: &'a Expr, span: Span) {
        let ExprKind::Call { args, .. } = &call.kind else {
            return;
        };
        let Some((place, operands)) = args.split_first() else {
            return;
        };
        let ExprKind::Index { indices, .. } = &place.kind else {
            return;
        };
        let vectors: Vec<&Expr> = indices
            .iter()
            .chain(operands)
            .filter(|e| is_vector(walk.checked.ty(e.id)))
            .collect();
        let len = walk.shortest_len(&vectors);
        let mut scans = Vec::new();
        for e in vectors {
            scans_in(walk, e, &mut scans);
        }
        self.add_scans(walk, Consumer::Atomic(span), len, &scans);
    }
}

impl Tiling {
    /// The tiles of every collective of `kernel`, from `kir-sweeps`' plans.
    pub(super) fn of(kernel: &Kernel, checked: &Checked) -> Tiling {
        let mut tiling = Tiling {
            plans: kernel.sweeps.clone().unwrap_or_default(),
            ..Tiling::default()
        };
        consumers::walk(kernel, checked, &mut tiling);
        tiling
    }

    /// The tiles scan `span` is computed in, by each sweep that computes it.
    pub(super) fn scan(&self, span: Span) -> impl Iterator<Item = (Count, Tiles)> + '_ {
        self.scans.get(&span).into_iter().flatten().copied()
    }

    /// Scans computed for `consumer`, a vector of length `len` (when compiled).
    fn add_scans(&mut self, walk: &Walk<'_>, consumer: Consumer, len: Option<u64>, scans: &[Span]) {
        let Some(plan) = self.plans.get(&consumer) else {
            return;
        };
        // A left and a right scan over several tiles: each computed ahead, unrolled.
        let sweep = match plan.scans_ahead {
            Some(slots) => Sweep::Unrolled { slots },
            None => plan.sweep,
        };
        // A buffered store computes its value into its registers by an unrolled sweep of its
        // slots, whatever walks its stores (code generation's `store_buffered`).
        let computed_in = match plan.buffer {
            Some(Some(slots)) => Sweep::Unrolled { slots },
            _ => sweep,
        };
        if several_slots(sweep) || several_slots(computed_in) {
            self.unrolled_scans.extend(scans.iter().copied());
        }
        let tiles = tiles_of(sweep, len, walk.block_size);
        self.add(scans, &tiles);
    }

    /// Whether the tiles of the collective at `span` alternate between two halves of its
    /// partials: those of an unrolled sweep of several slots do (code generation's
    /// `Pos::parity`: a tile's collective writes one half while the tile before may still read
    /// the other, with no barrier between them). A loop over tiles, a block-stride loop and a
    /// fold per thread use one half: a barrier orders one tile's reads before the next one's
    /// writes, or there is one fold.
    pub(super) fn alternates(&self, span: Span, start: Option<Start>) -> bool {
        // As `fold_tiles`: a fold that starts per thread is one fold.
        let folded_by_tiles = || match (start, self.plans.get(&Consumer::Reduce(span))) {
            (Some(Start::Identity(_) | Start::FirstElement), _) | (_, None) => false,
            (_, Some(plan)) => several_slots(plan.sweep),
        };
        self.unrolled_scans.contains(&span) || folded_by_tiles()
    }

    fn add(&mut self, scans: &[Span], tiles: &[(Count, Tiles)]) {
        for scan in scans {
            self.scans
                .entry(*scan)
                .or_default()
                .extend(tiles.iter().copied());
        }
    }
}

/// Whether a store into `target` names the target's array in `value` or in the target's
/// subscripts.
fn reads_own_target(target: &Expr, value: &Expr) -> bool {
    let (base, subscripts) = match &target.kind {
        ExprKind::Index { base, indices, .. } => (base.as_ref(), indices.as_slice()),
        _ => (target, &[][..]),
    };
    let ExprKind::Name(array) = &base.kind else {
        return true;
    };
    let mut named = false;
    for e in std::iter::once(value).chain(subscripts) {
        visit_expr(e, &mut |x| {
            if matches!(&x.kind, ExprKind::Name(name) if name.name == array.name) {
                named = true;
            }
        });
    }
    named
}

/// The scans computed in the sweep over `e` ([`scans_in_skipping`]), a recomputed vector's
/// initializer's included: computed again at each use.
fn scans_in<'a>(walk: &Walk<'a>, e: &'a Expr, out: &mut Vec<Span>) {
    let initializer = |name: &str| match walk.lookup(name) {
        Some(Name::Recomputed(init)) => Some(*init),
        _ => None,
    };
    let mut scans = Vec::new();
    scans_in_skipping(
        e,
        &|base| walk.is_indexed_copy(base.span),
        &initializer,
        &mut scans,
    );
    out.extend(scans.iter().map(|scan| scan.span));
}

/// The tiles of a sweep over `len` positions (when compiled): how many of the block's threads
/// hold a value in each (`clamp(len - base, 0, BLOCKSIZE)`), a tile with none left out (code
/// generation skips it).
fn tiles_of(sweep: Sweep, len: Option<u64>, block_size: u64) -> Vec<(Count, Tiles)> {
    match sweep {
        Sweep::Unrolled { slots } => {
            let tiles = if slots == 1 {
                Tiles::One
            } else {
                Tiles::Several
            };
            let Some(len) = len else {
                return vec![(Count::RunTime, tiles)];
            };
            (0..u64::from(slots))
                .map(|s| len.saturating_sub(s * block_size).min(block_size))
                .filter(|count| *count > 0)
                .map(|count| (known(count), tiles))
                .collect()
        }
        // The tiles' bases are run-time values (the loop's counter).
        Sweep::Stride | Sweep::Tiles => vec![(Count::RunTime, Tiles::Several)],
    }
}

fn several_slots(sweep: Sweep) -> bool {
    matches!(sweep, Sweep::Unrolled { slots } if slots >= 2)
}

fn known(count: u64) -> Count {
    u32::try_from(count).map_or(Count::RunTime, Count::Known)
}

/// The tiles a reduction (or a grid-wide scan's aggregate) folds: the block once, every thread
/// holding a value (from the identity) or the first `min(len, BLOCKSIZE)`; or tile by tile.
pub(super) fn fold_tiles(
    tiling: &Tiling,
    start: Option<Start>,
    span: Span,
    block_size: u32,
) -> Vec<(Count, Tiles)> {
    let block = u64::from(block_size);
    let len = tiling.reductions.get(&span).copied().flatten();
    match start {
        Some(Start::Identity(_)) => vec![(Count::Known(block_size), Tiles::One)],
        Some(Start::FirstElement) => {
            vec![(
                len.map_or(Count::RunTime, |n| known(n.min(block))),
                Tiles::One,
            )]
        }
        _ => {
            let Some(plan) = tiling.plans.get(&Consumer::Reduce(span)) else {
                return Vec::new();
            };
            tiles_of(plan.sweep, len, block)
                .into_iter()
                .map(|(count, _)| (count, Tiles::Several))
                .collect()
        }
    }
}
