//! Races: for every barrier interval, every pair of accesses to shared or global memory of which
//! one writes, decide whether two different threads of a block can touch the same bytes; and
//! (`blocks.rs`) whether threads of two blocks can, on global memory. An access or call the
//! analysis cannot express is a warning naming it, never skipped.
//!
//! Warps are never assumed to run in lock-step (sm_70 and later schedule threads
//! independently): only block barriers order the threads of a block, and `bar.warp.sync` those of
//! a warp.

pub mod address;
mod blocks;
mod grid;
mod guards;
mod sequence;
mod simulate;
mod solve;

use crate::barriers::{ConvergentOp, SyncRole};
use crate::cfg::Cfg;
use crate::divergence::{Divergence, DivergenceInfo};
use crate::fast_hash::{HashMap, HashSet};
use crate::findings::{AccessKind, Finding, Race, RaceAccess, Unproven};
use crate::intervals::Intervals;
use crate::ir::{Callee, InstId, Op, Ty, Val};
use crate::node_set::NodeSet;
use crate::nvvm::{self, Intrinsic};
use crate::threads::{Geometry, ThreadSet};
use crate::{Context, VerifyOptions};
use address::{Address, Failure, Linearizer, Space, VarKey};
use solve::{Outcome, Side};
use std::cell::RefCell;
use std::rc::Rc;

/// One memory access that may touch shared memory.
#[derive(Debug, Clone)]
pub struct Access {
    pub inst: InstId,
    pub pointer: Val,
    pub kind: AccessKind,
    /// Atomic accesses do not race with each other.
    pub atomic: bool,
    /// Bytes touched; `None` when not a constant.
    pub bytes: Option<u64>,
    pub space: Space,
    /// The value a store writes.
    pub stored: Option<Val>,
}

impl Access {
    fn writes(&self) -> bool {
        self.kind.writes()
    }
}

/// The accesses of a kernel that may touch shared memory, and the calls the analysis cannot
/// look into although they may.
pub fn accesses(cx: &Context<'_>) -> (Vec<Access>, Vec<(InstId, String)>) {
    let function = cx.function;
    let mut found = Vec::new();
    let mut opaque = Vec::new();
    for block in &function.blocks {
        for &id in &block.insts {
            let inst = function.inst(id);
            let mut push = |pointer: Val, kind, atomic, bytes, stored| {
                let space = address::space(cx, pointer);
                if space != Space::Untracked {
                    found.push(Access {
                        inst: id,
                        pointer,
                        kind,
                        atomic,
                        bytes,
                        space,
                        stored,
                    });
                }
            };
            match &inst.op {
                Op::Load { bytes, atomic } => {
                    push(inst.args[0], AccessKind::Read, *atomic, Some(*bytes), None)
                }
                Op::Store { bytes, atomic } => push(
                    inst.args[1],
                    AccessKind::Write,
                    *atomic,
                    Some(*bytes),
                    Some(inst.args[0]),
                ),
                Op::AtomicRmw { bytes } | Op::CmpXchg { bytes } => {
                    push(inst.args[0], AccessKind::Atomic, true, Some(*bytes), None)
                }
                Op::Call(callee) => {
                    let name = cx.module.callee_name(*callee).unwrap_or("");
                    match nvvm::classify(name) {
                        Intrinsic::MemTransfer { reads_arg1 } => {
                            let length = match inst.args.get(2) {
                                Some(Val::Int { value, .. }) if *value > 0 => Some(*value as u64),
                                _ => None,
                            };
                            push(inst.args[0], AccessKind::Write, false, length, None);
                            if reads_arg1 {
                                push(inst.args[1], AccessKind::Read, false, length, None);
                            }
                        }
                        Intrinsic::Atomic => {
                            let bytes = match inst.ty {
                                Ty::Int(bits) => Some(u64::from(bits.div_ceil(8))),
                                _ => Some(4),
                            };
                            if let Some(pointer) = inst.args.first() {
                                push(*pointer, AccessKind::Atomic, true, bytes, None);
                            }
                        }
                        Intrinsic::Load => {
                            let bytes = match inst.ty {
                                Ty::Int(bits) => Some(u64::from(bits.div_ceil(8))),
                                _ => None,
                            };
                            if let Some(pointer) = inst.args.first() {
                                push(*pointer, AccessKind::Read, false, bytes, None);
                            }
                        }
                        Intrinsic::Unknown => {
                            if let Some(reason) = opaque_call(cx, id, *callee, name) {
                                opaque.push((id, reason));
                            }
                        }
                        _ => {}
                    }
                }
                _ => {}
            }
        }
    }
    (found, opaque)
}

/// Why a call that is not an intrinsic the analysis knows may touch memory it cannot see, if it
/// may: an indirect call, a defined function left as a call (the verifier's copy inlines every
/// one it can; a recursive one stays), or an external function given a pointer to shared or
/// global memory; inline assembly with pointer operands or a memory clobber.
fn opaque_call(cx: &Context<'_>, id: InstId, callee: Callee, name: &str) -> Option<String> {
    let function = cx.function;
    let inst = function.inst(id);
    let pointer_to_memory = inst.args.iter().any(|a| {
        matches!(function.ty(*a), Ty::Ptr(_)) && address::space(cx, *a) != Space::Untracked
    });
    match callee {
        Callee::InlineAsm => (pointer_to_memory || function.text(id).contains("~{memory}"))
            .then(|| "inline assembly may access shared or global memory".to_string()),
        Callee::Indirect => Some(
            "an indirect call: the function it calls, and the memory it touches, are not analysed"
                .to_string(),
        ),
        Callee::Function(g) => {
            let defined = cx
                .module
                .globals
                .get(g)
                .and_then(|g| g.function)
                .is_some_and(|f| f.defined);
            let touches_memory = || {
                cx.module.function(name).is_none_or(|callee| {
                    callee.insts.iter().any(|i| {
                        matches!(
                            i.op,
                            Op::Load { .. }
                                | Op::Store { .. }
                                | Op::AtomicRmw { .. }
                                | Op::CmpXchg { .. }
                                | Op::Call(_)
                        )
                    })
                })
            };
            if defined && touches_memory() {
                Some(format!(
                    "the call to `{name}` is not inlined (it is recursive, or cannot be): the \
                     memory accesses inside it are not analysed"
                ))
            } else if !defined && pointer_to_memory {
                Some(format!(
                    "the call to `{name}` receives a pointer to shared or global memory and is \
                     not analysed"
                ))
            } else {
                None
            }
        }
    }
}

