//! Decides whether two different threads can touch the same bytes through two affine
//! addresses.
//!
//! With `D = address(a, thread 1) - address(b, thread 2)`, the accesses overlap when
//! `-(size_a - 1) <= D <= size_b - 1`. The thread parts of `D` are enumerated exactly, thread
//! pair by thread pair (through a hash of one side's values, so the cost is about one look-up per
//! thread and window position); the variable part `Σ c·x` is over-approximated by the multiples of
//! `gcd(c)` between its bounds (the GCD and Banerjee tests). A candidate found that way is then
//! confirmed by solving for actual values of the variables; one that cannot be confirmed is
//! reported as undecided, never as a race.

use super::address::{Lin, VarKey, UNBOUNDED};
use super::guards::{self, Guard};
use crate::fast_hash::HashMap;
use crate::threads::{signed, Geometry, ThreadSet, ThreadValues};

/// One side of a pair.
pub struct Side<'a> {
    pub lin: &'a Lin,
    /// The thread part of `lin`, per thread, if already computed.
    pub thread: Option<&'a [i128]>,
    /// Comparisons that hold where the access runs.
    pub guards: &'a [Guard],
    /// Threads that may execute the access.
    pub active: &'a ThreadSet,
    pub bytes: u64,
}

#[derive(Debug, Clone)]
pub struct Witness {
    pub first_thread: usize,
    pub second_thread: usize,
    pub first_offset: i128,
    pub second_offset: i128,
    /// The values chosen for the variables.
    pub values: Vec<(VarKey, i128)>,
}

#[derive(Debug, Clone)]
pub enum Outcome {
    /// No two different threads overlap.
    Free,
    Conflict(Witness),
    Undecided(String),
}

