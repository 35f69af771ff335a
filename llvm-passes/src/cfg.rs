//! Control-flow facts about one function: dominators, post-dominators (with a virtual exit, so
//! that several `ret`s and `unreachable`s have one common post-dominator), and the blocks a
//! branch controls until its paths join again.
//!
//! A block that holds nothing but `unreachable` is a *dead end*: reaching it is undefined
//! behaviour, so no thread enters it (SimplifyCFG sends the default of a `switch` whose cases
//! cover every value of its condition there, `%x.unreachabledefault`, and clang `-O0` compiles
//! `__builtin_unreachable()` to it). Post-dominance ignores the edges into dead ends, so that
//! such an edge is not a way out of the kernel that makes the branch's paths never meet again.
//! A block with more before its `unreachable` (a `trap`) still counts as leaving the kernel.

use crate::ir::{BlockId, Function, Op, Pred, Val};
use crate::node_set::{self, NodeSet};

pub struct Cfg {
    pub succs: Vec<Vec<BlockId>>,
    /// Reachable from the entry.
    pub reachable: Vec<bool>,
    /// Immediate dominator of each reachable block (the entry's is itself).
    idom: Vec<Option<BlockId>>,
    /// Immediate post-dominator; [`Cfg::exit`] is the virtual exit node.
    ipdom: Vec<Option<BlockId>>,
    /// Reverse post-order of the reachable blocks.
    pub rpo: Vec<BlockId>,
    /// Blocks that hold only `unreachable` (module comment): no thread enters them.
    dead_end: Vec<bool>,
    /// Per block: when a depth-first walk of the dominator tree enters and leaves it, so that
    /// dominance is two comparisons instead of a walk up a tree as deep as the kernel is long.
    dom_span: Vec<Option<(u32, u32)>>,
    /// The strongly connected components, computed once when first asked for.
    scc: std::cell::OnceCell<Components>,
}

impl Cfg {
    pub fn new(function: &Function) -> Cfg {
        let succs: Vec<Vec<BlockId>> = function.blocks.iter().map(|b| b.succs.clone()).collect();
        let preds: Vec<Vec<BlockId>> = function.blocks.iter().map(|b| b.preds.clone()).collect();
        let dead_end = function
            .blocks
            .iter()
            .map(|b| matches!(b.insts.as_slice(), [only] if function.inst(*only).op == Op::Unreachable))
            .collect();
        Cfg::from_edges_with_dead_ends(succs, preds, dead_end)
    }

    /// The facts of a graph given by its edges; node 0 is the entry.
    #[cfg(test)]
    pub fn from_edges(succs: Vec<Vec<BlockId>>, preds: Vec<Vec<BlockId>>) -> Cfg {
        let dead_end = vec![false; succs.len()];
        Cfg::from_edges_with_dead_ends(succs, preds, dead_end)
    }

    /// The same, with the nodes no thread enters (`dead_end`, module comment): post-dominance
    /// leaves out the edges into them, unless every successor of a node is one (then the node
    /// itself is where threads stop, as a block without successors is).
    pub fn from_edges_with_dead_ends(
        succs: Vec<Vec<BlockId>>,
        preds: Vec<Vec<BlockId>>,
        dead_end: Vec<bool>,
    ) -> Cfg {
        let n = succs.len();
        let dead = |b: BlockId| dead_end.get(b).copied().unwrap_or(false);
        let rpo = reverse_post_order(&succs, 0);
        let mut reachable = vec![false; n];
        for b in &rpo {
            reachable[*b] = true;
        }
        let idom = dominators(&preds, &rpo, 0);

        // The reverse graph with a virtual exit `n`: blocks without successors lead to it, and so
        // does every block that cannot reach one (an infinite loop), so that every block has a
        // post-dominator.
        let exit = n;
        let mut rsuccs: Vec<Vec<BlockId>> = vec![Vec::new(); n + 1];
        let mut rpreds: Vec<Vec<BlockId>> = vec![Vec::new(); n + 1];
        for b in 0..n {
            if dead(b) {
                continue;
            }
            let live: Vec<BlockId> = succs[b].iter().copied().filter(|s| !dead(*s)).collect();
            for s in &live {
                rsuccs[*s].push(b);
                rpreds[b].push(*s);
            }
            if live.is_empty() {
                rsuccs[exit].push(b);
                rpreds[b].push(exit);
            }
        }
        let mut reaches_exit = vec![false; n + 1];
        for b in reverse_post_order(&rsuccs, exit) {
            reaches_exit[b] = true;
        }
        for b in 0..n {
            if !reaches_exit[b] && !dead(b) {
                rsuccs[exit].push(b);
                rpreds[b].push(exit);
            }
        }
        let rrpo = reverse_post_order(&rsuccs, exit);
        let mut ipdom = dominators(&rpreds, &rrpo, exit);
        ipdom.truncate(n + 1);
        let dom_span = tree_spans(&idom);
        Cfg {
            succs,
            reachable,
            idom,
            ipdom,
            rpo,
            dead_end,
            dom_span,
            scc: std::cell::OnceCell::new(),
        }
    }

