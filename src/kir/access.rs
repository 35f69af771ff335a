//! Accesses to memory, as barrier placement (`kir-barriers`) sees them and `kir-accesses`
//! decides with them: which array, read or written, and which thread touches which element
//! ([`Who`], from the subscripts' polynomials, `kir/affine.rs`); and when two accesses conflict
//! (the same element from two threads, at least one writing).

use super::affine::{Poly, Sym};
use crate::check::AtomicOp;
use crate::syntax::span::Span;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AccessKind {
    Read,
    Write,
    /// An atomic read-modify-write (`codegen/atomic.rs`): a read and a write, which conflicts
    /// with every other access to the element except an atomic that commutes with it (atomics
    /// never race, but the next statement must see the previous one's updates: `xor` then
    /// `add` on one element gives another result in the other order). With `true`, its old
    /// value is used, which makes its place among the block's other atomics visible: it
    /// commutes with none.
    Atomic(AtomicOp, bool),
}

/// Whether atomics `a` and `b` on one element give the same result in either order: `add` and
/// `sub` with each other, `min`, `max`, `and`, `or` and `xor` each with itself. (`exch` and
/// `cas` never: the last one wins.)
pub fn atomics_commute(a: AtomicOp, b: AtomicOp) -> bool {
    use AtomicOp::*;
    matches!(
        (a, b),
        (Add | Sub, Add | Sub) | (Min, Min) | (Max, Max) | (And, And) | (Or, Or) | (Xor, Xor)
    )
}

/// Which thread touches which element of an array.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Who {
    /// Thread 0 alone (a once-per-block store), at this element (row-major index) if known.
    Leader(Option<Poly>),
    /// Every thread, the same element (a uniform read), at this index if known.
    All(Option<Poly>),
    /// Element `l` by thread `(l - offset) mod BLOCKSIZE`: a block vector's element `k` at
    /// `offset + k`, which belongs to thread `k mod BLOCKSIZE`.
    Owner(Poly),
    /// Any thread, any element.
    Any,
}

impl Who {
    pub fn describe(&self) -> String {
        match self {
            Who::Leader(_) => "thread 0 alone".to_string(),
            Who::All(_) => "every thread".to_string(),
            Who::Owner(p) if p.is_zero() => {
                "the thread that owns each element (k mod BLOCKSIZE)".to_string()
            }
            Who::Owner(p) => {
                format!("the owner of each element (element `{p} + k` by thread k mod BLOCKSIZE)")
            }
            Who::Any => "any thread".to_string(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Access {
    /// The array's unique key.
    pub array: String,
    /// The array's name as the user wrote it.
    pub name: String,
    pub kind: AccessKind,
    pub who: Who,
    pub span: Span,
}

impl Access {
    /// What the access does to which array, in words: "write of `t`".
    pub fn what(&self) -> String {
        let verb = match self.kind {
            AccessKind::Read => "read",
            AccessKind::Write => "write",
            AccessKind::Atomic(..) => "atomic update",
        };
        format!("{verb} of `{}`", self.name)
    }
}

/// True when `earlier` and `later` may touch the same element from two different threads, with
/// at least one of them writing. `variant_from`: symbols of this version or newer differ between
/// the two accesses (they come from different iterations of a loop).
pub fn conflicts(
    earlier: &Access,
    later: &Access,
    block_size: u32,
    variant_from: Option<u32>,
) -> bool {
    if earlier.array != later.array
        || (earlier.kind == AccessKind::Read && later.kind == AccessKind::Read)
        || matches!(
            (earlier.kind, later.kind),
            (AccessKind::Atomic(a, false), AccessKind::Atomic(b, false)) if atomics_commute(a, b)
        )
    {
        return false;
    }
    // Across a loop's back edge, a symbol that changes per iteration stands for two different
    // values: the earlier access's gets a name of its own.
    let earlier_poly = |p: &Poly| -> Option<Poly> {
        match variant_from {
            Some(from) => p.rename(&|s| {
                (s.version >= from).then(|| Sym::new(format!("{}'", s.name), s.version))
            }),
            None => Some(p.clone()),
        }
    };
    // The difference of two element indices, when both are known.
    let difference = |a: &Option<Poly>, b: &Option<Poly>| -> Option<Poly> {
        let a = earlier_poly(a.as_ref()?)?;
        a.sub(b.as_ref()?)
    };
    let block = i64::from(block_size);
    match (&earlier.who, &later.who) {
        (Who::Leader(_), Who::Leader(_)) => false,
        // One element each, provably different: no conflict, whoever the threads are.
        (Who::Leader(a) | Who::All(a), Who::Leader(b) | Who::All(b)) => {
            difference(a, b).is_none_or(|d| d.as_constant().is_none_or(|c| c == 0))
        }
        (Who::Owner(a), Who::Owner(b)) => {
            let Some(d) = earlier_poly(a).and_then(|a| a.sub(b)) else {
                return true;
            };
            !d.is_multiple_of(block)
        }
        // Thread 0 and the owner of the element thread 0 touches: the same thread when
        // `element - offset` is a multiple of BLOCKSIZE.
        (Who::Leader(Some(at)), Who::Owner(offset)) => {
            let same = earlier_poly(at)
                .and_then(|at| at.sub(offset))
                .is_some_and(|d| d.is_multiple_of(block));
            !same
        }
        (Who::Owner(offset), Who::Leader(Some(at))) => {
            let same = earlier_poly(offset)
                .and_then(|offset| at.sub(&offset))
                .is_some_and(|d| d.is_multiple_of(block));
            !same
        }
        _ => true,
    }
}

/// An access of `kind` by `who` to an array `t`, for tests.
#[cfg(test)]
pub(crate) fn access_to_t(kind: AccessKind, who: Who) -> Access {
    Access {
        array: "t".into(),
        name: "t".into(),
        kind,
        who,
        span: Span::synthetic(crate::syntax::span::FileId(0)),
    }
}

#[cfg(test)]
mod tests {
    use super::access_to_t as access;
    use super::*;
    use crate::check::AtomicOp;
    use crate::kir::affine::{Poly, Sym};

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
