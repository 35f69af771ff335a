//! Barrier intervals: the kernel cut at its barriers.
//!
//! Each basic block is split at its barriers into segments; segments are joined by the
//! control-flow edges that cross no barrier. An interval starts at the kernel's entry or right
//! after a barrier, and holds every segment reachable from there without crossing another
//! barrier — loops included, so an interval can hold several iterations of a barrier-free loop,
//! or the end of one iteration of a loop with a barrier and the start of the next.
//!
//! Every barrier is reached by all threads the same number of times (the placement check proves
//! it), so all threads are in the same interval between two barriers: two accesses can run at
//! the same time in different threads exactly when some interval holds both.

use crate::cfg::{components, Cfg};
use crate::fast_hash::HashSet;
use crate::ir::{BlockId, Function, InstId};
use crate::node_set::{self, NodeSet};
use std::rc::Rc;

#[derive(Debug, Clone)]
pub struct Segment {
    pub block: BlockId,
    /// How many boundaries precede it in its block.
    pub index: usize,
}

#[derive(Debug, Clone)]
pub struct Start {
    pub segment: usize,
    /// The boundary the interval starts after; `None` for the kernel's entry.
    pub after: Option<InstId>,
}

/// Per start segment and avoided segment: the segments reachable.
type ReachMemo = crate::fast_hash::HashMap<(usize, Option<usize>), Rc<NodeSet>>;

pub struct Intervals {
    pub segments: Vec<Segment>,
    /// Per instruction: its segment (`None` for boundaries and constant expressions).
    pub segment_of: Vec<Option<usize>>,
    /// Barrier-free edges between segments.
    pub succs: Vec<Vec<usize>>,
    pub starts: Vec<Start>,
    /// Per start: the segments of its interval, computed when first asked for ([`Self::region`]):
    /// where uniform branches skip barriers, an interval holds everything up to the next barrier
    /// every path meets, and the intervals of a chain of `if (c) barrier` diamonds hold the rest
    /// of the kernel each (quadratic in all, and most hold no access).
    regions: Vec<std::cell::OnceCell<NodeSet>>,
    /// Barrier-free edges between segments, backwards.
    preds: Vec<Vec<usize>>,
    /// Per segment: the interval that starts at it, if one does.
    start_at: crate::fast_hash::HashMap<usize, usize>,
    /// Per segment: the first interval that holds it ([`Self::first_holding`]), computed for
    /// all segments when first asked for.
    first_holding: std::cell::OnceCell<Vec<Option<usize>>>,
    /// The barrier-free reach from a segment, avoiding one segment or none, memoised: the race
    /// check asks [`Self::all_paths_pass`] and [`Self::some_path_passes`] the same questions for
    /// every pair of accesses and every counter it meets (compaction: 11,000 walks of which a
    /// few hundred differ).
    reach: std::cell::RefCell<ReachMemo>,
    /// Per segment that ends in a branch on a repeated condition: the condition's number and
    /// the segments its true and false edges lead to (see [`repeated_conditions`]).
    correlated: crate::fast_hash::HashMap<usize, (usize, usize, usize)>,
    /// Per segment: whether it lies on a barrier-free cycle (a loop without a barrier).
    pub cyclic: Vec<bool>,
    /// Per block: its first and its last segment.
    first_segment: Vec<usize>,
    last_segment: Vec<usize>,
}