/// Per-thread value of the thread part of an address.
pub fn thread_part(threads: &ThreadValues<'_>, lin: &Lin) -> Option<Vec<i128>> {
    let n = threads.count();
    let mut total = vec![0i128; n];
    for term in &lin.thread {
        let values = term.values(threads)?;
        let bits = threads.bits(term.value).unwrap_or(64);
        for (t, v) in values.iter().enumerate() {
            let x = if term.signed {
                i128::from(signed(*v, bits))
            } else {
                i128::from(*v)
            };
            total[t] = total[t].saturating_add(term.coeff.saturating_mul(x));
        }
    }
    Some(total)
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The variable part of `D`: each variable with its coefficient (first side's positive, second
/// side's negated) and its range.
struct Free {
    terms: Vec<(VarKey, i128, i128, i128)>,
    gcd: i128,
    min: i128,
    max: i128,
}

fn free_part(a: &Lin, b: &Lin, ranges: &HashMap<VarKey, (i128, i128)>) -> Free {
    let mut net: Vec<(VarKey, i128)> = Vec::new();
    let mut add = |key: VarKey, c: i128| match net.iter_mut().find(|(k, _)| *k == key) {
        Some((_, x)) => *x += c,
        None => net.push((key, c)),
    };
    for (key, c) in &a.vars {
        add(*key, *c);
    }
    for (key, c) in &b.vars {
        add(*key, -*c);
    }
    net.retain(|(_, c)| *c != 0);
    let mut free = Free {
        terms: Vec::new(),
        gcd: 0,
        min: 0,
        max: 0,
    };
    for (key, c) in net {
        let (lo, hi) = ranges.get(&key).copied().unwrap_or((-UNBOUNDED, UNBOUNDED));
        free.gcd = gcd(free.gcd, c);
        let (x, y) = (
            saturate(c.saturating_mul(lo.clamp(-UNBOUNDED, UNBOUNDED))),
            saturate(c.saturating_mul(hi.clamp(-UNBOUNDED, UNBOUNDED))),
        );
        free.min = saturate(free.min.saturating_add(x.min(y)));
        free.max = saturate(free.max.saturating_add(x.max(y)));
        free.terms.push((key, c, lo, hi));
    }
    free
}

fn saturate(x: i128) -> i128 {
    x.clamp(-UNBOUNDED, UNBOUNDED)
}

/// Looks for two different threads whose accesses overlap.
pub fn solve(
    threads: &ThreadValues<'_>,
    a: Side<'_>,
    b: Side<'_>,
    different_warps: bool,
    ranges: &HashMap<VarKey, (i128, i128)>,
    blocks_apart: bool,
) -> Outcome {
    // A variable with an empty range, in an address or a guard: one of the accesses never runs.
    let guard_vars = a
        .guards
        .iter()
        .chain(b.guards)
        .flat_map(|g| g.lhs.vars.iter().chain(&g.rhs.vars));
    if a.lin
        .vars
        .iter()
        .chain(&b.lin.vars)
        .chain(guard_vars)
        .any(|(key, _)| ranges.get(key).is_some_and(|(lo, hi)| lo > hi))
    {
        return Outcome::Free;
    }
    let free = free_part(a.lin, b.lin, ranges);
    let k = a.lin.konst.saturating_sub(b.lin.konst);
    // D = k + TA(t1) - TB(t2) + f must fall in [lo, hi].
    let lo = -(a.bytes as i128 - 1);
    let hi = b.bytes as i128 - 1;
    let fits_free = |f: i128| -> bool {
        if free.gcd == 0 {
            f == 0
        } else {
            f % free.gcd == 0 && free.min <= f && f <= free.max
        }
    };

    if threads.geometry() == Geometry::Unknown || threads.count() == 0 {
        // No enumeration: the GCD and bounds test alone, with the thread coordinates among the
        // variables. It can only prove freedom.
        let some = (lo..=hi).any(|w| fits_free(w.saturating_sub(k)));
        return if some {
            Outcome::Undecided(
                "the block size is unknown; give it (reqntid, or the verifier's block-size option) to decide"
                    .into(),
            )
        } else {
            Outcome::Free
        };
    }

    let part = |side: &Side<'_>| match side.thread {
        Some(t) => Some(t.to_vec()),
        None => thread_part(threads, side.lin),
    };
    let (Some(ta), Some(tb)) = (part(&a), part(&b)) else {
        return Outcome::Undecided("a thread-dependent index could not be evaluated".into());
    };
    // The commonest pair, an access against itself or its twin at one thread-only address
    // (`s[tid]` stored in two places): free when the threads' addresses lie at least an access
    // apart, which sorting shows without the hashing below.
    if a.lin == b.lin && free.terms.is_empty() && free.gcd == 0 && ta == tb && !blocks_apart {
        let mut offsets: Vec<i128> = a.active.union(b.active).iter().map(|t| ta[t]).collect();
        offsets.sort_unstable();
        let width = a.bytes.max(b.bytes) as i128;
        if offsets.windows(2).all(|w| w[1] - w[0] >= width) {
            return Outcome::Free;
        }
    }
    // Index the second side's threads by thread part (or its residue modulo the gcd).
    let modulus = if free.gcd == 0 { 0 } else { free.gcd };
    let key_of = |x: i128| {
        if modulus == 0 {
            x
        } else {
            x.rem_euclid(modulus)
        }
    };
    // Sorted by key, each key's threads in the order of `b.active` (the sort is stable): a
    // hash map of vectors cost a hashing and an allocation per thread, a tenth of the check.
    let mut index: Vec<(i128, usize)> = b.active.iter().map(|t2| (key_of(tb[t2]), t2)).collect();
    index.sort_by_key(|(key, _)| *key);
    let threads_with = |key: i128| {
        let first = index.partition_point(|(k, _)| *k < key);
        let count = index[first..].partition_point(|(k, _)| *k == key);
        &index[first..first + count]
    };
    // Window positions that give distinct keys.
    let window: Vec<i128> = if modulus != 0 && hi - lo + 1 > modulus {
        (lo..lo + modulus).collect()
    } else {
        (lo..=hi).collect()
    };
    // Candidates the GCD and bounds test allows but no values of the variables confirm.
    let mut unconfirmed = 0usize;
    for t1 in a.active.iter() {
        for &w in &window {
            // Want TB(t2) = k + TA(t1) + f - w for some admissible f.
            let wanted = k.saturating_add(ta[t1]).saturating_sub(w);
            for &(_, t2) in threads_with(key_of(wanted)) {
                // Two threads of one block are two threads; of two blocks, any two (the same
                // index included).
                if (t2 == t1 && !blocks_apart)
                    || (different_warps && Geometry::warp(t1) == Geometry::warp(t2))
                {
                    continue;
                }
                // D without the free part; try every window position that makes f admissible.
                let d0 = k.saturating_add(ta[t1]).saturating_sub(tb[t2]);
                for f in (lo..=hi)
                    .map(|w2| w2.saturating_sub(d0))
                    .filter(|f| fits_free(*f))
                {
                    let mut completed = Vec::new();
                    let mut accept = |values: &[(VarKey, i128)]| {
                        let sides = [(a.guards, t1), (b.guards, t2)];
                        let Some(mut values) = guards::forced(threads, &sides, values) else {
                            return false;
                        };
                        if blocks_apart && !different_blocks(&mut values, ranges) {
                            return false;
                        }
                        let holds = guards::all_hold(threads, a.guards, t1, &values)
                            && guards::all_hold(threads, b.guards, t2, &values);
                        if holds {
                            completed = values;
                        }
                        holds
                    };
                    match assign(&free.terms, f, &mut accept) {
                        Assignment::Found => {
                            return Outcome::Conflict(witness(&a, &b, t1, t2, &ta, &tb, completed));
                        }
                        // With at most one variable its value is forced: the guards rule the
                        // candidate out for good.
                        Assignment::Rejected if free.terms.len() <= 1 => {}
                        Assignment::Rejected | Assignment::NotFound => {
                            unconfirmed += 1;
                        }
                    }
                }
                if unconfirmed > 64 {
                    break;
                }
            }
        }
    }
    if unconfirmed > 0 {
        Outcome::Undecided(
            "the GCD and bounds test allows a conflict that no values of the loop counters and \
             parameters confirm"
                .into(),
        )
    } else {
        Outcome::Free
    }
}

/// For a pair in different blocks: completes the block ids the assignment leaves open so that
/// the two blocks differ (block 0 and block 1 when nothing fixes them), and says whether they do.
fn different_blocks(
    values: &mut Vec<(VarKey, i128)>,
    ranges: &HashMap<VarKey, (i128, i128)>,
) -> bool {
    if !blocks_of_quotients(values, ranges) {
        return false;
    }
    let get = |values: &Vec<(VarKey, i128)>, side: u8, axis: u8| {
        values
            .iter()
            .find(|(k, _)| *k == VarKey::Block { side, axis })
            .map(|(_, v)| *v)
    };
    let mut apart = false;
    for axis in 0..3u8 {
        let (first, second) = (get(values, 0, axis), get(values, 1, axis));
        let (first, second) = match (first, second) {
            (Some(x), Some(y)) => (x, y),
            (Some(x), None) if !apart => (x, x + 1),
            (None, Some(y)) if !apart => (if y > 0 { y - 1 } else { y + 1 }, y),
            (Some(x), None) => (x, x),
            (None, Some(y)) => (y, y),
            (None, None) if !apart && axis == 0 => (0, 1),
            (None, None) => (0, 0),
        };
        apart |= first != second;
        for (side, value) in [(0u8, first), (1u8, second)] {
            let key = VarKey::Block { side, axis };
            if !values.iter().any(|(k, _)| *k == key) {
                values.push((key, value));
            }
        }
    }
    apart
}

/// Block ids for the quotients (`blockIdx.x / c`) the assignment chose: `q·c` on each side, and
/// `q·c + 1` on the second when both quotients are equal (two blocks of one quotient); a block
/// id the assignment also chose must have that quotient. Whether such block ids exist.
fn blocks_of_quotients(
    values: &mut Vec<(VarKey, i128)>,
    ranges: &HashMap<VarKey, (i128, i128)>,
) -> bool {
    let quotient = |values: &Vec<(VarKey, i128)>, side: u8, axis: u8| {
        values.iter().find_map(|(k, v)| match k {
            VarKey::BlockQuotient {
                side: s,
                axis: a,
                divisor,
            } if *s == side && *a == axis => Some((*v, *divisor)),
            _ => None,
        })
    };
    for axis in 0..3u8 {
        let (first, second) = (quotient(values, 0, axis), quotient(values, 1, axis));
        let same = matches!((first, second), (Some(x), Some(y)) if x == y);
        for (side, q) in [(0u8, first), (1u8, second)] {
            let Some((q, divisor)) = q else { continue };
            let key = VarKey::Block { side, axis };
            match values.iter().find(|(k, _)| *k == key) {
                Some((_, block)) => {
                    if block.div_euclid(divisor) != q {
                        return false;
                    }
                }
                None => {
                    let block = q * divisor + i128::from(same && side == 1);
                    if ranges
                        .get(&key)
                        .is_some_and(|(lo, hi)| block < *lo || block > *hi)
                    {
                        return false;
                    }
                    values.push((key, block));
                }
            }
        }
    }
    true
}

fn witness(
    a: &Side<'_>,
    b: &Side<'_>,
    t1: usize,
    t2: usize,
    ta: &[i128],
    tb: &[i128],
    values: Vec<(VarKey, i128)>,
) -> Witness {
    let value_of = |key: &VarKey| {
        values
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| *v)
            .unwrap_or(0)
    };
    let offset = |lin: &Lin, t: i128| {
        lin.vars
            .iter()
            .fold(lin.konst.saturating_add(t), |acc, (k, c)| {
                acc.saturating_add(c.saturating_mul(value_of(k)))
            })
    };
    let first_offset = offset(a.lin, ta[t1]);
    let second_offset = offset(b.lin, tb[t2]);
    let mut all_values = values.clone();
    for (key, _) in a.lin.vars.iter().chain(&b.lin.vars) {
        if !all_values.iter().any(|(k, _)| k == key) {
            all_values.push((*key, 0));
        }
    }
    Witness {
        first_thread: t1,
        second_thread: t2,
        first_offset,
        second_offset,
        values: all_values,
    }
}

