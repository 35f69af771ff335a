//! Divergence analysis: which values may differ between the threads of a block.
//!
//! Divergence starts at thread-id and lane-id reads, atomics, and loads through divergent
//! addresses; it flows through data dependence and through control dependence (a branch on a
//! divergent value makes the values merged after it divergent, and the values a loop with a
//! divergent exit carries out of it). Block ids, block and grid dimensions, kernel parameters and
//! constants are uniform.
//!
//! Values that depend on the thread id alone are not judged by their operands but evaluated for
//! every thread (`threads.rs`): `tid.x < 2048` is uniform in every legal block, `tid.x / 32` is the
//! same within each warp, `tid.x & 1` is divergent.

use crate::cfg::Cfg;
use crate::fast_hash::{HashMap, HashSet};
use crate::ir::{BlockId, Function, InstId, Module, Op, Ty, Val};
use crate::node_set::NodeSet;
use crate::nvvm::{self, Intrinsic, Sreg, WarpOp};
use crate::threads::{Geometry, ThreadValues, WARP_SIZE};

mod symmetry;

/// How much a value may differ between the threads of a block, from least to most.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Divergence {
    /// The same in every thread of the block.
    Uniform,
    /// The same in every thread of a warp, but warps may differ (`tid.x / 32`, a vote).
    WarpUniform,
    /// Comes from something the analysis cannot see through (an opaque call, private memory):
    /// it may or may not differ.
    Unknown,
    /// Depends on the thread id.
    Divergent,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Divergence::Uniform => "uniform",
            Divergence::WarpUniform => "warp-uniform",
            Divergence::Unknown => "unknown",
            Divergence::Divergent => "divergent",
        })
    }
}

/// A branch whose condition may differ between threads, and the blocks it controls.
#[derive(Debug, Clone)]
pub struct DivergentBranch {
    pub block: BlockId,
    pub terminator: InstId,
    pub divergence: Divergence,
    /// The instruction the divergence comes from (a thread-id read, an atomic, ...).
    pub origin: Option<InstId>,
    /// The blocks between the branch and the point where its paths join.
    pub region: NodeSet,
}

pub struct DivergenceInfo {
    /// Per instruction (constant expressions included).
    pub class: Vec<Divergence>,
    /// Per instruction: the source of its divergence, if any.
    pub origin: Vec<Option<InstId>>,
    /// Per instruction: the divergence that control dependence alone gives it (a phi merging
    /// the paths of a divergent branch).
    pub control: Vec<Divergence>,
    /// Per instruction: the conditions of the divergent branches that gave it that divergence.
    pub controlled_by: Vec<Vec<Val>>,
    pub branches: Vec<DivergentBranch>,
    /// Per block: the branches (indices into `branches`) whose region holds it.
    controlling: Vec<Vec<usize>>,
}

impl DivergenceInfo {
    pub fn of(&self, value: Val) -> Divergence {
        match value {
            Val::Inst(i) => self.class.get(i).copied().unwrap_or(Divergence::Unknown),
            _ => Divergence::Uniform,
        }
    }

    /// The divergence control dependence gives an instruction: for a phi, whether threads may
    /// come to it along different edges.
    pub fn control_of(&self, id: InstId) -> Divergence {
        self.control.get(id).copied().unwrap_or(Divergence::Unknown)
    }

    pub fn origin_of(&self, value: Val) -> Option<InstId> {
        match value {
            Val::Inst(i) => self.origin.get(i).copied().flatten(),
            _ => None,
        }
    }

    /// The divergent branches that control `block`, most divergent first.
    pub fn controllers(&self, block: BlockId) -> Vec<&DivergentBranch> {
        let mut found: Vec<&DivergentBranch> = self
            .controlling
            .get(block)
            .into_iter()
            .flatten()
            .map(|b| &self.branches[*b])
            .collect();
        found.sort_by_key(|b| std::cmp::Reverse(b.divergence));
        found
    }
}

pub fn analyse(
    module: &Module,
    function: &Function,
    cfg: &Cfg,
    threads: &ThreadValues<'_>,
) -> DivergenceInfo {
    // A broadcast found block-uniform (`symmetry.rs`) makes what depends on it less divergent,
    // which can show more broadcasts block-uniform: analyse again until none is new.
    let mut broadcasts = HashSet::default();
    loop {
        let info = analyse_with(module, function, cfg, threads, &broadcasts);
        let found = symmetry::block_uniform_broadcasts(module, function, threads, &info);
        if found.is_subset(&broadcasts) {
            return info;
        }
        broadcasts.extend(found);
    }
}

