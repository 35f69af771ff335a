//! Syntax errors: what the parser reports, as data.
//!
//! The layout pre-scan (`layout.rs`), the pest failure classifier and the lowering in
//! `parser.rs` produce [`SyntaxError`] values; the wording of every message, label and help line
//! lives here, in `From<SyntaxError> for Diagnostic`.

use super::ast::CollectiveOp;
use super::span::Span;
use crate::diagnostics::{Diagnostic, INTERNAL_ERROR};

pub const UNEXPECTED: &str = "E0001";
pub const TAB: &str = "E0002";
pub const STRAY_CHARACTER: &str = "E0003";
pub const UNCLOSED_DELIMITER: &str = "E0004";
pub const UNMATCHED_CLOSER: &str = "E0005";
pub const UNEXPECTED_INDENT: &str = "E0006";
pub const INCONSISTENT_DEDENT: &str = "E0007";
pub const MISSING_BLOCK: &str = "E0008";
pub const MISPLACED_THEN_ELSE: &str = "E0009";
pub const CHAINED_COMPARISON: &str = "E0010";
pub const MALFORMED_NUMBER: &str = "E0011";
pub const NUMBER_TOO_LARGE: &str = "E0012";
pub const NESTING_TOO_DEEP: &str = "E0013";
pub const RESERVED_WORD: &str = "E0014";
pub const BAD_COLLECTIVE_OPERAND: &str = "E0015";
pub const BAD_BLOCK_SIZE: &str = "E0016";

/// Every diagnostic id this stage can produce (the UI suite checks each one is tested).
/// Internal errors use the crate-wide [`INTERNAL_ERROR`] id and are not listed.
pub const CODES: &[&str] = &[
    UNEXPECTED,
    TAB,
    STRAY_CHARACTER,
    UNCLOSED_DELIMITER,
    UNMATCHED_CLOSER,
    UNEXPECTED_INDENT,
    INCONSISTENT_DEDENT,
    MISSING_BLOCK,
    MISPLACED_THEN_ELSE,
    CHAINED_COMPARISON,
    MALFORMED_NUMBER,
    NUMBER_TOO_LARGE,
    NESTING_TOO_DEEP,
    RESERVED_WORD,
    BAD_COLLECTIVE_OPERAND,
    BAD_BLOCK_SIZE,
];

/// What the parser found where it stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    EndOfLine,
    EndOfFile,
    Keyword(String),
    /// A name, a number or an operator, as written.
    Token(String),
}

/// One thing the parser would have accepted where it stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Expected {
    Arrow,
    Expression,
    Type,
    Name,
    IntegerLiteral,
    Statement,
    Keyword(&'static str),
    Punct(&'static str),
    Operator,
    EndOfLine,
    Item,
    EndOfFile,
}

impl Expected {
    fn describe(self) -> String {
        match self {
            Expected::Arrow => "`<-`".to_string(),
            Expected::Expression => "an expression".to_string(),
            Expected::Type => "a type".to_string(),
            Expected::Name => "a name".to_string(),
            Expected::IntegerLiteral => "an integer literal".to_string(),
            Expected::Statement => "a statement".to_string(),
            Expected::Keyword(k) | Expected::Punct(k) => format!("`{k}`"),
            Expected::Operator => "an operator".to_string(),
            Expected::EndOfLine => "end of line".to_string(),
            Expected::Item => "a declaration (`kernel`, `func` or `type`)".to_string(),
            Expected::EndOfFile => "end of file".to_string(),
        }
    }
}

/// An opening or closing delimiter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delim {
    Paren,
    Bracket,
    /// `[[` ... `]]`: a checked index.
    DoubleBracket,
    Brace,
}

impl Delim {
    pub fn open(self) -> &'static str {
        match self {
            Delim::Paren => "(",
            Delim::Bracket => "[",
            Delim::DoubleBracket => "[[",
            Delim::Brace => "{",
        }
    }

    pub fn close(self) -> &'static str {
        match self {
            Delim::Paren => ")",
            Delim::Bracket => "]",
            Delim::DoubleBracket => "]]",
            Delim::Brace => "}",
        }
    }
}

