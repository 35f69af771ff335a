//! Barrier placement: every barrier must be reached by every thread of the block, and every
//! full-mask warp collective by every lane of its warp, the same number of times.
//!
//! The analysis lists the convergent operations of a kernel with their role for the race
//! analysis (which ones end a barrier interval); the check compares each operation's position
//! with the divergent branches of `divergence.rs`.

use crate::cfg::Cfg;
use crate::divergence::{Divergence, DivergenceInfo, DivergentBranch};
use crate::fast_hash::HashSet;
use crate::findings::{ConvergentKind, Finding, Hazard};
use crate::ir::{Callee, Function, InstId, Module, Op, Val};
use crate::nvvm::{self, BarrierKind, Intrinsic};
use crate::threads::{Geometry, ThreadSet, ThreadValues, WARP_SIZE};
use crate::Context;

/// How a convergent operation orders memory accesses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyncRole {
    /// Orders the accesses of every thread of the block: ends a barrier interval.
    Block,
    /// Orders the accesses of the threads of each warp (`bar.warp.sync` with a full mask).
    Warp,
    /// Orders nothing (shuffles, votes, partial barriers).
    None,
}

#[derive(Debug, Clone)]
pub struct ConvergentOp {
    pub inst: InstId,
    /// `None` when the placement is not checked (partial masks, counted barriers).
    pub kind: Option<ConvergentKind>,
    pub role: SyncRole,
}

/// The defined functions that contain a block barrier, directly or through calls.
pub fn functions_with_barriers(module: &Module) -> HashSet<usize> {
    let mut with: HashSet<usize> = HashSet::default();
    let mut changed = true;
    while changed {
        changed = false;
        for function in &module.functions {
            if with.contains(&function.global) {
                continue;
            }
            let has = function.insts.iter().any(|inst| match inst.op {
                Op::Call(Callee::Function(g)) => {
                    with.contains(&g)
                        || matches!(
                            module.globals.get(g).map(|g| nvvm::classify(&g.name)),
                            Some(Intrinsic::Barrier(_))
                        )
                }
                _ => false,
            });
            if has {
                with.insert(function.global);
                changed = true;
            }
        }
    }
    with
}

fn full_mask(value: Option<&Val>) -> bool {
    matches!(value, Some(Val::Int { value, bits: 32 }) if (*value as u64) & 0xffff_ffff == 0xffff_ffff)
}

pub fn convergent_ops(
    module: &Module,
    function: &Function,
    with_barriers: &HashSet<usize>,
    threads: &ThreadValues<'_>,
) -> Vec<ConvergentOp> {
    let mut ops = Vec::new();
    for block in &function.blocks {
        for &id in &block.insts {
            let inst = function.inst(id);
            let Op::Call(callee) = inst.op else { continue };
            let name = module.callee_name(callee).unwrap_or("");
            let op = match nvvm::classify(name) {
                Intrinsic::Barrier(BarrierKind::Block) => ConvergentOp {
                    inst: id,
                    kind: Some(ConvergentKind::BlockBarrier),
                    role: SyncRole::Block,
                },
                Intrinsic::Barrier(BarrierKind::Counted { count_arg }) => {
                    // A count of the whole block is a full barrier; fewer threads synchronise
                    // only some of them, which the analyses do not model.
                    let whole = inst
                        .args
                        .get(count_arg)
                        .and_then(|c| threads.values(*c))
                        .is_some_and(|v| v.first().is_some_and(|c| *c as usize == threads.count()));
                    ConvergentOp {
                        inst: id,
                        kind: whole.then_some(ConvergentKind::BlockBarrier),
                        role: if whole {
                            SyncRole::Block
                        } else {
                            SyncRole::None
                        },
                    }
                }
                Intrinsic::WarpSync => {
                    let full = full_mask(inst.args.first());
                    ConvergentOp {
                        inst: id,
                        kind: full.then_some(ConvergentKind::WarpBarrier),
                        role: if full { SyncRole::Warp } else { SyncRole::None },
                    }
                }
                Intrinsic::Warp(_) => ConvergentOp {
                    inst: id,
                    kind: full_mask(inst.args.first()).then_some(ConvergentKind::WarpCollective),
                    role: SyncRole::None,
                },
                _ => match callee {
                    Callee::Function(g) if with_barriers.contains(&g) => ConvergentOp {
                        inst: id,
                        kind: Some(ConvergentKind::CallWithBarrier {
                            callee: name.to_string(),
                        }),
                        role: SyncRole::Block,
                    },
                    _ => continue,
                },
            };
            ops.push(op);
        }
    }
    ops
}

