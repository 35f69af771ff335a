//! Barrier placement: "synchronised by default", with the barriers that analysis proves
//! unnecessary removed.
//!
//! The rule (design §4) asks for a barrier after every statement that writes memory (its writes
//! must be visible to every thread at the next statement) and before every write that may
//! overwrite what another thread still has to read. A barrier only matters between two accesses
//! to the same array, at least one a write, made by *different* threads; code generation knows,
//! for each access, which thread touches which element ([`Who`]), so it can tell.
//!
//! The analysis runs while the kernel is lowered, in program order. [`SyncState`] holds the
//! accesses made since the last barrier on any path (`pending`). Before a statement's accesses
//! are emitted, they are compared with the pending ones; on the first conflict a barrier is
//! placed right there (the latest point that still orders the two accesses, so one barrier
//! serves as many hazards as possible) and the pending set is emptied. A statement that writes
//! memory leaves a *candidate*: the barrier the rule asks for after it. A candidate whose writes
//! never conflict with a later access before the next barrier is removed, and `--remarks` says
//! why (every later access is by the writing thread, nothing later touches the array, or a later
//! barrier covers it).
//!
//! Control flow: both branches of an `if` start from the same state and the states join (union
//! of pending accesses). A loop body starts from the state before the loop; at its end, the
//! pending accesses are compared with those the body makes before its first barrier
//! ([`LoopFrame::exposed`]): a conflict there means iteration `i + 1` could race with iteration
//! `i`, and a barrier is placed at the end of the body. Symbols that change from one iteration to
//! the next (newer than the loop's watermark) never count as equal across that edge.
//!
//! Barriers are only placed in block-uniform code, so they are never divergent.
//!
//! For a kernel `kir-barriers` covers, the barriers placed and the R0801 and R0802 remarks are
//! the kernel IR's ([`Sync::follow`]): at each place a barrier may go (an announcement, a loop
//! head, a loop end, counted alike on both sides in emission order) code generation asks the IR
//! whether one goes there ([`Sync::decided`]). The analysis here still runs beside it, as a
//! check that the two agree, and places the barriers of the kernels the pass does not cover.

use super::remarks::{AccessNote, Remark};
pub use crate::kir::access::{conflicts, Access, AccessKind, Who};
pub use crate::kir::access_log::AccessLog;
use crate::kir::removed_barriers::{Candidates, PathCandidates, Removed};
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

/// The remark of a barrier placed between `earlier` and `later`, at `at`.
fn kept(earlier: &Access, later: &Access, at: Span, loop_carried: bool) -> Remark {
    Remark::BarrierKept {
        at,
        array: later.name.clone(),
        earlier: note(earlier),
        later: note(later),
        loop_carried,
    }
}

#[derive(Debug, Clone, Default)]
pub struct LoopFrame {
    /// Accesses made since the loop head before any barrier on the path.
    pub exposed: AccessLog,
    /// True once every path from the loop head to here passed a barrier.
    pub barriered: bool,
    /// Symbols of this version or newer change from one iteration to the next.
    pub watermark: u32,
}

#[derive(Debug, Clone, Default)]
pub struct SyncState {
    pub pending: AccessLog,
    pub frames: Vec<LoopFrame>,
    /// The candidates not yet resolved on this path.
    candidates: PathCandidates,
}

impl SyncState {
    /// The state after an `if`: whatever either branch left pending.
    pub fn join(mut self, other: SyncState) -> SyncState {
        self.pending.union(other.pending);
        for (mine, theirs) in self.frames.iter_mut().zip(other.frames) {
            mine.exposed.union(theirs.exposed);
            mine.barriered &= theirs.barriered;
        }
        self.candidates.join(other.candidates);
        self
    }

    fn record(&mut self, id: u64, access: Access) {
        for frame in self.frames.iter_mut().filter(|f| !f.barriered) {
            frame.exposed.push(id, access.clone());
        }
        self.pending.push(id, access);
    }

    /// The first pending access that conflicts with one of `accesses`.
    pub fn first_conflict(&self, accesses: &[Access], block_size: u32) -> Option<(Access, Access)> {
        self.pending.first_pair(accesses, |earlier, later| {
            conflicts(earlier, later, block_size, None)
        })
    }
}