fn analyse_with(
    module: &Module,
    function: &Function,
    cfg: &Cfg,
    threads: &ThreadValues<'_>,
    broadcasts: &HashSet<InstId>,
) -> DivergenceInfo {
    let n = function.insts.len();
    let mut info = DivergenceInfo {
        class: vec![Divergence::Uniform; n],
        origin: vec![None; n],
        control: vec![Divergence::Uniform; n],
        controlled_by: vec![Vec::new(); n],
        branches: Vec::new(),
        controlling: vec![Vec::new(); function.blocks.len()],
    };
    // A branch's region depends on the graph alone; the rounds below ask again for each.
    let mut regions: HashMap<BlockId, NodeSet> = HashMap::default();
    let users = users_of(function);
    let unwritten = unwritten_arguments(module, function);
    // Control-induced divergence, per instruction, found by the branches so far.
    let mut forced: Vec<(Divergence, Option<InstId>)> = vec![(Divergence::Uniform, None); n];
    let order = evaluation_order(function, cfg);
    loop {
        // Data dependence to a fixed point (phis make the graph cyclic).
        let mut changed = true;
        while changed {
            changed = false;
            for &id in &order {
                let (mut class, mut origin) =
                    transfer(module, function, threads, &info, broadcasts, id);
                let (f, fo) = forced[id];
                if f > class {
                    class = f;
                    origin = fo;
                }
                if class > info.class[id] {
                    info.class[id] = class;
                    info.origin[id] = origin;
                    changed = true;
                }
            }
        }
        // Control dependence: every divergent branch taints what its paths merge.
        let mut branches = Vec::new();
        let mut grew = false;
        for block in 0..function.blocks.len() {
            if !cfg.reachable[block] {
                continue;
            }
            let Some(term) = function.terminator(block) else {
                continue;
            };
            let inst = function.inst(term);
            if !matches!(inst.op, Op::CondBr | Op::Switch) {
                continue;
            }
            let Some(condition) = inst.args.first().copied() else {
                continue;
            };
            let level = info.of(condition);
            if level == Divergence::Uniform {
                continue;
            }
            let origin = info.origin_of(condition).or(match condition {
                Val::Inst(i) => Some(i),
                _ => None,
            });
            let region = regions
                .entry(block)
                .or_insert_with(|| cfg.influence_region(block))
                .clone();
            let join = cfg.ipdom(block).filter(|j| *j < function.blocks.len());
            // Merges: phis where paths from different successors of the branch meet (the
            // threads that went one way and those that went the other).
            let mut merged = Vec::new();
            for b in joins(cfg, block, &region, join) {
                for &id in &function.blocks[b].insts {
                    if matches!(function.inst(id).op, Op::Phi(_))
                        && !one_value_on_every_edge(
                            module,
                            function,
                            id,
                            (block, &region),
                            &unwritten,
                        )
                        && !decided_by_uniform_branches(
                            module,
                            function,
                            cfg,
                            &info,
                            id,
                            (block, &region),
                            &unwritten,
                        )
                    {
                        merged.push(id);
                    }
                }
            }
            // (Phis among them, the value of a uniform branch's way as above.)
            let outside_users: Vec<InstId> = users_outside(function, &users, &region)
                .into_iter()
                .filter(|&user| {
                    !(one_value_on_every_edge(module, function, user, (block, &region), &unwritten)
                        || matches!(function.inst(user).op, Op::Phi(_))
                            && decided_by_uniform_branches(
                                module,
                                function,
                                cfg,
                                &info,
                                user,
                                (block, &region),
                                &unwritten,
                            ))
                })
                .collect();
            let mut taint = |id: InstId, forced: &mut Vec<(Divergence, Option<InstId>)>| {
                if !info.controlled_by[id].contains(&condition) {
                    info.controlled_by[id].push(condition);
                }
                if forced[id].0 < level {
                    forced[id] = (level, origin);
                    true
                } else {
                    false
                }
            };
            for id in merged {
                grew |= taint(id, &mut forced);
            }
            // Values defined under the branch and used after the join: a loop with a divergent
            // exit hands out the value of a thread-dependent iteration. Inside the loop the
            // value is the same for the threads still running it; its uses outside differ
            // ("temporal divergence"), so the users are tainted, not the value.
            for user in outside_users {
                grew |= taint(user, &mut forced);
            }
            branches.push(DivergentBranch {
                block,
                terminator: term,
                divergence: level,
                origin,
                region,
            });
        }
        info.branches = branches;
        info.control = forced.iter().map(|(level, _)| *level).collect();
        if !grew {
            break;
        }
    }
    for (index, branch) in info.branches.iter().enumerate() {
        for block in branch.region.iter() {
            if let Some(list) = info.controlling.get_mut(block) {
                list.push(index);
            }
        }
    }
    info
}

