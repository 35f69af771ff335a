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
use super::{Access, Preparation, Prepared, PreparedAccesses, RaceInput};
use crate::fast_hash::HashMap;
use crate::findings::{Finding, Race, RaceAccess};
use crate::intervals::Intervals;
use crate::ir::{BinOp, Callee, Op, Val};
use crate::threads::{Geometry, ThreadSet};
use crate::Context;

/// How many pairs of global accesses one kernel's check looks at: the pairs grow with the
/// square of the accesses, and a kernel of thousands of statements must still verify in
/// seconds. Pairs beyond it are not checked (docs/verifier.md, "Known limits").
const MAX_PAIRS: usize = 20_000;

pub fn check(
    cx: &Context<'_>,
    input: &RaceInput<'_>,
    found: &[Access],
    intervals: &Intervals,
    within_block: &mut PreparedAccesses,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    if matches!(cx.threads.geometry(), Geometry::Unknown)
        || input.options.grid_size == Some([1, 1, 1])
    {
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
    let mut prepared: HashMap<(usize, u8), Option<Prepared>> = HashMap::default();
    // Per access: the window of its own block it stays in, if any (`own_window`). Two accesses
    // with the same window never meet in two blocks: such pairs are decided by one comparison,
    // before anything else and without counting against the cap of pair tests (a kernel's
    // accesses to its blocks' own rows are most of its pairs).
    let windows: Vec<Option<(u8, i128)>> = global
        .iter()
        .map(|&i| {
            let access = &found[i];
            prepared
                .entry((i, 0))
                .or_insert_with(|| apart(cx, input, intervals, within_block, found, i, 0))
                .as_ref()
                .and_then(|p| own_window(cx, p, &active(access), access.bytes))
        })
        .collect();
    let mut pairs = 0;
    for (x, &i) in global.iter().enumerate() {
        for (y, &j) in global.iter().enumerate().skip(x) {
            if windows[x].is_some() && windows[x] == windows[y] {
                continue;
            }
            let (a, b) = (&found[i], &found[j]);
            if !(a.writes() || b.writes()) || (a.atomic && b.atomic) || a.space != b.space {
                continue;
            }
            if input.options.tolerate_same_value_writes && super::same_value_writes(input, a, b) {
                continue;
            }
            if same_in_every_block(cx, input.cfg, found, a, b) {
                continue;
            }
            for (index, side) in [(i, 0u8), (j, 1u8)] {
                prepared.entry((index, side)).or_insert_with(|| {
                    apart(cx, input, intervals, within_block, found, index, side)
                });
            }
            let (Some(Some(first)), Some(Some(second))) =
                (prepared.get(&(i, 0)), prepared.get(&(j, 1)))
            else {
                continue;
            };
            if first.address.base != second.address.base {
                continue;
            }
            pairs += 1;
            if pairs > MAX_PAIRS {
                return findings;
            }
            let mut ranges = first.ranges.clone();
            ranges.extend(second.ranges.iter().map(|(k, v)| (*k, *v)));
            // The grid's size if given, else the hardware's limits: 2^31 - 1 blocks in x,
            // 65,535 in y and z.
            let limits = match input.options.grid_size {
                Some([x, y, z]) => [x, y, z].map(|d| i128::from(d) - 1),
                None => [(1i128 << 31) - 2, 65_534, 65_534],
            };
            for side in 0..2u8 {
                for (axis, most) in limits.iter().enumerate() {
                    ranges.insert(
                        VarKey::Block {
                            side,
                            axis: axis as u8,
                        },
                        (0, *most),
                    );
                }
            }
            // Quotients of block ids range over the quotients of their range.
            let quotients: Vec<VarKey> = [first, second]
                .iter()
                .flat_map(|p| {
                    p.address
                        .offset
                        .vars
                        .iter()
                        .chain(
                            p.guards
                                .iter()
                                .flat_map(|g| g.lhs.vars.iter().chain(&g.rhs.vars)),
                        )
                        .map(|(k, _)| *k)
                        .collect::<Vec<_>>()
                })
                .collect();
            for key in quotients {
                if let VarKey::BlockQuotient { axis, divisor, .. } = key {
                    ranges.insert(key, (0, limits[usize::from(axis)] / divisor));
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
                    findings.push(report(cx, a, (b, second), &witness));
                }
            }
        }
    }
    findings
}

/// The window an access stays in, between blocks: `Some((axis, c))` when its offset is
/// `c·B + r` with `B` its block's id on `axis` (the only part that depends on the block) and
/// every byte it touches at `r` to `r + bytes` within `[0, c)`, for every thread that reaches
/// it and every value of its other variables in their ranges (its guards are not needed). Two
/// accesses with the same window, in blocks whose ids on that axis differ, touch the disjoint
/// ranges `[c·B1, c·B1 + c)` and `[c·B2, c·B2 + c)`: a thread's own row `out[B, k]`, a
/// block's `acc[B]`. (Blocks whose ids differ only on an axis their addresses do not name are
/// not a pair the check looks for, windows or not: `solve` tells blocks apart on the axes the
/// assignment names, else on x.) A 2,500-statement LOOM kernel's 1,900 global stores all pair
/// up, and without this the check ran into its cap of pairs (1.0 s instead of 0.2).
fn own_window(
    cx: &Context<'_>,
    prepared: &Prepared,
    active: &ThreadSet,
    bytes: Option<u64>,
) -> Option<(u8, i128)> {
    use super::address::UNBOUNDED;
    let offset = &prepared.address.offset;
    let bytes = i128::from(bytes?);
    let mut block = None;
    let (mut lo, mut hi) = (offset.konst, offset.konst);
    for (key, coeff) in &offset.vars {
        match key {
            VarKey::Block { axis, .. } if block.is_none() => block = Some((*axis, *coeff)),
            VarKey::Block { .. } | VarKey::BlockQuotient { .. } => return None,
            _ => {
                let (min, max) = *prepared.ranges.get(key)?;
                if min <= -UNBOUNDED || max >= UNBOUNDED {
                    return None;
                }
                let (x, y) = (coeff.checked_mul(min)?, coeff.checked_mul(max)?);
                lo = lo.checked_add(x.min(y))?;
                hi = hi.checked_add(x.max(y))?;
            }
        }
    }
    if !offset.thread.is_empty() {
        let values = prepared.thread.as_ref()?;
        let mut reached = (0..cx.threads.count()).filter(|t| active.contains(*t));
        let first = values.get(reached.next()?)?;
        let (mut min, mut max) = (*first, *first);
        for t in reached {
            let v = *values.get(t)?;
            min = min.min(v);
            max = max.max(v);
        }
        lo = lo.checked_add(min)?;
        hi = hi.checked_add(max)?;
    }
    let (axis, c) = block?;
    (c > 0 && lo >= 0 && hi.checked_add(bytes)? <= c).then_some((axis, c))
}

/// Two stores of one value that every block computes alike (a constant, a parameter, or pure
/// arithmetic on them, as loomc's uniform statements `out[0] <- n * 2` store from every block):
/// whichever block writes last, the location ends up with that value. The check within a block
/// is strict about such writes; between blocks they are how a kernel with a uniform result
/// publishes it, and loomc emits them for every statement that writes one element.
fn same_in_every_block(
    cx: &Context<'_>,
    cfg: &crate::cfg::Cfg,
    found: &[Access],
    a: &Access,
    b: &Access,
) -> bool {
    let (Some(x), Some(y)) = (a.stored, b.stored) else {
        return false;
    };
    if x != y {
        return false;
    }
    // An array no access writes (and no access the analysis cannot place may write).
    let read_only = |pointer: Val| match super::address::space(cx, pointer) {
        super::Space::Known(object) => !found.iter().any(|w| {
            w.writes()
                && match w.space {
                    super::Space::Known(o) => o == object,
                    _ => true,
                }
        }),
        _ => false,
    };
    same_everywhere(cx, cfg, x, &read_only)
}

/// One side's address and guards, rewritten for a pair in different blocks; `None` when they
/// depend on the block in a way the check cannot express. The access is `found[index]`; what
/// the check within a block prepared of it, from the same interval, is read from `within_block`
/// (and what this prepares is added there).
fn apart(
    cx: &Context<'_>,
    input: &RaceInput<'_>,
    intervals: &Intervals,
    within_block: &mut PreparedAccesses,
    found: &[Access],
    index: usize,
    side: u8,
) -> Option<Prepared> {
    let access = &found[index];
    let segment = intervals.segment_of.get(access.inst).copied().flatten()?;
    let start = intervals.first_holding(segment)?;
    let preparation = Preparation {
        cx,
        input,
        intervals,
        start,
        zero_inputs: None,
        sequences: &within_block.sequences,
        inductions: &within_block.inductions,
    };
    let prepared = within_block
        .by_access
        .entry((start, index, side))
        .or_insert_with(|| {
            std::rc::Rc::new(preparation.prepare(
                access,
                side,
                &HashMap::default(),
                &HashMap::default(),
            ))
        })
        .clone();
    let prepared = prepared.as_ref().as_ref().ok()?;
    // A two-dimensional address (`grid.rs`) is an offset in rows and columns, not bytes: left
    // alone between blocks, like any address that is not affine in the block.
    if prepared.grid.is_some() || prepared.opaque_guard || opaque_between_blocks(cx, input, access)
    {
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
        thread: prepared.thread.clone(),
        ranges: prepared.ranges.clone(),
        opaque_guard: prepared.opaque_guard,
        // A grid address returned `None` above.
        grid: None,
        zeroed: prepared.zeroed.clone(),
    })
}

