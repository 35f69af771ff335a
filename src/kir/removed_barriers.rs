//! The barriers the synchronisation rule asks for after every statement that writes memory, and
//! which of them are removed and why (remark R0802), as `kir-barriers` decides it; code
//! generation gives the remarks of the removed ones (`codegen/sync.rs`).
//!
//! A statement that writes memory leaves a *candidate*: the barrier the rule asks for after it.
//! It is resolved at the next barrier placed on its path (kept when that barrier orders one of
//! its writes, else removed: the barrier covers it), or at the end of the kernel (removed:
//! nothing later conflicts). A later access to one of its arrays that needed no barrier is by
//! the thread that wrote the element (or an atomic after an atomic): the reason names it.

use super::access::{Access, AccessKind};
use crate::syntax::span::Span;

/// Why a candidate barrier is removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RemovedReason {
    /// Every later access to the array, up to the next barrier, is by the thread that wrote the
    /// element (the first such access is named).
    SameThread { later: Span },
    /// Every later access to the array, up to the next barrier, is an atomic, as the statement
    /// is: atomics do not race with each other.
    AtomicsOnly { later: Span },
    /// Nothing after the statement reads or writes what it wrote.
    NoLaterAccess,
    /// A barrier placed later for another reason orders this statement's writes too.
    Covered { by: Span },
}

/// A removed candidate: after which statement, for which arrays (as the user names them), why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Removed {
    pub after: Span,
    pub arrays: Vec<String>,
    pub reason: RemovedReason,
}

/// The barrier the rule asks for after a statement that wrote memory.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub after: Span,
    /// Each array's key and name.
    pub arrays: Vec<(String, String)>,
    /// A later access to one of the arrays, by the thread that wrote the element.
    pub same_thread: Option<Span>,
    pub resolved: bool,
    /// Its removal was reported already: a candidate resolved on one path (inside an `if`)
    /// stays pending on the path that skips it, and a later barrier resolves it again, but it
    /// is one barrier, removed once (one R0802 remark).
    pub reported: bool,
    /// The statement is an atomic, and so is the access in `same_thread`: atomics never race.
    pub atomic: bool,
    pub later_atomic: bool,
}

impl Candidate {
    /// Why no barrier is needed up to where `fallback` applies: a later access to the array
    /// that cannot conflict with this statement's writes, if there is one.
    fn witness(&self, fallback: RemovedReason) -> RemovedReason {
        match self.same_thread {
            Some(later) if self.atomic && self.later_atomic => RemovedReason::AtomicsOnly { later },
            Some(later) => RemovedReason::SameThread { later },
            None => fallback,
        }
    }

    /// Its removal, for the reason `witness` gives with `fallback`: `None` where it was
    /// reported already.
    fn report(&mut self, fallback: RemovedReason) -> Option<Removed> {
        if std::mem::replace(&mut self.reported, true) {
            return None;
        }
        Some(Removed {
            after: self.after,
            arrays: self.arrays.iter().map(|(_, name)| name.clone()).collect(),
            reason: self.witness(fallback),
        })
    }
}

/// The candidates not yet resolved on one path, in the order they were made.
#[derive(Debug, Clone, Default)]
pub struct PathCandidates {
    /// Indices into [`Candidates::all`], and the same as a set (joins test membership once per
    /// candidate). Private: the two change together. Persistent: a state is copied at every
    /// `if`.
    list: imbl::Vector<usize>,
    set: imbl::HashSet<usize>,
    /// Every candidate of this path that may still lack a later access by the writing thread
    /// ([`Candidate::same_thread`]; those that have one leave it at the next access): the ones
    /// [`Candidates::record`] looks at, not every candidate since the last barrier.
    unwitnessed: imbl::Vector<usize>,
    /// Which emptying of the candidates this path descends from: two states of one epoch both
    /// hold the list of the point where they forked, followed by what each added since.
    epoch: u64,
}