/// Blocks in reverse post-order, their instructions in order; constant expressions first.
fn evaluation_order(function: &Function, cfg: &Cfg) -> Vec<InstId> {
    let mut order: Vec<InstId> = (0..function.insts.len())
        .filter(|i| function.insts[*i].block.is_none())
        .collect();
    for &b in &cfg.rpo {
        order.extend(function.blocks[b].insts.iter().copied());
    }
    order
}

/// The blocks of `region` (and its join) that paths from two different successors of `branch`
/// reach without passing through `branch` again.
fn joins(cfg: &Cfg, branch: BlockId, region: &NodeSet, join: Option<BlockId>) -> Vec<BlockId> {
    let mut successors = cfg.succs[branch].clone();
    successors.sort_unstable();
    successors.dedup();
    let mut count: HashMap<BlockId, usize> = HashMap::default();
    for s in successors {
        let mut seen = HashSet::default();
        let mut stack = vec![s];
        while let Some(b) = stack.pop() {
            if b >= cfg.len() || b == branch || seen.contains(&b) {
                continue;
            }
            let inside = region.contains(b);
            if !inside && Some(b) != join {
                continue;
            }
            seen.insert(b);
            *count.entry(b).or_default() += 1;
            if inside {
                stack.extend(cfg.succs[b].iter().copied());
            }
        }
    }
    let mut found: Vec<BlockId> = count
        .into_iter()
        .filter(|(_, paths)| *paths >= 2)
        .map(|(b, _)| b)
        .collect();
    found.sort_unstable();
    found
}

/// Whether `phi` is a phi whose incoming values, on the edges that paths from the divergent
/// `branch` take (from the branch's block or its `region`), are all the same value in every
/// thread: the same pure computation made again on each path from operands computed outside the
/// region (GVN's partial redundancy elimination merges `ctaid.x * 31`, computed on both sides of a
/// divergent branch, with a phi). Whichever way a thread came, it gets the same value, so the
/// branch adds no divergence. Edges from elsewhere do not count: threads that took them did not
/// pass the branch (`u = phi [u, leader-store], [u, others], [f(sum), else-arm]` after `if tid ==
/// 0` in the `then` arm of a uniform `if`; their difference is the other branch's to decide). One
/// instruction of the region on every edge is not enough: a loop with a divergent exit hands each
/// thread its own iteration's instance.
fn one_value_on_every_edge(
    module: &Module,
    function: &Function,
    phi: InstId,
    (branch, region): (BlockId, &NodeSet),
    unwritten: &[bool],
) -> bool {
    let inst = function.inst(phi);
    let Op::Phi(incoming) = &inst.op else {
        return false;
    };
    let mut values = inst
        .args
        .iter()
        .zip(incoming)
        .filter(|(_, from)| **from == branch || region.contains(**from))
        .map(|(value, _)| *value);
    let Some(first) = values.next() else {
        return true;
    };
    values.all(|a| same_value(module, function, region, unwritten, first, a, 0))
}

/// How many (block, branch outcomes) states [`decided_by_uniform_branches`] visits at most.
const MAX_DECIDED_STATES: usize = 4096;