/// A covered kernel's barriers as `kir-barriers` decided them, and how far emission got.
#[derive(Debug)]
struct Followed {
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
    /// What the analysis here removed, checked against the IR's at the end.
    own_removed: Vec<Removed>,
    /// Every barrier the IR places, the collectives' included, in order: where, and whether a
    /// collective's. The removed barriers' remarks follow them by ordinal, so code generation's
    /// must be these (checked at the end).
    order: Vec<(Span, bool)>,
    /// The first barrier code generation placed out of that order, if any.
    out_of_order: Option<String>,
}

/// The barrier analysis of one kernel: the current state and everything decided so far.
#[derive(Debug, Default)]
pub struct Sync {
    pub state: SyncState,
    pub candidates: Candidates,
    pub remarks: Vec<Remark>,
    /// The identity the next recorded access gets (see [`AccessLog`]).
    next_access: u64,
    /// Where `kir-barriers` covers the kernel: its decisions, which code generation emits.
    followed: Option<Followed>,
}

impl Sync {
    /// Emits `kir-barriers`' decisions where it covers the kernel (`Placed`); else the analysis
    /// here decides.
    pub fn follow(&mut self, barriers: Option<&Barriers>) {
        let Some(Barriers::Placed(placed, removed, emission)) = barriers else {
            return;
        };
        let barriers = placed
            .iter()
            .filter(|b| b.needed && b.collective.is_none())
            .filter_map(|b| Some((b.point?, b.clone())))
            .collect();
        self.followed = Some(Followed {
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
            own_removed: Vec::new(),
            order: placed
                .iter()
                .filter(|b| b.needed)
                .map(|b| (b.at, b.collective.is_some()))
                .collect(),
            out_of_order: None,
        });
    }

    pub fn follows_ir(&self) -> bool {
        self.followed.is_some()
    }

    /// At the next place a barrier may go (`point`, which must be the IR's next one): the
    /// barrier `kir-barriers` places there, if any. An error says how the places differ.
    pub fn decided(&mut self, point: Point) -> std::result::Result<Option<Barrier>, String> {
        let Some(followed) = &mut self.followed else {
            return Ok(None);
        };
        let ordinal = followed.next_point;
        followed.next_point += 1;
        match followed.points.get(ordinal) {
            Some(p) if *p == point => Ok(followed.barriers.get(&ordinal).cloned()),
            Some(p) => Err(format!(
                "place {ordinal} where a barrier may go is a {p:?} in kir-barriers, a {point:?} here"
            )),
            None => Err(format!(
                "kir-barriers has {ordinal} places where a barrier may go, code generation more"
            )),
        }
    }

    /// A barrier `kir-barriers` placed was emitted: its remark and the removals it made, the
    /// IR's; `own`, the earlier access the analysis here found (its candidates, for the check).
    pub fn ir_barrier_placed(&mut self, barrier: &Barrier, own: Option<&Access>) {
        self.remarks.push(kept(
            &barrier.earlier,
            &barrier.later,
            barrier.at,
            barrier.loop_end,
        ));
        self.note_barrier(barrier.at, false);
        let own_removed = match own {
            Some(earlier) => {
                self.candidates
                    .barrier(&mut self.state.candidates, earlier, barrier.at)
            }
            None => Vec::new(),
        };
        self.removals(own_removed, true);
        self.clear();
    }

    /// A barrier placed at `at` (`collective`: inside a collective): where the IR decides, it
    /// must be the IR's next one.
    fn note_barrier(&mut self, at: Span, collective: bool) {
        let Some(followed) = &mut self.followed else {
            return;
        };
        let ordinal = followed.barriers_placed;
        if followed.out_of_order.is_none() && followed.order.get(ordinal) != Some(&(at, collective))
        {
            followed.out_of_order = Some(format!(
                "barrier {ordinal} (the collectives' counted) stands elsewhere than kir-barriers', or is of another kind"
            ));
        }
    }