impl Intervals {
    pub fn new(function: &Function, cfg: &Cfg, boundaries: &HashSet<InstId>) -> Intervals {
        let mut segments = Vec::new();
        let mut first_segment = vec![0usize; function.blocks.len()];
        let mut last_segment = vec![0usize; function.blocks.len()];
        let mut segment_of = vec![None; function.insts.len()];
        let mut starts = Vec::new();
        for (b, block) in function.blocks.iter().enumerate() {
            first_segment[b] = segments.len();
            segments.push(Segment { block: b, index: 0 });
            for &id in &block.insts {
                if boundaries.contains(&id) {
                    let next = segments.len();
                    segments.push(Segment {
                        block: b,
                        index: segments.len() - first_segment[b],
                    });
                    starts.push(Start {
                        segment: next,
                        after: Some(id),
                    });
                } else {
                    segment_of[id] = Some(segments.len() - 1);
                }
            }
            last_segment[b] = segments.len() - 1;
        }
        let mut succs = vec![Vec::new(); segments.len()];
        for (b, block) in function.blocks.iter().enumerate() {
            for s in &block.succs {
                succs[last_segment[b]].push(first_segment[*s]);
            }
        }
        if !function.blocks.is_empty() {
            starts.insert(
                0,
                Start {
                    segment: first_segment[0],
                    after: None,
                },
            );
        }
        // Only intervals the kernel can enter matter.
        starts.retain(|s| cfg.reachable[segments[s.segment].block]);
        let regions = starts.iter().map(|_| std::cell::OnceCell::new()).collect();
        let mut preds = vec![Vec::new(); segments.len()];
        for (from, targets) in succs.iter().enumerate() {
            for &to in targets {
                preds[to].push(from);
            }
        }
        let start_at = starts
            .iter()
            .enumerate()
            .map(|(i, s)| (s.segment, i))
            .collect();
        let cyclic = components(&succs).cyclic;
        let mut correlated = crate::fast_hash::HashMap::default();
        for (b, k) in repeated_conditions(function, cfg) {
            if let [yes, no] = function.blocks[b].succs.as_slice() {
                correlated.insert(
                    last_segment[b],
                    (k, first_segment[*yes], first_segment[*no]),
                );
            }
        }
        Intervals {
            segments,
            segment_of,
            succs,
            starts,
            regions,
            preds,
            start_at,
            first_holding: std::cell::OnceCell::new(),
            reach: Default::default(),
            correlated,
            cyclic,
            first_segment,
            last_segment,
        }
    }

    /// The segments of interval `start`.
    pub fn region(&self, start: usize) -> &NodeSet {
        self.regions[start].get_or_init(|| {
            if self.correlated.is_empty() {
                reachable_from(&self.succs, self.starts[start].segment, None)
            } else {
                self.reachable_consistently(self.starts[start].segment)
            }
        })
    }

    /// Segments reachable from `origin` on paths that take the same edge at every branch on
    /// one repeated condition: a thread that skipped `if (c) barrier` skips the `if (c)` after it
    /// as well (clang's -O0 output keeps the two branches; at -O2 it merges them).
    fn reachable_consistently(&self, origin: usize) -> NodeSet {
        // Per repeated condition, two bits: 0 not yet met, 1 true, 2 false.
        let mut seen = HashSet::default();
        let mut stack = vec![(origin, 0u32)];
        while let Some((segment, assumed)) = stack.pop() {
            if segment >= self.succs.len() || !seen.insert((segment, assumed)) {
                continue;
            }
            match self.correlated.get(&segment) {
                Some(&(k, yes, no)) => {
                    let known = (assumed >> (2 * k)) & 3;
                    for (target, value) in [(yes, 1u32), (no, 2u32)] {
                        if known == 0 || known == value {
                            let next = assumed | (value << (2 * k));
                            if self.succs[segment].contains(&target) {
                                stack.push((target, next));
                            }
                        }
                    }
                }
                None => stack.extend(self.succs[segment].iter().map(|t| (*t, assumed))),
            }
        }
        NodeSet::from_nodes(seen.into_iter().map(|(s, _)| s).collect())
    }

    /// The intervals that hold `segment`, in increasing order: those whose start reaches it
    /// without crossing a barrier.
    pub fn holding(&self, segment: usize) -> Vec<usize> {
        let before = node_set::reachable(&self.preds, &[segment], |_| false);
        let mut holding: Vec<usize> = before
            .iter()
            .filter_map(|s| self.start_at.get(&s).copied())
            .collect();
        holding.sort_unstable();
        holding
    }

    /// The first of [`Self::holding`]'s intervals, for every segment in one pass over the graph:
    /// asked once per access, `holding` would walk back over the whole kernel each time
    /// (quadratic in a kernel of many `if`s without a barrier).
    pub fn first_holding(&self, segment: usize) -> Option<usize> {
        let first = self.first_holding.get_or_init(|| {
            let roots: Vec<usize> = self.starts.iter().map(|s| s.segment).collect();
            node_set::first_reaching(&self.succs, &roots)
        });
        first.get(segment).copied().flatten()
    }

    /// The segments from which one of `targets` can be reached without crossing a barrier.
    pub fn reaching(&self, targets: &[usize]) -> NodeSet {
        node_set::reachable(&self.preds, targets, |_| false)
    }

    /// Whether every barrier-free path from the start of interval `start` to segment `target`
    /// passes through segment `through`.
    pub fn all_paths_pass(&self, start: usize, through: usize, target: usize) -> bool {
        let origin = self.starts[start].segment;
        if through == origin || through == target {
            return true;
        }
        !self.reach(origin, Some(through)).contains(target)
    }