/// Whether the value a phi takes after a divergent branch depends only on uniform branches: on
/// every way from the branch to the phi, the uniform branches on one condition computed outside
/// loops go the same way for every thread (that condition has one value in the kernel), and the
/// ways that agree on them bring the phi the same value. SimplifyCFG threads a uniform test
/// through the arms of a divergent `if` (`then: br i1 %inside, ...` straight to the block after
/// a later `br i1 %inside`): the phi there merges `0` from the edges where `%inside` is false,
/// from either arm, and a load from the edge where it is true (fuzz seed 38038114364).
fn decided_by_uniform_branches(
    module: &Module,
    function: &Function,
    cfg: &Cfg,
    info: &DivergenceInfo,
    phi: InstId,
    (branch, region): (BlockId, &NodeSet),
    unwritten: &[bool],
) -> bool {
    let inst = function.inst(phi);
    let (Op::Phi(incoming), Some(at)) = (&inst.op, inst.block) else {
        return false;
    };
    let scc = cfg.components();
    // A condition with one value in the kernel: uniform, and computed outside every loop.
    let fixed = |c: Val| {
        info.of(c) == Divergence::Uniform
            && match c {
                Val::Inst(i) => function.insts[i].block.is_some_and(|b| !scc.cyclic[b]),
                _ => true,
            }
    };
    type Outcomes = Vec<(Val, bool)>;
    let mut arrivals: Vec<(Outcomes, Val)> = Vec::new();
    let mut seen: HashSet<(BlockId, Outcomes)> = HashSet::default();
    let mut stack: Vec<(BlockId, BlockId, Outcomes)> = cfg.succs[branch]
        .iter()
        .map(|s| (branch, *s, Vec::new()))
        .collect();
    while let Some((from, b, outcomes)) = stack.pop() {
        if b == at {
            let values: Vec<Val> = inst
                .args
                .iter()
                .zip(incoming)
                .filter(|(_, f)| **f == from)
                .map(|(v, _)| *v)
                .collect();
            arrivals.extend(values.into_iter().map(|v| (outcomes.clone(), v)));
            continue;
        }
        if b >= function.blocks.len() || b == branch || !region.contains(b) {
            continue;
        }
        if !seen.insert((b, outcomes.clone())) {
            continue;
        }
        if seen.len() > MAX_DECIDED_STATES {
            return false;
        }
        let Some(term) = function.terminator(b) else {
            continue;
        };
        let term = function.inst(term);
        let succs = &cfg.succs[b];
        match (term.op == Op::CondBr, succs.as_slice(), term.args.first()) {
            (true, [yes, no], Some(&c)) if yes != no && fixed(c) => {
                let known = outcomes.iter().find(|(v, _)| *v == c).map(|(_, o)| *o);
                for (s, outcome) in [(*yes, true), (*no, false)] {
                    if known.is_some_and(|k| k != outcome) {
                        continue;
                    }
                    let mut next = outcomes.clone();
                    if known.is_none() {
                        next.push((c, outcome));
                        next.sort_by_key(|(v, o)| (format!("{v:?}"), *o));
                    }
                    stack.push((b, s, next));
                }
            }
            _ => stack.extend(succs.iter().map(|s| (b, *s, outcomes.clone()))),
        }
    }
    let compatible = |x: &Outcomes, y: &Outcomes| {
        x.iter()
            .all(|(c, o)| y.iter().all(|(d, p)| c != d || o == p))
    };
    // The same value in two threads that come by these edges: one from outside the region, or
    // one uniform value computed once on the way (outside loops), or the same computation.
    let one_value = |a: Val, b: Val| {
        (a == b
            && match a {
                Val::Inst(i) => function.insts[i].block.is_some_and(|d| {
                    !region.contains(d) || (info.of(a) == Divergence::Uniform && !scc.cyclic[d])
                }),
                _ => true,
            })
            || same_value(module, function, region, unwritten, a, b, 0)
    };
    arrivals.iter().enumerate().all(|(i, (x, a))| {
        arrivals[i + 1..]
            .iter()
            .all(|(y, b)| !compatible(x, y) || one_value(*a, *b))
    })
}