    /// The graph's strongly connected components ([`components`]), computed once.
    pub fn components(&self) -> &Components {
        self.scc.get_or_init(|| components(&self.succs))
    }

    pub fn len(&self) -> usize {
        self.succs.len()
    }

    /// The virtual exit node's id (one past the last block).
    pub fn exit(&self) -> BlockId {
        self.succs.len()
    }

    /// Whether `block` holds only `unreachable` (module comment): no thread enters it.
    pub fn is_dead_end(&self, block: BlockId) -> bool {
        self.dead_end.get(block).copied().unwrap_or(false)
    }

    pub fn ipdom(&self, block: BlockId) -> Option<BlockId> {
        self.ipdom.get(block).copied().flatten()
    }

    /// The immediate dominator of a reachable block other than the entry.
    pub fn idom(&self, block: BlockId) -> Option<BlockId> {
        self.idom
            .get(block)
            .copied()
            .flatten()
            .filter(|d| *d != block)
    }

    /// The natural loop `header` heads: the header and every block that reaches one of its back
    /// edges (from a block it dominates) without passing through it. Unlike the header's
    /// strongly connected component, it leaves out an enclosing loop's blocks.
    pub fn natural_loop(&self, function: &Function, header: BlockId) -> Vec<bool> {
        let blocks = &function.blocks;
        let mut inside = vec![false; blocks.len()];
        inside[header] = true;
        let mut work: Vec<BlockId> = blocks[header]
            .preds
            .iter()
            .copied()
            .filter(|p| *p < blocks.len() && self.reachable[*p] && self.dominates(header, *p))
            .collect();
        while let Some(b) = work.pop() {
            if inside[b] {
                continue;
            }
            inside[b] = true;
            work.extend(
                blocks[b]
                    .preds
                    .iter()
                    .copied()
                    .filter(|p| *p < blocks.len()),
            );
        }
        inside
    }

    /// Whether `a` dominates `b` (both reachable).
    pub fn dominates(&self, a: BlockId, b: BlockId) -> bool {
        match (
            self.dom_span.get(a).copied().flatten(),
            self.dom_span.get(b).copied().flatten(),
        ) {
            (Some((a_in, a_out)), Some((b_in, b_out))) => a_in <= b_in && b_out <= a_out,
            _ => false,
        }
    }

    /// The blocks whose execution depends on which way `branch` (a block ending in a conditional
    /// branch or switch) goes: everything reachable from its successors before the paths meet
    /// again at its immediate post-dominator. With a divergent branch, these are the blocks that
    /// some threads of the block run and others do not (or run a different number of times).
    pub fn influence_region(&self, branch: BlockId) -> NodeSet {
        let join = self.ipdom(branch).unwrap_or(self.exit());
        node_set::reachable(&self.succs, &self.succs[branch], |b| {
            b == join || self.dead_end.get(b).copied().unwrap_or(false)
        })
    }
}