/// Whether a branch condition on the way to `access` may differ between blocks (it depends on
/// the block) and reads data the analysis cannot express: two blocks may go different ways.
fn opaque_between_blocks(cx: &Context<'_>, input: &RaceInput<'_>, access: &Access) -> bool {
    let Some(block) = cx.function.inst(access.inst).block else {
        return false;
    };
    crate::cfg::dominating_conditions(cx.function, input.cfg, block)
        .iter()
        .any(|(condition, _)| {
            super::reads_data(cx.module, cx.function, *condition)
                && depends_on_block(cx, *condition)
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
                Dependence::BlockQuotient(axis, divisor) => VarKey::BlockQuotient {
                    side,
                    axis,
                    divisor,
                },
            },
            VarKey::Iterations { .. }
            | VarKey::Advanced { .. }
            | VarKey::Thread { .. }
            | VarKey::Unreached { .. } => *key,
            VarKey::Block { .. } | VarKey::BlockQuotient { .. } => *key,
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
    /// The block id on this axis divided by a constant (rounding down).
    BlockQuotient(u8, i128),
}

/// How a kernel-invariant value depends on the block; `None` when it does, other than by being
/// a block id itself.
fn block_dependence(cx: &Context<'_>, value: Val, _depth: usize) -> Option<Dependence> {
    let Val::Inst(id) = value else {
        return Some(Dependence::None);
    };
    if let Some(axis) = block_id_axis(cx, id) {
        return Some(Dependence::BlockId(axis));
    }
    if let Some((axis, divisor)) = block_id_quotient(cx, id) {
        return Some(Dependence::BlockQuotient(axis, divisor));
    }
    // A walk over the operands, each instruction once (a phi's cycle ends at itself).
    let mut stack = vec![id];
    let mut seen = crate::fast_hash::HashSet::default();
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        if seen.len() > 4096 {
            return None;
        }
        match sreg_kind(cx, id) {
            Some(SregKind::SameEverywhere) => continue,
            Some(SregKind::PerBlock) => return None,
            None => {}
        }
        for arg in &cx.function.inst(id).args {
            if let Val::Inst(i) = arg {
                stack.push(*i);
            }
        }
    }
    Some(Dependence::None)
}