/// Whether `a` and `b` compute the same value in any one thread: one value from outside
/// `region`, or the same pure operation (arithmetic, casts, address arithmetic, special-register
/// reads) of such values, or a load of the same address in an argument's array that nothing in
/// the function writes (`unwritten`, per argument: GVN loads `x[B]` again on one side of a
/// branch). Other loads never are: memory may change between the two.
fn same_value(
    module: &Module,
    function: &Function,
    region: &NodeSet,
    unwritten: &[bool],
    a: Val,
    b: Val,
    depth: usize,
) -> bool {
    let in_region = |v: Val| match v {
        Val::Inst(i) => function.insts[i].block.is_some_and(|b| region.contains(b)),
        _ => false,
    };
    if a == b && !in_region(a) {
        return true;
    }
    let (Val::Inst(xi), Val::Inst(yi)) = (a, b) else {
        return false;
    };
    let (x, y) = (function.inst(xi), function.inst(yi));
    if depth > 16 {
        return false;
    }
    // A phi of copies (GVN merges `zext(ctaid.x)` from two paths, then that phi with a third
    // copy): the same value as each of them.
    for (phi, other) in [(x, b), (y, a)] {
        if matches!(phi.op, Op::Phi(_))
            && phi
                .args
                .iter()
                .all(|v| same_value(module, function, region, unwritten, *v, other, depth + 1))
        {
            return true;
        }
    }
    if !x.op.same_result(&y.op) || x.args.len() != y.args.len() {
        return false;
    }
    let pure = match &x.op {
        Op::Bin(_) | Op::ICmp(_) | Op::Select | Op::Cast(_) | Op::Gep(_) => true,
        Op::ExtractValue(_) => true,
        // Float arithmetic, comparisons and conversions (`uitofp` of `ctaid.x`, recomputed by
        // GVN on both sides of a divergent branch) compute the same from the same operands.
        Op::Other(name) => !matches!(
            *name,
            "invoke" | "indirectbr" | "callbr" | "va_arg" | "other"
        ),
        Op::Load { atomic: false, .. } => {
            pointer_root(function, x.args[0]).is_some_and(|i| unwritten.get(i) == Some(&true))
        }
        Op::Call(callee) => matches!(
            module.callee_name(*callee).map(nvvm::classify),
            Some(
                Intrinsic::Pure
                    | Intrinsic::Sreg(
                        Sreg::Tid(_)
                            | Sreg::LaneId
                            | Sreg::Ntid(_)
                            | Sreg::BlockUniform
                            | Sreg::WarpSize
                    )
            )
        ),
        _ => false,
    };
    pure && x
        .args
        .iter()
        .zip(&y.args)
        .all(|(p, q)| same_value(module, function, region, unwritten, *p, *q, depth + 1))
}

/// The argument a pointer is derived from by address arithmetic and casts, if any.
fn pointer_root(function: &Function, pointer: Val) -> Option<usize> {
    match pointer_base(function, pointer)? {
        Val::Arg(i) => Some(i),
        _ => None,
    }
}

/// What a pointer is derived from by address arithmetic and casts: an argument, a global, or
/// (`None`) something else (a loaded pointer, a call's result, a phi).
fn pointer_base(function: &Function, pointer: Val) -> Option<Val> {
    function
        .address_base(pointer)
        .filter(|base| matches!(base, Val::Arg(_) | Val::Global(_)))
}

/// Per argument: whether nothing in the function writes through a pointer derived from it. All
/// false when something writes through a pointer of unknown origin, or calls what may.
fn unwritten_arguments(module: &Module, function: &Function) -> Vec<bool> {
    let mut unwritten = vec![true; function.args.len()];
    // A write into a shared array (LOOM's reduction partials among them) writes no global
    // memory: the arguments that point into global memory stay unwritten (a shared or generic
    // pointer argument may point into the array).
    let shared = |g: usize| module.globals.get(g).is_some_and(|g| g.addrspace == 3);
    let global = |i: usize| function.args.get(i).is_some_and(|a| a.ty == Ty::Ptr(1));
    let write_argument = |i: usize, unwritten: &mut Vec<bool>| {
        if let Some(u) = unwritten.get_mut(i) {
            *u = false;
        }
    };
    let write_anything = |unwritten: &mut Vec<bool>| unwritten.iter_mut().for_each(|u| *u = false);
    let write = |pointer: Val, unwritten: &mut Vec<bool>| match pointer_base(function, pointer) {
        Some(Val::Arg(i)) => write_argument(i, unwritten),
        Some(Val::Global(g)) if shared(g) => {
            for (i, u) in unwritten.iter_mut().enumerate() {
                *u &= global(i);
            }
        }
        _ => write_anything(unwritten),
    };
    for inst in &function.insts {
        match &inst.op {
            Op::Store { .. } => write(inst.args[1], &mut unwritten),
            Op::AtomicRmw { .. } | Op::CmpXchg { .. } => write(inst.args[0], &mut unwritten),
            Op::Call(callee) => match module.callee_name(*callee).map(nvvm::classify) {
                Some(
                    Intrinsic::Pure
                    | Intrinsic::Sreg(_)
                    | Intrinsic::Barrier(_)
                    | Intrinsic::WarpSync
                    | Intrinsic::Warp(_)
                    | Intrinsic::NoEffect
                    | Intrinsic::Load,
                ) => {}
                Some(Intrinsic::MemTransfer { .. }) => {
                    if let Some(dest) = inst.args.first() {
                        write(*dest, &mut unwritten);
                    }
                }
                _ => {
                    // What an unknown call may write: an argument's array through a pointer
                    // into it; anything through any other pointer (a shared slot may hold a
                    // pointer to an argument's array).
                    for a in &inst.args {
                        let pointer = match a {
                            Val::Arg(i) => function
                                .args
                                .get(*i)
                                .is_some_and(|p| matches!(p.ty, Ty::Ptr(_))),
                            Val::Inst(i) => matches!(function.inst(*i).ty, Ty::Ptr(_)),
                            Val::Global(_) => true,
                            _ => false,
                        };
                        if pointer {
                            match pointer_base(function, *a) {
                                Some(Val::Arg(i)) => write_argument(i, &mut unwritten),
                                _ => write_anything(&mut unwritten),
                            }
                        }
                    }
                }
            },
            _ => {}
        }
    }
    unwritten
}

