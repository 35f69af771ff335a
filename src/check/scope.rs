//! Local names: block scopes of variables, and "did you mean" suggestions.

use super::types::{Len, Ty};
use crate::syntax::span::Span;

/// The builtin uniform `Int32` constants of kernel code.
pub(super) const BLOCK_CONSTANTS: [&str; 12] = [
    "B",
    "BLOCKS",
    "BLOCKSIZE",
    "THREADS",
    // The block's shape (compile-time) and its place in a two-dimensional grid.
    "BLOCKROWS",
    "BLOCKCOLS",
    "BROW",
    "BCOL",
    "GRIDROWS",
    "GRIDCOLS",
    // The tiles of the threads' row and column in the block (block vectors).
    "ROW",
    "COL",
];

/// The block constants that differ between blocks (or describe a two-dimensional grid, which an
/// array dimension cannot use: the calling convention describes dimensions over `BLOCKS` only).
pub(super) const PER_BLOCK_CONSTANTS: [&str; 7] =
    ["B", "BROW", "BCOL", "GRIDROWS", "GRIDCOLS", "ROW", "COL"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum VarKind {
    Param,
    Local,
    Shared,
    LoopVar,
}

#[derive(Debug, Clone)]
pub(super) struct Var {
    pub name: String,
    pub ty: Ty,
    /// The name where it is declared.
    pub span: Span,
    pub kind: VarKind,
    /// For a Range variable never assigned after its declaration: its number of elements.
    pub range_len: Option<Len>,
    /// For a Range variable never assigned after its declaration: the most elements it can
    /// have, where that is a constant and its number is not (`Checked::range_bounds`).
    pub range_bound: Option<u64>,
}

/// Nested block scopes of one func or kernel body; the first holds the parameters.
#[derive(Debug, Default)]
pub(super) struct Scopes {
    scopes: Vec<Vec<Var>>,
}

impl Scopes {
    pub fn push(&mut self) {
        self.scopes.push(Vec::new());
    }

    pub fn pop(&mut self) {
        self.scopes.pop();
    }

    pub fn lookup(&self, name: &str) -> Option<&Var> {
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|v| v.name == name)
    }

    /// Adds `var` to the innermost scope, replacing a variable of the same name there.
    pub fn declare(&mut self, var: Var) {
        if self.scopes.is_empty() {
            self.scopes.push(Vec::new());
        }
        if let Some(scope) = self.scopes.last_mut() {
            scope.retain(|v| v.name != var.name);
            scope.push(var);
        }
    }

    pub fn visible_names(&self) -> Vec<&str> {
        self.scopes
            .iter()
            .flat_map(|s| s.iter().map(|v| v.name.as_str()))
            .collect()
    }
}

/// Levenshtein distance, in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row.first().copied().unwrap_or(0);
        if let Some(first) = row.first_mut() {
            *first = i + 1;
        }
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            let (Some(&up), Some(&left)) = (row.get(j + 1), row.get(j)) else {
                break;
            };
            let value = (up + 1).min(left + 1).min(prev + cost);
            prev = up;
            if let Some(cell) = row.get_mut(j + 1) {
                *cell = value;
            }
        }
    }
    row.last().copied().unwrap_or(0)
}

/// The candidate closest to `name`, if it is close enough to be a likely typo (a third of the
/// name's length, at least one edit; case differences count as one edit).
pub(super) fn suggest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let limit = (name.chars().count() / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        if c == name {
            continue;
        }
        let d = if c.eq_ignore_ascii_case(name) {
            1
        } else {
            edit_distance(name, c)
        };
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(
            suggest("curent", ["current", "previous"]),
            Some("current".to_string())
        );
        assert_eq!(suggest("x", ["y"]), Some("y".to_string()));
        assert_eq!(suggest("foo", ["barbaz"]), None);
    }
}
