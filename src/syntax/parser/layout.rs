//! Checks that run over the raw text before pest does: characters, delimiters, nesting depth and
//! indentation.
//!
//! pest stops at its first failure and can only say what it expected there. These scans see the
//! whole file, so they report every tab, stray character, unclosed delimiter and badly indented
//! line at once, each at its exact position. They also bound nesting, so that neither pest nor the
//! lowering recurses deeply enough to overflow the stack on hostile input.

use crate::syntax::error::{Delim, SyntaxError};
use crate::syntax::span::{FileId, Span};

/// Deepest nesting of delimiters and right-recursive operators on one line.
pub const MAX_EXPR_DEPTH: usize = 128;
/// Deepest nesting of indented blocks.
pub const MAX_BLOCK_DEPTH: usize = 64;
/// A file with more layout errors than this is probably not LOOM; stop reporting.
const MAX_ERRORS: usize = 50;

/// The reserved words: never names.
pub const KEYWORDS: &[&str] = &[
    "kernel", "func", "type", "shared", "if", "then", "else", "for", "while", "return", "and",
    "or", "not", "true", "false",
];

pub fn is_keyword(word: &str) -> bool {
    KEYWORDS.contains(&word)
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// One physical line: `start..end` excludes the line break, `code_end` also excludes a trailing
/// comment and the spaces before it.
#[derive(Debug, Clone, Copy)]
struct Line {
    start: usize,
    end: usize,
    /// Offset of the first character that is not a space (== `code_end` on a blank line).
    first: usize,
    code_end: usize,
}

impl Line {
    fn is_blank(&self) -> bool {
        self.first >= self.code_end
    }

    fn indent(&self) -> usize {
        self.first - self.start
    }
}

fn lines(source: &str) -> Vec<Line> {
    let bytes = source.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    while start <= bytes.len() {
        let newline = bytes[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map(|p| start + p);
        let mut end = newline.unwrap_or(bytes.len());
        if end > start && bytes[end - 1] == b'\r' {
            end -= 1;
        }
        let first = start + bytes[start..end].iter().take_while(|&&b| b == b' ').count();
        let comment = find_comment(&bytes[first..end])
            .map(|p| first + p)
            .unwrap_or(end);
        let mut code_end = comment;
        while code_end > first && bytes[code_end - 1] == b' ' {
            code_end -= 1;
        }
        out.push(Line {
            start,
            end,
            first,
            code_end,
        });
        match newline {
            Some(n) => start = n + 1,
            None => break,
        }
    }
    out
}

/// `--` starts a comment anywhere: LOOM has no string literals that could contain it.
fn find_comment(line: &[u8]) -> Option<usize> {
    line.windows(2).position(|w| w == b"--")
}

/// Runs every pre-scan; an empty result means pest may run safely.
pub fn check(file: FileId, source: &str) -> Vec<SyntaxError> {
    let lines = lines(source);
    let mut errors = Vec::new();
    // Delimiters still open at the end of a line. LOOM has no multi-line lists, but a list
    // continued on deeper-indented lines is one mistake, reported once at its opener: those
    // continuation lines are not judged for delimiters or indentation on their own.
    let mut open: Vec<(Delim, usize)> = Vec::new();
    let mut carry_indent = 0;
    let mut last_code_end = 0;
    let mut continuation = vec![false; lines.len()];
    for (index, line) in lines.iter().enumerate() {
        if !open.is_empty() && !line.is_blank() {
            if line.indent() > carry_indent {
                continuation[index] = true;
            } else {
                errors.push(unclosed(file, &mut open, last_code_end, false));
            }
        }
        let was_open = !open.is_empty();
        scan_line(file, source, line, &mut open, &mut errors);
        if !line.is_blank() {
            last_code_end = line.code_end;
        }
        if !was_open && !open.is_empty() {
            carry_indent = line.indent();
        }
        if errors.len() >= MAX_ERRORS {
            break;
        }
    }
    if !open.is_empty() {
        errors.push(unclosed(file, &mut open, last_code_end, true));
    }
    // The width of a tab is unknown, so indentation is judged only without tabs in it.
    let tab_in_indentation = errors.iter().any(|e| {
        matches!(
            e,
            SyntaxError::Tab {
                in_indentation: true,
                ..
            }
        )
    });
    if errors.len() < MAX_ERRORS && !tab_in_indentation {
        check_indentation(file, source, &lines, &continuation, &mut errors);
    }
    errors.sort_by_key(|e| (e.span().start, e.span().end));
    errors.truncate(MAX_ERRORS);
    errors
}

/// The error for delimiters left open where a line (or the file) ends; empties `open`.
fn unclosed(file: FileId, open: &mut Vec<(Delim, usize)>, end: usize, at_eof: bool) -> SyntaxError {
    let span = |at: usize, d: Delim| Span::new(file, at, at + d.open().len());
    let (delim, at) = open.pop().unwrap_or((Delim::Paren, end));
    let also_unclosed = open
        .iter()
        .rev()
        .take(3)
        .map(|(d, at)| span(*at, *d))
        .collect();
    open.clear();
    let end = end.max(at + delim.open().len());
    SyntaxError::UnclosedDelimiter {
        delim,
        open: span(at, delim),
        end: Span::new(file, end, end),
        at_eof,
        also_unclosed,
        closed_later: None,
    }
}

/// Characters, delimiters and expression depth of one line.
fn scan_line(
    file: FileId,
    source: &str,
    line: &Line,
    open: &mut Vec<(Delim, usize)>,
    errors: &mut Vec<SyntaxError>,
) {
    let bytes = source.as_bytes();
    let span = |start: usize, end: usize| Span::new(file, start, end);
    // Where the code of this line stops: a comment may hold any character.
    let stop = find_comment(&bytes[line.start..line.end])
        .map(|p| line.start + p)
        .unwrap_or(line.end);
    // Prefix operators, collectives and `if`/`then`/`else` seen so far on this line: each of them
    // nests what follows one level deeper in the parser.
    let mut right_nesting = 0usize;
    let mut too_deep = false;
    // The last character that was not a space, to tell `a[[i]]` (checked index) from `[[1]]`.
    let mut previous: Option<u8> = None;
    let mut i = line.start;
    while i < stop {
        let b = bytes[i];
        let here = i;
        match b {
            b' ' => {
                i += 1;
                continue;
            }
            b'\t' => {
                errors.push(SyntaxError::Tab {
                    span: span(i, i + 1),
                    in_indentation: only_blanks(&bytes[line.start..i]),
                });
                i += 1;
                continue;
            }
            _ if is_word_byte(b) => {
                let end = i + bytes[i..stop]
                    .iter()
                    .take_while(|&&c| is_word_byte(c))
                    .count();
                let word = &source[i..end];
                if matches!(word, "not" | "if" | "then" | "else") {
                    right_nesting += 1;
                }
                previous = Some(bytes[end - 1]);
                i = end;
                continue;
            }
            b'(' | b'{' => open.push((
                if b == b'(' {
                    Delim::Paren
                } else {
                    Delim::Brace
                },
                i,
            )),
            b'[' => {
                let index_position =
                    previous.is_some_and(|p| is_word_byte(p) || p == b')' || p == b']');
                if index_position && bytes.get(i + 1) == Some(&b'[') {
                    open.push((Delim::DoubleBracket, i));
                    i += 1;
                } else {
                    open.push((Delim::Bracket, i));
                }
            }
            b')' | b'}' | b']' => {
                let delim = match b {
                    b')' => Delim::Paren,
                    b'}' => Delim::Brace,
                    _ => Delim::Bracket,
                };
                let closes_top = match open.last().copied() {
                    Some((top, _)) if top == delim => Some(1),
                    Some((Delim::DoubleBracket, _))
                        if b == b']' && bytes.get(i + 1) == Some(&b']') =>
                    {
                        Some(2)
                    }
                    _ => None,
                };
                match (closes_top, open.last().copied()) {
                    (Some(width), Some((top, at))) => {
                        open.pop();
                        if at < line.start {
                            // Opened on an earlier line: a list continued on the next line.
                            errors.push(SyntaxError::UnclosedDelimiter {
                                delim: top,
                                open: span(at, at + top.open().len()),
                                end: span(at, at),
                                at_eof: false,
                                also_unclosed: Vec::new(),
                                closed_later: Some(span(i, i + width)),
                            });
                        }
                        i += width - 1;
                    }
                    (_, top) => {
                        let delim = if b == b']' && bytes.get(i + 1) == Some(&b']') {
                            Delim::DoubleBracket
                        } else {
                            delim
                        };
                        let width = delim.close().len();
                        errors.push(SyntaxError::UnmatchedCloser {
                            delim,
                            span: span(i, i + width),
                            open: top.map(|(d, at)| (d, span(at, at + d.open().len()))),
                        });
                        // Recover: a closer that matches something further down closes it;
                        // otherwise it stands for the closer that was expected.
                        match open.iter().rposition(|(d, _)| *d == delim) {
                            Some(pos) => open.truncate(pos),
                            None => {
                                open.pop();
                            }
                        }
                        i += width - 1;
                    }
                }
            }
            b'-' | b'~' => {
                // Unary minus or complement: the previous token cannot end an operand.
                let unary = b == b'~'
                    || !previous
                        .is_some_and(|p| is_word_byte(p) || p == b')' || p == b']' || p == b'}');
                if unary {
                    right_nesting += 1;
                }
            }
            b'/' => {
                if matches!(bytes.get(i + 1), Some(b'~' | b'.' | b':')) {
                    right_nesting += 1;
                    i += 1;
                }
            }
            b':' => {
                if bytes.get(i + 1) == Some(&b'/') {
                    right_nesting += 1;
                    i += 1;
                }
            }
            b'@' => {
                let rest = &bytes[i + 1..stop];
                let is_attr = rest.starts_with(b"blocksize")
                    && !rest.get(9).copied().is_some_and(is_word_byte);
                if is_attr {
                    i += 10;
                    previous = Some(b'e');
                    continue;
                }
                errors.push(SyntaxError::StrayCharacter {
                    ch: '@',
                    span: span(i, i + 1),
                });
            }
            b'!' => {
                if bytes.get(i + 1) == Some(&b'=') {
                    i += 1;
                } else {
                    errors.push(SyntaxError::StrayCharacter {
                        ch: '!',
                        span: span(i, i + 1),
                    });
                }
            }
            b',' | b'.' | b'<' | b'>' | b'=' | b'+' | b'*' | b'%' | b'&' | b'|' | b'^' => {}
            _ => {
                // Any other character, ASCII or not, is outside LOOM's alphabet.
                let ch = source
                    .get(i..)
                    .and_then(|s| s.chars().next())
                    .unwrap_or('\u{fffd}');
                let width = ch.len_utf8();
                errors.push(SyntaxError::StrayCharacter {
                    ch,
                    span: span(i, i + width),
                });
                i += width;
                previous = Some(b'?');
                continue;
            }
        }
        if !too_deep && open.len() + right_nesting > MAX_EXPR_DEPTH {
            too_deep = true;
            errors.push(SyntaxError::NestingTooDeep {
                span: span(here, i + 1),
            });
        }
        previous = Some(bytes[i]);
        i += 1;
    }
    // Tabs inside the comment part are fine, but a stray `\r` is a broken line ending anywhere.
    for (offset, &b) in bytes[stop..line.end].iter().enumerate() {
        if b == b'\r' {
            errors.push(SyntaxError::StrayCharacter {
                ch: '\r',
                span: span(stop + offset, stop + offset + 1),
            });
        }
    }
}

fn only_blanks(bytes: &[u8]) -> bool {
    bytes.iter().all(|&b| b == b' ' || b == b'\t')
}

/// Whether a line must be followed by an indented block: a `kernel` or `func` header, `for`,
/// `while`, `if c` without `then`, or a line ending in `then` or `else`. Only the part after the
/// last `then`/`else` counts: `then for ...` opens a block, `then x <- 1` does not.
fn opens_block(source: &str, line: &Line) -> bool {
    let code = &source[line.first..line.code_end];
    let mut last_segment_start = 0;
    let mut depth = 0i32;
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if is_word_byte(b) {
            let end = i + bytes[i..].iter().take_while(|&&c| is_word_byte(c)).count();
            if depth == 0 && matches!(&code[i..end], "then" | "else") {
                last_segment_start = end;
            }
            i = end;
            continue;
        }
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    let segment = code[last_segment_start..].trim_start();
    let first_word: String = segment
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    segment.is_empty()
        || matches!(
            first_word.as_str(),
            "kernel" | "func" | "for" | "while" | "if"
        )
}

/// Python's rule, checked line by line: a deeper line must follow a line that opens a block, a
/// line that opens a block must be followed by a deeper one, and a shallower line must line up
/// with an enclosing block.
fn check_indentation(
    file: FileId,
    source: &str,
    lines: &[Line],
    continuation: &[bool],
    errors: &mut Vec<SyntaxError>,
) {
    let span = |start: usize, end: usize| Span::new(file, start, end);
    let mut levels: Vec<usize> = vec![0];
    let mut previous: Option<(Line, bool)> = None;
    let mut reported_depth = false;
    let judged = lines
        .iter()
        .zip(continuation)
        .filter(|(l, c)| !l.is_blank() && !**c)
        .map(|(l, _)| l);
    for line in judged {
        let indent = line.indent();
        let top = levels.last().copied().unwrap_or(0);
        let indentation = span(line.start, line.first);
        let code = span(line.first, line.code_end);
        if indent > top {
            match previous {
                Some((_, true)) => {}
                Some((prev, false)) => errors.push(SyntaxError::UnexpectedIndent {
                    span: indentation,
                    previous: Some(span(prev.first, prev.code_end)),
                }),
                None => errors.push(SyntaxError::UnexpectedIndent {
                    span: indentation,
                    previous: None,
                }),
            }
            levels.push(indent);
            if levels.len() > MAX_BLOCK_DEPTH && !reported_depth {
                reported_depth = true;
                errors.push(SyntaxError::NestingTooDeep { span: code });
            }
        } else {
            if let Some((prev, true)) = previous {
                errors.push(SyntaxError::MissingBlock {
                    header: span(prev.first, prev.code_end),
                    next: Some(code),
                });
            }
            if indent < top {
                while levels.last().is_some_and(|&l| l > indent) {
                    levels.pop();
                }
                if levels.last() != Some(&indent) {
                    let mut enclosing = levels.clone();
                    enclosing.dedup();
                    errors.push(SyntaxError::InconsistentDedent {
                        span: indentation,
                        indent,
                        levels: enclosing,
                    });
                    levels.push(indent);
                }
            }
        }
        previous = Some((*line, opens_block(source, line)));
    }
    if let Some((prev, true)) = previous {
        errors.push(SyntaxError::MissingBlock {
            header: span(prev.first, prev.code_end),
            next: None,
        });
    }
}

/// What the text at `offset` is, for "found ..." in a parse error, and the span to point at.
/// A position at trailing spaces or a comment counts as the end of the line, and points just
/// after the line's last token.
pub fn token_at(source: &str, offset: usize) -> (TokenKind, usize, usize) {
    let bytes = source.as_bytes();
    let offset = offset.min(bytes.len());
    let mut i = offset;
    while i < bytes.len() && bytes[i] == b' ' {
        i += 1;
    }
    let at_line_end =
        i >= bytes.len() || bytes[i] == b'\n' || bytes[i] == b'\r' || bytes[i..].starts_with(b"--");
    if at_line_end {
        // Back up over spaces and a comment to just after the last token of the line.
        let line_start = bytes[..offset]
            .iter()
            .rposition(|&b| b == b'\n')
            .map(|p| p + 1)
            .unwrap_or(0);
        let line_end = bytes[offset..]
            .iter()
            .position(|&b| b == b'\n')
            .map(|p| offset + p)
            .unwrap_or(bytes.len());
        let comment = find_comment(&bytes[line_start..line_end])
            .map(|p| line_start + p)
            .unwrap_or(line_end);
        let mut end = comment.min(offset.max(line_start));
        while end > line_start && matches!(bytes[end - 1], b' ' | b'\r') {
            end -= 1;
        }
        let rest_is_blank = source.get(i..).unwrap_or("").split('\n').all(|l| {
            let l = l.trim_matches(|c| c == ' ' || c == '\r');
            l.is_empty() || l.starts_with("--")
        });
        let kind = if rest_is_blank {
            TokenKind::EndOfFile
        } else {
            TokenKind::EndOfLine
        };
        return (kind, end, end);
    }
    let b = bytes[i];
    if is_word_byte(b) {
        let end = i + bytes[i..].iter().take_while(|&&c| is_word_byte(c)).count();
        let word = &source[i..end];
        let kind = if is_keyword(word) {
            TokenKind::Keyword
        } else {
            TokenKind::Word
        };
        return (kind, i, end);
    }
    const SYMBOLS: &[&str] = &[
        "<-", "<=", "<<", ">=", ">>", "==", "!=", "/~", "/.", "/:", ":/", "[[", "]]",
    ];
    let width = SYMBOLS
        .iter()
        .find(|s| bytes[i..].starts_with(s.as_bytes()))
        .map(|s| s.len())
        .unwrap_or_else(|| source[i..].chars().next().map(char::len_utf8).unwrap_or(1));
    (TokenKind::Symbol, i, (i + width).min(bytes.len()))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    EndOfLine,
    EndOfFile,
    Keyword,
    Word,
    Symbol,
}