/// Entry and exit times of a depth-first walk of the tree `parent` describes (the root is its
/// own parent; `None` for nodes outside the tree).
fn tree_spans(parent: &[Option<usize>]) -> Vec<Option<(u32, u32)>> {
    let n = parent.len();
    let mut children = vec![Vec::new(); n];
    let mut roots = Vec::new();
    for (node, p) in parent.iter().enumerate() {
        match p {
            Some(p) if *p == node => roots.push(node),
            Some(p) if *p < n => children[*p].push(node),
            _ => {}
        }
    }
    let mut spans = vec![None; n];
    let mut clock = 0u32;
    for root in roots {
        // (node, whether its children have been pushed)
        let mut stack = vec![(root, false)];
        while let Some((node, expanded)) = stack.pop() {
            if expanded {
                if let Some((entry, _)) = spans[node] {
                    spans[node] = Some((entry, clock));
                }
                clock += 1;
                continue;
            }
            spans[node] = Some((clock, clock));
            clock += 1;
            stack.push((node, true));
            stack.extend(children[node].iter().map(|c| (*c, false)));
        }
    }
    spans
}

/// Reverse post-order of the nodes reachable from `root`.
pub fn reverse_post_order(succs: &[Vec<usize>], root: usize) -> Vec<usize> {
    let mut visited = vec![false; succs.len()];
    let mut order = Vec::new();
    // Iterative depth-first search: (node, next successor index).
    let mut stack = vec![(root, 0usize)];
    if root < succs.len() {
        visited[root] = true;
    }
    while let Some((node, next)) = stack.pop() {
        match succs.get(node).and_then(|s| s.get(next)) {
            Some(&s) => {
                stack.push((node, next + 1));
                if s < succs.len() && !visited[s] {
                    visited[s] = true;
                    stack.push((s, 0));
                }
            }
            None => order.push(node),
        }
    }
    order.reverse();
    order
}

/// Immediate dominators (Cooper, Harvey and Kennedy, "A Simple, Fast Dominance Algorithm").
fn dominators(preds: &[Vec<usize>], rpo: &[usize], root: usize) -> Vec<Option<usize>> {
    let n = preds.len();
    let mut order = vec![usize::MAX; n];
    for (i, b) in rpo.iter().enumerate() {
        order[*b] = i;
    }
    let mut idom: Vec<Option<usize>> = vec![None; n];
    if root >= n {
        return idom;
    }
    idom[root] = Some(root);
    let mut changed = true;
    while changed {
        changed = false;
        for &b in rpo.iter().skip(1) {
            let mut new: Option<usize> = None;
            for &p in &preds[b] {
                if idom[p].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => p,
                    Some(q) => intersect(&idom, &order, p, q),
                });
            }
            if new.is_some() && idom[b] != new {
                idom[b] = new;
                changed = true;
            }
        }
    }
    idom
}

fn intersect(idom: &[Option<usize>], order: &[usize], a: usize, b: usize) -> usize {
    let (mut x, mut y) = (a, b);
    while x != y {
        while order[x] > order[y] {
            match idom[x] {
                Some(p) => x = p,
                None => return y,
            }
        }
        while order[y] > order[x] {
            match idom[y] {
                Some(p) => y = p,
                None => return x,
            }
        }
    }
    x
}

/// Strongly connected components of a graph given by successor lists (Tarjan's algorithm,
/// iterative): a component id per node, and per node whether its component contains a cycle.
pub struct Components {
    pub id: Vec<usize>,
    pub cyclic: Vec<bool>,
    /// Per component: its nodes in increasing order, so that a walk over one loop's blocks
    /// costs the loop's size, not the kernel's.
    pub members: Vec<Vec<usize>>,
}