/// Everything the pair check needs about one kernel.
pub struct RaceInput<'a> {
    pub cfg: &'a Cfg,
    pub ranges: &'a crate::ranges::Ranges,
    pub divergence: &'a DivergenceInfo,
    pub reach: &'a [ThreadSet],
    pub ops: &'a [ConvergentOp],
    pub options: &'a VerifyOptions,
}

/// One case of a pair of accesses: the edges taken into phis after uniform branches, and the
/// values of loop variables with known sequences (by phi and side).
#[derive(Default)]
struct Cases {
    choices: HashMap<InstId, usize>,
    sequence_choices: HashMap<(InstId, u8), i128>,
}

/// How many cases one pair may take when loop variables with known sequences are enumerated:
/// a value for each of two threads, of two sequences of at most 33 values, with some room.
const MOST_SEQUENCE_CASES: usize = 4 * 33 * 33;

/// The segment an access is reached through under `choices`: the last segment of the chosen
/// incoming block of a phi in the access's own block.
fn reached_through(
    function: &crate::ir::Function,
    intervals: &Intervals,
    access: &Access,
    choices: &HashMap<InstId, usize>,
) -> Option<usize> {
    let block = function.inst(access.inst).block?;
    choices.iter().find_map(|(phi, case)| {
        let inst = function.inst(*phi);
        match &inst.op {
            Op::Phi(blocks) if inst.block == Some(block) => {
                intervals.last_segment_of(*blocks.get(*case)?)
            }
            _ => None,
        }
    })
}

/// Whether a thread can reach `phi` along its incoming edge `case` within the interval from
/// `start`: when the phi's block is in the interval, the edge's source must be too (a path from
/// the interval's start to the phi through a block outside it would cross a barrier). SimplifyCFG
/// sinks the stores of an `if` whose `then` arm begins with a barrier; before that barrier only
/// the `else` arm's edge into the sunk store is possible.
fn edge_in_interval(
    function: &crate::ir::Function,
    intervals: &Intervals,
    start: usize,
    phi: InstId,
    case: usize,
) -> bool {
    let inst = function.inst(phi);
    let (Op::Phi(blocks), Some(at)) = (&inst.op, inst.block) else {
        return true;
    };
    let region = intervals.region(start);
    let in_region = |block| {
        intervals
            .last_segment_of(block)
            .is_some_and(|segment| region.contains(segment))
    };
    let Some(from) = blocks.get(case) else {
        return true;
    };
    !intervals
        .first_segment_of(at)
        .is_some_and(|s| region.contains(s))
        || in_region(*from)
}

/// The barrier intervals of a kernel, at block and at warp level.
pub fn intervals(cx: &Context<'_>, cfg: &Cfg, ops: &[ConvergentOp]) -> (Intervals, Intervals) {
    let block: HashSet<InstId> = ops
        .iter()
        .filter(|o| o.role == SyncRole::Block)
        .map(|o| o.inst)
        .collect();
    let warp: HashSet<InstId> = ops
        .iter()
        .filter(|o| o.role != SyncRole::None)
        .map(|o| o.inst)
        .collect();
    (
        Intervals::new(cx.function, cfg, &block),
        Intervals::new(cx.function, cfg, &warp),
    )
}

/// The thread that alone reaches an access, if one alone does.
fn lone_thread(threads: &ThreadSet) -> Option<usize> {
    let mut all = threads.iter();
    match (all.next(), all.next()) {
        (Some(t), None) => Some(t),
        _ => None,
    }
}

