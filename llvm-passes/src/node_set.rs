//! Sets of graph nodes (blocks or barrier-interval segments), held sparsely.
//!
//! A kernel of thousands of statements has thousands of barriers and branches, and each
//! interval and each branch's region holds a handful of nodes: a bit per node of the whole
//! kernel for each of them would make the verifier quadratic in the kernel's length (the
//! 10,000-statement kernel of `tests/fuzz/large.rs`: 5,000 intervals by 20,000 segments).

use crate::fast_hash::HashSet;

/// A set of node numbers, kept sorted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NodeSet(Vec<usize>);

impl NodeSet {
    pub fn from_nodes(mut nodes: Vec<usize>) -> NodeSet {
        nodes.sort_unstable();
        nodes.dedup();
        NodeSet(nodes)
    }

    pub fn contains(&self, node: usize) -> bool {
        self.0.binary_search(&node).is_ok()
    }

    /// The nodes in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().copied()
    }
}

/// The nodes reachable along `succs` from `roots` (the roots included), never entering a node
/// for which `blocked` holds. Costs what it visits, not the size of the graph.
pub fn reachable(
    succs: &[Vec<usize>],
    roots: &[usize],
    blocked: impl Fn(usize) -> bool,
) -> NodeSet {
    let mut seen = HashSet::default();
    let mut stack = roots.to_vec();
    while let Some(node) = stack.pop() {
        if node >= succs.len() || blocked(node) || !seen.insert(node) {
            continue;
        }
        stack.extend(succs[node].iter().copied());
    }
    NodeSet::from_nodes(seen.into_iter().collect())
}

/// Per node: the first of `roots` (its index) from which it is reachable, in one pass over the
/// graph. Roots are walked in order, each labelling what it reaches and no earlier root did: a
/// node an earlier root reached has everything after it labelled already, so the walk stops
/// there.
pub fn first_reaching(succs: &[Vec<usize>], roots: &[usize]) -> Vec<Option<usize>> {
    let mut first = vec![None; succs.len()];
    for (index, &root) in roots.iter().enumerate() {
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            if node >= succs.len() || first[node].is_some() {
                continue;
            }
            first[node] = Some(index);
            stack.extend(succs[node].iter().copied());
        }
    }
    first
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against the definition, on small graphs with cycles: the least root whose reachable set
    /// holds the node.
    #[test]
    fn first_reaching_is_the_least_root_that_reaches() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..200 {
            let nodes = 1 + next(12);
            let succs: Vec<Vec<usize>> = (0..nodes)
                .map(|_| (0..next(3)).map(|_| next(nodes)).collect())
                .collect();
            let roots: Vec<usize> = (0..next(4)).map(|_| next(nodes)).collect();
            let expected: Vec<Option<usize>> = (0..nodes)
                .map(|node| {
                    roots
                        .iter()
                        .position(|&r| reachable(&succs, &[r], |_| false).contains(node))
                })
                .collect();
            assert_eq!(
                first_reaching(&succs, &roots),
                expected,
                "{succs:?} {roots:?}"
            );
        }
    }

    #[test]
    fn reachable_stops_at_blocked_nodes_and_out_of_range_ones() {
        // 0 -> 1 -> 2 -> 0, 1 -> 3 -> 9 (no such node)
        let succs = vec![vec![1], vec![2, 3], vec![0], vec![9]];
        assert_eq!(
            reachable(&succs, &[0], |_| false),
            NodeSet::from_nodes(vec![0, 1, 2, 3])
        );
        let avoiding_two = reachable(&succs, &[0], |n| n == 2);
        assert!(avoiding_two.contains(3) && !avoiding_two.contains(2));
        assert_eq!(avoiding_two.iter().collect::<Vec<_>>(), vec![0, 1, 3]);
    }
}