/// The placement findings of one kernel.
pub fn check_placement(
    cx: &Context<'_>,
    cfg: &Cfg,
    divergence: &DivergenceInfo,
    reach: &[ThreadSet],
    ops: &[ConvergentOp],
) -> Vec<Finding> {
    let function = cx.function;
    let mut findings = Vec::new();
    let scc = cfg.components();
    for op in ops {
        let Some(kind) = &op.kind else { continue };
        let Some(block) = function.inst(op.inst).block else {
            continue;
        };
        if !cfg.reachable[block] {
            continue;
        }
        // Block barriers need every thread of the block; warp collectives every lane of the
        // warp, so a branch that is uniform within each warp is fine for them.
        let tolerated = if kind.is_block_level() {
            Divergence::Uniform
        } else {
            Divergence::WarpUniform
        };
        let controllers: Vec<_> = divergence
            .controllers(block)
            .into_iter()
            .filter(|b| b.divergence > tolerated)
            .filter(|b| !decided_by_uniform_tests(function, cfg, divergence, b, block))
            .collect();
        if let Some(branch) = controllers
            .iter()
            .find(|b| b.divergence != Divergence::Unknown)
        {
            let witness = witness(cx.threads, &reach[block], kind.is_block_level());
            let in_loop = scc.cyclic[block] && scc.id[block] == scc.id[branch.block];
            let after_return = branch.region.iter().any(|b| {
                function.blocks[b]
                    .insts
                    .last()
                    .is_some_and(|t| matches!(function.inst(*t).op, Op::Ret))
            }) && cfg.ipdom(branch.block) == Some(cfg.exit());
            findings.push(Finding::DivergentConvergent {
                function: function.name.clone(),
                op: cx.inst_ref(op.inst),
                kind: kind.clone(),
                hazard: Box::new(Hazard::DivergentBranch {
                    branch: cx.inst_ref(branch.terminator),
                    source: branch.origin.map(|o| cx.inst_ref(o)),
                    witness,
                    in_loop,
                    after_return,
                }),
            });
            continue;
        }
        if let Some(branch) = controllers.first() {
            findings.push(Finding::UnprovenConvergent {
                function: function.name.clone(),
                op: cx.inst_ref(op.inst),
                kind: kind.clone(),
                branch: cx.inst_ref(branch.terminator),
                source: branch.origin.map(|o| cx.inst_ref(o)),
            });
            continue;
        }
        // A full-mask warp collective needs 32 lanes in every warp that reaches it.
        if let Some(finding) = divergent_barrier_id(cx, divergence, op, kind) {
            findings.push(finding);
            continue;
        }
        if !kind.is_block_level() {
            if let Geometry::Known(_) = cx.threads.geometry() {
                let threads = cx.threads.count() as u32;
                let lanes = threads % WARP_SIZE;
                let last_warp_reaches = reach[block]
                    .iter()
                    .any(|t| Geometry::warp(t) == (threads / WARP_SIZE) as usize);
                if lanes != 0 && last_warp_reaches {
                    findings.push(Finding::DivergentConvergent {
                        function: function.name.clone(),
                        op: cx.inst_ref(op.inst),
                        kind: kind.clone(),
                        hazard: Box::new(Hazard::PartialWarp { threads, lanes }),
                    });
                }
            }
        }
    }
    findings
}