pub fn check_races(cx: &Context<'_>, input: &RaceInput<'_>) -> Vec<Finding> {
    let function = cx.function;
    let (found, opaque) = accesses(cx);
    let mut findings: Vec<Finding> = opaque
        .into_iter()
        .map(|(id, reason)| {
            Finding::UnprovenRace(Unproven {
                function: function.name.clone(),
                inst: cx.inst_ref(id),
                other: None,
                culprit: None,
                reason,
            })
        })
        .collect();
    let (block_intervals, warp_intervals) = intervals(cx, input.cfg, input.ops);
    // Per access: whether its address reads the input arrays (`reads_inputs`).
    let mut on_inputs: HashMap<usize, bool> = HashMap::default();
    let inputs = if input.options.input_dependent_races_undecided {
        HashSet::default()
    } else {
        input_arrays(cx, &found, !findings.is_empty())
    };
    let everyone = ThreadSet::all(cx.threads.count());
    let active = |access: &Access| -> &ThreadSet {
        function
            .inst(access.inst)
            .block
            .and_then(|b| input.reach.get(b))
            .unwrap_or(&everyone)
    };
    let lone_thread: Vec<Option<usize>> = found.iter().map(|a| lone_thread(active(a))).collect();
    // Per access: the warp-level intervals that hold it. Without `bar.warp.sync` they are the
    // block-level ones, and two accesses one block interval holds share one.
    let warp_syncs = input.ops.iter().any(|o| o.role == SyncRole::Warp);
    let warp_membership: Vec<Vec<usize>> = found
        .iter()
        .map(
            |a| match warp_intervals.segment_of.get(a.inst).copied().flatten() {
                Some(segment) if warp_syncs => warp_intervals.holding(segment),
                _ => Vec::new(),
            },
        )
        .collect();

    // Where threads of a block can part ways: the segments that end in a branch that is not
    // uniform. Everywhere else all threads go the same way.
    // Each with what threads that part there reach before they meet again at the branch's
    // immediate post-dominator: past it, they take the uniform branches that follow together
    // again (at their first passes), so two accesses both past it are not reached by threads
    // that parted here.
    let parting: Vec<(usize, NodeSet)> = input
        .divergence
        .branches
        .iter()
        .filter_map(|b| {
            let segment = block_intervals.last_segment_of(b.block)?;
            let apart = match input
                .cfg
                .ipdom(b.block)
                .and_then(|join| block_intervals.first_segment_of(join))
            {
                Some(join) => block_intervals.reachable_avoiding(segment, join),
                None => block_intervals.reachable(segment),
            };
            Some((segment, apart))
        })
        .collect();
    // Barrier-free reachability from the segments that matter (those of accesses and those
    // where threads can part), computed when a pair first asks: each is a walk over the
    // interval, and most pairs are settled before they need one.
    let reach: RefCell<HashMap<usize, NodeSet>> = RefCell::new(HashMap::default());
    let reaches = |from: usize, to: usize| {
        reach
            .borrow_mut()
            .entry(from)
            .or_insert_with(|| block_intervals.reachable(from))
            .contains(to)
    };
    // Per segment: the accesses in it, and the branches where threads part at its end; each
    // interval gathers those of its own segments.
    let mut accesses_at: HashMap<usize, Vec<usize>> = HashMap::default();
    for (i, access) in found.iter().enumerate() {
        if let Some(segment) = block_intervals
            .segment_of
            .get(access.inst)
            .copied()
            .flatten()
        {
            accesses_at.entry(segment).or_default().push(i);
        }
    }
    let mut parting_at: HashMap<usize, Vec<usize>> = HashMap::default();
    for (p, (segment, _)) in parting.iter().enumerate() {
        parting_at.entry(*segment).or_default().push(p);
    }
    // Addresses, guards and variable ranges per interval, access and side of a pair, when no
    // uniform branch needs deciding case by case.
    let mut prepared = PreparedAccesses::default();
    let mut decided: HashSet<(usize, usize)> = HashSet::default();
    let mut unexpressed: HashSet<usize> = HashSet::default();
    // Only intervals that hold an access have pairs to check: those whose start reaches an
    // access's segment (the others' regions are never computed).
    let access_segments: Vec<usize> = accesses_at.keys().copied().collect();
    let before_accesses = block_intervals.reaching(&access_segments);
    for start in 0..block_intervals.starts.len() {
        if !before_accesses.contains(block_intervals.starts[start].segment) {
            continue;
        }
        let region = block_intervals.region(start);
        let gather = |at: &HashMap<usize, Vec<usize>>| -> Vec<usize> {
            let mut all: Vec<usize> = region
                .iter()
                .filter_map(|s| at.get(&s))
                .flatten()
                .copied()
                .collect();
            all.sort_unstable();
            all
        };
        let members = gather(&accesses_at);
        let partings = gather(&parting_at);
        for (x, &i) in members.iter().enumerate() {
            for &j in &members[x..] {
                // Within one block, a race needs two different threads: accesses that one and
                // the same thread alone reaches (the once-per-block stores under `tid == 0`)
                // never race with each other. Tested first, from a table made once, it keeps
                // long kernels of such stores from paying for every pair.
                if lone_thread[i].is_some() && lone_thread[i] == lone_thread[j] {
                    continue;
                }
                let (a, b) = (&found[i], &found[j]);
                if !(a.writes() || b.writes()) || (a.atomic && b.atomic) {
                    continue;
                }
                // Two threads can be at `a` and `b` in one interval only if one access can
                // follow the other, or the threads part at a non-uniform branch that leads to
                // both: at uniform branches every thread goes the same way.
                let (Some(sa), Some(sb)) = (
                    block_intervals.segment_of[a.inst],
                    block_intervals.segment_of[b.inst],
                ) else {
                    continue;
                };
                let together = reaches(sa, sb)
                    || reaches(sb, sa)
                    || partings.iter().any(|p| {
                        let (d, apart) = &parting[*p];
                        reaches(*d, sa)
                            && reaches(*d, sb)
                            && (apart.contains(sa) || apart.contains(sb))
                    });
                if !together {
                    continue;
                }
                if decided.contains(&(i, j)) {
                    continue;
                }
                // Distinct objects never overlap (distinct parameters are assumed not to: LOOM
                // forbids overlapping arrays).
                if let (Space::Known(p), Space::Known(q)) = (a.space, b.space) {
                    if p != q {
                        continue;
                    }
                }
                if input.options.tolerate_same_value_writes && same_value_writes(input, a, b) {
                    continue;
                }
                let different_warps =
                    warp_syncs && !share_any(&warp_membership[i], &warp_membership[j]);
                // Phis whose incoming edge is the same for every thread (a uniform branch before
                // them) are decided case by case: both threads of a pair take the same edge.
                // Loop variables with a known sequence of values (`races/sequence.rs`) likewise,
                // value by value (pairs of values when the threads may be in different
                // iterations): allowed more cases, as many as two such sequences give.
                let mut queue: Vec<Cases> = vec![Cases::default()];
                let mut cases = 0;
                let mut most_cases = 16;
                while let Some(Cases {
                    choices,
                    sequence_choices,
                }) = queue.pop()
                {
                    cases += 1;
                    if cases > most_cases {
                        decided.insert((i, j));
                        findings.push(unproven(
                            cx,
                            a.inst,
                            Some(b.inst),
                            "the addresses depend on too many uniform branches",
                        ));
                        break;
                    }
                    let context = Preparation {
                        cx,
                        input,
                        intervals: &block_intervals,
                        start,
                        zero_inputs: None,
                        sequences: &prepared.sequences,
                        inductions: &prepared.inductions,
                    };
                    let mut get = |index: usize, side: u8| {
                        if choices.is_empty() && sequence_choices.is_empty() {
                            prepared
                                .by_access
                                .entry((start, index, side))
                                .or_insert_with(|| {
                                    Rc::new(context.prepare(
                                        &found[index],
                                        side,
                                        &choices,
                                        &sequence_choices,
                                    ))
                                })
                                .clone()
                        } else {
                            Rc::new(context.prepare(
                                &found[index],
                                side,
                                &choices,
                                &sequence_choices,
                            ))
                        }
                    };
                    let first = get(i, 0);
                    let second = get(j, 1);
                    let (first, second) = match (first.as_ref(), second.as_ref()) {
                        (Ok(f), Ok(s)) => (f, s),
                        (Err(Failure::Choice { phi, arity }), _)
                        | (_, Err(Failure::Choice { phi, arity })) => {
                            for c in 0..*arity {
                                if !edge_in_interval(function, &block_intervals, start, *phi, c) {
                                    continue;
                                }
                                let mut more = choices.clone();
                                more.insert(*phi, c);
                                queue.push(Cases {
                                    choices: more,
                                    sequence_choices: sequence_choices.clone(),
                                });
                            }
                            continue;
                        }
                        (Err(Failure::Sequence { phi, side, values }), _)
                        | (_, Err(Failure::Sequence { phi, side, values })) => {
                            most_cases = MOST_SEQUENCE_CASES;
                            for value in values {
                                let mut more = sequence_choices.clone();
                                more.insert((*phi, *side), *value);
                                queue.push(Cases {
                                    choices: choices.clone(),
                                    sequence_choices: more,
                                });
                            }
                            continue;
                        }
                        (f, s) => {
                            // An address computed from the kernel's input data (`h[data[i] &
                            // 255]`): with every input array holding zeros, a valid input, it
                            // may be affine, and a race there is proven for that input.
                            let mut from_inputs = |index: usize| {
                                *on_inputs.entry(index).or_insert_with(|| {
                                    reads_inputs(cx, found[index].pointer, &inputs)
                                })
                            };
                            if !inputs.is_empty()
                                && updates(&found, a)
                                && updates(&found, b)
                                && (from_inputs(i) || from_inputs(j))
                            {
                                let zeros = Preparation {
                                    zero_inputs: Some(&inputs),
                                    ..context
                                };
                                if let Some(race) = race_on_zero_inputs(
                                    cx,
                                    input,
                                    &block_intervals,
                                    start,
                                    (a, zeros.prepare(a, 0, &choices, &sequence_choices)),
                                    (b, zeros.prepare(b, 1, &choices, &sequence_choices)),
                                    (active(a), active(b)),
                                    &choices,
                                    &sequence_choices,
                                    different_warps,
                                ) {
                                    decided.insert((i, j));
                                    findings.push(race);
                                }
                            }
                            for (index, result) in [(i, f), (j, s)] {
                                if let Err(failure) = result {
                                    // Never silent: an access to shared or global memory the
                                    // analysis cannot express is reported, naming it.
                                    if unexpressed.insert(index) {
                                        findings.push(inexpressible(
                                            cx,
                                            found[index].inst,
                                            failure,
                                        ));
                                    }
                                }
                            }
                            break;
                        }
                    };
                    if first.address.base != second.address.base {
                        continue;
                    }
                    // A two-dimensional address is decided only against one of the same array,
                    // width and element size (`races/grid.rs`); against any other, it is an
                    // access the analysis cannot express, as it was without the grid form.
                    let grids = match (&first.grid, &second.grid) {
                        (None, None) => None,
                        (Some(f), Some(s))
                            if f.compatible(s, (a.bytes.unwrap_or(1), b.bytes.unwrap_or(1))) =>
                        {
                            Some((f, s))
                        }
                        (f, s) => {
                            for (index, grid) in [(i, f), (j, s)] {
                                if let Some(grid) = grid {
                                    if unexpressed.insert(index) {
                                        findings.push(inexpressible(
                                            cx,
                                            found[index].inst,
                                            &grid.failure,
                                        ));
                                    }
                                }
                            }
                            break;
                        }
                    };
                    // Grids compare elements: one element a side.
                    let bytes = |access: &Access| match grids {
                        Some(_) => 1,
                        None => access.bytes.unwrap_or(1),
                    };
                    let mut ranges = first.ranges.clone();
                    ranges.extend(second.ranges.iter().map(|(k, v)| (*k, *v)));
                    let outcome = solve::solve(
                        cx.threads,
                        Side {
                            lin: &first.address.offset,
                            thread: first.thread.as_deref(),
                            guards: &first.guards,
                            active: active(a),
                            bytes: bytes(a),
                        },
                        Side {
                            lin: &second.address.offset,
                            thread: second.thread.as_deref(),
                            guards: &second.guards,
                            active: active(b),
                            bytes: bytes(b),
                        },
                        different_warps,
                        &ranges,
                        false,
                    );
                    match outcome {
                        Outcome::Free => {}
                        Outcome::Undecided(reason) => {
                            decided.insert((i, j));
                            findings.push(unproven(cx, a.inst, Some(b.inst), &reason));
                            break;
                        }
                        // Under a case of a phi in an access's block, the access is reached
                        // through that case's incoming block: the separation test may start
                        // from there. A separated case rules out this case only.
                        Outcome::Conflict(_)
                            if separated_by_uniform_branch(
                                cx,
                                input,
                                &block_intervals,
                                start,
                                reached_through(function, &block_intervals, a, &choices)
                                    .unwrap_or(sa),
                                reached_through(function, &block_intervals, b, &choices)
                                    .unwrap_or(sb),
                            ) =>
                        {
                            continue;
                        }
                        // A branch on data the analysis cannot express may keep the two
                        // threads apart (`if (flag[tid])`): possible, not proven.
                        Outcome::Conflict(witness) if first.opaque_guard || second.opaque_guard => {
                            decided.insert((i, j));
                            let geometry = cx.threads.geometry();
                            findings.push(unproven(
                                cx,
                                a.inst,
                                Some(b.inst),
                                &format!(
                                    "{} and {} conflict unless a branch condition the analysis \
                                     cannot express keeps one of them away",
                                    geometry.thread(witness.first_thread),
                                    geometry.thread(witness.second_thread)
                                ),
                            ));
                            break;
                        }
                        Outcome::Conflict(witness) => {
                            decided.insert((i, j));
                            // On grids: the same element in both threads; in bytes with a width
                            // that the guards allow.
                            let witness = match grids {
                                None => witness,
                                Some((f, s)) => match grid::real_witness(
                                    cx.threads,
                                    (f, &first.guards),
                                    (s, &second.guards),
                                    &witness,
                                ) {
                                    Some(real) => real,
                                    None => {
                                        findings.push(unproven(
                                            cx,
                                            a.inst,
                                            Some(b.inst),
                                            &format!(
                                                "{} and {} touch the same row and column of a \
                                                 two-dimensional index, but no width tried \
                                                 that the guards allow confirms it",
                                                cx.threads.geometry().thread(witness.first_thread),
                                                cx.threads.geometry().thread(witness.second_thread)
                                            ),
                                        ));
                                        break;
                                    }
                                },
                            };
                            findings.push(report(
                                cx,
                                (a, &first.address),
                                (b, &second.address),
                                &witness,
                                &sequence_choices,
                                block_intervals.starts[start].after,
                                different_warps,
                            ));
                            break;
                        }
                    }
                }
            }
        }
    }
    // Accesses left undecided (the compare-exchange writes of a block sort, under comparisons
    // of data in shared memory): running the block on a few concrete inputs may show a race,
    // reported with that input (`races/simulate.rs`). Not on loomc's own output, where races
    // that need particular input contents stay undecided.
    if !input.options.input_dependent_races_undecided
        && findings
            .iter()
            .any(|f| matches!(f, Finding::UnprovenRace(_)))
        && !findings.iter().any(|f| matches!(f, Finding::Race(_)))
    {
        let updates: HashSet<InstId> = found
            .iter()
            .filter(|a| updates(&found, a))
            .map(|a| a.inst)
            .collect();
        findings.extend(simulate::witness(
            cx,
            &updates,
            input.options.tolerate_same_value_writes,
        ));
    }
    if !input.options.single_block {
        findings.extend(blocks::check(
            cx,
            input,
            &found,
            &block_intervals,
            &mut prepared,
        ));
    }
    merge_repeats(findings)
}