enum SregKind {
    /// The same in every block and thread of the grid (`ntid`, `nctaid`, `warpsize`).
    SameEverywhere,
    /// Anything else read from a special register: block ids, thread ids, clocks.
    PerBlock,
}

fn sreg_kind(cx: &Context<'_>, id: crate::ir::InstId) -> Option<SregKind> {
    let Op::Call(Callee::Function(g)) = cx.function.inst(id).op else {
        return None;
    };
    let name = cx.module.globals.get(g).map(|g| g.name.as_str())?;
    let register = name.strip_prefix("llvm.nvvm.read.ptx.sreg.")?;
    Some(
        if register.starts_with("nctaid.")
            || register.starts_with("ntid.")
            || register == "warpsize"
        {
            SregKind::SameEverywhere
        } else {
            SregKind::PerBlock
        },
    )
}

/// `ctaid / c` or `ctaid >> k` (unsigned): the axis and the divisor.
fn block_id_quotient(cx: &Context<'_>, id: crate::ir::InstId) -> Option<(u8, i128)> {
    let inst = cx.function.inst(id);
    let divisor = match (&inst.op, inst.args.get(1)) {
        (Op::Bin(BinOp::UDiv), Some(Val::Int { value, .. })) if *value >= 2 => *value,
        (Op::Bin(BinOp::LShr), Some(Val::Int { value, .. })) if (1..31).contains(value) => {
            1i128 << value
        }
        _ => return None,
    };
    let Val::Inst(operand) = inst.args[0] else {
        return None;
    };
    Some((block_id_axis(cx, operand)?, divisor))
}