/// Decides whether an assignment of the variables is acceptable (the guards hold).
type Accept<'a> = dyn FnMut(&[(VarKey, i128)]) -> bool + 'a;

enum Assignment {
    /// `accept` took an assignment (it keeps what it needs of it).
    Found,
    /// Values exist, but `accept` turned down every one tried.
    Rejected,
    NotFound,
}

/// Values `x_i` in their ranges with `Σ c_i·x_i = target` that `accept` takes, if a small search
/// finds them.
fn assign(
    terms: &[(VarKey, i128, i128, i128)],
    target: i128,
    accept: &mut Accept<'_>,
) -> Assignment {
    let mut values = Vec::with_capacity(terms.len());
    let mut rejected = false;
    if solve_terms(terms, target, &mut values, accept, &mut rejected) {
        Assignment::Found
    } else if rejected {
        Assignment::Rejected
    } else {
        Assignment::NotFound
    }
}

fn solve_terms(
    terms: &[(VarKey, i128, i128, i128)],
    target: i128,
    out: &mut Vec<(VarKey, i128)>,
    accept: &mut Accept<'_>,
    rejected: &mut bool,
) -> bool {
    let Some(((key, c, lo, hi), rest)) = terms.split_first() else {
        if target != 0 {
            return false;
        }
        if accept(out) {
            return true;
        }
        *rejected = true;
        return false;
    };
    let (c, lo, hi) = (*c, *lo, *hi);
    if rest.is_empty() {
        if target % c != 0 {
            return false;
        }
        let x = target / c;
        if lo <= x && x <= hi {
            out.push((*key, x));
            if accept(out) {
                return true;
            }
            out.pop();
            *rejected = true;
        }
        return false;
    }
    let g = rest.iter().fold(0, |g, (_, c, _, _)| gcd(g, *c));
    // x must satisfy c·x ≡ target (mod g): x = x0 + period·k.
    let (x0, period) = match congruence(c, target, g) {
        Some(s) => s,
        None => return false,
    };
    // At most 4 anchors of 5 values each.
    let mut candidates: Vec<i128> = Vec::with_capacity(20);
    for anchor in [0, lo, hi, target / c] {
        let anchor = anchor.clamp(lo, hi);
        let k = if period == 0 {
            0
        } else {
            (anchor - x0).div_euclid(period)
        };
        for dk in -2..=2 {
            let x = x0 + period * (k + dk);
            if lo <= x && x <= hi && !candidates.contains(&x) {
                candidates.push(x);
            }
        }
    }
    for x in candidates {
        out.push((*key, x));
        if solve_terms(
            rest,
            target.saturating_sub(c.saturating_mul(x)),
            out,
            accept,
            rejected,
        ) {
            return true;
        }
        out.pop();
    }
    false
}

