//! The conditions under which an access runs, used to check a candidate conflict.
//!
//! The GCD and bounds tests know nothing of the branches around an access: in the classic
//! reduction `if (tid < d) s[tid] += s[tid + d]` they would pair thread 1's write of s[1] with
//! thread 0's read of s[0 + d] for d = 1, a pair the guard `tid < d` rules out (thread 1 does not
//! run the write when d = 1). Each candidate's threads and variable values are therefore checked
//! against the comparisons that dominate both accesses, where those comparisons are affine too.

use super::address::{Lin, Linearizer, VarKey};
use crate::ir::{BinOp, Function, Op, Pred, Val};
use crate::threads::{compare, signed, ThreadValues};

/// `lhs <pred> rhs` must be `holds` where the access runs.
#[derive(Debug, Clone)]
pub struct Guard {
    pub lhs: Lin,
    pub rhs: Lin,
    pub pred: Pred,
    pub bits: u32,
    pub holds: bool,
}

/// The affine comparisons among `conditions` (splitting `a && b` that holds, `a || b` that
/// fails); the others are left out, which only makes the check weaker.
pub fn guards(linearizer: &mut Linearizer<'_>, conditions: &[(Val, bool)]) -> Vec<Guard> {
    let mut out = Vec::new();
    let mut work: Vec<(Val, bool)> = conditions.to_vec();
    let function = linearizer.cx.function;
    while let Some((value, holds)) = work.pop() {
        if out.len() > 64 {
            break;
        }
        let Val::Inst(id) = value else { continue };
        // A condition that depends on the thread id alone is decided thread by thread, exactly,
        // whatever its form (`phi != 0` of a phi of `tid` and constants).
        if function.bits(value) == Some(1) && linearizer.cx.threads.is_evaluable(value) {
            if let Ok(lhs) = linearizer.integer(value, false) {
                out.push(Guard {
                    lhs,
                    rhs: Lin::constant(1),
                    pred: Pred::Eq,
                    bits: 1,
                    holds,
                });
                continue;
            }
        }
        let inst = function.inst(id);
        match inst.op {
            Op::ICmp(pred) => {
                let Some(bits) = function.bits(inst.args[0]) else {
                    continue;
                };
                let is_signed = !matches!(pred, Pred::Ult | Pred::Ule | Pred::Ugt | Pred::Uge);
                // `(a | b) == 0` is `a == 0 && b == 0` (InstCombine's form of `u == 0 and
                // tid == 0`): each operand is compared with the zero on its own.
                let all_zero = matches!((pred, holds), (Pred::Eq, true) | (Pred::Ne, false))
                    && matches!(inst.args[1], Val::Int { value: 0, .. });
                let operands = match all_zero {
                    true => function.or_leaves(inst.args[0]),
                    false => vec![inst.args[0]],
                };
                for operand in operands {
                    let lhs = linearizer.integer(operand, is_signed);
                    let rhs = linearizer.integer(inst.args[1], is_signed);
                    if let (Ok(lhs), Ok(rhs)) = (lhs, rhs) {
                        out.push(Guard {
                            lhs,
                            rhs,
                            pred,
                            bits,
                            holds,
                        });
                    }
                }
            }
            // `select c, x, false` is `c && x`, `select c, true, x` is `c || x`: the forms
            // SimplifyCFG gives a short-circuit `and`/`or`.
            Op::Select if function.bits(value) == Some(1) => {
                let (c, x, y) = (inst.args[0], inst.args[1], inst.args[2]);
                match (y, x) {
                    (Val::Int { value: 0, .. }, _) if holds => {
                        work.push((c, true));
                        work.push((x, true));
                    }
                    (_, Val::Int { value: 1 | -1, .. }) if !holds => {
                        work.push((c, false));
                        work.push((y, false));
                    }
                    _ => {}
                }
            }
            Op::Bin(BinOp::And) if holds && function.bits(value) == Some(1) => {
                work.push((inst.args[0], true));
                work.push((inst.args[1], true));
            }
            Op::Bin(BinOp::Or { .. }) if !holds && function.bits(value) == Some(1) => {
                work.push((inst.args[0], false));
                work.push((inst.args[1], false));
            }
            // GVN's partial redundancy elimination computes `tid == 0 && inside` again on the
            // path that lacked it and merges the copies with a phi: the same condition.
            Op::Phi(_) => {
                if let Some(first) = copies_of_one_computation(function, &inst.args) {
                    work.push((first, holds));
                }
            }
            Op::Bin(BinOp::Xor) if function.bits(value) == Some(1) => {
                if let Val::Int { value: 1 | -1, .. } = inst.args[1] {
                    work.push((inst.args[0], !holds));
                }
            }
            _ => {}
        }
    }
    out
}

