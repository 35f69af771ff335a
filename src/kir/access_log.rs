//! The accesses made since some point (the last barrier, a loop's head), each once, in the order
//! they were recorded: the pending and exposed sets of barrier placement (`kir-barriers`).

use super::access::{Access, AccessKind, Who};

/// Everything that decides whether an access conflicts with another (`conflicts`: the array, read
/// or write, which thread touches which element) and how a remark names it.
type Key = (String, String, AccessKind, Who);

fn key(access: &Access) -> Key {
    (
        access.array.clone(),
        access.name.clone(),
        access.kind,
        access.who.clone(),
    )
}

/// Accesses recorded on some path, each once. Every access gets an identity when it is
/// recorded, so the join of two branches that both start from the same state keeps the shared
/// accesses once. (Without identities, `n` sequential `if`s doubled the pending list `n` times:
/// exponential time and memory.) The log is persistent: forking it for the branches of an `if`
/// costs nothing, and a join costs what the other branch added.
///
/// Of accesses alike in everything but where they stand (the same [`Key`]), the log keeps the
/// earliest only: a search for the first access that pairs with another ([`AccessLog::first_pair`],
/// whose test looks at the key alone) finds that one first anyway, so the later ones change no
/// decision and no remark, and without them the searches cost what the distinct accesses do, not
/// what the statements did (1,000 sequential `if`s each storing `o[B]` leave one pending write,
/// not 1,000 to compare every later access with).
#[derive(Debug, Clone, Default)]
pub struct AccessLog {
    entries: imbl::Vector<(u64, Access)>,
    ids: imbl::HashSet<u64>,
    /// The identity of the entry holding each key.
    keys: imbl::HashMap<Key, u64>,
}

impl AccessLog {
    /// Records `access` with identity `id`, larger than every identity recorded before.
    pub fn push(&mut self, id: u64, access: Access) {
        if self.ids.contains(&id) {
            return;
        }
        let key = key(&access);
        if self.keys.contains_key(&key) {
            return;
        }
        self.keys.insert(key, id);
        self.ids.insert(id);
        self.entries.push_back((id, access));
    }