    /// The barriers removed at the barrier just placed (`at_barrier`) or at the kernel's end:
    /// the analysis's own where it decides, else the IR's (the analysis's kept to check).
    fn removals(&mut self, own: Vec<Removed>, at_barrier: bool) {
        let Some(followed) = &mut self.followed else {
            self.remarks
                .extend(own.into_iter().map(Remark::BarrierRemoved));
            return;
        };
        followed.own_removed.extend(own);
        let this = followed.barriers_placed;
        let removed = followed.removed.iter().filter(|(at, _)| *at == this);
        self.remarks
            .extend(removed.map(|(_, r)| Remark::BarrierRemoved(r.clone())));
        if at_barrier {
            followed.barriers_placed += 1;
        }
    }

    /// For a kernel whose barriers the IR decided: whether code generation reached every place
    /// the IR has and removed the same barriers itself (an error says how they differ).
    pub fn check_followed(&self) -> std::result::Result<(), String> {
        let Some(followed) = &self.followed else {
            return Ok(());
        };
        if let Some(message) = &followed.out_of_order {
            return Err(message.clone());
        }
        if followed.barriers_placed != followed.order.len() {
            return Err(format!(
                "kir-barriers places {} barrier(s), the collectives' counted, code generation {}",
                followed.order.len(),
                followed.barriers_placed
            ));
        }
        if followed.next_point != followed.points.len() {
            return Err(format!(
                "kir-barriers has {} places where a barrier may go, code generation {}",
                followed.points.len(),
                followed.next_point
            ));
        }
        let ir: Vec<&Removed> = followed.removed.iter().map(|(_, r)| r).collect();
        let own: Vec<&Removed> = followed.own_removed.iter().collect();
        if ir != own {
            return Err(format!(
                "kir-barriers removed {} barrier(s) after stores, code generation {} (or for other reasons)",
                ir.len(),
                own.len()
            ));
        }
        Ok(())
    }

    /// Notes that accesses are about to happen; returns the conflict that needs a barrier first,
    /// if any (the caller places it, then calls [`Sync::barrier_placed`]).
    pub fn check(&self, accesses: &[Access], block_size: u32) -> Option<(Access, Access)> {
        self.state.first_conflict(accesses, block_size)
    }

    /// Records `accesses` as made, and notes same-thread witnesses for pending candidates.
    pub fn record(&mut self, accesses: Vec<Access>) {
        for access in accesses {
            self.candidates.record(&mut self.state.candidates, &access);
            let id = self.next_access;
            self.next_access += 1;
            self.state.record(id, access);
        }
    }

    /// A barrier was placed for the conflict between `earlier` and `later`.
    pub fn barrier_placed(
        &mut self,
        earlier: &Access,
        later: &Access,
        at: Span,
        loop_carried: bool,
    ) {
        self.remarks.push(kept(earlier, later, at, loop_carried));
        let removed = self
            .candidates
            .barrier(&mut self.state.candidates, earlier, at);
        self.removals(removed, true);
        self.clear();
    }

    /// A barrier inside a collective, which orders everything before it.
    pub fn collective_barrier(&mut self, at: Span, what: &'static str, clears: bool) {
        self.remarks.push(Remark::CollectiveBarrier { at, what });
        self.note_barrier(at, true);
        let mut removed = Vec::new();
        if clears {
            removed = self.candidates.collective(&mut self.state.candidates, at);
            self.clear();
        }
        self.removals(removed, true);
    }

    fn clear(&mut self) {
        self.state.pending.clear();
        for frame in &mut self.state.frames {
            frame.barriered = true;
        }
    }

    /// The barrier the rule asks for after the statement at `after`, which wrote `arrays`.
    pub fn candidate(&mut self, after: Span, arrays: Vec<(String, String)>) {
        self.push_candidate(after, arrays, false);
    }

    /// [`Sync::candidate`] for an atomic statement (`codegen/atomic.rs`).
    pub fn atomic_candidate(&mut self, after: Span, arrays: Vec<(String, String)>) {
        self.push_candidate(after, arrays, true);
    }

    fn push_candidate(&mut self, after: Span, arrays: Vec<(String, String)>, atomic: bool) {
        self.candidates
            .push(&mut self.state.candidates, after, arrays, atomic);
    }

