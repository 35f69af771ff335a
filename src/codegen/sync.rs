//! Barrier placement in code generation: the kernel IR decides, code generation emits.
//!
//! The rule (design §4) asks for a barrier after every statement that writes memory and before
//! every access that may touch an element another thread touched since the last barrier, at
//! least one of the two writing; the barriers that analysis proves unnecessary are removed.
//! `kir-barriers` (`kir/barriers.rs`) makes that analysis on the kernel IR for every kernel
//! and gives each decision the place code generation reaches it by: the ordinal, in emission
//! order, of the places a barrier may go (an announcement, `Body::touch`, where a statement's
//! accesses are made, whether or not it makes any: code generation builds no accesses; a
//! sequential loop's head; a loop body's end), counted alike on both sides. Code generation
//! counts the places as it reaches them, asks the IR at each ([`Sync::decided`]) and emits the
//! barrier the IR has there, with its R0801 remark; each barrier the IR removed (R0802) gets its
//! remark after the barrier whose placement removed it, or at the kernel's end. The barriers
//! inside collectives (R0803) are part of their expansion (`reduce.rs`, `scan.rs`), emitted
//! where code generation makes them; they count among the barriers placed, and must stand where
//! and in the order the IR has them. Any difference in the places or in that order is an
//! internal error (the two walks of the program disagree).
//!
//! Barriers are only placed in block-uniform code, so they are never divergent.

use super::remarks::{AccessNote, Remark};
use crate::kir::access::{Access, AccessKind};
use crate::kir::removed_barriers::Removed;
use crate::kir::{Barrier, Barriers, Point};
use crate::syntax::span::Span;

/// How a remark names an access: what it does to which array, and by which threads.
fn note(access: &Access) -> AccessNote {
    let verb = match access.kind {
        AccessKind::Read => "read",
        AccessKind::Write => "write",
        AccessKind::Atomic(..) => "atomic update",
    };
    AccessNote {
        span: access.span,
        what: format!("{verb} of `{}`", access.name),
        who: access.who.describe(),
    }
}

/// The remark of barrier `barrier`, placed between its pair of accesses.
fn kept(barrier: &Barrier) -> Remark {
    Remark::BarrierKept {
        at: barrier.at,
        array: barrier.later.name.clone(),
        earlier: note(&barrier.earlier),
        later: note(&barrier.later),
        loop_carried: barrier.loop_end,
    }
}

/// A kernel's barriers as `kir-barriers` decided them, and how far emission got.
#[derive(Debug)]
struct Plan {
    /// The barriers placed at places a barrier may go, by the place's ordinal.
    barriers: std::collections::BTreeMap<usize, Barrier>,
    points: Vec<Point>,
    /// The removed barriers (R0802) and, for each, the ordinal of the barrier placed (the
    /// collectives' included) whose remark it follows; the number of barriers at the end.
    removed: Vec<(usize, Removed)>,
    /// The ordinal of the next place a barrier may go.
    next_point: usize,
    /// How many barriers were placed so far, the collectives' included.
    barriers_placed: usize,
    /// Every barrier the IR places, the collectives' included, in order: where, and what
    /// collective's, if one's. The removed barriers' remarks follow them by ordinal, so code
    /// generation's must be these (checked at the end).
    order: Vec<(Span, Option<&'static str>)>,
    /// The first barrier code generation placed out of that order, if any.
    out_of_order: Option<String>,
}

/// The barriers of one kernel: the IR's decisions, and the remarks emitted so far.
#[derive(Debug, Default)]
pub struct Sync {
    pub remarks: Vec<Remark>,
    /// `kir-barriers`' decisions for the kernel being emitted (`None` in a `func`, which has
    /// no place a barrier may go).
    plan: Option<Plan>,
}

impl Sync {
    /// Emits `kir-barriers`' decisions for this kernel. An error where the pass did not run
    /// or does not cover the kernel (with the statement it names): code generation places no
    /// barrier of its own.
    pub fn follow(
        &mut self,
        barriers: Option<&Barriers>,
    ) -> std::result::Result<(), (String, Option<Span>)> {
        let (placed, removed, emission) = match barriers {
            Some(Barriers::Placed(placed, removed, emission)) => (placed, removed, emission),
            Some(Barriers::NotCovered { span, what }) => {
                return Err((
                    format!("kir-barriers does not cover this kernel ({what}), and code generation places no barrier of its own"),
                    Some(*span),
                ))
            }
            None => return Err(("kernel IR without its barriers (kir-barriers did not run)".to_string(), None)),
        };
        let barriers = placed
            .iter()
            .filter(|b| b.needed && b.collective.is_none())
            .filter_map(|b| Some((b.point?, b.clone())))
            .collect();
        self.plan = Some(Plan {
            barriers,
            points: emission.points.clone(),
            removed: emission
                .removed_at
                .iter()
                .copied()
                .zip(removed.iter().cloned())
                .collect(),
            next_point: 0,
            barriers_placed: 0,
            order: placed
                .iter()
                .filter(|b| b.needed)
                .map(|b| (b.at, b.collective))
                .collect(),
            out_of_order: None,
        });
        Ok(())
    }

