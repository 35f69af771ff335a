//! The accesses made since some point (the last barrier, a loop's head), each once, in the order
//! they were recorded: the pending and exposed sets of barrier placement, shared by `kir-barriers`
//! and code generation's `codegen/sync.rs`.

use super::access::Access;

/// Accesses recorded on some path, each once. Every access gets an identity when it is
/// recorded, so the join of two branches that both start from the same state keeps the shared
/// accesses once. (Without identities, `n` sequential `if`s doubled the pending list `n` times:
/// exponential time and memory.) The log is persistent: forking it for the branches of an `if`
/// costs nothing, and a join costs what the other branch added.
#[derive(Debug, Clone, Default)]
pub struct AccessLog {
    entries: imbl::Vector<(u64, Access)>,
    ids: imbl::HashSet<u64>,
}

impl AccessLog {
    pub fn push(&mut self, id: u64, access: Access) {
        if self.ids.insert(id).is_none() {
            self.entries.push_back((id, access));
        }
    }

    /// Adds every access of `other` that this log lacks.
    ///
    /// Both logs descend from one fork point `F` (the state before an `if`, a loop or the right
    /// side of `and`/`or`), and entries are kept in the order they were recorded (by identity).
    /// Below `F`, a log holds either all of the fork's accesses or none of them (a barrier
    /// cleared them; a join re-adds all or none); above `F`, each holds accesses the other
    /// cannot. So, walking `other` from its end, the first access this log already holds comes
    /// from the fork, and so does everything before it: the walk stops there, and a join costs
    /// what the branches added, not the whole state.
    pub fn union(&mut self, other: AccessLog) {
        let mut added: Vec<(u64, Access)> = other
            .entries
            .into_iter()
            .rev()
            .take_while(|(id, _)| !self.ids.contains(id))
            .collect();
        added.reverse();
        for (id, access) in added {
            self.insert_in_order(id, access);
        }
    }

    fn insert_in_order(&mut self, id: u64, access: Access) {
        if self.ids.insert(id).is_some() {
            return;
        }
        let at = self
            .entries
            .binary_search_by(|(other, _)| other.cmp(&id))
            .unwrap_or_else(|at| at);
        self.entries.insert(at, (id, access));
    }

    pub fn clear(&mut self) {
        self.entries.clear();
        self.ids.clear();
    }

    pub fn iter(&self) -> impl Iterator<Item = &Access> {
        self.entries.iter().map(|(_, access)| access)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kir::access::{AccessKind, Who};
    use crate::syntax::span::{FileId, Span};

    fn read() -> Access {
        Access {
            array: "a".into(),
            name: "a".into(),
            kind: AccessKind::Read,
            who: Who::Any,
            span: Span::synthetic(FileId(0)),
        }
    }

    fn ids(log: &AccessLog) -> Vec<u64> {
        log.entries.iter().map(|(id, _)| *id).collect()
    }

    #[test]
    fn joins_keep_each_access_once_and_in_order() {
        let a = || read();
        let mut fork = AccessLog::default();
        fork.push(1, a());
        fork.push(2, a());
        // Then-branch: an inner `if` whose then side has a barrier (cleared) and records 5,
        // whose else side keeps the fork's accesses and records 6.
        let mut inner_then = fork.clone();
        inner_then.push(3, a());
        inner_then.clear();
        inner_then.push(5, a());
        let mut inner_else = fork.clone();
        inner_else.push(6, a());
        let mut then_branch = inner_else;
        then_branch.union(inner_then);
        assert_eq!(ids(&then_branch), vec![1, 2, 5, 6]);
        // Else-branch records 7; both joins hold everything once, in recording order.
        let mut else_branch = fork.clone();
        else_branch.push(7, a());
        let mut joined = else_branch.clone();
        joined.union(then_branch.clone());
        assert_eq!(ids(&joined), vec![1, 2, 5, 6, 7]);
        let mut joined = then_branch;
        joined.union(else_branch);
        assert_eq!(ids(&joined), vec![1, 2, 5, 6, 7]);
    }
}