/// Solutions of `c·x ≡ t (mod m)`: one solution and the period, if any exist.
fn congruence(c: i128, t: i128, m: i128) -> Option<(i128, i128)> {
    if m == 0 {
        return if t % c == 0 { Some((t / c, 0)) } else { None };
    }
    let (g, inverse, _) = extended_gcd(c.rem_euclid(m), m);
    if t.rem_euclid(g) != 0 {
        return None;
    }
    let period = m / g;
    let x = ((t / g).rem_euclid(period) * inverse.rem_euclid(period)).rem_euclid(period.max(1));
    Some((x, period))
}

fn extended_gcd(a: i128, b: i128) -> (i128, i128, i128) {
    if b == 0 {
        (a, 1, 0)
    } else {
        let (g, x, y) = extended_gcd(b, a % b);
        (g, y, x - (a / b) * y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn congruences_are_solved() {
        // 4x ≡ 8 (mod 12): x ≡ 2 (mod 3)
        let (x, p) = congruence(4, 8, 12).unwrap();
        assert_eq!(p, 3);
        assert_eq!((4 * x - 8).rem_euclid(12), 0);
        assert!(congruence(4, 3, 12).is_none());
    }

    #[test]
    fn assignments_respect_ranges() {
        let key = |phi| VarKey::Completed { phi };
        // 1024·a - 1024·b = 2048 with a, b in [0, 10]
        let terms = vec![(key(0), 1024, 0, 10), (key(1), -1024, 0, 10)];
        let mut values = Vec::new();
        let found = assign(&terms, 2048, &mut |v| {
            values = v.to_vec();
            true
        });
        assert!(matches!(found, Assignment::Found), "no assignment");
        let sum: i128 = values
            .iter()
            .zip(&terms)
            .map(|((_, v), (_, c, _, _))| v * c)
            .sum();
        assert_eq!(sum, 2048);
        assert!(values.iter().all(|(_, v)| (0..=10).contains(v)));
        // Out of range: 1024·a = 1024·20 with a ≤ 10.
        assert!(matches!(
            assign(&terms[..1], 20 * 1024, &mut |_| true),
            Assignment::NotFound
        ));
        // Every value turned down.
        assert!(matches!(
            assign(&terms[..1], 2048, &mut |_| false),
            Assignment::Rejected
        ));
    }
}