    /// Whether some barrier-free path from the start of interval `start` to `target` passes
    /// through `through`.
    pub fn some_path_passes(&self, start: usize, through: usize, target: usize) -> bool {
        if !self.region(start).contains(through) {
            return false;
        }
        through == target || self.reach(through, None).contains(target)
    }

    /// [`reachable_from`], memoised.
    fn reach(&self, origin: usize, avoid: Option<usize>) -> Rc<NodeSet> {
        let key = (origin, avoid);
        if let Some(known) = self.reach.borrow().get(&key) {
            return known.clone();
        }
        let found = Rc::new(reachable_from(&self.succs, origin, avoid));
        self.reach.borrow_mut().insert(key, found.clone());
        found
    }
}

impl Intervals {
    /// Segments reachable from `from` without crossing a barrier (itself included).
    pub fn reachable(&self, from: usize) -> NodeSet {
        reachable_from(&self.succs, from, None)
    }

    /// Segments reachable from `from` without crossing a barrier, on paths that do not leave
    /// the segment `edge.0` by `edge` the first time they pass it (later passes may).
    pub fn reachable_unless_first_leaving_by(&self, from: usize, edge: (usize, usize)) -> NodeSet {
        let (branch, forbidden) = edge;
        let mut seen = HashSet::default();
        let mut stack = vec![(from, false)];
        while let Some((s, passed)) = stack.pop() {
            if !seen.insert((s, passed)) {
                continue;
            }
            let first_pass = s == branch && !passed;
            for &t in &self.succs[s] {
                if !(first_pass && t == forbidden) {
                    stack.push((t, passed || s == branch));
                }
            }
        }
        NodeSet::from_nodes(seen.into_iter().map(|(s, _)| s).collect())
    }

    /// Segments reachable from `from` without crossing a barrier or entering `avoid`.
    pub fn reachable_avoiding(&self, from: usize, avoid: usize) -> NodeSet {
        reachable_from(&self.succs, from, Some(avoid))
    }

    /// The first segment of a block (the one that starts with its first instruction).
    pub fn first_segment_of(&self, block: usize) -> Option<usize> {
        self.first_segment.get(block).copied()
    }

    /// The last segment of each block (the one that ends with its terminator).
    pub fn last_segment_of(&self, block: usize) -> Option<usize> {
        self.last_segment.get(block).copied()
    }
}

/// The blocks that end in a conditional branch on a condition that another branch tests too
/// and that is computed outside every loop (so it has one value on any one thread's path), each
/// with its condition's number (at most 16 conditions: beyond, none are correlated).
fn repeated_conditions(function: &Function, cfg: &Cfg) -> Vec<(usize, usize)> {
    let cyclic = &cfg.components().cyclic;
    let mut branches: Vec<(usize, crate::ir::Val)> = Vec::new();
    for (b, block) in function.blocks.iter().enumerate() {
        let Some(&t) = block.insts.last() else {
            continue;
        };
        let term = function.inst(t);
        if term.op != crate::ir::Op::CondBr || block.succs.len() != 2 {
            continue;
        }
        let condition = term.args[0];
        let once = match condition {
            crate::ir::Val::Inst(i) => function
                .inst(i)
                .block
                .is_some_and(|d| !cyclic.get(d).copied().unwrap_or(true)),
            _ => false,
        };
        if once {
            branches.push((b, condition));
        }
    }
    // Counted once each, not by a scan of every branch per branch (quadratic: 4,000
    // sequential `if`s at -O0).
    let mut branches_on: crate::fast_hash::HashMap<crate::ir::Val, usize> = Default::default();
    for &(_, condition) in &branches {
        *branches_on.entry(condition).or_default() += 1;
    }
    let mut numbers: Vec<crate::ir::Val> = Vec::new();
    let mut out = Vec::new();
    for &(b, condition) in &branches {
        if branches_on[&condition] < 2 {
            continue;
        }
        let k = match numbers.iter().position(|c| *c == condition) {
            Some(k) => k,
            None => {
                numbers.push(condition);
                numbers.len() - 1
            }
        };
        if k >= 16 {
            return Vec::new();
        }
        out.push((b, k));
    }
    out
}

/// Segments reachable from `origin` (itself included) without entering `avoid`.
fn reachable_from(succs: &[Vec<usize>], origin: usize, avoid: Option<usize>) -> NodeSet {
    node_set::reachable(succs, &[origin], |s| Some(s) == avoid)
}
