//! Loop variables that are not affine but take a short, known sequence of values: the stride of
//! a tree reduction (`for (d = 128; d > 0; d >>= 1)`) or of a scan (`for (d = 1; d < n; d *= 2)`).
//!
//! `d = phi [start, outside the loop], [d op c, around the loop]`, where `op` is a shift or a
//! multiplication or division by a constant, the start is the same for every thread (a constant,
//! or the block size's arithmetic when it is known) and an exit test on `d` (or on the next
//! value) against such a limit ends the loop. The values are enumerated, at most
//! [`MAX_VALUES`] of them; the race analysis decides each value (or each pair of values, one
//! per thread, when two threads may be in different iterations) as a case of its own.

use crate::cfg::{exit_tests, Cfg};
use crate::fast_hash::HashMap;
use crate::ir::{BinOp, BlockId, Function, InstId, Op, Pred, Val};
use crate::Context;
use std::cell::RefCell;
use std::rc::Rc;

/// The longest sequence enumerated: 32 halvings empty any 32-bit stride.
pub const MAX_VALUES: usize = 33;

/// How the back edge's value is made from the phi.
#[derive(Debug, Clone, Copy)]
enum Update {
    ShiftRight(u32),
    ShiftLeft(u32),
    Divide(i128),
    Multiply(i128),
}

impl Update {
    /// The next value, or `None` once it leaves the non-negative values of `bits` bits (the
    /// sequence is then not one this analysis enumerates).
    fn apply(self, x: i128, bits: u32) -> Option<i128> {
        let next = match self {
            Update::ShiftRight(c) => x >> c,
            Update::Divide(c) => x / c,
            Update::ShiftLeft(c) => x.checked_shl(c)?,
            Update::Multiply(c) => x.checked_mul(c)?,
        };
        non_negative(next, bits).then_some(next)
    }
}

/// `a op b` for non-negative `a` and `b`, if the result is one too (in `bits` bits).
pub fn fold(op: BinOp, a: i128, b: i128, bits: u32) -> Option<i128> {
    if a < 0 || b < 0 {
        return None;
    }
    let result = match op {
        BinOp::Add => a.checked_add(b)?,
        BinOp::Sub => a - b,
        BinOp::Mul => a.checked_mul(b)?,
        BinOp::UDiv | BinOp::SDiv => a.checked_div(b)?,
        BinOp::URem | BinOp::SRem => a.checked_rem(b)?,
        BinOp::Shl => a.checked_shl(u32::try_from(b).ok().filter(|b| *b < 64)?)?,
        BinOp::LShr | BinOp::AShr => a >> u32::try_from(b).ok().filter(|b| *b < 64)?,
        BinOp::And => a & b,
        BinOp::Or { .. } => a | b,
        BinOp::Xor => a ^ b,
    };
    non_negative(result, bits).then_some(result)
}

/// Whether `x` is a value of `bits` bits that reads the same signed and unsigned.
fn non_negative(x: i128, bits: u32) -> bool {
    x >= 0 && bits > 0 && bits <= 64 && x < (1i128 << (bits - 1))
}

/// One kernel's loop variables' sequences, each enumerated once per phi and block: the race
/// analysis asks for a phi's values once per case of every pair and every uniform phi met on
/// the way (59,000 times, for 24 phis and blocks, in bitonic_sort's rolled loops at
/// -O2: seven tenths of its verifier's time). An answer depends on the kernel alone, never on
/// what was asked before, so the order of the questions cannot change one.
#[derive(Default)]
pub struct Sequences {
    known: RefCell<HashMap<(InstId, Option<BlockId>), Values>>,
}

/// A loop variable's values, shared by every question that asked for them.
type Values = Option<Rc<[i128]>>;

impl Sequences {
    /// The values the loop variable `phi` can have where `access` runs (anywhere, with
    /// `None`), in order; `None` when `phi` is not such a variable or its sequence is not short
    /// and known.
    pub fn values(
        &self,
        cx: &Context<'_>,
        cfg: &Cfg,
        phi: InstId,
        access: Option<InstId>,
    ) -> Values {
        // Only the access's block matters: accesses of one block share an answer.
        let access_block = match access {
            Some(access) => Some(cx.function.inst(access).block?),
            None => None,
        };
        if let Some(known) = self.known.borrow().get(&(phi, access_block)) {
            return known.clone();
        }
        let found = values(cx, cfg, phi, access_block).map(Rc::from);
        self.known
            .borrow_mut()
            .insert((phi, access_block), found.clone());
        found
    }
}