fn block_id_axis(cx: &Context<'_>, id: crate::ir::InstId) -> Option<u8> {
    let Op::Call(Callee::Function(g)) = cx.function.inst(id).op else {
        return None;
    };
    let name = cx.module.globals.get(g).map(|g| g.name.as_str())?;
    match name.strip_prefix("llvm.nvvm.read.ptx.sreg.ctaid.")? {
        "x" => Some(0),
        "y" => Some(1),
        "z" => Some(2),
        _ => None,
    }
}

/// Whether `value` is the same in every block and thread: computed from constants, parameters,
/// grid dimensions and loads from arrays the kernel never writes, by pure operations, with no
/// phi where branches on the block or thread could make blocks take different ways.
fn same_everywhere(
    cx: &Context<'_>,
    cfg: &crate::cfg::Cfg,
    value: Val,
    read_only: &dyn Fn(Val) -> bool,
) -> bool {
    let Val::Inst(id) = value else {
        return !matches!(value, Val::Undef);
    };
    let function = cx.function;
    let invariant_condition = |c: Val| {
        matches!(block_dependence(cx, c, 0), Some(Dependence::None))
            && !super::reads_data(cx.module, function, c)
    };
    // The branches that decide by which edge a thread comes to a phi: those between the phi's
    // block's immediate dominator and the phi.
    let decided_alike = |phi_block: usize| -> bool {
        let stop = cfg.idom(phi_block);
        let mut stack: Vec<usize> = function.blocks[phi_block].preds.clone();
        let mut seen = crate::fast_hash::HashSet::default();
        while let Some(b) = stack.pop() {
            if !seen.insert(b) || seen.len() > 4096 {
                continue;
            }
            if let Some(t) = function.blocks[b].insts.last() {
                let term = function.inst(*t);
                if matches!(term.op, Op::CondBr | Op::Switch)
                    && !term.args.first().is_some_and(|c| invariant_condition(*c))
                {
                    return false;
                }
            }
            if Some(b) != stop && b != phi_block {
                stack.extend(function.blocks[b].preds.iter().copied());
            }
        }
        true
    };
    let mut stack = vec![id];
    let mut seen = crate::fast_hash::HashSet::default();
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        if seen.len() > 4096 {
            return false;
        }
        let inst = function.inst(id);
        match &inst.op {
            Op::Call(_) => match sreg_kind(cx, id) {
                Some(SregKind::SameEverywhere) => continue,
                Some(SregKind::PerBlock) => return false,
                None if matches!(
                    inst.op,
                    Op::Call(Callee::Function(g))
                        if cx.module.globals.get(g).is_some_and(|g| {
                            crate::nvvm::classify(&g.name) == crate::nvvm::Intrinsic::Pure
                        })
                ) => {}
                None => return false,
            },
            Op::Load { atomic: false, .. } if !read_only(inst.args[0]) => return false,
            Op::Load { atomic: false, .. } => {}
            Op::Load { .. } | Op::AtomicRmw { .. } | Op::CmpXchg { .. } | Op::Alloca => {
                return false
            }
            Op::Phi(_) if !inst.block.is_some_and(decided_alike) => return false,
            _ => {}
        }
        for arg in &inst.args {
            match arg {
                Val::Inst(i) => stack.push(*i),
                // A phi's poison on an edge no thread takes with a use (LLVM's loop passes).
                Val::Undef if !matches!(inst.op, Op::Phi(_)) => return false,
                _ => {}
            }
        }
    }
    true
}

fn report(
    cx: &Context<'_>,
    a: &Access,
    (b, second): (&Access, &Prepared),
    witness: &solve::Witness,
) -> Finding {
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
            .then(|| (witness.first_thread.max(witness.second_thread) + 1) as u32)
            .filter(|n| *n > 1),
    }))
}

/// Whether `value` may differ between blocks (it reads a block id or a per-block register, or
/// is loaded or computed from something that does).
pub fn depends_on_block(cx: &Context<'_>, value: Val) -> bool {
    !matches!(block_dependence(cx, value, 0), Some(Dependence::None))
}
