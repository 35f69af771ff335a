//! The standard library's items as the parser gives them, kept in `parsed.jsonl` beside this
//! file, which the driver reads instead of parsing the items again. A test writes the file
//! (`LOOM_BLESS=1 cargo test --release --lib stdlib::parsed`) and fails when it is not what the
//! parser gives now.
//!
//! Why: parsing was most of what the library cost a compile: pest and the lowering take some
//! 200,000 instructions for a two-line overload, 4.6 M of softmax's 76 M for the 28 overloads of
//! `max`, `exp` and `sum` that it names.
//!
//! The file has a line per item, in the library's order, each item parsed on its own with
//! expression ids from 0, as JSON `[ids, item]` (`ids`: how many it uses), or `null` where the
//! JSON would not give the parsed item back (the parser's AST keeps a float literal's text, the
//! JSON its value). Its first line is the fingerprint of what it was made from (build.rs) and
//! each file's number of items. Where these are not loomc's own, the text the driver gives is not
//! the library's (`STDLIB`'s) or its id is not the one the file's spans have, or a line does not
//! read, the items are parsed as before: the file can make a compile slower, never different.

use super::item_ranges;
use crate::check::STDLIB;
use crate::diagnostics::Diagnostic;
use crate::syntax::ast::{ExprId, Item, Program};
use crate::syntax::span::FileId;
use std::ops::Range;

const PARSED: &str = include_str!("parsed.jsonl");

/// The items `kept` (indices in [`item_ranges`], in order) of the library file `text`, whose id
/// is `file`, as the parser gives them with expression ids from `first_expr_id`: read where
/// `parsed.jsonl` describes `text` as `file`, else parsed from `text`.
pub fn items(
    file: FileId,
    text: &str,
    kept: &[usize],
    first_expr_id: u32,
) -> Result<Program, Vec<Diagnostic>> {
    let lines = parsed_lines(file, text);
    items_from(lines.as_deref(), file, text, kept, first_expr_id)
}

/// [`items`], each read from its line of `lines` where it has one, else parsed from `text`.
fn items_from(
    lines: Option<&[&str]>,
    file: FileId,
    text: &str,
    kept: &[usize],
    first_expr_id: u32,
) -> Result<Program, Vec<Diagnostic>> {
    // Only for items not read (splitting the text into items is a tenth of reading them all).
    let mut ranges = None;
    let mut program = Program {
        items: Vec::new(),
        expr_count: first_expr_id,
        library_start: 0,
    };
    // Items to parse, together (one parser thread), before the next item read.
    let mut unread: Vec<Range<usize>> = Vec::new();
    for &i in kept {
        match lines.and_then(|lines| read(lines.get(i)?)) {
            Some((ids, mut item)) => {
                parse_into(&mut program, file, text, &mut unread)?;
                shift_ids(&mut item, program.expr_count);
                program.items.push(item);
                program.expr_count += ids;
            }
            None => {
                let ranges = ranges.get_or_insert_with(|| item_ranges(text));
                unread.extend(ranges.get(i).cloned());
            }
        }
    }
    parse_into(&mut program, file, text, &mut unread)?;
    program.library_start = program.items.len();
    Ok(program)
}

/// Appends the items at `ranges` of `text`, parsed, to `program`.
fn parse_into(
    program: &mut Program,
    file: FileId,
    text: &str,
    ranges: &mut Vec<Range<usize>>,
) -> Result<(), Vec<Diagnostic>> {
    if !ranges.is_empty() {
        let parsed = crate::syntax::parse_parts(file, text, ranges, program.expr_count)?;
        program.items.extend(parsed.items);
        program.expr_count = parsed.expr_count;
        ranges.clear();
    }
    Ok(())
}

/// The lines of `parsed.jsonl` for the library file whose text is `text`, if the file was made
/// from this loomc's parser and library (then it has a line for each of the library file's
/// items) and `file` is the id the driver gives that library file (the one its spans have).
/// `None` for a text that is none of `STDLIB`'s: its items are parsed.
fn parsed_lines(file: FileId, text: &str) -> Option<Vec<&'static str>> {
    let index = STDLIB.iter().position(|&(_, known)| known == text)?;
    let mut lines = PARSED.lines();
    let mut header = lines.next()?.split(' ');
    let made_here = header.next()? == env!("LOOM_PARSER_FINGERPRINT");
    let counts: Vec<usize> = header.map(|n| n.parse().ok()).collect::<Option<_>>()?;
    let same = made_here && counts.len() == STDLIB.len() && file == library_file(index);
    let count = *counts.get(index).filter(|_| same)?;
    let before: usize = counts[..index].iter().sum();
    let lines: Vec<&str> = lines.skip(before).take(count).collect();
    (lines.len() == count).then_some(lines)
}