/// The first of `values` when all of them are one value or copies of one pure computation (the
/// same operation of the same operands).
fn copies_of_one_computation(function: &Function, values: &[Val]) -> Option<Val> {
    let first = *values.first()?;
    let same = |v: &Val| match (first, *v) {
        (a, b) if a == b => true,
        (Val::Inst(a), Val::Inst(b)) => {
            let (a, b) = (function.inst(a), function.inst(b));
            a.op.same_result(&b.op)
                && a.args == b.args
                && matches!(a.op, Op::Bin(_) | Op::ICmp(_) | Op::Select | Op::Cast(_))
        }
        _ => false,
    };
    values.iter().all(same).then_some(first)
}

/// The value of `lin` in `thread` with the variables at `values`.
pub fn evaluate(
    threads: &ThreadValues<'_>,
    lin: &Lin,
    thread: usize,
    values: &[(VarKey, i128)],
) -> Option<i128> {
    let mut total = lin.konst;
    for term in &lin.thread {
        let v = *term.values(threads)?.get(thread)?;
        let bits = threads.bits(term.value).unwrap_or(64);
        let x = if term.signed {
            i128::from(signed(v, bits))
        } else {
            i128::from(v)
        };
        total = total.checked_add(term.coeff.checked_mul(x)?)?;
    }
    for (key, c) in &lin.vars {
        let value = values.iter().find(|(k, _)| k == key).map(|(_, v)| *v)?;
        total = total.checked_add(c.checked_mul(value)?)?;
    }
    Some(total)
}

/// Whether every guard holds in `thread` with the variables at `values`; a guard that cannot be
/// evaluated counts as holding.
pub fn all_hold(
    threads: &ThreadValues<'_>,
    guards: &[Guard],
    thread: usize,
    values: &[(VarKey, i128)],
) -> bool {
    guards.iter().all(|g| {
        let (Some(a), Some(b)) = (
            evaluate(threads, &g.lhs, thread, values),
            evaluate(threads, &g.rhs, thread, values),
        ) else {
            return true;
        };
        let mask = if g.bits >= 64 {
            u64::MAX
        } else {
            (1u64 << g.bits) - 1
        };
        // Back to the comparison's own width, as the hardware compares.
        let (a, b) = ((a as u64) & mask, (b as u64) & mask);
        compare(g.pred, a, b, g.bits) == g.holds
    })
}

/// `values` extended with the variables the equalities among `sides`' guards force: a guard
/// `c·x + rest == rhs` that holds, with `x` its only unassigned variable, fixes `x` (`tid +
/// 2·blockIdx.x == 7` fixes the block id for each thread, and two threads of one block cannot
/// both pass it). `None` when such an equality has no integer solution, or two fix one
/// variable differently: the candidate is impossible. Variables no equality fixes stay unassigned (their
/// guards count as holding).
pub fn forced(
    threads: &ThreadValues<'_>,
    sides: &[(&[Guard], usize)],
    values: &[(VarKey, i128)],
) -> Option<Vec<(VarKey, i128)>> {
    // Room for what is forced here and the block ids a pair of blocks adds (`solve`): a vector
    // exactly as long as `values` was reallocated on each push, a tenth of a small kernel's
    // compile.
    let mut values = {
        let mut room = Vec::with_capacity(values.len() + 8);
        room.extend_from_slice(values);
        room
    };
    loop {
        let mut progress = false;
        for (guards, thread) in sides {
            for g in guards.iter() {
                let equal = matches!((g.pred, g.holds), (Pred::Eq, true) | (Pred::Ne, false));
                if !equal {
                    continue;
                }
                // lhs - rhs == 0, with one unassigned variable.
                let mut unknown: Option<(VarKey, i128)> = None;
                let mut several = false;
                for (key, c) in g
                    .lhs
                    .vars
                    .iter()
                    .map(|(k, c)| (*k, *c))
                    .chain(g.rhs.vars.iter().map(|(k, c)| (*k, -*c)))
                {
                    if values.iter().any(|(k, _)| *k == key) {
                        continue;
                    }
                    match &mut unknown {
                        Some((k, total)) if *k == key => *total += c,
                        Some(_) => several = true,
                        None => unknown = Some((key, c)),
                    }
                }
                let Some((key, c)) = unknown else { continue };
                if several || c == 0 {
                    continue;
                }
                // The rest, with the unknown at 0.
                let mut with_zero = Vec::with_capacity(values.len() + 1);
                with_zero.extend_from_slice(&values);
                with_zero.push((key, 0));
                let (Some(a), Some(b)) = (
                    evaluate(threads, &g.lhs, *thread, &with_zero),
                    evaluate(threads, &g.rhs, *thread, &with_zero),
                ) else {
                    continue;
                };
                let rest = a - b;
                if rest % c != 0 {
                    return None;
                }
                values.push((key, -rest / c));
                progress = true;
            }
        }
        if !progress {
            return Some(values);
        }
    }
}