    pub fn enter_loop(&mut self, watermark: u32) {
        self.state.frames.push(LoopFrame {
            exposed: AccessLog::default(),
            barriered: false,
            watermark,
        });
    }

    /// At the end of a loop body: the conflict between this iteration's pending accesses and
    /// the next iteration's first ones, if any.
    pub fn loop_back_conflict(&self, block_size: u32) -> Option<(Access, Access)> {
        let frame = self.state.frames.last()?;
        self.state
            .pending
            .first_pair(frame.exposed.iter(), |earlier, later| {
                conflicts(earlier, later, block_size, Some(frame.watermark))
            })
    }

    /// Leaves a loop: `before` is the state at the loop head (the body may run zero times).
    pub fn leave_loop(&mut self, before: SyncState) {
        let mut after = std::mem::take(&mut self.state);
        after.frames.pop();
        // `before` was taken before the loop's own frame was pushed: its frames are the ones
        // outside the loop. They saw the loop's accesses as they were recorded (in every open
        // frame), on top of what they held before it; only their barrier flags need the
        // zero-trip path (a barrier inside the loop may never run).
        let mut frames = after.frames.clone();
        for (frame, at_head) in frames.iter_mut().zip(&before.frames) {
            frame.barriered &= at_head.barriered;
        }
        self.state = after.join(before);
        self.state.frames = frames;
    }