/// The instructions outside `region` that use a value defined inside it (`users`: each
/// instruction's users). Only the region's own instructions are visited: a kernel with thousands
/// of small divergent regions (one per once-per-block store) stays linear.
fn users_outside(function: &Function, users: &[Vec<InstId>], region: &NodeSet) -> Vec<InstId> {
    let mut found: Vec<InstId> = region
        .iter()
        .flat_map(|b| function.blocks[b].insts.iter())
        .flat_map(|def| users[*def].iter().copied())
        .filter(|u| {
            function.insts[*u]
                .block
                .is_some_and(|b| !region.contains(b))
        })
        .collect();
    found.sort_unstable();
    found.dedup();
    found
}

/// Per instruction: the instructions that use it.
fn users_of(function: &Function) -> Vec<Vec<InstId>> {
    let mut users = vec![Vec::new(); function.insts.len()];
    for (u, inst) in function.insts.iter().enumerate() {
        for a in &inst.args {
            if let Val::Inst(def) = a {
                if let Some(list) = users.get_mut(*def) {
                    list.push(u);
                }
            }
        }
    }
    users
}

/// The divergence of one instruction from its operands.
fn transfer(
    module: &Module,
    function: &Function,
    threads: &ThreadValues<'_>,
    info: &DivergenceInfo,
    broadcasts: &HashSet<InstId>,
    id: InstId,
) -> (Divergence, Option<InstId>) {
    let inst = function.inst(id);
    // Thread-only values: decided exactly by evaluating them in every thread.
    if threads.is_evaluable(Val::Inst(id)) {
        return (
            exact(threads, id),
            Some(thread_source(function, id, module)),
        );
    }
    let join = |values: &[Val]| -> (Divergence, Option<InstId>) {
        values
            .iter()
            .map(|v| (info.of(*v), info.origin_of(*v)))
            .fold((Divergence::Uniform, None), |acc, x| {
                if x.0 > acc.0 {
                    x
                } else {
                    acc
                }
            })
    };
    let source = |level: Divergence| (level, Some(id));
    match &inst.op {
        Op::AtomicRmw { .. } | Op::CmpXchg { .. } => source(Divergence::Divergent),
        Op::Load { atomic: true, .. } => source(Divergence::Divergent),
        Op::Load { .. } => {
            let address = join(&inst.args);
            if points_to_private(function, inst.args[0]) {
                max(address, source(Divergence::Unknown))
            } else {
                address
            }
        }
        Op::Call(callee) => {
            let kind = match module.callee_name(*callee) {
                Some(name) => nvvm::classify(name),
                None if nvvm::is_pure_inline_asm(function, id) => Intrinsic::Pure,
                None => Intrinsic::Unknown,
            };
            match kind {
                Intrinsic::Sreg(Sreg::Tid(_) | Sreg::LaneId | Sreg::LaneMask(_)) => {
                    source(Divergence::Divergent)
                }
                Intrinsic::Sreg(Sreg::Varying) => source(Divergence::Divergent),
                Intrinsic::Sreg(Sreg::Ntid(_) | Sreg::BlockUniform | Sreg::WarpSize) => {
                    (Divergence::Uniform, None)
                }
                // The reducing barriers (`barrier0.popc` ...) give every thread the same result.
                Intrinsic::Barrier(_) | Intrinsic::WarpSync => (Divergence::Uniform, None),
                Intrinsic::Warp(_) if broadcasts.contains(&id) => (Divergence::Uniform, None),
                Intrinsic::Warp(op) => {
                    let (level, origin) = warp_result(op, inst.args.as_slice(), info, id);
                    // In a block of one warp, the same in every lane is the same in the block.
                    if level == Divergence::WarpUniform && one_warp(threads.geometry()) {
                        (Divergence::Uniform, None)
                    } else {
                        (level, origin)
                    }
                }
                Intrinsic::Atomic => source(Divergence::Divergent),
                Intrinsic::Pure | Intrinsic::Load | Intrinsic::MemTransfer { .. } => {
                    join(&inst.args)
                }
                Intrinsic::NoEffect => (Divergence::Uniform, None),
                Intrinsic::Unknown => max(join(&inst.args), source(Divergence::Unknown)),
            }
        }
        Op::Alloca => (Divergence::Uniform, None),
        _ => join(&inst.args),
    }
}

