//! Races between blocks, on global memory. No barrier orders the threads of two blocks, so any
//! two accesses of a kernel to one array of global memory, one of them a write and not both
//! atomic, race if a thread of one block and a thread of another can touch the same bytes.
//!
//! Each access's address is linearised as for the check within a block, then rewritten for a
//! pair in different blocks: a block id (`ctaid`) becomes a variable of each side, values that
//! are the same in every block (parameters, `nctaid`, block dimensions) stay shared, and
//! anything else that depends on the block (`cols * blockIdx.x`, a loop counter of a loop with a
//! barrier, a value loaded per block) makes the pair undecided. Only proven races are reported:
//! an address or guard this check cannot express between blocks is left alone (the check within
//! a block still reports what it cannot express).

use super::address::{Lin, VarKey};
use super::guards::Guard;
use super::solve::{self, Outcome, Side};
use super::{Access, Preparation, Prepared, RaceInput};
use crate::findings::{Finding, Race, RaceAccess};
use crate::intervals::Intervals;
use crate::ir::{Callee, Op, Val};
use crate::threads::{Geometry, ThreadSet};
use crate::Context;
use std::collections::HashMap;

/// How many pairs of global accesses one kernel's check looks at: the pairs grow with the
/// square of the accesses, and a kernel of thousands of statements must still verify in
/// seconds. Pairs beyond it are not checked (docs/verifier.md, "Known limits").
const MAX_PAIRS: usize = 20_000;

pub fn check(
    cx: &Context<'_>,
    input: &RaceInput<'_>,
    found: &[Access],
    intervals: &Intervals,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    if matches!(cx.threads.geometry(), Geometry::Unknown) {
        return findings;
    }
    let global: Vec<usize> = (0..found.len())
        .filter(|i| match found[*i].space {
            super::Space::Known(o) => !o.is_shared(cx),
            _ => false,
        })
        .collect();
    let everyone = ThreadSet::all(cx.threads.count());
    let active = |access: &Access| -> ThreadSet {
        cx.function
            .inst(access.inst)
            .block
            .and_then(|b| input.reach.get(b))
            .cloned()
            .unwrap_or_else(|| everyone.clone())
    };
    let mut prepared: HashMap<(usize, u8), Option<Prepared>> = HashMap::new();
    let mut pairs = 0;
    for (x, &i) in global.iter().enumerate() {
        for &j in &global[x..] {
            let (a, b) = (&found[i], &found[j]);
            if !(a.writes() || b.writes()) || (a.atomic && b.atomic) || a.space != b.space {
                continue;
            }
            if input.options.tolerate_same_value_writes && super::same_value_writes(input, a, b) {
                continue;
            }
            pairs += 1;
            if pairs > MAX_PAIRS {
                return findings;
            }
            for (index, side) in [(i, 0u8), (j, 1u8)] {
                prepared
                    .entry((index, side))
                    .or_insert_with(|| apart(cx, input, intervals, &found[index], side));
            }
            let (Some(Some(first)), Some(Some(second))) =
                (prepared.get(&(i, 0)), prepared.get(&(j, 1)))
            else {
                continue;
            };
            if first.address.base != second.address.base {
                continue;
            }
            let mut ranges = first.ranges.clone();
            ranges.extend(second.ranges.iter().map(|(k, v)| (*k, *v)));
            // The grid's limits: 2^31 - 1 blocks in x, 65,535 in y and z.
            for side in 0..2u8 {
                for (axis, most) in [(0u8, (1i128 << 31) - 2), (1, 65_534), (2, 65_534)] {
                    ranges.insert(VarKey::Block { side, axis }, (0, most));
                }
            }
            let (active_a, active_b) = (active(a), active(b));
            let outcome = solve::solve(
                cx.threads,
                Side {
                    lin: &first.address.offset,
                    thread: first.thread.as_deref(),
                    guards: &first.guards,
                    active: &active_a,
                    bytes: a.bytes.unwrap_or(1),
                },
                Side {
                    lin: &second.address.offset,
                    thread: second.thread.as_deref(),
                    guards: &second.guards,
                    active: &active_b,
                    bytes: b.bytes.unwrap_or(1),
                },
                false,
                &ranges,
                true,
            );
            if let Outcome::Conflict(witness) = outcome {
                if witness.values.iter().all(|(key, _)| key.is_free()) {
                    findings.push(report(cx, (a, first), (b, second), &witness));
                }
            }
        }
    }
    findings
}

