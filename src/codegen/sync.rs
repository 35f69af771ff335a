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

use super::remarks::{AccessNote, Remark};
pub use crate::kir::access::{conflicts, Access, AccessKind, Who};
pub use crate::kir::access_log::AccessLog;
use crate::kir::removed_barriers::{Candidates, PathCandidates};
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

/// The barrier analysis of one kernel: the current state and everything decided so far.
#[derive(Debug, Default)]
pub struct Sync {
    pub state: SyncState,
    pub candidates: Candidates,
    pub remarks: Vec<Remark>,
    /// The identity the next recorded access gets (see [`AccessLog`]).
    next_access: u64,
}

impl Sync {
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
        self.remarks.push(Remark::BarrierKept {
            at,
            array: later.name.clone(),
            earlier: note(earlier),
            later: note(later),
            loop_carried,
        });
        let removed = self
            .candidates
            .barrier(&mut self.state.candidates, earlier, at);
        self.remarks
            .extend(removed.into_iter().map(Remark::BarrierRemoved));
        self.clear();
    }

    /// A barrier inside a collective, which orders everything before it.
    pub fn collective_barrier(&mut self, at: Span, what: &'static str, clears: bool) {
        self.remarks.push(Remark::CollectiveBarrier { at, what });
        if clears {
            let removed = self.candidates.collective(&mut self.state.candidates, at);
            self.remarks
                .extend(removed.into_iter().map(Remark::BarrierRemoved));
            self.clear();
        }
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
        self.remarks
            .extend(removed.into_iter().map(Remark::BarrierRemoved));
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