/// The arrays of global memory the kernel only reads, through its pointer parameters: no access
/// writes them, and no write or call could (none of unknown place, no call the analysis cannot
/// look into: `opaque_calls`). Their contents are the kernel's input, as free as its scalar
/// parameters: every element 0 is one input the kernel may be given.
fn input_arrays(
    cx: &Context<'_>,
    found: &[Access],
    opaque_calls: bool,
) -> HashSet<address::Object> {
    let writes = found.iter().filter(|a| a.writes());
    if opaque_calls || writes.clone().any(|a| !matches!(a.space, Space::Known(_))) {
        return HashSet::default();
    }
    let written: HashSet<address::Object> = writes
        .filter_map(|a| match a.space {
            Space::Known(object) => Some(object),
            _ => None,
        })
        .collect();
    found
        .iter()
        .filter_map(|a| match a.space {
            Space::Known(object @ address::Object::Param(_))
                if !object.is_shared(cx) && !written.contains(&object) =>
            {
                Some(object)
            }
            _ => None,
        })
        .collect()
}

/// Whether `value` is computed from a load of one of the `inputs` arrays (a short walk up its
/// operands): only then can filling them with zeros make an address affine.
fn reads_inputs(cx: &Context<'_>, value: Val, inputs: &HashSet<address::Object>) -> bool {
    computed_from(
        cx.function,
        value,
        &mut |_, inst| match (&inst.op, inst.args.first()) {
            (Op::Load { .. }, Some(&pointer)) => {
                matches!(address::space(cx, pointer), Space::Known(object) if inputs.contains(&object))
            }
            _ => false,
        },
    )
}