/// Whether the uniform tests between a divergent `branch` and its post-dominator alone decide
/// whether a thread that passes the branch reaches `target`, the same way on every side of it:
/// then all the threads that pass the branch reach `target` once, or none does, whichever way
/// each of them went. LLVM's jump threading copies a uniform test into one arm of a divergent
/// branch (the arm jumps past the join when `%inside` is false, the other threads test
/// `%inside` at the join): the barrier after the join lies in the branch's region, but the
/// branch does not decide who reaches it (the fuzz slice's seed 1349).
///
/// A test counts when its condition is uniform and computed outside every loop, so that every
/// thread that evaluates it gets the same value: each assignment of values to the tests is one
/// run of the block. For each, the ways through the region (acyclic, else no answer) that agree
/// with it must all reach `target` from every successor of the branch, or none may; a divergent
/// test inside the region (or any other branch) keeps both of its edges, so a thread that a
/// nested divergent branch sends past `target` makes the answer no.
fn decided_by_uniform_tests(
    function: &Function,
    cfg: &Cfg,
    divergence: &DivergenceInfo,
    branch: &DivergentBranch,
    target: usize,
) -> bool {
    // The work is the region's blocks once per assignment: MAX_WORK bounds it (about 4 million
    // block visits, tens of milliseconds), and MAX_TESTS only keeps the assignments in a `u32`
    // with room to spare. (A bound of 10 conditions once reported a barrier after a divergent
    // `if` followed by a dozen uniform ones: E0850, a false alarm.)
    const MAX_TESTS: usize = 20;
    const MAX_WORK: usize = 1 << 22;
    if branch.region.contains(branch.block) || !branch.region.contains(target) {
        return false;
    }
    let region: Vec<usize> = branch.region.iter().collect();
    let cyclic = &cfg.components().cyclic;
    // The region in topological order (a depth-first post-order, reversed); a cycle gives up.
    let mut index = crate::fast_hash::HashMap::default();
    for (i, b) in region.iter().enumerate() {
        index.insert(*b, i);
    }
    let mut state = vec![0u8; region.len()]; // 0 unseen, 1 on the stack, 2 done
    let mut post = Vec::with_capacity(region.len());
    for root in 0..region.len() {
        if state[root] != 0 {
            continue;
        }
        state[root] = 1;
        let mut stack = vec![(root, 0usize)];
        while let Some((node, next)) = stack.last_mut() {
            let succs = &cfg.succs[region[*node]];
            if *next < succs.len() {
                let s = succs[*next];
                *next += 1;
                if let Some(&j) = index.get(&s) {
                    match state[j] {
                        0 => {
                            state[j] = 1;
                            stack.push((j, 0));
                        }
                        1 => return false,
                        _ => {}
                    }
                }
            } else {
                state[*node] = 2;
                post.push(*node);
                stack.pop();
            }
        }
    }
    // The uniform tests of the region, one number per condition.
    let mut conditions: Vec<Val> = Vec::new();
    let mut test = vec![None; region.len()];
    for (i, &b) in region.iter().enumerate() {
        let Some(&t) = function.blocks[b].insts.last() else {
            continue;
        };
        let term = function.inst(t);
        if term.op != Op::CondBr || cfg.succs[b].len() != 2 {
            continue;
        }
        let condition = term.args[0];
        let Val::Inst(c) = condition else { continue };
        let once = function
            .inst(c)
            .block
            .is_some_and(|d| !cyclic.get(d).copied().unwrap_or(true));
        if !once || divergence.of(condition) != Divergence::Uniform {
            continue;
        }
        let k = match conditions.iter().position(|x| *x == condition) {
            Some(k) => k,
            None => {
                conditions.push(condition);
                conditions.len() - 1
            }
        };
        test[i] = Some(k);
    }
    if conditions.len() > MAX_TESTS || (region.len() << conditions.len()) > MAX_WORK {
        return false;
    }
    // Per assignment: whether some way from each block reaches `target` (may) and every way
    // does (must); the join, the exit and dead ends reach nothing.
    let mut may = vec![false; region.len()];
    let mut must = vec![false; region.len()];
    for assignment in 0u32..(1 << conditions.len()) {
        for &i in &post {
            let b = region[i];
            if b == target {
                may[i] = true;
                must[i] = true;
                continue;
            }
            let succs: &[usize] = match test[i] {
                Some(k) if assignment & (1 << k) != 0 => &cfg.succs[b][..1],
                Some(_) => &cfg.succs[b][1..],
                None => &cfg.succs[b],
            };
            let (mut some, mut every, mut any) = (false, true, false);
            for s in succs {
                if cfg.is_dead_end(*s) {
                    continue;
                }
                any = true;
                let (m, e) = index.get(s).map_or((false, false), |&j| (may[j], must[j]));
                some |= m;
                every &= e;
            }
            may[i] = some;
            must[i] = any && every;
        }
        let (mut some, mut every) = (false, true);
        for s in &cfg.succs[branch.block] {
            if cfg.is_dead_end(*s) {
                continue;
            }
            let (m, e) = index.get(s).map_or((false, false), |&j| (may[j], must[j]));
            some |= m;
            every &= e;
        }
        if some && !every {
            return false;
        }
    }
    true
}

