//! Which items of the standard library (`check::STDLIB`) a program can name, so that the driver
//! parses and checks only those.
//!
//! Parsing the whole library was most of the front end's time on every compile (some 20 million
//! instructions for 106 `func`s, against 0.5 million for a ten-line kernel), for a kernel that
//! calls one or two of them. A library item can be reached only through its name, so an item is
//! kept when its name is a word of the user's file or of an item kept already (outside comments;
//! a word that names nothing only keeps an item too many); items that are not `func`s are always
//! kept. The items kept are read as the parser gives them from a file a test keeps (`parsed`), or
//! parsed, at their places in the file (spans and line information do not change) and in the
//! file's order, so that a kept item is checked, lowered and optimised exactly as before.
//!
//! What the checker says about a program that has errors may name any library item (`did you
//! mean sqrt?`): the driver checks such a program again with the whole library, so that its
//! diagnostics are the same.

use std::collections::HashSet;
use std::ops::Range;

pub mod parsed;

/// Per file of `library` (each file's text), the indices (in [`item_ranges`]) of the items
/// that `source`, or what they name, names, in the file's order; `None` when that is every item.
pub fn reachable_items(source: &str, library: &[&str]) -> Vec<Option<Vec<usize>>> {
    let files: Vec<Vec<Item>> = library.iter().map(|text| items(text)).collect();
    let mut names: HashSet<&str> = words(source).collect();
    let mut kept: Vec<Vec<bool>> = files.iter().map(|items| vec![false; items.len()]).collect();
    loop {
        let mut changed = false;
        for ((items, kept), text) in files.iter().zip(&mut kept).zip(library) {
            for (item, kept) in items.iter().zip(kept.iter_mut()) {
                if !*kept && item.name.is_none_or(|name| names.contains(name)) {
                    *kept = true;
                    changed = true;
                    names.extend(words(&text[item.range.clone()]));
                }
            }
        }
        if !changed {
            break;
        }
    }
    kept.iter()
        .map(|kept| {
            let all = kept.iter().all(|k| *k);
            (!all).then(|| (0..kept.len()).filter(|&i| kept[i]).collect())
        })
        .collect()
}

/// The byte ranges of the items of a library file's `text`: from each item's first line to
/// the next item's (or the end of the file), so with the comments and blank lines after it.
pub fn item_ranges(text: &str) -> Vec<Range<usize>> {
    items(text).into_iter().map(|item| item.range).collect()
}

/// A top-level item of a library file.
struct Item<'s> {
    /// The name of a `func`; `None` for any other item, which is always kept.
    name: Option<&'s str>,
    /// From the item's first line to the next item's (or the end of the file).
    range: Range<usize>,
}

/// The file's items: each starts at a line that begins with a letter or `@` (a declaration at
/// the top level; bodies are indented, comments start with `--`).
fn items(text: &str) -> Vec<Item<'_>> {
    let mut starts = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with(|c: char| c.is_ascii_alphabetic() || c == '@') {
            starts.push(offset);
        }
        offset += line.len();
    }
    let ends = starts.iter().skip(1).copied().chain([text.len()]);
    starts
        .iter()
        .zip(ends)
        .map(|(&start, end)| Item {
            name: text[start..end]
                .strip_prefix("func ")
                .and_then(|rest| words(rest).next()),
            range: start..end,
        })
        .collect()
}

/// Every identifier-like word of `text` outside comments (`--` starts one wherever it stands).
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(|line| line.split_once("--").map_or(line, |(code, _)| code))
        .flat_map(|code| code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::STDLIB;
    use crate::syntax::span::FileId;

    fn library() -> Vec<&'static str> {
        STDLIB.iter().map(|(_, text)| *text).collect()
    }

    /// Parsing every item as a part gives what parsing the file gives, spans and ids included.
    #[test]
    fn parts_parse_as_the_whole_file() {
        for (i, (_, text)) in STDLIB.iter().enumerate() {
            let file = FileId(i as u32 + 1);
            let whole = crate::syntax::parse(file, text, 7).unwrap();
            let parts: Vec<_> = items(text).iter().map(|item| item.range.clone()).collect();
            assert!(parts.len() > 10, "{parts:?}");
            let parsed = crate::syntax::parse_parts(file, text, &parts, 7).unwrap();
            assert_eq!(format!("{whole:?}"), format!("{parsed:?}"));
        }
    }

    #[test]
    fn a_kernel_that_names_nothing_keeps_nothing() {
        let kept = reachable_items(
            "kernel k(x: Float32[N])\n  x[[block(B)]] <- 1.0\n",
            &library(),
        );
        assert!(
            kept.iter().all(|k| k.as_ref().is_some_and(Vec::is_empty)),
            "{kept:?}"
        );
    }

    #[test]
    fn a_name_keeps_all_its_overloads_and_nothing_else() {
        let library = library();
        let kept = reachable_items(
            "kernel k(x: Float32[N])\n  x[[block(B)]] <- sqrt(2.0)\n",
            &library,
        );
        let kept: Vec<&str> = kept
            .iter()
            .zip(&library)
            .flat_map(|(kept, text)| {
                let ranges = item_ranges(text);
                let kept = kept.clone().unwrap_or_default();
                kept.into_iter().map(move |i| &text[ranges[i].clone()])
            })
            .collect();
        assert_eq!(kept.len(), 4, "{kept:?}");
        assert!(kept.iter().all(|item| item.starts_with("func sqrt(")));
    }

    #[test]
    fn every_name_keeps_every_item() {
        let library = library();
        let all: String = library.concat();
        let kept = reachable_items(&all, &library);
        assert!(kept.iter().all(Option::is_none), "{kept:?}");
    }
}