/// Whether `access` is half of an update of its element by its thread: a load and a store
/// through one pointer value (`h[bin] += 1`), or an atomic read-modify-write. Only races between
/// updates are confirmed with an input ([`race_on_zero_inputs`]): a plain store to positions
/// read from an input (`s[perm[tid]] = x`) is race-free whenever the input is a permutation, a
/// precondition such kernels commonly have and the IR cannot show, so it stays undecided; an
/// update of a position chosen by the data (a histogram's bin) is the shape where repeated
/// values are the point of the data.
fn updates(found: &[Access], access: &Access) -> bool {
    access.kind == AccessKind::Atomic
        || found.iter().any(|other| {
            other.pointer == access.pointer
                && matches!(
                    (access.kind, other.kind),
                    (AccessKind::Read, AccessKind::Write) | (AccessKind::Write, AccessKind::Read)
                )
        })
}

/// The race between two accesses whose addresses, prepared with every input array holding
/// zeros (`pair`), are affine: a conflict their guards allow, that no uniform branch keeps
/// apart and that no branch the analysis cannot express may rule out, is a race on that input,
/// reported with it (`every element of %data = 0`). `None` when there is no such conflict: the
/// accesses stay undecided, as they were.
#[allow(clippy::too_many_arguments)]
fn race_on_zero_inputs(
    cx: &Context<'_>,
    input: &RaceInput<'_>,
    intervals: &Intervals,
    start: usize,
    (a, first): (&Access, Result<Prepared, Failure>),
    (b, second): (&Access, Result<Prepared, Failure>),
    active: (&ThreadSet, &ThreadSet),
    choices: &HashMap<InstId, usize>,
    sequence_choices: &HashMap<(InstId, u8), i128>,
    different_warps: bool,
) -> Option<Finding> {
    let (first, second) = (first.ok()?, second.ok()?);
    if first.zeroed.is_empty() && second.zeroed.is_empty() {
        return None;
    }
    if first.address.base != second.address.base
        || first.grid.is_some()
        || second.grid.is_some()
        || first.opaque_guard
        || second.opaque_guard
    {
        return None;
    }
    let mut ranges = first.ranges.clone();
    ranges.extend(second.ranges.iter().map(|(k, v)| (*k, *v)));
    let outcome = solve::solve(
        cx.threads,
        Side {
            lin: &first.address.offset,
            thread: first.thread.as_deref(),
            guards: &first.guards,
            active: active.0,
            bytes: a.bytes.unwrap_or(1),
        },
        Side {
            lin: &second.address.offset,
            thread: second.thread.as_deref(),
            guards: &second.guards,
            active: active.1,
            bytes: b.bytes.unwrap_or(1),
        },
        different_warps,
        &ranges,
        false,
    );
    let Outcome::Conflict(witness) = outcome else {
        return None;
    };
    let function = cx.function;
    let (Some(sa), Some(sb)) = (intervals.segment_of[a.inst], intervals.segment_of[b.inst]) else {
        return None;
    };
    if separated_by_uniform_branch(
        cx,
        input,
        intervals,
        start,
        reached_through(function, intervals, a, choices).unwrap_or(sa),
        reached_through(function, intervals, b, choices).unwrap_or(sb),
    ) {
        return None;
    }
    let mut finding = report(
        cx,
        (a, &first.address),
        (b, &second.address),
        &witness,
        sequence_choices,
        intervals.starts[start].after,
        different_warps,
    );
    if let Finding::Race(race) = &mut finding {
        let mut zeroed = first.zeroed.clone();
        zeroed.extend(second.zeroed.iter().filter(|o| !first.zeroed.contains(o)));
        for object in zeroed {
            race.assumptions
                .push((format!("every element of {}", object.name(cx)), 0));
        }
        return Some(finding);
    }
    None
}

