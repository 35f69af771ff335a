//! Recursion: funcs are inlined, so the call graph between funcs must have no cycle. Each
//! strongly connected component with a cycle is reported once, naming one cycle through it.

use super::error::CheckError;
use super::Checker;
use crate::syntax::span::Span;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

impl Checker<'_> {
    pub(super) fn check_recursion(&mut self) {
        // caller -> callee -> the first call's span
        let mut graph: BTreeMap<usize, BTreeMap<usize, Span>> = BTreeMap::new();
        for edge in &self.calls {
            graph
                .entry(edge.caller)
                .or_default()
                .entry(edge.callee)
                .or_insert(edge.span);
        }
        let mut reported: BTreeSet<usize> = BTreeSet::new();
        let nodes: Vec<usize> = graph.keys().copied().collect();
        for start in nodes {
            if reported.contains(&start) {
                continue;
            }
            let Some(path) = shortest_cycle(&graph, start) else {
                continue;
            };
            // Report the cycle from its earliest func, once for the whole component.
            let component = reachable_both_ways(&graph, start);
            reported.extend(component.iter().copied());
            let Some(&first) = component.iter().next() else {
                continue;
            };
            let path = if first == start {
                path
            } else {
                shortest_cycle(&graph, first).unwrap_or(path)
            };
            let name = |i: usize| {
                self.program
                    .items
                    .get(i)
                    .map(|it| it.name().name.clone())
                    .unwrap_or_default()
            };
            let mut cycle: Vec<String> = path.iter().map(|&i| name(i)).collect();
            cycle.push(name(first));
            let calls: Vec<(Span, String)> = path
                .iter()
                .enumerate()
                .filter_map(|(k, &from)| {
                    let to = path.get(k + 1).copied().unwrap_or(first);
                    graph
                        .get(&from)
                        .and_then(|m| m.get(&to))
                        .map(|s| (*s, name(to)))
                })
                .collect();
            let Some(span) = self.program.items.get(first).map(|it| it.name().span) else {
                continue;
            };
            self.error(CheckError::Recursion { cycle, span, calls });
        }
    }
}

/// The funcs of a shortest cycle through `start`, starting with it (breadth-first search).
fn shortest_cycle(
    graph: &BTreeMap<usize, BTreeMap<usize, Span>>,
    start: usize,
) -> Option<Vec<usize>> {
    let mut parent: BTreeMap<usize, usize> = BTreeMap::new();
    let mut queue: VecDeque<usize> = VecDeque::new();
    queue.push_back(start);
    let mut seen: BTreeSet<usize> = BTreeSet::new();
    seen.insert(start);
    while let Some(node) = queue.pop_front() {
        for &next in graph
            .get(&node)
            .map(|m| m.keys().collect::<Vec<_>>())
            .unwrap_or_default()
        {
            if next == start {
                let mut path = vec![node];
                let mut at = node;
                while at != start {
                    at = *parent.get(&at)?;
                    path.push(at);
                }
                path.reverse();
                return Some(path);
            }
            if seen.insert(next) {
                parent.insert(next, node);
                queue.push_back(next);
            }
        }
    }
    None
}

/// The strongly connected component of `start`: the funcs it reaches that reach it back.
fn reachable_both_ways(
    graph: &BTreeMap<usize, BTreeMap<usize, Span>>,
    start: usize,
) -> BTreeSet<usize> {
    let forward = reach(start, |n| {
        graph
            .get(&n)
            .map(|m| m.keys().copied().collect())
            .unwrap_or_default()
    });
    let backward = reach(start, |n| {
        graph
            .iter()
            .filter(|(_, m)| m.contains_key(&n))
            .map(|(k, _)| *k)
            .collect()
    });
    forward.intersection(&backward).copied().collect()
}

fn reach(start: usize, next: impl Fn(usize) -> Vec<usize>) -> BTreeSet<usize> {
    let mut seen = BTreeSet::new();
    seen.insert(start);
    let mut stack = vec![start];
    while let Some(n) = stack.pop() {
        for m in next(n) {
            if seen.insert(m) {
                stack.push(m);
            }
        }
    }
    seen
}
