//! Sets of graph nodes (blocks or barrier-interval segments), held sparsely.
//!
//! A kernel of thousands of statements has thousands of barriers and branches, and each
//! interval and each branch's region holds a handful of nodes: a bit per node of the whole
//! kernel for each of them would make the verifier quadratic in the kernel's length (the
//! 10,000-statement kernel of `tests/fuzz/large.rs`: 5,000 intervals by 20,000 segments).

use std::collections::HashSet;

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
    let mut seen = HashSet::new();
    let mut stack = roots.to_vec();
    while let Some(node) = stack.pop() {
        if node >= succs.len() || blocked(node) || !seen.insert(node) {
            continue;
        }
        stack.extend(succs[node].iter().copied());
    }
    NodeSet::from_nodes(seen.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

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