/// Whether a uniform branch keeps two threads from being at segments `a` and `b` in one
/// interval: every path from the interval's start to `a` leaves the branch by one edge the first
/// time it passes it, every path to `b` by another. Both threads meet the branch's first
/// instance after the barrier, where its condition is the same for every thread, so they leave
/// it alike (`if c` with one access in each arm, or a loop entered before one access and skipped
/// before the other: a thread that entered the loop and one that skipped it are in different
/// intervals).
fn separated_by_uniform_branch(
    cx: &Context<'_>,
    input: &RaceInput<'_>,
    intervals: &Intervals,
    start: usize,
    a: usize,
    b: usize,
) -> bool {
    let function = cx.function;
    let origin = intervals.starts[start].segment;
    let region = intervals.region(start);
    let committed = |x: usize, edges: &[(usize, usize)]| -> Option<usize> {
        edges.iter().position(|edge| {
            !intervals
                .reachable_unless_first_leaving_by(origin, *edge)
                .contains(x)
        })
    };
    // The uniform branches of the interval: those at the end of its blocks' last segments.
    region.iter().any(|branch| {
        let block = intervals.segments[branch].block;
        if intervals.last_segment_of(block) != Some(branch) {
            return false;
        }
        let Some(term) = function.terminator(block) else {
            return false;
        };
        let term = function.inst(term);
        let uniform = matches!(term.op, Op::CondBr | Op::Switch)
            && term
                .args
                .first()
                .is_some_and(|c| input.divergence.of(*c) == Divergence::Uniform);
        if !uniform {
            return false;
        }
        let mut targets = intervals.succs[branch].clone();
        targets.sort_unstable();
        targets.dedup();
        let edges: Vec<(usize, usize)> = targets.iter().map(|t| (branch, *t)).collect();
        matches!((committed(a, &edges), committed(b, &edges)), (Some(p), Some(q)) if p != q)
    })
}

/// Whether two sorted lists have an element in common.
fn share_any(a: &[usize], b: &[usize]) -> bool {
    let (mut x, mut y) = (0, 0);
    while x < a.len() && y < b.len() {
        match a[x].cmp(&b[y]) {
            std::cmp::Ordering::Less => x += 1,
            std::cmp::Ordering::Greater => y += 1,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}

/// Races between the same two source positions (an unrolled loop makes many) are reported once,
/// with a count of the others.
fn merge_repeats(findings: Vec<Finding>) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for finding in findings {
        if let Finding::Race(race) = &finding {
            let key = |r: &Race| {
                (
                    r.object.clone(),
                    r.hazard(),
                    r.first.inst.loc.as_ref().map(|l| l.outermost().clone()),
                    r.second.inst.loc.as_ref().map(|l| l.outermost().clone()),
                )
            };
            let mine = key(race);
            if mine.2.is_some() && mine.3.is_some() {
                if let Some(Finding::Race(earlier)) = out
                    .iter_mut()
                    .find(|f| matches!(f, Finding::Race(r) if key(r) == mine))
                {
                    earlier.similar += 1;
                    continue;
                }
            }
        }
        out.push(finding);
    }
    out
}

/// What [`Preparation::prepare`] gave, by interval start, index of the access and side of a
/// pair, where no case was decided, and the loop variables' sequences and inductions every
/// preparation reads. The check between blocks reads it too: some of what it prepares, the
/// check within a block has (exclusive_scan: 4 of its 34 preparations, 1.5 M instructions of
/// the kernel verifier's 35.4 M).
#[derive(Default)]
struct PreparedAccesses {
    by_access: HashMap<(usize, usize, u8), Rc<Result<Prepared, Failure>>>,
    sequences: sequence::Sequences,
    inductions: address::Inductions,
}

/// What the pair test needs of one access, for one side of a pair.
struct Prepared {
    address: Address,
    /// The thread part of the offset, per thread.
    thread: Option<Vec<i128>>,
    guards: Vec<guards::Guard>,
    ranges: HashMap<VarKey, (i128, i128)>,
    /// A branch condition on the way to the access that may differ between threads (or blocks)
    /// is not among `guards`: the analysis cannot express it (it tests data in memory, say), so
    /// a conflict the guards allow may still be ruled out by it.
    opaque_guard: bool,
    /// A two-dimensional address (`races/grid.rs`): `address` is then its spread offset,
    /// `row · 2^64 + column` in elements, comparable only with another grid's.
    grid: Option<grid::Grid>,
    /// The input arrays whose zeros the address or guards used ([`Linearizer::zeroed`]).
    zeroed: Vec<address::Object>,
}

#[derive(Clone, Copy)]
struct Preparation<'a> {
    cx: &'a Context<'a>,
    input: &'a RaceInput<'a>,
    intervals: &'a Intervals,
    start: usize,
    /// The kernel's input arrays, when the case decided fills them with zeros
    /// ([`Linearizer::zero_inputs`]).
    zero_inputs: Option<&'a HashSet<address::Object>>,
    sequences: &'a sequence::Sequences,
    inductions: &'a address::Inductions,
}