/// A fresh [`PathCandidates::epoch`].
fn new_epoch() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl PathCandidates {
    /// The candidates where this path and `other` meet.
    pub fn join(&mut self, other: PathCandidates) {
        if self.epoch == other.epoch {
            // Both hold the fork's list, then what each added, which the other lacks: the
            // candidates to add are the other's after the last one this state holds. Those that
            // may lack a witness are the other's (the fork's and its own: it may have found
            // witnesses for the fork's since) and this state's own.
            let after_fork = |list: &imbl::Vector<usize>, fork: &imbl::HashSet<usize>| {
                let mut added: Vec<usize> = list
                    .iter()
                    .rev()
                    .take_while(|c| !fork.contains(c))
                    .copied()
                    .collect();
                added.reverse();
                added
            };
            let mine = after_fork(&self.list, &other.set);
            let theirs = after_fork(&other.list, &self.set);
            let mut unwitnessed = other.unwitnessed;
            unwitnessed.extend(mine);
            for c in theirs {
                if self.set.insert(c).is_none() {
                    self.list.push_back(c);
                }
            }
            self.unwitnessed = unwitnessed;
        } else {
            for c in other.list {
                self.add(c);
            }
            self.epoch = new_epoch();
        }
    }

    fn add(&mut self, c: usize) {
        if self.set.insert(c).is_none() {
            self.list.push_back(c);
            self.unwitnessed.push_back(c);
        }
    }

    fn take(&mut self) -> Vec<usize> {
        self.set.clear();
        self.unwitnessed.clear();
        self.epoch = new_epoch();
        std::mem::take(&mut self.list).into_iter().collect()
    }
}

/// Every candidate of a kernel, and the removals decided so far, in order.
#[derive(Debug, Clone, Default)]
pub struct Candidates {
    pub all: Vec<Candidate>,
}

impl Candidates {
    /// The barrier the rule asks for after the statement at `after`, which wrote `arrays`
    /// (`atomic`: an atomic statement), pending on `path`.
    pub fn push(
        &mut self,
        path: &mut PathCandidates,
        after: Span,
        arrays: Vec<(String, String)>,
        atomic: bool,
    ) {
        if arrays.is_empty() {
            return;
        }
        self.all.push(Candidate {
            after,
            arrays,
            same_thread: None,
            resolved: false,
            reported: false,
            atomic,
            later_atomic: false,
        });
        path.add(self.all.len() - 1);
    }

    /// `access` made on `path` with no barrier in front of it: a witness for the path's
    /// candidates on its array that have none.
    pub fn record(&mut self, path: &mut PathCandidates, access: &Access) {
        for &c in &path.unwitnessed {
            if let Some(candidate) = self.all.get_mut(c) {
                if candidate.same_thread.is_none()
                    && candidate.arrays.iter().any(|(key, _)| *key == access.array)
                {
                    candidate.same_thread = Some(access.span);
                    candidate.later_atomic = matches!(access.kind, AccessKind::Atomic(..));
                }
            }
        }
        let all = &self.all;
        path.unwitnessed
            .retain(|&c| all.get(c).is_some_and(|c| c.same_thread.is_none()));
    }

    /// A barrier placed at `at` on `path` for a conflict whose earlier access is `earlier`:
    /// every pending candidate resolved, kept where the barrier orders one of its writes, else
    /// removed (the removals returned, in order).
    pub fn barrier(
        &mut self,
        path: &mut PathCandidates,
        earlier: &Access,
        at: Span,
    ) -> Vec<Removed> {
        let mut removed = Vec::new();
        for c in path.take() {
            let Some(candidate) = self.all.get_mut(c) else {
                continue;
            };
            let ordered_here = matches!(earlier.kind, AccessKind::Write | AccessKind::Atomic(..))
                && candidate
                    .arrays
                    .iter()
                    .any(|(key, _)| *key == earlier.array);
            candidate.resolved = true;
            if !ordered_here {
                removed.extend(candidate.report(RemovedReason::Covered { by: at }));
            }
        }
        removed
    }

    /// A barrier inside a collective at `at` that orders everything before it: every pending
    /// candidate of `path` removed, covered by it.
    pub fn collective(&mut self, path: &mut PathCandidates, at: Span) -> Vec<Removed> {
        let mut removed = Vec::new();
        for c in path.take() {
            let Some(candidate) = self.all.get_mut(c) else {
                continue;
            };
            candidate.resolved = true;
            removed.extend(candidate.report(RemovedReason::Covered { by: at }));
        }
        removed
    }

    /// At the end of the kernel: every unresolved candidate removed.
    pub fn finish(&mut self) -> Vec<Removed> {
        let mut removed = Vec::new();
        for candidate in &mut self.all {
            if candidate.resolved {
                continue;
            }
            candidate.resolved = true;
            removed.extend(candidate.report(RemovedReason::NoLaterAccess));
        }
        removed
    }
}
