//! `kir-barriers` on the scans a consumer's sweep computes, as code generation makes them
//! (`codegen/scan.rs`: `before_scans`, `materialise_mixed_scans`, `block_scan`, `after_scans`;
//! `codegen::Body::tile_prepare`): with more than one warp, each scan writes its partials before
//! the sweep, meets the other warps' behind a barrier in every copy of the sweep's body, and its
//! partials are read after the sweep. A scan inside a scan's operand is computed first, in the
//! same copy of the body; a left and a right scan over more than one tile are each computed
//! ahead, in a sweep of their own.

use super::{partials, Placer, Step};
use crate::kir::access::Access;
use crate::kir::consumers::Walk;
use crate::kir::{Sweep, SweepPlan};
use crate::syntax::ast::{CollectiveOp, Expr, ExprKind};
use crate::syntax::visit::{each_child, scans_in_skipping};

impl Placer {
    /// The scans inside the vectors `swept` (a store's value, then a scatter's vector
    /// subscripts) that their consumer's sweep computes (or computes ahead), over
    /// `len` positions as `plan` walks them. With more than one warp: each scan the sweep
    /// computes writes its partials first, a step onto `out`, in pre-order (not an indexed
    /// vector's: its copy computed it and wrote its partials, before the statement; code
    /// generation's `before_scans` leaves it out too). Then, for a left and a right scan over
    /// more than one tile (`kir-sweeps`' `scans-ahead N`), each scan the sweep computes (not an
    /// indexed vector's) computed ahead, innermost first, in an unrolled sweep of `N` slots of
    /// its own with its barrier in every copy of the body (`materialise_mixed_scans`), and the
    /// consumer's sweep reads them with no barrier; else the barriers returned, for
    /// every copy of the consumer's sweep's body, each scan's after those inside its operand
    /// (`tile_prepare`).
    pub(super) fn scan_steps(
        &self,
        walk: &Walk<'_>,
        swept: &[&Expr],
        plan: &SweepPlan,
        len: Option<u64>,
        out: &mut Vec<Step>,
    ) -> Result<Vec<Step>, &'static str> {
        // Code generation takes each vector in turn (`before_scans`, `tile_prepare`).
        let mut scans = Vec::new();
        let mut here = Vec::new();
        for e in swept {
            scans_computed(walk, e, &mut scans);
            scans_innermost_first(e, &mut here);
        }
        // The same scans, in the order the sweep's body computes them.
        here.retain(|scan| scans.iter().any(|s| std::ptr::eq(*s, *scan)));
        let ahead = plan.scans_ahead.filter(|_| left_and_right(&here));
        if self.block_size / 32 <= 1 {
            return Ok(Vec::new());
        }
        for scan in &scans {
            out.push(Step::Touch(vec![self.scan_partials(scan).0]));
        }
        let barrier = |scan: &&Expr| {
            let (write, read) = self.scan_partials(scan);
            Step::Collective {
                what: "a scan",
                clears: false,
                accesses: Box::new((write, read)),
            }
        };
        let Some(slots) = ahead else {
            return Ok(here.iter().map(barrier).collect());
        };
        // Pre-order reversed, as code generation computes them ahead: every scan after the
        // scans inside it; an indexed vector's not again (its copy computed them).
        let ahead_plan = SweepPlan {
            sweep: Sweep::Unrolled { slots },
            ..*plan
        };
        for scan in scans.iter().rev() {
            self.sweep_steps(&ahead_plan, len, scan.span, &[barrier(scan)], out);
        }
        Ok(Vec::new())
    }

    /// The write and the read of scan `scan`'s partials: a grid-wide scan's are its chunk's
    /// aggregate's (`codegen::Body::scratch_for` keys them by collective, and the aggregate
    /// makes them first).
    fn scan_partials(&self, scan: &Expr) -> (Access, Access) {
        match self.grid_window {
            Some((_, grid_scan)) if grid_scan == scan.id => partials("reduce.partials", scan),
            _ => partials("scan.partials", scan),
        }
    }

    /// With more than one warp, the reads of the partials of the scans inside the vectors
    /// `swept` after their sweep (not an indexed vector's: its copy's sweep read them).
    pub(super) fn scan_partials_read(&self, walk: &Walk<'_>, swept: &[&Expr]) -> Option<Step> {
        let mut scans = Vec::new();
        for e in swept {
            scans_computed(walk, e, &mut scans);
        }
        if self.block_size / 32 <= 1 || scans.is_empty() {
            return None;
        }
        let reads = scans.iter().map(|scan| self.scan_partials(scan).1);
        Some(Step::Record(reads.collect()))
    }
}

/// The scans inside vector expression `e`, not those inside a reduction, each after the scans
/// inside its operand: the order a sweep's body computes them in (`codegen::Body::tile_prepare`).
fn scans_innermost_first<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    if is_collective(e, CollectiveOp::Reduce) {
        return;
    }
    each_child(e, &mut |c| scans_innermost_first(c, out));
    if is_collective(e, CollectiveOp::ScanLeft) || is_collective(e, CollectiveOp::ScanRight) {
        out.push(e);
    }
}

/// Whether `scans` hold both a left and a right scan.
pub(super) fn left_and_right(scans: &[&Expr]) -> bool {
    scans
        .iter()
        .any(|e| is_collective(e, CollectiveOp::ScanLeft))
        && scans
            .iter()
            .any(|e| is_collective(e, CollectiveOp::ScanRight))
}

fn is_collective(e: &Expr, op: CollectiveOp) -> bool {
    matches!(&e.kind, ExprKind::Collective { op: o, .. } if *o == op)
}

/// The scans the sweep over `e` computes ([`scans_in_skipping`]): not an indexed vector's,
/// which its copy computed. (The program is the one code generation lowers: each use of a
/// recomputed vector is already its initializer.)
fn scans_computed<'e>(walk: &Walk<'_>, e: &'e Expr, out: &mut Vec<&'e Expr>) {
    scans_in_skipping(e, &|base| walk.is_indexed_copy(base.span), &|_| None, out);
}