impl Preparation<'_> {
    fn prepare(
        &self,
        access: &Access,
        side: u8,
        choices: &HashMap<InstId, usize>,
        sequence_choices: &HashMap<(InstId, u8), i128>,
    ) -> Result<Prepared, Failure> {
        let mut linearizer = Linearizer {
            cx: self.cx,
            cfg: self.input.cfg,
            value_ranges: self.input.ranges,
            divergence: self.input.divergence,
            intervals: self.intervals,
            start: self.start,
            access: access.inst,
            side,
            choices: choices.clone(),
            sequence_choices: sequence_choices.clone(),
            sequences: self.sequences,
            inductions: self.inductions,
            unchosen_sequence: None,
            ranges: HashMap::default(),
            invariant: HashMap::default(),
            steps: 0,
            loop_guards: Vec::new(),
            zero_inputs: self.zero_inputs,
            zeroed: Vec::new(),
        };
        let affine = address_of(&mut linearizer, access);
        // An address that is not affine may still be a two-dimensional index into an array of
        // run-time width (`races/grid.rs`), decided against the guards below.
        let grid_failure = match &affine {
            Err(failure @ Failure::Inexpressible { .. })
                if access.bytes.is_some()
                    && !matches!(access.space, Space::Unknown | Space::Unplaced) =>
            {
                Some(failure.clone())
            }
            Err(failure) => return Err(failure.clone()),
            Ok(_) => None,
        };
        let (mut guards, opaque_guard) = guards_of(
            self.cx.function,
            self.input.cfg,
            self.input.divergence,
            &mut linearizer,
            access,
        );
        let (address, grid) = match (affine, grid_failure) {
            (Ok(address), _) => (address, None),
            (Err(failure), Some(_)) => {
                match grid::grid(&mut linearizer, access.pointer, &guards, &failure) {
                    Some(grid) => (
                        Address {
                            base: grid.base,
                            offset: grid.spread(),
                        },
                        Some(grid),
                    ),
                    None => return Err(failure),
                }
            }
            (Err(failure), None) => return Err(failure),
        };
        // A case of a phi on the access's way (its block dominates the access's): the thread
        // came along that edge, so the edge's conditions hold. (An access elsewhere, the pair's
        // other side, need not have passed the phi.)
        let at = self.cx.function.inst(access.inst).block;
        for (phi, case) in choices {
            let inst = self.cx.function.inst(*phi);
            if let (Op::Phi(blocks), Some(block), Some(at)) = (&inst.op, inst.block, at) {
                if !self.input.cfg.dominates(block, at) {
                    continue;
                }
                if let Some(from) = blocks.get(*case) {
                    let conditions =
                        address::edge_conditions(self.cx.function, self.input.cfg, *from, block);
                    guards.extend(guards::guards(&mut linearizer, &conditions));
                }
            }
        }
        guards.append(&mut linearizer.loop_guards);
        if let Some(failure) = linearizer.unchosen_sequence.take() {
            return Err(failure);
        }
        Ok(Prepared {
            thread: solve::thread_part(self.cx.threads, &address.offset),
            address,
            guards,
            ranges: linearizer.ranges,
            opaque_guard,
            grid,
            zeroed: linearizer.zeroed,
        })
    }
}

/// The address of an access, if the analysis can express it.
fn address_of(linearizer: &mut Linearizer<'_>, access: &Access) -> Result<Address, Failure> {
    match access.space {
        Space::Unknown => {
            return Err(Failure::UnknownBase {
                culprit: None,
                why: "cannot tell which variable the pointer points into".to_string(),
            })
        }
        Space::Unplaced => {
            return Err(Failure::UnknownBase {
                culprit: None,
                why: "cannot tell which array of global memory the pointer points into".to_string(),
            })
        }
        _ => {}
    }
    if access.bytes.is_none() {
        return Err(Failure::inexpressible(
            "the number of bytes it touches is not a constant",
        ));
    }
    linearizer.address(access.pointer)
}

/// The affine comparisons that hold where an access runs, and whether a condition that may
/// differ between threads or blocks is not among them.
fn guards_of(
    function: &crate::ir::Function,
    cfg: &Cfg,
    divergence: &DivergenceInfo,
    linearizer: &mut Linearizer<'_>,
    access: &Access,
) -> (Vec<guards::Guard>, bool) {
    let Some(block) = function.inst(access.inst).block else {
        return (Vec::new(), false);
    };
    let conditions = crate::cfg::dominating_conditions(function, cfg, block);
    // Conditions on thread ids alone are decided exactly by the threads each block reaches
    // (`reach`), whatever their form; one on data read from memory (or from a call the analysis
    // cannot see into) is not, and if it is not affine either, the pair test does not see it.
    // (A uniform condition is the same for both threads of a block; between blocks,
    // `blocks.rs` looks at those that depend on the block.)
    // Likewise a condition on a loop variable whose value the case chose (`tid % (2 * d) == 0`
    // with d enumerated): the threads it keeps away are not known without it.
    let chosen: HashSet<InstId> = linearizer.sequence_choices.keys().map(|k| k.0).collect();
    let mut opaque = false;
    // With the input arrays filled with zeros (`race_on_zero_inputs`), a uniform condition on
    // data that does not fold is suspect too: the witness needs the access reached for that
    // input, and such a test may send every thread away.
    let zeros = linearizer.zero_inputs.is_some();
    for condition in &conditions {
        let suspect = ((zeros || divergence.of(condition.0) != Divergence::Uniform)
            && reads_data(linearizer.cx.module, function, condition.0))
            || uses_any(function, condition.0, &chosen);
        if suspect && guards::guards(linearizer, &[*condition]).is_empty() {
            opaque = true;
            break;
        }
    }
    (guards::guards(linearizer, &conditions), opaque)
}

/// Whether `value` depends on data read from memory, an atomic, or a call other than a special
/// register read (a short walk up its operands).
fn reads_data(module: &crate::ir::Module, function: &crate::ir::Function, value: Val) -> bool {
    computed_from(function, value, &mut |id, inst| match &inst.op {
        Op::Load { .. } | Op::AtomicRmw { .. } | Op::CmpXchg { .. } => true,
        Op::Call(callee) => !reads_special_register(module, function, id, *callee),
        _ => false,
    })
}

