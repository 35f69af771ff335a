//! Which items of the standard library (`check::STDLIB`) a program can name, so that the driver
//! parses and checks only those.
//!
//! Parsing the whole library was most of the front end's time on every compile (some 20 million
//! instructions for 106 `func`s, against 0.5 million for a ten-line kernel), for a kernel that
//! calls one or two of them. A library item can be reached only through its name, so an item is
//! kept when its name is a word of the user's file or of an item kept already (outside comments;
//! a word that names nothing only keeps an item too many); items that are not `func`s are always
//! kept. The items kept are parsed
//! at their places in the file (spans and line information do not change) and in the file's
//! order, so that a kept item is checked, lowered and optimised exactly as before.
//!
//! What the checker says about a program that has errors may name any library item (`did you
//! mean sqrt?`): the driver checks such a program again with the whole library, so that its
//! diagnostics are the same.

use std::collections::HashSet;
use std::ops::Range;

/// Byte ranges of the items of `library` (one file's text) that `source`, or what they name,
/// names: whole items, each with the comments and blank lines that follow it, in the file's
/// order, adjacent ones joined. `None` when that is every item.
pub fn reachable_parts(source: &str, library: &[&str]) -> Vec<Option<Vec<Range<usize>>>> {
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
    files
        .iter()
        .zip(&kept)
        .map(|(items, kept)| {
            if kept.iter().all(|k| *k) {
                return None;
            }
            let mut parts: Vec<Range<usize>> = Vec::new();
            for (item, _) in items.iter().zip(kept).filter(|(_, kept)| **kept) {
                match parts.last_mut() {
                    Some(last) if last.end == item.range.start => last.end = item.range.end,
                    _ => parts.push(item.range.clone()),
                }
            }
            Some(parts)
        })
        .collect()
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
        let parts = reachable_parts(
            "kernel k(x: Float32[N])\n  x[[block(B)]] <- 1.0\n",
            &library(),
        );
        assert!(
            parts.iter().all(|p| p.as_ref().is_some_and(Vec::is_empty)),
            "{parts:?}"
        );
    }

    #[test]
    fn a_name_keeps_all_its_overloads_and_nothing_else() {
        let library = library();
        let parts = reachable_parts(
            "kernel k(x: Float32[N])\n  x[[block(B)]] <- sqrt(2.0)\n",
            &library,
        );
        let kept: Vec<&str> = parts
            .iter()
            .zip(&library)
            .flat_map(|(parts, text)| {
                let parts = parts.clone().unwrap_or_default();
                parts.into_iter().map(move |p| &text[p])
            })
            .collect();
        let kept = kept.concat();
        assert_eq!(kept.matches("\nfunc ").count() + 1, 4, "{kept}");
        assert!(kept
            .lines()
            .filter(|l| l.starts_with("func "))
            .all(|l| l.starts_with("func sqrt(")));
    }

    #[test]
    fn every_name_keeps_every_item() {
        let library = library();
        let all: String = library.concat();
        let parts = reachable_parts(&all, &library);
        assert!(parts.iter().all(Option::is_none), "{parts:?}");
    }
}