/// [`Sequences::values`], computed afresh, where the access is in `access_block`. The block
/// decides only whether exit values are seen, never whether there is a sequence (the linearizer
/// asks for the values anywhere only once it has those where the access runs).
fn values(
    cx: &Context<'_>,
    cfg: &Cfg,
    phi: InstId,
    access_block: Option<BlockId>,
) -> Option<Vec<i128>> {
    let function = cx.function;
    let inst = function.inst(phi);
    let Op::Phi(blocks) = &inst.op else {
        return None;
    };
    let header = inst.block?;
    let bits = function.bits(Val::Inst(phi))?;
    let mut start = None;
    let mut next = None;
    for (value, from) in inst.args.iter().zip(blocks) {
        let back =
            *from < function.blocks.len() && cfg.reachable[*from] && cfg.dominates(header, *from);
        let slot = if back { &mut next } else { &mut start };
        match slot {
            None => *slot = Some(*value),
            Some(v) if v == value => {}
            Some(_) => return None,
        }
    }
    let (start, next) = (start?, next?);
    let update = update_of(function, next, phi)?;
    let start = uniform_value(cx, start)?;
    if !non_negative(start, bits) {
        return None;
    }
    let ours = |v: Val| v == Val::Inst(phi) || v == next;
    let mut best: Option<Vec<i128>> = None;
    for test in exit_tests(function, cfg, header, &ours) {
        let Some(limit) = uniform_value(cx, test.limit) else {
            continue;
        };
        if !non_negative(limit, bits) {
            continue;
        }
        let (x, pred, stay) = (test.x, test.pred, test.stay);
        let tests_next = x != Val::Inst(phi);
        // With the test on the phi, its exit value is seen only off the staying edge.
        let exit_seen = access_block.is_none_or(|at| !(cfg.dominates(stay, at) && stay != header));
        if let Some(found) = enumerate(start, update, bits, pred, limit, tests_next, exit_seen) {
            if best.as_ref().is_none_or(|b| found.len() < b.len()) {
                best = Some(found);
            }
        }
    }
    best
}

/// The values of the sequence from `start` that the loop runs with (and the exit value, when
/// `exit_seen`), if the test `value <pred> limit` ends it within [`MAX_VALUES`].
fn enumerate(
    start: i128,
    update: Update,
    bits: u32,
    pred: Pred,
    limit: i128,
    tests_next: bool,
    exit_seen: bool,
) -> Option<Vec<i128>> {
    let mut seen = Vec::new();
    let mut x = start;
    while seen.len() < MAX_VALUES {
        if tests_next {
            seen.push(x);
            let following = update.apply(x, bits)?;
            if !holds(pred, following, limit) {
                return Some(seen);
            }
            if following == x {
                return None;
            }
            x = following;
        } else {
            if !holds(pred, x, limit) {
                if exit_seen {
                    seen.push(x);
                }
                return Some(seen);
            }
            seen.push(x);
            let following = update.apply(x, bits)?;
            if following == x {
                return None;
            }
            x = following;
        }
    }
    None
}

/// `x <pred> y` for non-negative values (signed and unsigned readings agree).
fn holds(pred: Pred, x: i128, y: i128) -> bool {
    match pred {
        Pred::Eq => x == y,
        Pred::Ne => x != y,
        Pred::Ugt | Pred::Sgt => x > y,
        Pred::Uge | Pred::Sge => x >= y,
        Pred::Ult | Pred::Slt => x < y,
        Pred::Ule | Pred::Sle => x <= y,
    }
}

/// `value`'s update if it is `phi` shifted, multiplied or divided by a positive constant.
fn update_of(function: &Function, value: Val, phi: InstId) -> Option<Update> {
    let Val::Inst(id) = value else { return None };
    let inst = function.inst(id);
    let constant = |v: &Val| match v {
        Val::Int { value, .. } if *value > 0 => Some(*value),
        _ => None,
    };
    let Op::Bin(op) = inst.op else { return None };
    let (x, c) = (inst.args[0], inst.args.get(1).and_then(constant));
    let update = match (op, c) {
        (BinOp::LShr | BinOp::AShr, Some(c)) if c < 64 => Update::ShiftRight(c as u32),
        (BinOp::Shl, Some(c)) if c < 64 => Update::ShiftLeft(c as u32),
        (BinOp::UDiv | BinOp::SDiv, Some(c)) if c > 1 => Update::Divide(c),
        (BinOp::Mul, Some(c)) if c > 1 => Update::Multiply(c),
        (BinOp::Mul, None) => {
            let c = constant(&x).filter(|c| *c > 1)?;
            return (inst.args[1] == Val::Inst(phi)).then_some(Update::Multiply(c));
        }
        _ => return None,
    };
    (x == Val::Inst(phi)).then_some(update)
}

/// The value of `value` if it is the same for every thread and known (a constant, or computed
/// from the block's size when it is given).
fn uniform_value(cx: &Context<'_>, value: Val) -> Option<i128> {
    let bits = cx.function.bits(value)?;
    let raw = match value {
        Val::Int { value, .. } => value as u64,
        _ => {
            let all = cx.threads.values(value)?;
            let first = *all.first()?;
            if all.iter().any(|v| *v != first) {
                return None;
            }
            first
        }
    };
    let masked = if bits >= 64 {
        raw
    } else {
        raw & ((1u64 << bits) - 1)
    };
    Some(i128::from(masked))
}