/// The id the driver gives `STDLIB[index]`: after the user's file, in `STDLIB`'s order.
fn library_file(index: usize) -> FileId {
    FileId(index as u32 + 1)
}

/// A line's item and the number of expression ids it uses; `None` for `null` or what does not
/// read.
fn read(line: &str) -> Option<(u32, Item)> {
    serde_json::from_str::<Option<(u32, Item)>>(line)
        .ok()
        .flatten()
}

/// Moves the item's expression ids, parsed from 0, to start at `first`.
fn shift_ids(item: &mut Item, first: u32) {
    crate::syntax::visit::each_expr_in_item_mut(item, &mut |expr| {
        expr.id = ExprId(expr.id.0 + first);
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse_parts;

    const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/stdlib/parsed.jsonl");

    /// What `parsed.jsonl` should hold now.
    fn made_now() -> String {
        let mut made = env!("LOOM_PARSER_FINGERPRINT").to_string();
        for (_, text) in STDLIB {
            made += &format!(" {}", item_ranges(text).len());
        }
        made.push('\n');
        for (index, (_, text)) in STDLIB.iter().enumerate() {
            for range in item_ranges(text) {
                made += &line_for(library_file(index), text, range);
                made.push('\n');
            }
        }
        made
    }

    /// The item's line: its JSON where reading it back with its ids moved gives what parsing
    /// the item there gives, else `null`.
    fn line_for(file: FileId, text: &str, range: Range<usize>) -> String {
        let at = |first| parse_parts(file, text, std::slice::from_ref(&range), first).unwrap();
        let (from_zero, there) = (at(0), at(1000));
        let json = serde_json::to_string(&(from_zero.expr_count, &from_zero.items[0])).unwrap();
        let read_there = read(&json).map(|(ids, mut item)| {
            shift_ids(&mut item, 1000);
            format!("{} {item:?}", ids + 1000)
        });
        let parsed_there = format!("{} {:?}", there.expr_count, there.items[0]);
        match read_there {
            Some(read) if read == parsed_there => json,
            _ => "null".to_string(),
        }
    }

    #[test]
    fn parsed_jsonl_is_what_the_parser_gives() {
        let made = made_now();
        if std::env::var_os("LOOM_BLESS").is_some() {
            // The file compiled in is the one before; the next build reads this one.
            std::fs::write(PATH, &made).unwrap();
            return;
        }
        assert!(
            PARSED == made,
            "src/stdlib/parsed.jsonl is not what the parser gives now: write it again with \
             `LOOM_BLESS=1 cargo test --release --lib stdlib::parsed`"
        );
        // Items read back (all but those with a float literal).
        assert!(made.lines().skip(1).any(|line| line != "null"), "{made}");
    }

    /// Items read and items parsed, alone and between each other, are what the parser gives.
    #[test]
    fn read_items_are_parsed_items() {
        for (index, (_, text)) in STDLIB.iter().enumerate() {
            let file = library_file(index);
            let ranges = item_ranges(text);
            let every_third: Vec<usize> = (0..ranges.len()).step_by(3).collect();
            let lines = parsed_lines(file, text).unwrap();
            assert_eq!(lines.len(), ranges.len());
            let mut some_null = lines.clone();
            for line in some_null.iter_mut().skip(1).step_by(4) {
                *line = "null";
            }
            for kept in [(0..ranges.len()).collect(), every_third] {
                let kept_ranges: Vec<_> = kept.iter().map(|&i| ranges[i].clone()).collect();
                let parsed = parse_parts(file, text, &kept_ranges, 37).unwrap();
                let parsed = format!("{parsed:?}");
                for lines in [Some(&lines[..]), Some(&some_null[..]), None] {
                    let read = items_from(lines, file, text, &kept, 37).unwrap();
                    assert_eq!(format!("{read:?}"), parsed, "{}", STDLIB[index].0);
                }
            }
        }
    }

    /// A library text or file id that `parsed.jsonl` does not describe is parsed, not read
    /// (an item read for another text would have the other's spans, or be another item).
    #[test]
    fn a_library_file_the_parsed_file_does_not_describe_is_parsed() {
        let (_, text) = STDLIB[0];
        // Every item moves on, and the first is new.
        let moved = format!("func loom_not_the_library(x: Float32): Float32\n  return x\n\n{text}");
        let beyond = library_file(STDLIB.len());
        for (file, text) in [(library_file(0), &moved[..]), (beyond, text)] {
            let ranges = item_ranges(text);
            let kept: Vec<usize> = (0..ranges.len()).collect();
            let parsed = parse_parts(file, text, &ranges, 37).unwrap();
            assert!(!parsed.items.is_empty());
            let read = items(file, text, &kept, 37).unwrap();
            assert_eq!(format!("{read:?}"), format!("{parsed:?}"), "{file:?}");
        }
    }
}