    /// Adds every access of `other` that this log lacks.
    ///
    /// Both logs descend from one fork point `F` (the state before an `if`, a loop or the right
    /// side of `and`/`or`), and entries are kept in the order they were recorded (by identity).
    /// Below `F`, a log holds either all of the fork's accesses or none of them (a barrier
    /// cleared them; a join re-adds all or none); above `F`, each holds accesses the other
    /// cannot. So, walking `other` from its end, the first access this log already holds comes
    /// from the fork, and so does everything before it: the walk stops there, and a join costs
    /// what the branches added, not the whole state. Of two alike accesses, one from each log,
    /// the earlier stays.
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
        if self.ids.contains(&id) {
            return;
        }
        let key = key(&access);
        if let Some(&held) = self.keys.get(&key) {
            if held < id {
                return;
            }
            // The other log's access is the earlier of the two alike.
            if let Ok(at) = self.entries.binary_search_by(|(other, _)| other.cmp(&held)) {
                self.entries.remove(at);
            }
            self.ids.remove(&held);
        }
        self.keys.insert(key, id);
        self.ids.insert(id);
        let at = self
            .entries
            .binary_search_by(|(other, _)| other.cmp(&id))
            .unwrap_or_else(|at| at);
        self.entries.insert(at, (id, access));
    }

    pub fn clear(&mut self) {
        self.entries.clear();
        self.ids.clear();
        self.keys.clear();
    }

    pub fn iter(&self) -> impl Iterator<Item = &Access> {
        self.entries.iter().map(|(_, access)| access)
    }

    /// The first of `later` that `pairs` with an access of this log, and the earliest access it
    /// pairs with. `pairs` must look only at what [`Key`] holds (as `conflicts` does).
    pub fn first_pair<'a>(
        &self,
        later: impl IntoIterator<Item = &'a Access>,
        pairs: impl Fn(&Access, &Access) -> bool,
    ) -> Option<(Access, Access)> {
        later.into_iter().find_map(|later| {
            self.iter()
                .find(|earlier| pairs(earlier, later))
                .map(|earlier| (earlier.clone(), later.clone()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kir::access::{conflicts, AccessKind, Who};
    use crate::kir::affine::Poly;
    use crate::syntax::span::{FileId, Span};

    /// A read of element `k` by every thread, at a place of its own (`line`).
    fn read(k: i64, line: usize) -> Access {
        Access {
            array: "a".into(),
            name: "a".into(),
            kind: AccessKind::Read,
            who: Who::All(Some(Poly::constant(k))),
            span: Span::new(FileId(0), line, line + 1),
        }
    }

    fn ids(log: &AccessLog) -> Vec<u64> {
        log.entries.iter().map(|(id, _)| *id).collect()
    }

    #[test]
    fn joins_keep_each_access_once_and_in_order() {
        // Every access a different element: none alike.
        let a = |id: u64| read(id as i64, id as usize);
        let mut fork = AccessLog::default();
        fork.push(1, a(1));
        fork.push(2, a(2));
        // Then-branch: an inner `if` whose then side has a barrier (cleared) and records 5,
        // whose else side keeps the fork's accesses and records 6.
        let mut inner_then = fork.clone();
        inner_then.push(3, a(3));
        inner_then.clear();
        inner_then.push(5, a(5));
        let mut inner_else = fork.clone();
        inner_else.push(6, a(6));
        let mut then_branch = inner_else;
        then_branch.union(inner_then);
        assert_eq!(ids(&then_branch), vec![1, 2, 5, 6]);
        // Else-branch records 7; both joins hold everything once, in recording order.
        let mut else_branch = fork.clone();
        else_branch.push(7, a(7));
        let mut joined = else_branch.clone();
        joined.union(then_branch.clone());
        assert_eq!(ids(&joined), vec![1, 2, 5, 6, 7]);
        let mut joined = then_branch;
        joined.union(else_branch);
        assert_eq!(ids(&joined), vec![1, 2, 5, 6, 7]);
    }

    /// Of accesses alike but for their place, the earliest stays, recorded or joined in either
    /// order, and the first conflict found is the one the whole list gives.
    #[test]
    fn alike_accesses_keep_the_earliest() {
        let mut fork = AccessLog::default();
        fork.push(1, read(0, 10));
        fork.push(2, read(0, 20));
        fork.push(3, read(1, 30));
        assert_eq!(ids(&fork), vec![1, 3]);
        // The then branch was cleared and reads element 1 at id 4; the else branch reads it at
        // id 5 after the fork's: the join keeps 1, 3 (the fork's) and drops 4 and 5 for 3...
        let mut then_branch = fork.clone();
        then_branch.clear();
        then_branch.push(4, read(1, 40));
        let mut else_branch = fork.clone();
        else_branch.push(5, read(1, 50));
        assert_eq!(ids(&else_branch), vec![1, 3]);
        let mut joined = then_branch.clone();
        joined.union(else_branch.clone());
        assert_eq!(ids(&joined), vec![1, 3]);
        let mut joined = else_branch;
        joined.union(then_branch.clone());
        assert_eq!(ids(&joined), vec![1, 3]);
        // ... and where the later alike one was this log's own, the other's earlier replaces it.
        let mut cleared = AccessLog::default();
        cleared.push(6, read(1, 60));
        let mut earlier = AccessLog::default();
        earlier.push(4, read(1, 40));
        cleared.union(earlier);
        assert_eq!(ids(&cleared), vec![4]);
        assert_eq!(cleared.iter().next().map(|a| a.span.start), Some(40));
        // A write of element 1 by thread 0 conflicts with the read at id 3, the earliest.
        let write = Access {
            kind: AccessKind::Write,
            who: Who::Leader(Some(Poly::constant(1))),
            ..read(1, 70)
        };
        let found = joined.first_pair([&write], |e, l| conflicts(e, l, 256, None));
        assert_eq!(found.map(|(e, _)| e.span.start), Some(30));
    }
}