    /// At the next place a barrier may go (`point`, which must be the IR's next one): the
    /// barrier `kir-barriers` places there, if any. An error says how the places differ.
    pub fn decided(&mut self, point: Point) -> std::result::Result<Option<Barrier>, String> {
        let Some(plan) = &mut self.plan else {
            return Ok(None);
        };
        let ordinal = plan.next_point;
        plan.next_point += 1;
        match plan.points.get(ordinal) {
            Some(p) if *p == point => Ok(plan.barriers.get(&ordinal).cloned()),
            Some(p) => Err(format!(
                "place {ordinal} where a barrier may go is a {p:?} in kir-barriers, a {point:?} here"
            )),
            None => Err(format!(
                "kir-barriers has {ordinal} places where a barrier may go, code generation more"
            )),
        }
    }

    /// A barrier `kir-barriers` placed was emitted: its remark, and the remarks of the
    /// barriers its placement removed.
    pub fn barrier_placed(&mut self, barrier: &Barrier) {
        self.remarks.push(kept(barrier));
        self.note_barrier(barrier.at, false);
        self.removals(true);
    }

    /// A barrier inside a collective (`what`: `a reduction`), emitted with its expansion at
    /// `at`: its remark, and the remarks of the barriers it removed.
    pub fn collective_barrier(&mut self, at: Span, what: &'static str) {
        self.remarks.push(Remark::CollectiveBarrier { at, what });
        self.note_barrier(at, true);
        self.removals(true);
    }

    /// Whether the IR's next barrier is a loop over tiles' after a tile, at `at`
    /// (`kir::TILE_BARRIER`: `kir-barriers` leaves it out where the tile needs none).
    pub fn plans_tile_barrier(&self, at: Span) -> bool {
        self.plan.as_ref().is_some_and(|plan| {
            plan.order.get(plan.barriers_placed) == Some(&(at, Some(crate::kir::TILE_BARRIER)))
        })
    }

    /// A barrier placed at `at` (`collective`: inside a collective): it must be the IR's next
    /// one.
    fn note_barrier(&mut self, at: Span, collective: bool) {
        let Some(plan) = &mut self.plan else {
            return;
        };
        let ordinal = plan.barriers_placed;
        let planned = plan
            .order
            .get(ordinal)
            .map(|(at, what)| (*at, what.is_some()));
        if plan.out_of_order.is_none() && planned != Some((at, collective)) {
            plan.out_of_order = Some(format!(
                "barrier {ordinal} (the collectives' counted) stands elsewhere than kir-barriers', or is of another kind"
            ));
        }
    }

    /// The remarks of the barriers removed at the barrier just placed (`at_barrier`) or at
    /// the kernel's end.
    fn removals(&mut self, at_barrier: bool) {
        let Some(plan) = &mut self.plan else {
            return;
        };
        let this = plan.barriers_placed;
        let removed = plan.removed.iter().filter(|(at, _)| *at == this);
        self.remarks
            .extend(removed.map(|(_, r)| Remark::BarrierRemoved(r.clone())));
        if at_barrier {
            plan.barriers_placed += 1;
        }
    }

    /// At the end of the kernel: the remarks of the barriers removed there.
    pub fn finish(&mut self) {
        self.removals(false);
    }