/// Why a number literal is malformed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NumberProblem {
    /// `0x` or `0b` with no digits after it.
    NoDigits { prefix: &'static str },
    /// A digit that the base does not allow, or a letter in a decimal number.
    InvalidDigit { ch: char, base: &'static str },
    /// `1e` or `1e+`.
    MissingExponent,
    /// Two decimal points, or a point in a hexadecimal or binary number.
    ExtraPoint,
}

#[derive(Debug, Clone, PartialEq)]
pub enum SyntaxError {
    /// pest stopped: `expected` is what it would have accepted, `found` what was there.
    Unexpected {
        found: Found,
        span: Span,
        expected: Vec<Expected>,
        hint: Option<Hint>,
    },
    Tab {
        span: Span,
        in_indentation: bool,
    },
    StrayCharacter {
        ch: char,
        span: Span,
    },
    /// A delimiter not closed on its line; `closed_later` when it is closed on a later,
    /// deeper-indented line (LOOM has no multi-line lists).
    UnclosedDelimiter {
        delim: Delim,
        open: Span,
        end: Span,
        at_eof: bool,
        also_unclosed: Vec<Span>,
        closed_later: Option<Span>,
    },
    UnmatchedCloser {
        delim: Delim,
        span: Span,
        open: Option<(Delim, Span)>,
    },
    /// A line indented more than the previous line, which does not start a block.
    UnexpectedIndent {
        span: Span,
        previous: Option<Span>,
    },
    /// A line dedented to a column that matches no enclosing block.
    InconsistentDedent {
        span: Span,
        indent: usize,
        levels: Vec<usize>,
    },
    /// A header (`kernel`, `func`, `for`, `while`, `if c`, `then`, `else`) with no block after it.
    MissingBlock {
        header: Span,
        next: Option<Span>,
    },
    /// `then` or `else` where no `if` can take it.
    MisplacedThenElse {
        keyword: &'static str,
        span: Span,
    },
    /// `a < b < c`: comparisons do not associate.
    ChainedComparison {
        first: Span,
        second: Span,
    },
    MalformedNumber {
        span: Span,
        problem: NumberProblem,
    },
    NumberTooLarge {
        span: Span,
        float: bool,
    },
    NestingTooDeep {
        span: Span,
    },
    /// A reserved word where a name (or an expression) was expected.
    ReservedWord {
        word: String,
        span: Span,
        wanted_expression: bool,
    },
    /// The left operand of a collective is not `f` or `f(args)`.
    BadCollectiveOperand {
        op: CollectiveOp,
        op_span: Span,
        operand: Span,
    },
    /// `@blocksize(...)` with something other than a positive integer literal.
    BadBlockSize {
        span: Span,
    },
    /// A grammar invariant did not hold in the parse tree: a bug in loomc.
    Internal {
        span: Span,
        what: &'static str,
    },
}

/// A likely fix for an [`SyntaxError::Unexpected`], chosen from what was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hint {
    /// `=` where `<-` was expected.
    AssignWithArrow,
    /// `<-` inside an expression: probably `x < -1` written without a space.
    ArrowInExpression,
    /// `.5`
    LeadingPoint,
    /// `x: T` with no initializer.
    LetNeedsInit,
    /// `kernel`, `func` or `type` inside a block.
    ItemAtColumnZero,
    /// A statement where a top-level item should start.
    StatementAtTopLevel,
}