pub fn components(succs: &[Vec<usize>]) -> Components {
    let n = succs.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut id = vec![usize::MAX; n];
    let mut cyclic = vec![false; n];
    let mut counter = 0usize;
    let mut next_component = 0usize;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0usize)];
        index[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some((node, next)) = work.pop() {
            if let Some(&s) = succs[node].get(next) {
                work.push((node, next + 1));
                if s >= n {
                    continue;
                }
                if index[s] == usize::MAX {
                    index[s] = counter;
                    low[s] = counter;
                    counter += 1;
                    stack.push(s);
                    on_stack[s] = true;
                    work.push((s, 0));
                } else if on_stack[s] {
                    low[node] = low[node].min(index[s]);
                }
                continue;
            }
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == index[node] {
                let mut members = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    members.push(w);
                    if w == node {
                        break;
                    }
                }
                let is_cyclic = members.len() > 1 || succs[node].contains(&node);
                for w in members {
                    id[w] = next_component;
                    cyclic[w] = is_cyclic;
                }
                next_component += 1;
            }
        }
    }
    let mut members = vec![Vec::new(); next_component];
    for (node, &component) in id.iter().enumerate() {
        if component != usize::MAX {
            members[component].push(node);
        }
    }
    Components {
        id,
        cyclic,
        members,
    }
}

/// How far up its dominator chain an access looks for the branches that guard it.
const DOMINATOR_STEPS: usize = 512;

/// The branch conditions known at `block`: for each block on its dominator chain that has a
/// single predecessor ending in a conditional branch, the condition and the edge taken; the
/// nearest [`DOMINATOR_STEPS`] blocks of the chain only (every access walks it: a kernel of
/// thousands of statements made the walks quadratic, and a guard left out only makes the check
/// weaker).
pub fn dominating_conditions(function: &Function, cfg: &Cfg, block: BlockId) -> Vec<(Val, bool)> {
    let mut conditions = Vec::new();
    let mut current = Some(block);
    let mut steps = 0;
    while let Some(b) = current {
        steps += 1;
        if steps > DOMINATOR_STEPS {
            break;
        }
        if let [pred] = function.blocks[b].preds.as_slice() {
            if let Some(term) = function.terminator(*pred) {
                let term = function.inst(term);
                let succs = &function.blocks[*pred].succs;
                if term.op == Op::CondBr && succs.len() == 2 && succs[0] != succs[1] {
                    conditions.push((term.args[0], succs[0] == b));
                }
            }
        }
        current = cfg.idom(b);
    }
    conditions
}

/// An exit test of a loop: the conditional branch of a block that dominates every latch, one
/// edge staying in the loop, an integer comparison of the loop's counter (`x`: the counter's
/// phi or its next value) with `limit`; `pred` is oriented to hold when the thread stays.
pub struct ExitTest {
    /// The staying edge's block.
    pub stay: usize,
    pub x: Val,
    pub limit: Val,
    pub pred: Pred,
    /// `limit` is defined outside the loop (or is not an instruction).
    pub limit_outside: bool,
}