/// A thread that reaches the operation and one that does not (in the same warp for warp-level
/// operations), if the per-thread reachability tells them apart.
/// A named barrier whose id is not the same for every thread of the block: threads that pass
/// different ids wait at different barriers (an error when the id is known to differ, a warning
/// when it comes from something the analysis cannot see through).
fn divergent_barrier_id(
    cx: &Context<'_>,
    divergence: &DivergenceInfo,
    op: &ConvergentOp,
    kind: &ConvergentKind,
) -> Option<Finding> {
    let inst = cx.function.inst(op.inst);
    let Op::Call(callee) = inst.op else {
        return None;
    };
    let id = *inst
        .args
        .get(nvvm::barrier_id_arg(cx.module.callee_name(callee)?)?)?;
    let source = match id {
        Val::Inst(source) => source,
        _ => return None,
    };
    match divergence.of(id) {
        Divergence::Uniform => None,
        Divergence::Unknown => Some(Finding::UnprovenConvergent {
            function: cx.function.name.clone(),
            op: cx.inst_ref(op.inst),
            kind: kind.clone(),
            branch: cx.inst_ref(op.inst),
            source: Some(cx.inst_ref(source)),
        }),
        _ => {
            let geometry = cx.threads.geometry();
            let witness = cx.threads.values(id).and_then(|values| {
                let first = *values.first()?;
                let other = values.iter().position(|v| *v != first)?;
                Some((
                    (geometry.thread(0), first),
                    (geometry.thread(other), values[other]),
                ))
            });
            Some(Finding::DivergentConvergent {
                function: cx.function.name.clone(),
                op: cx.inst_ref(op.inst),
                kind: kind.clone(),
                hazard: Box::new(Hazard::DivergentBarrierId {
                    id: cx.inst_ref(source),
                    witness,
                }),
            })
        }
    }
}

fn witness(
    threads: &ThreadValues<'_>,
    reached: &ThreadSet,
    block_level: bool,
) -> Option<(crate::threads::ThreadId, crate::threads::ThreadId)> {
    let geometry = threads.geometry();
    let n = threads.count();
    if block_level {
        let yes = (0..n).find(|t| reached.contains(*t))?;
        let no = (0..n).find(|t| !reached.contains(*t))?;
        return Some((geometry.thread(yes), geometry.thread(no)));
    }
    for warp in (0..n).collect::<Vec<_>>().chunks(WARP_SIZE as usize) {
        let yes = warp.iter().find(|t| reached.contains(**t));
        let no = warp.iter().find(|t| !reached.contains(**t));
        if let (Some(y), Some(n)) = (yes, no) {
            return Some((geometry.thread(*y), geometry.thread(*n)));
        }
    }
    None
}