/// One side's address and guards, rewritten for a pair in different blocks; `None` when they
/// depend on the block in a way the check cannot express.
fn apart(
    cx: &Context<'_>,
    input: &RaceInput<'_>,
    intervals: &Intervals,
    access: &Access,
    side: u8,
) -> Option<Prepared> {
    let segment = intervals.segment_of.get(access.inst).copied().flatten()?;
    let start = *intervals.holding.get(segment)?.first()?;
    let preparation = Preparation {
        cx,
        input,
        intervals,
        start,
    };
    let prepared = preparation.prepare(access, side, &HashMap::new()).ok()?;
    if prepared.opaque_guard {
        return None;
    }
    let offset = rewrite(cx, &prepared.address.offset, side)?;
    let guards = prepared
        .guards
        .iter()
        .map(|g| {
            Some(Guard {
                lhs: rewrite(cx, &g.lhs, side)?,
                rhs: rewrite(cx, &g.rhs, side)?,
                ..g.clone()
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let mut address = prepared.address.clone();
    address.offset = offset;
    Some(Prepared {
        address,
        guards,
        ..prepared
    })
}

/// `lin` for one thread of a pair in different blocks: block ids become that side's variables.
fn rewrite(cx: &Context<'_>, lin: &Lin, side: u8) -> Option<Lin> {
    let mut out = Lin {
        vars: Vec::new(),
        ..lin.clone()
    };
    for (key, c) in &lin.vars {
        let key = match *key {
            VarKey::Shared {
                value,
                invariant: true,
                ..
            } => match block_dependence(cx, value, 0)? {
                Dependence::None => *key,
                Dependence::BlockId(axis) => VarKey::Block { side, axis },
            },
            VarKey::Iterations { .. } | VarKey::Advanced { .. } | VarKey::Thread { .. } => *key,
            VarKey::Block { .. } => *key,
            VarKey::Shared { .. } | VarKey::Completed { .. } => return None,
        };
        out.vars.push((key, *c));
    }
    Some(out)
}

enum Dependence {
    /// The same in every block.
    None,
    /// Exactly the block id on this axis.
    BlockId(u8),
}

/// How a kernel-invariant value depends on the block; `None` when it does, other than by being
/// a block id itself.
fn block_dependence(cx: &Context<'_>, value: Val, depth: usize) -> Option<Dependence> {
    let Val::Inst(id) = value else {
        return Some(Dependence::None);
    };
    if depth > 64 {
        return None;
    }
    let inst = cx.function.inst(id);
    if let Op::Call(Callee::Function(g)) = inst.op {
        let name = cx.module.globals.get(g).map(|g| g.name.as_str())?;
        if let Some(axis) = name.strip_prefix("llvm.nvvm.read.ptx.sreg.ctaid.") {
            return match axis {
                "x" => Some(Dependence::BlockId(0)),
                "y" => Some(Dependence::BlockId(1)),
                "z" => Some(Dependence::BlockId(2)),
                _ => None,
            };
        }
        if name.starts_with("llvm.nvvm.read.ptx.sreg.nctaid.")
            || name.starts_with("llvm.nvvm.read.ptx.sreg.ntid.")
            || name == "llvm.nvvm.read.ptx.sreg.warpsize"
        {
            return Some(Dependence::None);
        }
        if name.starts_with("llvm.nvvm.read.ptx.sreg.") {
            return None;
        }
    }
    for arg in &inst.args {
        match block_dependence(cx, *arg, depth + 1)? {
            Dependence::None => {}
            Dependence::BlockId(_) => return None,
        }
    }
    Some(Dependence::None)
}

fn report(
    cx: &Context<'_>,
    (a, first): (&Access, &Prepared),
    (b, second): (&Access, &Prepared),
    witness: &solve::Witness,
) -> Finding {
    let _ = first;
    let geometry = cx.threads.geometry();
    let block = |side: u8| {
        let mut id = [0i128; 3];
        for (key, value) in &witness.values {
            if let VarKey::Block { side: s, axis } = key {
                if *s == side {
                    id[usize::from(*axis)] = *value;
                }
            }
        }
        id
    };
    let assumptions: Vec<(String, i128)> = witness
        .values
        .iter()
        .filter(|(key, _)| !matches!(key, VarKey::Block { .. }))
        .filter_map(|(key, value)| super::variable_name(cx, key).map(|name| (name, *value)))
        .collect();
    let side = |access: &Access, thread: usize, offset: i128| RaceAccess {
        inst: cx.inst_ref(access.inst),
        kind: access.kind,
        thread: geometry.thread(thread),
        offset,
        bytes: access.bytes.unwrap_or(1),
    };
    Finding::Race(Box::new(Race {
        function: cx.function.name.clone(),
        object: second.address.base.name(cx),
        shared_memory: false,
        first: side(a, witness.first_thread, witness.first_offset),
        second: side(b, witness.second_thread, witness.second_offset),
        interval_start: None,
        assumptions,
        across_warps_only: false,
        similar: 0,
        blocks: Some((block(0), block(1))),
        needs_threads: matches!(geometry, Geometry::UpTo(_))
            .then(|| (witness.first_thread.max(witness.second_thread) + 1) as u32),
    }))
}

/// Whether `value` may differ between blocks (it reads a block id or a per-block register, or
/// is loaded or computed from something that does).
pub fn depends_on_block(cx: &Context<'_>, value: Val) -> bool {
    !matches!(block_dependence(cx, value, 0), Some(Dependence::None))
}