fn max(
    a: (Divergence, Option<InstId>),
    b: (Divergence, Option<InstId>),
) -> (Divergence, Option<InstId>) {
    if b.0 > a.0 {
        b
    } else {
        a
    }
}

/// Shuffles and votes: the value read from another lane, or one result per warp.
fn warp_result(
    op: WarpOp,
    args: &[Val],
    info: &DivergenceInfo,
    id: InstId,
) -> (Divergence, Option<InstId>) {
    let value = args
        .get(1)
        .map(|v| info.of(*v))
        .unwrap_or(Divergence::Unknown);
    match op {
        WarpOp::ShuffleIndexed => {
            let lane = args
                .get(2)
                .map(|v| info.of(*v))
                .unwrap_or(Divergence::Unknown);
            if value == Divergence::Uniform {
                (Divergence::Uniform, None)
            } else if lane <= Divergence::WarpUniform {
                // Every lane reads the same lane: a broadcast within the warp.
                (Divergence::WarpUniform, Some(id))
            } else {
                (value.max(lane), Some(id))
            }
        }
        WarpOp::Shuffle if value == Divergence::Uniform => (Divergence::Uniform, None),
        WarpOp::Shuffle => (value, Some(id)),
        WarpOp::Vote if value == Divergence::Unknown => (Divergence::Unknown, Some(id)),
        WarpOp::Vote => (Divergence::WarpUniform, Some(id)),
    }
}

/// Whether the block is known to be a single warp.
fn one_warp(geometry: Geometry) -> bool {
    matches!(geometry, Geometry::Known(dims) if dims.iter().product::<u32>() <= WARP_SIZE)
}

/// The exact divergence of a thread-only value.
fn exact(threads: &ThreadValues<'_>, id: InstId) -> Divergence {
    let Some(values) = threads.values(Val::Inst(id)) else {
        return Divergence::Divergent;
    };
    let Some(first) = values.first() else {
        return Divergence::Uniform;
    };
    if values.iter().all(|v| v == first) {
        return Divergence::Uniform;
    }
    if matches!(threads.geometry(), Geometry::Known(_) | Geometry::UpTo(_))
        && values
            .chunks(WARP_SIZE as usize)
            .all(|warp| warp.iter().all(|v| *v == warp[0]))
    {
        return Divergence::WarpUniform;
    }
    Divergence::Divergent
}

/// The thread-id read a thread-only value comes from (for reports).
fn thread_source(function: &Function, id: InstId, module: &Module) -> InstId {
    let mut stack = vec![id];
    let mut seen = crate::fast_hash::HashSet::default();
    while let Some(i) = stack.pop() {
        if !seen.insert(i) {
            continue;
        }
        let inst = function.inst(i);
        if let Op::Call(callee) = inst.op {
            if let Some(Intrinsic::Sreg(Sreg::Tid(_) | Sreg::LaneId | Sreg::LaneMask(_))) =
                module.callee_name(callee).map(nvvm::classify)
            {
                return i;
            }
        }
        for a in &inst.args {
            if let Val::Inst(j) = a {
                stack.push(*j);
            }
        }
    }
    id
}

/// Whether a pointer is rooted at an `alloca` (the thread's private memory).
pub fn points_to_private(function: &Function, pointer: Val) -> bool {
    matches!(
        function.address_base(pointer),
        Some(Val::Inst(id)) if matches!(function.inst(id).op, Op::Alloca)
    )
}