/// Every [`ExitTest`] of the loop `header` heads whose compared value `counter` recognises (the
/// race analysis's iteration bounds, its counters' exit guards, and enumerated strides read
/// them).
pub fn exit_tests(
    function: &Function,
    cfg: &Cfg,
    header: BlockId,
    counter: &dyn Fn(Val) -> bool,
) -> Vec<ExitTest> {
    let mut out = Vec::new();
    // The components are computed once per kernel (`Cfg::components`), not per call: a
    // generated program asked for thousands of bounds.
    let scc = cfg.components();
    let in_loop = |b: usize| b < function.blocks.len() && scc.id[b] == scc.id[header];
    let latches: Vec<usize> = function.blocks[header]
        .preds
        .iter()
        .copied()
        .filter(|p| in_loop(*p))
        .collect();
    if latches.is_empty() {
        return out;
    }
    // The loop's blocks only (each call used to walk the whole kernel: 3,864 calls were a
    // fifth of the kernel verifier's time on examples/compaction).
    for &b in &scc.members[scc.id[header]] {
        if !in_loop(b) || !latches.iter().all(|l| cfg.dominates(b, *l)) {
            continue;
        }
        let block = &function.blocks[b];
        let Some(term) = block.insts.last() else {
            continue;
        };
        let term = function.inst(*term);
        if term.op != Op::CondBr || block.succs.len() != 2 {
            continue;
        }
        let stay_on_true = in_loop(block.succs[0]);
        if stay_on_true == in_loop(block.succs[1]) {
            continue;
        }
        let stay = if stay_on_true {
            block.succs[0]
        } else {
            block.succs[1]
        };
        let Val::Inst(condition) = term.args[0] else {
            continue;
        };
        let condition = function.inst(condition);
        let Op::ICmp(pred) = condition.op else {
            continue;
        };
        let (x, limit, pred) = if counter(condition.args[0]) {
            (condition.args[0], condition.args[1], pred)
        } else if counter(condition.args[1]) {
            (condition.args[1], condition.args[0], pred.swapped())
        } else {
            continue;
        };
        let limit_outside = match limit {
            Val::Inst(l) => !function.inst(l).block.is_none_or(in_loop),
            _ => true,
        };
        out.push(ExitTest {
            stay,
            x,
            limit,
            pred: if stay_on_true { pred } else { pred.inverted() },
            limit_outside,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Post-dominators with two returns and a loop: the diamond's join post-dominates the branch,
    /// the early return makes the virtual exit the branch's post-dominator.
    #[test]
    fn post_dominators_and_regions() {
        // 0 -> 1, 2; 1 -> 3; 2 -> 3; 3 -> 4 (ret), 5; 5 -> 5 (infinite loop)
        let succs = vec![vec![1, 2], vec![3], vec![3], vec![4, 5], vec![], vec![5]];
        let preds = {
            let mut p = vec![Vec::new(); succs.len()];
            for (b, s) in succs.iter().enumerate() {
                for t in s {
                    p[*t].push(b);
                }
            }
            p
        };
        let cfg = Cfg::from_edges(succs, preds);
        assert_eq!(cfg.ipdom(0), Some(3));
        assert_eq!(cfg.ipdom(3), Some(cfg.exit()));
        assert!(cfg.dominates(0, 3) && !cfg.dominates(1, 3));
        let region = cfg.influence_region(0);
        assert_eq!(region, NodeSet::from_nodes(vec![1, 2]));
        let region = cfg.influence_region(3);
        assert_eq!(region, NodeSet::from_nodes(vec![4, 5]));
        let scc = components(&cfg.succs);
        assert!(scc.cyclic[5] && !scc.cyclic[3]);
    }

    /// A switch whose default holds only `unreachable`: without the dead end the default is a
    /// way out and the switch's paths meet only at the virtual exit; with it they meet at the
    /// join, and the region leaves the dead end out. A node whose successors are all dead ends
    /// is where threads stop.
    #[test]
    fn dead_ends_are_not_ways_out() {
        // 0 -> 1, 2, 3 (dead); 1 -> 4; 2 -> 4; 4 -> 5 (ret), 6; 6 -> 3
        let succs = vec![
            vec![3, 1, 2],
            vec![4],
            vec![4],
            vec![],
            vec![5, 6],
            vec![],
            vec![3],
        ];
        let preds = |succs: &[Vec<usize>]| {
            let mut p = vec![Vec::new(); succs.len()];
            for (b, s) in succs.iter().enumerate() {
                for t in s {
                    p[*t].push(b);
                }
            }
            p
        };
        let plain = Cfg::from_edges(succs.clone(), preds(&succs));
        assert_eq!(plain.ipdom(0), Some(plain.exit()));
        let dead = vec![false, false, false, true, false, false, false];
        let cfg = Cfg::from_edges_with_dead_ends(succs.clone(), preds(&succs), dead);
        assert_eq!(cfg.ipdom(0), Some(4));
        assert_eq!(cfg.influence_region(0), NodeSet::from_nodes(vec![1, 2]));
        assert_eq!(cfg.ipdom(4), Some(cfg.exit()));
        assert_eq!(cfg.ipdom(6), Some(cfg.exit()));
        assert_eq!(cfg.ipdom(3), None);
    }
}