/// Whether call `id` names a special register reader (`@llvm.nvvm.read.ptx.sreg.tid.x`, ...):
/// by the callee's name, without printing the function; inline assembly and an indirect call
/// by their text.
fn reads_special_register(
    module: &crate::ir::Module,
    function: &crate::ir::Function,
    id: InstId,
    callee: crate::ir::Callee,
) -> bool {
    const SPECIAL_REGISTERS: &str = "llvm.nvvm.read.ptx.sreg.";
    match module.callee_name(callee) {
        Some(name) => name.starts_with(SPECIAL_REGISTERS),
        None => function.text(id).contains(&format!("@{SPECIAL_REGISTERS}")),
    }
}

/// Whether `value` is computed from one of `phis` (a short walk up its operands).
fn uses_any(function: &crate::ir::Function, value: Val, phis: &HashSet<InstId>) -> bool {
    !phis.is_empty() && computed_from(function, value, &mut |id, _| phis.contains(&id))
}

/// Whether `value` is, or is computed from, an instruction for which `found` holds: a walk up
/// its operands of at most 256 instructions (a longer chain is taken as not computed from one).
fn computed_from(
    function: &crate::ir::Function,
    value: Val,
    found: &mut dyn FnMut(InstId, &crate::ir::Inst) -> bool,
) -> bool {
    let mut stack = vec![value];
    let mut seen = HashSet::default();
    while let Some(v) = stack.pop() {
        let Val::Inst(id) = v else { continue };
        let inst = function.inst(id);
        if found(id, inst) {
            return true;
        }
        if !seen.insert(id) || seen.len() > 256 {
            continue;
        }
        stack.extend(inst.args.iter().copied());
    }
    false
}

fn same_value_writes(input: &RaceInput<'_>, a: &Access, b: &Access) -> bool {
    match (a.stored, b.stored) {
        (Some(x), Some(y)) if x == y => match x {
            Val::Int { .. } | Val::Null => true,
            other => input.divergence.of(other) == Divergence::Uniform,
        },
        _ => false,
    }
}

fn unproven(cx: &Context<'_>, inst: InstId, other: Option<InstId>, reason: &str) -> Finding {
    Finding::UnprovenRace(Unproven {
        function: cx.function.name.clone(),
        inst: cx.inst_ref(inst),
        other: other.filter(|o| *o != inst).map(|o| cx.inst_ref(o)),
        culprit: None,
        reason: reason.to_string(),
    })
}

/// An access the analysis cannot express, and why.
fn inexpressible(cx: &Context<'_>, inst: InstId, failure: &Failure) -> Finding {
    Finding::UnprovenRace(Unproven {
        function: cx.function.name.clone(),
        inst: cx.inst_ref(inst),
        other: None,
        culprit: failure.culprit().map(|c| cx.inst_ref(c)),
        reason: failure.reason().to_string(),
    })
}

/// A name for a variable of the witness, in the IR's terms.
fn variable_name(cx: &Context<'_>, key: &VarKey) -> Option<String> {
    match key {
        VarKey::Shared { value, .. } => Some(match value {
            Val::Arg(a) => match cx.function.args.get(*a) {
                Some(arg) if !arg.name.is_empty() => format!("%{}", arg.name),
                _ => format!("argument {a}"),
            },
            Val::Inst(i) => {
                let text = cx.function.text(*i);
                match text.split_once(" = ") {
                    Some((name, _)) => name.to_string(),
                    None => format!("`{text}`"),
                }
            }
            _ => return None,
        }),
        _ => None,
    }
}

fn report(
    cx: &Context<'_>,
    (a, _): (&Access, &Address),
    (b, second): (&Access, &Address),
    witness: &solve::Witness,
    sequence_choices: &HashMap<(InstId, u8), i128>,
    interval_start: Option<InstId>,
    across_warps_only: bool,
) -> Finding {
    let geometry = cx.threads.geometry();
    let object = second.base.name(cx);
    let mut assumptions: Vec<(String, i128)> = witness
        .values
        .iter()
        .filter_map(|(key, value)| variable_name(cx, key).map(|name| (name, *value)))
        .collect();
    // The values of strides that halve or double, per thread when the two may differ.
    let mut sequences: Vec<_> = sequence_choices.iter().collect();
    sequences.sort();
    for ((phi, side), value) in sequences {
        let name = variable_name(
            cx,
            &VarKey::Shared {
                value: Val::Inst(*phi),
                in_interval: true,
                invariant: false,
            },
        )
        .unwrap_or_else(|| "a loop variable".to_string());
        let name = match *side {
            0 => format!("{name} on {}", geometry.thread(witness.first_thread)),
            1 => format!("{name} on {}", geometry.thread(witness.second_thread)),
            _ => name,
        };
        assumptions.push((name, *value));
    }
    let unconfirmed: Vec<String> = witness
        .values
        .iter()
        .filter(|(key, _)| !key.is_free())
        .filter_map(|(key, _)| variable_name(cx, key))
        .collect();
    let side = |access: &Access, thread: usize, offset: i128| RaceAccess {
        inst: cx.inst_ref(access.inst),
        kind: access.kind,
        thread: geometry.thread(thread),
        offset,
        bytes: access.bytes.unwrap_or(1),
    };
    let race = Race {
        function: cx.function.name.clone(),
        object,
        shared_memory: second.base.is_shared(cx),
        first: side(a, witness.first_thread, witness.first_offset),
        second: side(b, witness.second_thread, witness.second_offset),
        interval_start: interval_start.map(|i| cx.inst_ref(i)),
        assumptions,
        across_warps_only,
        similar: 0,
        blocks: None,
        needs_threads: matches!(geometry, Geometry::UpTo(_))
            .then(|| (witness.first_thread.max(witness.second_thread) + 1) as u32),
    };
    if unconfirmed.is_empty() {
        Finding::Race(Box::new(race))
    } else {
        // The conflict needs particular values of things loaded or computed at run time: it is
        // possible, not proven.
        Finding::UnprovenRace(Unproven {
            function: race.function.clone(),
            inst: race.first.inst.clone(),
            other: Some(race.second.inst.clone()),
            culprit: None,
            reason: format!(
                "{} and {} conflict on `{}` if {} take particular values",
                race.first.thread,
                race.second.thread,
                race.object,
                unconfirmed.join(", ")
            ),
        })
    }
}