    /// At the end of the kernel: every unresolved candidate is removed.
    pub fn finish(&mut self) {
        let removed = self.candidates.finish();
        self.removals(removed, false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::AtomicOp;
    use crate::kir::affine::{Poly, Sym};
    use crate::syntax::span::FileId;

    fn access(kind: AccessKind, who: Who) -> Access {
        Access {
            array: "t".into(),
            name: "t".into(),
            kind,
            who,
            span: Span::synthetic(FileId(0)),
        }
    }

    /// Atomics that commute never conflict, from any threads at any elements; atomics that do
    /// not (`xor` then `add`), and an atomic and a plain read or write of the array by another
    /// thread, conflict like two writes.
    #[test]
    fn atomics_conflict_with_plain_accesses_and_other_operations() {
        let a1 = access(AccessKind::Atomic(AtomicOp::Add, false), Who::Any);
        let a2 = access(AccessKind::Atomic(AtomicOp::Sub, false), Who::Leader(None));
        assert!(!conflicts(&a1, &a2, 256, None));
        assert!(!conflicts(&a2, &a1, 256, None));
        assert!(!conflicts(&a1, &a1, 256, None));
        let x = access(AccessKind::Atomic(AtomicOp::Xor, false), Who::Any);
        assert!(conflicts(&x, &a1, 256, None));
        assert!(!conflicts(&x, &x, 256, None));
        let e = access(AccessKind::Atomic(AtomicOp::Exch, false), Who::Any);
        assert!(conflicts(&e, &e, 256, None));
        // An add whose old value is used sees where it falls among the others.
        let ticket = access(AccessKind::Atomic(AtomicOp::Add, true), Who::Leader(None));
        assert!(conflicts(&a1, &ticket, 256, None));
        for plain in [AccessKind::Read, AccessKind::Write] {
            let p = access(plain, Who::Owner(Poly::default()));
            assert!(conflicts(&a1, &p, 256, None));
            assert!(conflicts(&p, &a1, 256, None));
        }
        // Thread 0's atomic and thread 0's own later store: the same thread.
        let store = access(AccessKind::Write, Who::Leader(None));
        assert!(!conflicts(&a2, &store, 256, None));
    }

    fn removed(reason: crate::kir::removed_barriers::RemovedReason) -> Removed {
        Removed {
            after: Span::synthetic(FileId(0)),
            arrays: vec!["t".into()],
            reason,
        }
    }

    /// For a covered kernel the barriers, their remarks and the removed barriers' remarks are
    /// the kernel IR's, whatever the analysis here found: nothing is pending here, yet the
    /// IR's barrier at place 1 is placed there, with its accesses, and each removed barrier's
    /// remark follows the barrier the IR says (or the kernel's end).
    #[test]
    fn a_covered_kernel_takes_its_barriers_and_remarks_from_the_ir() {
        use crate::kir::removed_barriers::RemovedReason;
        use crate::kir::Emission;
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
        sync.follow(Some(&plan));
        assert!(sync.follows_ir());
        assert!(matches!(sync.decided(Point::Touch), Ok(None)));
        assert!(sync.check(std::slice::from_ref(&read), 256).is_none());
        let placed = sync
            .decided(Point::LoopEnd)
            .unwrap()
            .expect("the IR's barrier");
        assert_eq!(placed.point, Some(1));
        sync.ir_barrier_placed(&placed, None);
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
        // Code generation reached every place; its own analysis removed nothing, unlike the IR.
        assert!(sync.check_followed().unwrap_err().contains("removed 2"));
        // A place of another kind than the IR's next is an error, as is one past its last.
        let mut sync = Sync::default();
        sync.follow(Some(&plan));
        assert!(sync.decided(Point::LoopHead).is_err());
        assert!(sync.decided(Point::LoopEnd).is_ok());
        assert!(sync.decided(Point::Touch).is_err());
    }

    #[test]
    fn owner_accesses_shifted_by_a_block_stay_on_one_thread() {
        let b = Poly::sym(Sym::new("B", 0)).scale(256).unwrap();
        let prev = b.sub(&Poly::constant(256)).unwrap();
        let w = access(AccessKind::Write, Who::Owner(b.clone()));
        let r = access(AccessKind::Read, Who::Owner(prev));
        assert!(!conflicts(&w, &r, 256, None));
        let shifted = access(
            AccessKind::Read,
            Who::Owner(b.add(&Poly::constant(1)).unwrap()),
        );
        assert!(conflicts(&w, &shifted, 256, None));
    }

    #[test]
    fn reads_never_conflict_and_leader_is_one_thread() {
        let r1 = access(AccessKind::Read, Who::Any);
        let r2 = access(AccessKind::Read, Who::All(None));
        assert!(!conflicts(&r1, &r2, 256, None));
        let w = access(AccessKind::Write, Who::Leader(None));
        assert!(!conflicts(
            &w,
            &access(AccessKind::Write, Who::Leader(None)),
            256,
            None
        ));
        assert!(conflicts(&w, &r2, 256, None));
    }

    #[test]
    fn single_elements_at_different_indices_do_not_conflict() {
        let i = Poly::sym(Sym::new("i", 3));
        let w = access(AccessKind::Write, Who::Leader(Some(i.clone())));
        let before = access(
            AccessKind::Read,
            Who::All(Some(i.sub(&Poly::constant(1)).unwrap())),
        );
        assert!(!conflicts(&before, &w, 256, None));
        // In the next iteration, `i - 1` is the element this one wrote.
        assert!(conflicts(&w, &before, 256, Some(2)));
        // Thread 0 owns element 0 of a block vector at offset 0.
        let vector = access(AccessKind::Write, Who::Owner(Poly::default()));
        let first = access(AccessKind::Write, Who::Leader(Some(Poly::constant(0))));
        assert!(!conflicts(&vector, &first, 256, None));
        let second = access(AccessKind::Write, Who::Leader(Some(Poly::constant(1))));
        assert!(conflicts(&vector, &second, 256, None));
    }

    #[test]
    fn loop_variant_symbols_differ_across_iterations() {
        let j = Poly::sym(Sym::new("j", 7));
        let w = access(AccessKind::Write, Who::Owner(j.clone()));
        let r = access(AccessKind::Read, Who::Owner(j.clone()));
        assert!(!conflicts(&w, &r, 256, None));
        assert!(conflicts(&w, &r, 256, Some(5)));
        assert!(!conflicts(&w, &r, 256, Some(8)));
        // A block-sized stride per iteration keeps every element on its thread.
        let strided = j.scale(256).unwrap();
        let w = access(AccessKind::Write, Who::Owner(strided.clone()));
        let r = access(AccessKind::Read, Who::Owner(strided));
        assert!(!conflicts(&w, &r, 256, Some(5)));
    }
}