    /// At the end of the kernel: whether code generation reached every place the IR has and
    /// placed the collectives' barriers where the IR has them (an error says how they differ).
    pub fn check_followed(&self) -> std::result::Result<(), String> {
        let Some(plan) = &self.plan else {
            return Ok(());
        };
        if let Some(message) = &plan.out_of_order {
            return Err(message.clone());
        }
        if plan.barriers_placed != plan.order.len() {
            return Err(format!(
                "kir-barriers places {} barrier(s), the collectives' counted, code generation {}",
                plan.order.len(),
                plan.barriers_placed
            ));
        }
        if plan.next_point != plan.points.len() {
            return Err(format!(
                "kir-barriers has {} places where a barrier may go, code generation {}",
                plan.points.len(),
                plan.next_point
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kir::access::access_to_t as access;
    use crate::kir::access::Who;
    use crate::kir::removed_barriers::RemovedReason;
    use crate::kir::Emission;
    use crate::syntax::span::FileId;

    fn removed(reason: RemovedReason) -> Removed {
        Removed {
            after: Span::synthetic(FileId(0)),
            arrays: vec!["t".into()],
            reason,
        }
    }

    /// The barriers, their remarks and the removed barriers' remarks are the kernel IR's: the
    /// IR's barrier at place 1 is placed there, with its accesses, and each removed barrier's
    /// remark follows the barrier the IR says (or the kernel's end).
    #[test]
    fn a_kernels_barriers_and_remarks_are_the_irs() {
        let write = access(AccessKind::Write, Who::Leader(None));
        let read = access(AccessKind::Read, Who::All(None));
        let barrier = Barrier {
            at: read.span,
            needed: true,
            loop_end: true,
            earlier: write.clone(),
            later: read.clone(),
            collective: None,
            point: Some(1),
        };
        let gone = [
            removed(RemovedReason::NoLaterAccess),
            removed(RemovedReason::SameThread { later: read.span }),
        ];
        let emission = Emission {
            points: vec![Point::Touch, Point::LoopEnd],
            removed_at: vec![1, 0],
        };
        let plan = Barriers::Placed(vec![barrier], gone.to_vec(), emission);
        let mut sync = Sync::default();
        sync.follow(Some(&plan)).expect("a placed plan");
        assert!(matches!(sync.decided(Point::Touch), Ok(None)));
        let placed = sync
            .decided(Point::LoopEnd)
            .unwrap()
            .expect("the IR's barrier");
        assert_eq!(placed.point, Some(1));
        sync.barrier_placed(&placed);
        sync.finish();
        let [Remark::BarrierKept {
            earlier,
            later,
            loop_carried: true,
            ..
        }, Remark::BarrierRemoved(first), Remark::BarrierRemoved(last)] = &sync.remarks[..]
        else {
            panic!("unexpected remarks: {:?}", sync.remarks);
        };
        assert_eq!(earlier.what, "write of `t`");
        assert_eq!(later.who, "every thread");
        assert_eq!((first, last), (&gone[1], &gone[0]));
        assert!(sync.check_followed().is_ok());
        // A place of another kind than the IR's next is an error, as is one past its last; so
        // is the IR's barrier left unplaced at the end.
        let mut sync = Sync::default();
        sync.follow(Some(&plan)).expect("a placed plan");
        assert!(sync.decided(Point::LoopHead).is_err());
        let unfinished = sync.check_followed().unwrap_err();
        assert!(unfinished.contains("places 1 barrier(s)"), "{unfinished}");
        assert!(sync.decided(Point::LoopEnd).is_ok());
        assert!(sync.decided(Point::Touch).is_err());
    }

    /// A kernel the pass does not cover gets no barrier of code generation's own: an error
    /// naming the statement.
    #[test]
    fn a_kernel_the_ir_does_not_cover_is_an_internal_error() {
        let span = Span::synthetic(FileId(0));
        let uncovered = Barriers::NotCovered {
            span,
            what: "a call statement",
        };
        let (message, at) = Sync::default().follow(Some(&uncovered)).unwrap_err();
        assert!(message.contains("a call statement"), "{message}");
        assert_eq!(at, Some(span));
        assert!(Sync::default().follow(None).is_err());
    }
}