impl SyntaxError {
    pub fn code(&self) -> &'static str {
        match self {
            SyntaxError::Unexpected { .. } => UNEXPECTED,
            SyntaxError::Tab { .. } => TAB,
            SyntaxError::StrayCharacter { .. } => STRAY_CHARACTER,
            SyntaxError::UnclosedDelimiter { .. } => UNCLOSED_DELIMITER,
            SyntaxError::UnmatchedCloser { .. } => UNMATCHED_CLOSER,
            SyntaxError::UnexpectedIndent { .. } => UNEXPECTED_INDENT,
            SyntaxError::InconsistentDedent { .. } => INCONSISTENT_DEDENT,
            SyntaxError::MissingBlock { .. } => MISSING_BLOCK,
            SyntaxError::MisplacedThenElse { .. } => MISPLACED_THEN_ELSE,
            SyntaxError::ChainedComparison { .. } => CHAINED_COMPARISON,
            SyntaxError::MalformedNumber { .. } => MALFORMED_NUMBER,
            SyntaxError::NumberTooLarge { .. } => NUMBER_TOO_LARGE,
            SyntaxError::NestingTooDeep { .. } => NESTING_TOO_DEEP,
            SyntaxError::ReservedWord { .. } => RESERVED_WORD,
            SyntaxError::BadCollectiveOperand { .. } => BAD_COLLECTIVE_OPERAND,
            SyntaxError::BadBlockSize { .. } => BAD_BLOCK_SIZE,
            SyntaxError::Internal { .. } => INTERNAL_ERROR,
        }
    }

    /// Where the primary label goes: used to sort several errors into source order.
    pub fn span(&self) -> Span {
        match self {
            SyntaxError::Unexpected { span, .. }
            | SyntaxError::Tab { span, .. }
            | SyntaxError::StrayCharacter { span, .. }
            | SyntaxError::UnmatchedCloser { span, .. }
            | SyntaxError::UnexpectedIndent { span, .. }
            | SyntaxError::InconsistentDedent { span, .. }
            | SyntaxError::MisplacedThenElse { span, .. }
            | SyntaxError::MalformedNumber { span, .. }
            | SyntaxError::NumberTooLarge { span, .. }
            | SyntaxError::NestingTooDeep { span }
            | SyntaxError::ReservedWord { span, .. }
            | SyntaxError::BadBlockSize { span }
            | SyntaxError::Internal { span, .. } => *span,
            SyntaxError::UnclosedDelimiter { open, .. } => *open,
            SyntaxError::MissingBlock { header, .. } => *header,
            SyntaxError::ChainedComparison { second, .. } => *second,
            SyntaxError::BadCollectiveOperand { operand, .. } => *operand,
        }
    }
}

fn describe_found(found: &Found) -> String {
    match found {
        Found::EndOfLine => "end of line".to_string(),
        Found::EndOfFile => "end of file".to_string(),
        Found::Keyword(k) => format!("keyword `{k}`"),
        Found::Token(t) => format!("`{t}`"),
    }
}

/// "a", "a or b", "a, b or c".
fn one_of(expected: &[Expected]) -> String {
    let words: Vec<String> = expected.iter().map(|e| e.describe()).collect();
    match words.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

fn column_list(levels: &[usize]) -> String {
    let words: Vec<String> = levels.iter().map(|l| l.to_string()).collect();
    match words.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

fn hint_text(hint: Hint) -> &'static str {
    match hint {
        Hint::AssignWithArrow => "LOOM declares and assigns with `<-`, as in `x: Int32 <- 1` or `x <- 2`",
        Hint::ArrowInExpression => {
            "`<-` is always the assignment arrow; to compare with a negative number write `x < -1`, with a space"
        }
        Hint::LeadingPoint => "a float literal needs a digit before the point: write `0.5`, not `.5`",
        Hint::LetNeedsInit => {
            "a variable needs an initial value, as in `x: Int32 <- 0`; only `shared` arrays may be declared without one"
        }
        Hint::ItemAtColumnZero => "`kernel`, `func` and `type` declarations start at column 0, outside any block",
        Hint::StatementAtTopLevel => {
            "statements belong in the indented body of a `kernel` or `func`; the top level holds only `kernel`, `func` and `type` declarations"
        }
    }
}

impl From<SyntaxError> for Diagnostic {
    fn from(error: SyntaxError) -> Diagnostic {
        let code = error.code();
        match error {
            SyntaxError::Unexpected { found, span, expected, hint } => {
                let found_text = describe_found(&found);
                let (message, label) = if expected.is_empty() {
                    (format!("unexpected {found_text}"), "unexpected here".to_string())
                } else {
                    let wanted = one_of(&expected);
                    (format!("expected {wanted}, found {found_text}"), format!("expected {wanted}"))
                };
                let diagnostic = Diagnostic::error(code, message).primary(span, label);
                match hint {
                    Some(hint) => diagnostic.help(hint_text(hint)),
                    None => diagnostic,
                }
            }
            SyntaxError::Tab { span, in_indentation } => {
                if in_indentation {
                    Diagnostic::error(code, "tab character in indentation")
                        .primary(span, "tab here")
                        .note("LOOM's blocks are made by indentation, and a tab has no agreed width")
                        .help("indent with spaces")
                } else {
                    Diagnostic::error(code, "tab character in source")
                        .primary(span, "tab here")
                        .help("separate tokens with spaces; tabs are allowed only inside comments")
                }
            }
            SyntaxError::StrayCharacter { ch, span } => {
                let shown = if ch.is_control() || ch.is_whitespace() { format!("{:?}", ch) } else { format!("`{ch}`") };
                let diagnostic = Diagnostic::error(code, format!("character {shown} is not allowed here"))
                    .primary(span, "not part of LOOM's syntax");
                match ch {
                    ';' => diagnostic.help("statements end at the end of the line; remove the `;`"),
                    '"' | '\'' => diagnostic.help("LOOM has no string or character literals"),
                    '@' => diagnostic.help("the only attribute is `@blocksize(N)` (or `@blocksize(R, C)`), on the line before a `kernel`"),
                    '!' => diagnostic.help("write `not b` for negation and `!=` for inequality"),
                    '#' | '/' => diagnostic.help("comments start with `--`"),
                    '\r' => diagnostic.help("end lines with `\\n` or `\\r\\n`"),
                    _ => diagnostic,
                }
            }
            SyntaxError::UnclosedDelimiter { delim, open, closed_later: Some(close), .. } => Diagnostic::error(
                code,
                format!("unclosed `{}`: it must close on the line where it opens", delim.open()),
            )
            .primary(open, format!("unclosed `{}` at the end of this line", delim.open()))
            .secondary(close, "closed on a later line")
            .note("LOOM statements end at the end of the line; lists, indices and records cannot continue on the next")
            .help("join the lines, or name parts of the expression with variables"),
            SyntaxError::UnclosedDelimiter { delim, open, end, at_eof, also_unclosed, closed_later: None } => {
                let ends = if at_eof { "the file ends here" } else { "the line ends here" };
                let mut diagnostic = Diagnostic::error(code, format!("unclosed `{}`", delim.open()))
                    .primary(open, format!("unclosed `{}`", delim.open()))
                    .secondary(end, format!("{ends}, before a matching `{}`", delim.close()));
                for other in also_unclosed {
                    diagnostic = diagnostic.secondary(other, "this delimiter is unclosed too");
                }
                diagnostic
                    .note("parentheses, brackets and braces must close on the line where they open")
                    .help(format!("add `{}`", delim.close()))
            }
            SyntaxError::UnmatchedCloser { delim, span, open } => {
                let message = format!("unmatched closing `{}`", delim.close());
                match open {
                    Some((open_delim, open_span)) => Diagnostic::error(code, message)
                        .primary(span, format!("expected `{}` here", open_delim.close()))
                        .secondary(open_span, format!("to close this `{}`", open_delim.open())),
                    None => Diagnostic::error(code, message)
                        .primary(span, "no opening delimiter before this")
                        .help(format!("remove the `{}` or add the missing `{}`", delim.close(), delim.open())),
                }
            }
            SyntaxError::UnexpectedIndent { span, previous } => {
                let diagnostic =
                    Diagnostic::error(code, "unexpected indentation").primary(span, "this line is indented too far");
                match previous {
                    Some(previous) => diagnostic
                        .secondary(previous, "the line above does not start a block")
                        .help("indent this line like the statement above it"),
                    None => diagnostic.help("the first declaration starts at column 0"),
                }
            }
            SyntaxError::InconsistentDedent { span, indent, levels } => {
                Diagnostic::error(code, "inconsistent dedent: this line lines up with no enclosing block")
                    .primary(span, format!("dedented to column {indent}"))
                    .note(format!("the enclosing blocks start at column {}", column_list(&levels)))
                    .help("indent the line like the block it belongs to")
            }
            SyntaxError::MissingBlock { header, next } => {
                let diagnostic = Diagnostic::error(code, "expected an indented block")
                    .primary(header, "this line must be followed by an indented block");
                let diagnostic = match next {
                    Some(next) => diagnostic.secondary(next, "this line is not indented further"),
                    None => diagnostic,
                };
                diagnostic.help("indent the body further than the line that starts it, e.g. by two spaces")
            }
            SyntaxError::MisplacedThenElse { keyword, span } => {
                let diagnostic = Diagnostic::error(code, format!("`{keyword}` without a matching `if`"))
                    .primary(span, format!("no `if` takes this `{keyword}`"));
                if keyword == "else" {
                    diagnostic.help(
                        "line `else` up with its `then` line, or with its `if` when the `if` has an indented block and no `then`",
                    )
                } else {
                    diagnostic.help("`then` follows `if c` on the same line, or starts a line indented below `if c`")
                }
            }
            SyntaxError::ChainedComparison { first, second } => {
                Diagnostic::error(code, "comparison operators cannot be chained")
                    .primary(second, "second comparison")
                    .secondary(first, "first comparison")
                    .help("combine the comparisons with `and`, as in `a < b and b < c`")
            }
            SyntaxError::MalformedNumber { span, problem } => {
                let (label, help) = match problem {
                    NumberProblem::NoDigits { prefix } => {
                        (format!("`{prefix}` must be followed by digits"), "write e.g. `0xff` or `0b101`".to_string())
                    }
                    NumberProblem::InvalidDigit { ch, base } => (
                        format!("`{ch}` is not a {base} digit"),
                        "separate a number from a following name with a space or an operator".to_string(),
                    ),
                    NumberProblem::MissingExponent => {
                        ("the exponent has no digits".to_string(), "write e.g. `1e3` or `2.5e-4`".to_string())
                    }
                    NumberProblem::ExtraPoint => {
                        ("unexpected `.` in number".to_string(), "write e.g. `1.5` or `2.0e10`".to_string())
                    }
                };
                Diagnostic::error(code, "malformed number literal").primary(span, label).help(help)
            }
            SyntaxError::NumberTooLarge { span, float } => {
                if float {
                    Diagnostic::error(code, "float literal out of range")
                        .primary(span, "too large to represent as a `Float64`")
                        .note("the largest finite `Float64` is 1.7976931348623157e308; a literal rounds to infinity from about 1.797693134862315807e308 on")
                } else {
                    Diagnostic::error(code, "integer literal too large")
                        .primary(span, "does not fit in 128 bits")
                        .note("the largest integer type is `UInt64`")
                }
            }
            SyntaxError::NestingTooDeep { span } => Diagnostic::error(code, "expression nested too deeply")
                .primary(span, "nesting limit reached here")
                .help("split the expression or the block into smaller pieces with named variables"),
            SyntaxError::ReservedWord { word, span, wanted_expression } => {
                let message = format!("`{word}` is a reserved word");
                let label = if wanted_expression {
                    format!("expected an expression, found keyword `{word}`")
                } else {
                    format!("expected a name, found keyword `{word}`")
                };
                let diagnostic = Diagnostic::error(code, message).primary(span, label);
                if wanted_expression && word == "if" {
                    diagnostic.help("LOOM has no `if` expression; use `select(condition, a, b)`")
                } else if wanted_expression {
                    diagnostic.help(format!("`{word}` cannot start an expression"))
                } else {
                    diagnostic.help(format!("reserved words cannot be names; try `{word}_` or another name"))
                }
            }
            SyntaxError::BadCollectiveOperand { op, op_span, operand } => {
                Diagnostic::error(code, format!("the left operand of `{}` must be a function", op.symbol()))
                    .primary(operand, "expected a function name `f` or a partial application `f(x)`")
                    .secondary(op_span, "collective operator")
                    .note(
                        "a collective binds more loosely than every other operator: `a + f /~ v` means `(a + f) /~ v`",
                    )
                    .help(format!("put the collective in parentheses: `(f {} v)`", op.symbol()))
            }
            SyntaxError::BadBlockSize { span } => Diagnostic::error(code, "invalid block size")
                .primary(span, "expected a positive integer literal")
                .help("write e.g. `@blocksize(128)`, or `@blocksize(16, 16)` for 16 rows of 16 threads"),
            SyntaxError::Internal { span, what } => Diagnostic::error(code, format!("internal compiler error: {what}"))
                .primary(span, "while parsing this")
                .note("this is a bug in loomc, not in your program; please report it"),
        }
    }
}
