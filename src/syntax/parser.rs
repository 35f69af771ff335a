//! Parses LOOM source with the grammar in `loom.pest` and lowers pest pairs to the AST.
//!
//! Three steps, each of which can report errors:
//! 1. `layout::check` scans the raw text: characters, delimiters, nesting depth and indentation.
//!    It reports every such problem in the file, and bounds nesting so that the next steps
//!    cannot overflow the stack.
//! 2. pest parses; on failure, `failure` turns pest's furthest position and expected rules into
//!    one readable [`SyntaxError`].
//! 3. One lowering method per grammar rule, named like the rule, builds the AST. Operator
//!    precedence is applied here (the grammar keeps operators in a flat list), and the lowering
//!    reports what the grammar accepts on purpose to explain it better: malformed numbers,
//!    chained comparisons, collectives whose left side is not a function.
//!
//! Expression ids are given in post-order (children before their parent), from `first_expr_id`.

use super::ast::*;
use super::error::{Expected, Found, Hint, NumberProblem, SyntaxError};
use super::span::{FileId, Span};
use crate::diagnostics::Diagnostic;
use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pair;
use pest::Parser as _;

mod layout;

use layout::TokenKind;
pub use layout::KEYWORDS;

#[derive(pest_derive::Parser)]
#[grammar = "../loom.pest"]
struct LoomParser;

/// Parses one source file. Expression ids start at `first_expr_id` so that several files (the
/// user's program and the standard library) can share one id space; `Program::expr_count` says
/// where the next file should start.
pub fn parse(file: FileId, source: &str, first_expr_id: u32) -> Result<Program, Vec<Diagnostic>> {
    on_parser_thread(file, || parse_here(file, source, 0, first_expr_id))
}

/// Parses the items of `source` that lie in `parts` (byte ranges, in order, each a whole number
/// of top-level items with what follows them up to the next item), as if the rest of the file
/// were not there: spans are the file's, and expression ids run on from `first_expr_id` over the
/// parts in order. The driver parses only the standard library's items a program can name
/// (`crate::stdlib`). Errors point into the part, not the file: a caller that gets any parses
/// the whole file instead.
pub fn parse_parts(
    file: FileId,
    source: &str,
    parts: &[std::ops::Range<usize>],
    first_expr_id: u32,
) -> Result<Program, Vec<Diagnostic>> {
    on_parser_thread(file, || {
        let mut program = Program {
            items: Vec::new(),
            expr_count: first_expr_id,
            library_start: 0,
        };
        for part in parts {
            let text = source.get(part.clone()).ok_or_else(|| {
                let error = SyntaxError::Internal {
                    span: Span::new(file, 0, 0),
                    what: "a part of the file that is not one",
                };
                vec![Diagnostic::from(error)]
            })?;
            let parsed = parse_here(file, text, part.start, program.expr_count)?;
            program.items.extend(parsed.items);
            program.expr_count = parsed.expr_count;
        }
        program.library_start = program.items.len();
        Ok(program)
    })
}

fn on_parser_thread(
    file: FileId,
    parse: impl FnOnce() -> Result<Program, Vec<Diagnostic>> + Send,
) -> Result<Program, Vec<Diagnostic>> {
    // `layout` bounds how deeply pest and the lowering recurse, but their frames are large in
    // debug builds: on a thread of its own the parser does not depend on the caller's stack (a
    // test thread has 2 MiB). A panic there would be a bug; it becomes an internal error.
    let mut parse = Some(parse);
    let spawned = std::thread::scope(|scope| {
        let on_thread = std::thread::Builder::new()
            .name("loom-parser".to_string())
            .stack_size(PARSER_STACK_BYTES)
            .spawn_scoped(scope, || parse.take().map(|parse| parse()));
        on_thread.map(|handle| handle.join())
    });
    match spawned {
        Ok(Ok(Some(result))) => result,
        Ok(_) => {
            let error = SyntaxError::Internal {
                span: Span::new(file, 0, 0),
                what: "the parser panicked",
            };
            Err(vec![Diagnostic::from(error)])
        }
        // No thread to be had: parse here.
        Err(_) => match parse.take() {
            Some(parse) => parse(),
            None => Err(vec![Diagnostic::from(SyntaxError::Internal {
                span: Span::new(file, 0, 0),
                what: "the parser thread could not start",
            })]),
        },
    }
}

/// Enough for `layout::MAX_EXPR_DEPTH` nested calls in a debug build, several times over.
const PARSER_STACK_BYTES: usize = 32 << 20;

/// Parses `source`, which starts at byte `base` of the file (spans are the file's).
fn parse_here(
    file: FileId,
    source: &str,
    base: usize,
    first_expr_id: u32,
) -> Result<Program, Vec<Diagnostic>> {
    let layout_errors = layout::check(file, source);
    if !layout_errors.is_empty() {
        return Err(layout_errors.into_iter().map(Diagnostic::from).collect());
    }
    let mut pairs = match LoomParser::parse(Rule::file, source) {
        Ok(pairs) => pairs,
        Err(error) => return Err(vec![Diagnostic::from(failure(file, source, &error))]),
    };
    let mut lowering = Lowering {
        file,
        base,
        next_id: first_expr_id,
        errors: Vec::new(),
        depth: 0,
        operators: 0,
        in_expression: false,
    };
    let whole = Span::new(file, base, base + source.len());
    let result = match pairs.next() {
        Some(pair) => lowering.file(pair),
        None => Err(SyntaxError::Internal {
            span: whole,
            what: "pest returned no `file` pair",
        }),
    };
    let mut errors = lowering.errors;
    match result {
        Ok(items) if errors.is_empty() => Ok(Program {
            library_start: items.len(),
            items,
            expr_count: lowering.next_id,
        }),
        Ok(_) => {
            errors.sort_by_key(|e| (e.span().start, e.span().end));
            Err(errors.into_iter().map(Diagnostic::from).collect())
        }
        Err(error) => {
            errors.push(error);
            Err(errors.into_iter().map(Diagnostic::from).collect())
        }
    }
}

// ------------------------------------------------------------------------------------------------
// Parse failures

/// Turns pest's failure into one error: what was found at the furthest position pest reached,
/// and what it would have accepted there, in words.
fn failure(file: FileId, source: &str, error: &pest::error::Error<Rule>) -> SyntaxError {
    let offset = match error.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((start, _)) => start,
    };
    let positives: &[Rule] = match &error.variant {
        ErrorVariant::ParsingError { positives, .. } => positives,
        ErrorVariant::CustomError { .. } => &[],
    };
    let mut expected: Vec<Expected> = positives
        .iter()
        .filter_map(|rule| expected(*rule))
        .collect();
    expected.sort();
    expected.dedup();
    if expected.contains(&Expected::Operator) {
        // `(`, `[`, `[[` and `.` after an operand are postfix operators: "an operator" covers them.
        expected.retain(|e| !matches!(e, Expected::Punct("(" | "[" | "[[" | ".")));
    }
    if expected.contains(&Expected::Expression) {
        expected.retain(|e| *e != Expected::Name);
    }
    if expected.contains(&Expected::Statement) {
        // An assignment starts with an expression: "a statement" says it.
        expected.retain(|e| *e != Expected::Expression);
    }
    if expected.contains(&Expected::Item) {
        expected.retain(|e| *e != Expected::Keyword("kernel"));
    }
    if expected.contains(&Expected::EndOfLine) || expected.contains(&Expected::Statement) {
        // The end of the file ends lines and blocks too; "end of line" or a statement says it.
        expected.retain(|e| *e != Expected::EndOfFile);
    }
    expected.truncate(5);

    let (kind, start, end) = layout::token_at(source, offset);
    let text = source.get(start..end).unwrap_or("");
    let span = Span::new(file, start, end);
    let found = match kind {
        TokenKind::EndOfLine => Found::EndOfLine,
        TokenKind::EndOfFile => Found::EndOfFile,
        TokenKind::Keyword => Found::Keyword(text.to_string()),
        TokenKind::Word | TokenKind::Symbol => Found::Token(text.to_string()),
    };
    let line_start = source
        .get(..start)
        .and_then(|s| s.rfind('\n'))
        .map(|p| p + 1)
        .unwrap_or(0);
    let column = start.saturating_sub(line_start);
    if expected.is_empty() && column == 0 {
        // pest records no attempt at the very start of the file, where only a declaration fits.
        expected.push(Expected::Item);
    }
    if matches!(text, "kernel" | "func" | "type") && column > 0 {
        return SyntaxError::Unexpected {
            found,
            span,
            expected,
            hint: Some(Hint::ItemAtColumnZero),
        };
    }
    if kind == TokenKind::Keyword {
        let wants_name = expected.contains(&Expected::Name);
        let wants_expression = expected.contains(&Expected::Expression);
        if wants_name {
            return SyntaxError::ReservedWord {
                word: text.to_string(),
                span,
                wanted_expression: false,
            };
        }
        for keyword in ["then", "else"] {
            if text == keyword && !expected.contains(&Expected::Keyword(keyword)) {
                return SyntaxError::MisplacedThenElse { keyword, span };
            }
        }
        if wants_expression && !matches!(text, "true" | "false" | "not") {
            return SyntaxError::ReservedWord {
                word: text.to_string(),
                span,
                wanted_expression: true,
            };
        }
    }
    let at_line_end = matches!(kind, TokenKind::EndOfLine | TokenKind::EndOfFile);
    let hint = if text == "=" && expected.contains(&Expected::Arrow) {
        Some(Hint::AssignWithArrow)
    } else if text == "<-" && !expected.contains(&Expected::Arrow) {
        Some(Hint::ArrowInExpression)
    } else if text == "."
        && expected.contains(&Expected::Expression)
        && source.as_bytes().get(end).is_some_and(u8::is_ascii_digit)
    {
        Some(Hint::LeadingPoint)
    } else if at_line_end
        && expected.contains(&Expected::Arrow)
        && !expected.contains(&Expected::Punct(":"))
    {
        Some(Hint::LetNeedsInit)
    } else if expected.contains(&Expected::Item)
        && !at_line_end
        && !matches!(text, "kernel" | "func" | "type")
    {
        Some(Hint::StatementAtTopLevel)
    } else {
        None
    };
    SyntaxError::Unexpected {
        found,
        span,
        expected,
        hint,
    }
}

/// What a rule that pest tried means to a reader; `None` for rules that say nothing useful.
fn expected(rule: Rule) -> Option<Expected> {
    use Expected as E;
    Some(match rule {
        Rule::expr
        | Rule::binary
        | Rule::operand
        | Rule::postfix
        | Rule::prefix_op
        | Rule::paren_expr
        | Rule::record_lit
        | Rule::vector_lit
        | Rule::call
        | Rule::bool_lit
        | Rule::number
        | Rule::kw_true
        | Rule::kw_false
        | Rule::kw_not => E::Expression,
        Rule::ident | Rule::param | Rule::field_type | Rule::field_init => E::Name,
        Rule::type_expr | Rule::record_type => E::Type,
        Rule::arrow => E::Arrow,
        Rule::infix_op | Rule::collective_op => E::Operator,
        Rule::line_sep | Rule::block_indent | Rule::block | Rule::file_end => E::EndOfLine,
        Rule::EOI => E::EndOfFile,
        Rule::let_stmt
        | Rule::shared_let
        | Rule::if_stmt
        | Rule::if_inner
        | Rule::for_stmt
        | Rule::while_stmt
        | Rule::return_stmt
        | Rule::assign_stmt
        | Rule::call_stmt
        | Rule::then_branch
        | Rule::else_branch
        | Rule::kw_shared
        | Rule::kw_if
        | Rule::kw_for
        | Rule::kw_while
        | Rule::kw_return => E::Statement,
        Rule::kernel_decl
        | Rule::func_decl
        | Rule::type_alias
        | Rule::blocksize_attr
        | Rule::at_blocksize
        | Rule::kw_func
        | Rule::kw_type => E::Item,
        Rule::kw_kernel => E::Keyword("kernel"),
        Rule::kw_then => E::Keyword("then"),
        Rule::kw_else => E::Keyword("else"),
        Rule::kw_and => E::Keyword("and"),
        Rule::kw_or => E::Keyword("or"),
        Rule::lparen | Rule::params | Rule::call_args => E::Punct("("),
        Rule::rparen => E::Punct(")"),
        Rule::lbracket | Rule::index | Rule::array_dims => E::Punct("["),
        Rule::rbracket => E::Punct("]"),
        Rule::dlbracket | Rule::checked_index => E::Punct("[["),
        Rule::drbracket => E::Punct("]]"),
        Rule::lbrace => E::Punct("{"),
        Rule::rbrace => E::Punct("}"),
        Rule::comma => E::Punct(","),
        Rule::colon => E::Punct(":"),
        Rule::equals => E::Punct("="),
        Rule::dot | Rule::field => E::Punct("."),
        _ => return None,
    })
}

// ------------------------------------------------------------------------------------------------
// Lowering

type Lowered<T> = Result<T, SyntaxError>;

/// Pairs that only carry layout, keywords or punctuation: the lowering skips them.
fn is_token(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::EOI
            | Rule::block_indent
            | Rule::line_sep
            | Rule::file_end
            | Rule::kw_kernel
            | Rule::kw_func
            | Rule::kw_type
            | Rule::kw_shared
            | Rule::kw_if
            | Rule::kw_then
            | Rule::kw_else
            | Rule::kw_for
            | Rule::kw_while
            | Rule::kw_return
            | Rule::at_blocksize
            | Rule::arrow
            | Rule::lparen
            | Rule::rparen
            | Rule::lbracket
            | Rule::rbracket
            | Rule::dlbracket
            | Rule::drbracket
            | Rule::lbrace
            | Rule::rbrace
            | Rule::comma
            | Rule::colon
            | Rule::equals
            | Rule::dot
    )
}

/// Pairs that may end a rule's match without being part of what the rule means.
fn is_layout(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::EOI | Rule::block_indent | Rule::line_sep | Rule::file_end
    )
}

/// The meaningful children of a pair, consumed in order. The grammar guarantees their shape;
/// when it does not hold, the lowering reports an internal error instead of panicking.
struct Children<'i> {
    pairs: Vec<Pair<'i, Rule>>,
    next: usize,
    parent: Span,
}

impl<'i> Children<'i> {
    fn peek_rule(&self) -> Option<Rule> {
        self.pairs.get(self.next).map(|p| p.as_rule())
    }

    fn next(&mut self, what: &'static str) -> Lowered<Pair<'i, Rule>> {
        let pair = self.pairs.get(self.next).cloned();
        self.next += 1;
        pair.ok_or(SyntaxError::Internal {
            span: self.parent,
            what,
        })
    }

    fn expect(&mut self, rule: Rule, what: &'static str) -> Lowered<Pair<'i, Rule>> {
        match self.peek_rule() {
            Some(r) if r == rule => self.next(what),
            _ => Err(SyntaxError::Internal {
                span: self.parent,
                what,
            }),
        }
    }

    fn take_if(&mut self, rule: Rule) -> Option<Pair<'i, Rule>> {
        if self.peek_rule() == Some(rule) {
            self.next += 1;
            self.pairs.get(self.next - 1).cloned()
        } else {
            None
        }
    }

    fn rest(&mut self) -> Vec<Pair<'i, Rule>> {
        let rest = self
            .pairs
            .get(self.next..)
            .map(<[_]>::to_vec)
            .unwrap_or_default();
        self.next = self.pairs.len();
        rest
    }
}

/// Operators and operands of a `binary` rule, in source order, before precedence is applied.
enum Piece {
    Prefix(UnaryOp, Span),
    Operand(Expr),
    Infix(BinaryOp, Span),
}

const PREC_OR: u8 = 1;
const PREC_AND: u8 = 2;
/// The operand of `not` may contain comparisons and everything that binds tighter.
const PREC_COMPARE: u8 = 4;
const PREC_BIT_OR: u8 = 5;
const PREC_BIT_XOR: u8 = 6;
const PREC_BIT_AND: u8 = 7;
const PREC_SHIFT: u8 = 8;
const PREC_ADD: u8 = 9;
const PREC_MUL: u8 = 10;
/// The operand of `-` and `~`: an atom with its postfix operators.
const PREC_UNARY: u8 = 11;

fn precedence(op: BinaryOp) -> u8 {
    use BinaryOp::*;
    match op {
        Or => PREC_OR,
        And => PREC_AND,
        Eq | Ne | Lt | Le | Gt | Ge => PREC_COMPARE,
        BitOr => PREC_BIT_OR,
        BitXor => PREC_BIT_XOR,
        BitAnd => PREC_BIT_AND,
        Shl | Shr => PREC_SHIFT,
        Add | Sub => PREC_ADD,
        Mul | Div | Rem => PREC_MUL,
    }
}

/// Recursion allowed while lowering expressions; `layout` keeps real input well below it.
const MAX_LOWERING_DEPTH: u32 = 4 * layout::MAX_EXPR_DEPTH as u32;

/// Binary operators in one expression (nested ones included). A chain `a + b + ...` is lowered
/// without recursion but makes a tree as deep as it is long, which the checker and code
/// generation walk recursively: 8,000 operators overflowed the main thread's 8 MiB stack, so
/// `loomc` compiles on a 64 MiB thread and expressions are bounded here.
const MAX_EXPR_OPERATORS: u32 = 10_000;

struct Lowering {
    file: FileId,
    /// Where the text being parsed starts in the file: added to every span.
    base: usize,
    next_id: u32,
    /// Errors that do not stop the lowering; the program is discarded if there are any.
    errors: Vec<SyntaxError>,
    depth: u32,
    /// Binary operators in the outermost expression being lowered, and whether one is.
    operators: u32,
    in_expression: bool,
}

impl Lowering {
    /// The file's span of `start..end`, positions in the text being parsed.
    fn at(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, self.base + start, self.base + end)
    }

    /// The span of a pair without trailing spaces or comments: pest lets a rule that ends in an
    /// optional part absorb the implicit whitespace before it, so the end is taken from the last
    /// token inside the pair instead: the last pair inside it, in the order of the text, that is
    /// not layout (layout rules are atomic, so no token lies inside one). Found from the end, in
    /// a step or two: walking down the last children, each level's children from the first,
    /// was a fifth of the parser's time.
    fn span(&self, pair: &Pair<'_, Rule>) -> Span {
        let start = pair.as_span().start();
        let end = pair
            .clone()
            .into_inner()
            .flatten()
            .rev()
            .find(|p| !is_layout(p.as_rule()))
            .map_or(pair.as_span().end(), |last| last.as_span().end());
        self.at(start, end.max(start))
    }

    fn children<'i>(&self, pair: &Pair<'i, Rule>) -> Children<'i> {
        Children {
            pairs: pair
                .clone()
                .into_inner()
                .filter(|p| !is_token(p.as_rule()))
                .collect(),
            next: 0,
            parent: self.span(pair),
        }
    }

    fn internal(&self, pair: &Pair<'_, Rule>, what: &'static str) -> SyntaxError {
        SyntaxError::Internal {
            span: self.span(pair),
            what,
        }
    }

    fn make(&mut self, kind: ExprKind, span: Span) -> Expr {
        let id = ExprId(self.next_id);
        self.next_id = self.next_id.saturating_add(1);
        Expr { id, kind, span }
    }

    /// Counts one level of recursion; fails instead of overflowing the stack.
    fn enter(&mut self, span: Span) -> Lowered<()> {
        self.depth += 1;
        if self.depth > MAX_LOWERING_DEPTH {
            return Err(SyntaxError::NestingTooDeep { span });
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    // -------------------------------------------------------------------------------- items

    fn file(&mut self, pair: Pair<'_, Rule>) -> Lowered<Vec<Item>> {
        let mut items = Vec::new();
        for child in self.children(&pair).rest() {
            items.push(match child.as_rule() {
                Rule::kernel_decl => Item::Kernel(self.kernel_decl(child)?),
                Rule::func_decl => Item::Func(self.func_decl(child)?),
                Rule::type_alias => Item::TypeAlias(self.type_alias(child)?),
                _ => return Err(self.internal(&child, "unexpected pair at the top level")),
            });
        }
        Ok(items)
    }

    fn kernel_decl(&mut self, pair: Pair<'_, Rule>) -> Lowered<KernelDecl> {
        let span = self.span(&pair);
        let mut c = self.children(&pair);
        let block_size = match c.take_if(Rule::blocksize_attr) {
            Some(attr) => Some(self.blocksize_attr(attr)?),
            None => None,
        };
        let name = self.ident(c.expect(Rule::ident, "kernel name")?);
        let params = self.params(c.expect(Rule::params, "kernel parameters")?)?;
        let body = self.block(c.expect(Rule::block, "kernel body")?)?;
        Ok(KernelDecl {
            name,
            params,
            block_size,
            body,
            span,
        })
    }

    fn blocksize_attr(&mut self, pair: Pair<'_, Rule>) -> Lowered<BlockSizeAttr> {
        // The attribute ends at its `)`, not at the line break that `line_sep` matched.
        let start = pair.as_span().start();
        let end = pair
            .clone()
            .into_inner()
            .filter(|p| p.as_rule() == Rule::rparen)
            .map(|p| p.as_span().end())
            .last();
        let span = self.at(start, end.unwrap_or(pair.as_span().end()));
        let numbers: Vec<Pair<'_, Rule>> = pair
            .clone()
            .into_inner()
            .filter(|p| p.as_rule() == Rule::number)
            .collect();
        let Some(first) = numbers.first() else {
            return Err(self.internal(&pair, "block size literal"));
        };
        let value = self.block_size_number(first);
        let cols = numbers.get(1).map(|n| self.block_size_number(n));
        Ok(BlockSizeAttr { value, cols, span })
    }

    /// One number of `@blocksize(...)`: a positive integer literal (0 after an error).
    fn block_size_number(&mut self, number: &Pair<'_, Rule>) -> u64 {
        let number_span = self.span(number);
        match parse_number(number.as_str()) {
            Ok(Number::Int(0)) | Ok(Number::Float(_)) => {
                self.errors
                    .push(SyntaxError::BadBlockSize { span: number_span });
                0
            }
            Ok(Number::Int(v)) => match u64::try_from(v) {
                Ok(v) => v,
                Err(_) => {
                    self.errors.push(SyntaxError::NumberTooLarge {
                        span: number_span,
                        float: false,
                    });
                    0
                }
            },
            Err(error) => {
                self.errors.push(error.at(number_span));
                0
            }
        }
    }

    fn func_decl(&mut self, pair: Pair<'_, Rule>) -> Lowered<FuncDecl> {
        let span = self.span(&pair);
        let mut c = self.children(&pair);
        let name = self.ident(c.expect(Rule::ident, "func name")?);
        let params = self.params(c.expect(Rule::params, "func parameters")?)?;
        let ret = match c.take_if(Rule::type_expr) {
            Some(ty) => Some(self.type_expr(ty)?),
            None => None,
        };
        let body = self.block(c.expect(Rule::block, "func body")?)?;
        Ok(FuncDecl {
            name,
            params,
            ret,
            body,
            span,
        })
    }

    fn type_alias(&mut self, pair: Pair<'_, Rule>) -> Lowered<TypeAlias> {
        let span = self.span(&pair);
        let mut c = self.children(&pair);
        let name = self.ident(c.expect(Rule::ident, "type alias name")?);
        let ty = self.type_expr(c.expect(Rule::type_expr, "aliased type")?)?;
        Ok(TypeAlias { name, ty, span })
    }

    fn params(&mut self, pair: Pair<'_, Rule>) -> Lowered<Vec<Param>> {
        self.children(&pair)
            .rest()
            .into_iter()
            .map(|p| self.param(p))
            .collect()
    }

    fn param(&mut self, pair: Pair<'_, Rule>) -> Lowered<Param> {
        let span = self.span(&pair);
        let mut c = self.children(&pair);
        let name = self.ident(c.expect(Rule::ident, "parameter name")?);
        let ty = self.type_expr(c.expect(Rule::type_expr, "parameter type")?)?;
        Ok(Param {
            name,
            ty,
            span,
            scratch: false,
        })
    }

    fn ident(&self, pair: Pair<'_, Rule>) -> Ident {
        Ident {
            name: pair.as_str().to_string(),
            span: self.span(&pair),
        }
    }

    // -------------------------------------------------------------------------------- types

    fn type_expr(&mut self, pair: Pair<'_, Rule>) -> Lowered<TypeExpr> {
        let span = self.span(&pair);
        let mut c = self.children(&pair);
        let base = c.next("base type")?;
        let elem = match base.as_rule() {
            Rule::record_type => self.record_type(base)?,
            Rule::ident => TypeExpr::Named {
                name: self.ident(base),
            },
            _ => return Err(self.internal(&base, "unexpected pair in a type")),
        };
        match c.take_if(Rule::array_dims) {
            Some(dims) => Ok(TypeExpr::Array {
                elem: Box::new(elem),
                dims: self.array_dims(dims)?,
                span,
            }),
            None => Ok(elem),
        }
    }

    fn record_type(&mut self, pair: Pair<'_, Rule>) -> Lowered<TypeExpr> {
        let span = self.span(&pair);
        let fields = self
            .children(&pair)
            .rest()
            .into_iter()
            .map(|p| self.field_type(p))
            .collect::<Lowered<_>>()?;
        Ok(TypeExpr::Record { fields, span })
    }

    fn field_type(&mut self, pair: Pair<'_, Rule>) -> Lowered<FieldType> {
        let span = self.span(&pair);
        let mut c = self.children(&pair);
        let name = self.ident(c.expect(Rule::ident, "field name")?);
        let ty = self.type_expr(c.expect(Rule::type_expr, "field type")?)?;
        Ok(FieldType { name, ty, span })
    }

    fn array_dims(&mut self, pair: Pair<'_, Rule>) -> Lowered<Vec<Expr>> {
        self.expr_list(&pair)
    }

    // -------------------------------------------------------------------------------- statements

    fn block(&mut self, pair: Pair<'_, Rule>) -> Lowered<Block> {
        let parent = self.span(&pair);
        self.enter(parent)?;
        let stmts = self
            .children(&pair)
            .rest()
            .into_iter()
            .map(|p| self.stmt(p))
            .collect::<Lowered<Vec<_>>>()?;
        self.leave();
        let span = match (stmts.first(), stmts.last()) {
            (Some(first), Some(last)) => first.span().to(last.span()),
            _ => parent,
        };
        Ok(Block { stmts, span })
    }

    /// `stmt` and `then_stmt` are silent choices: this dispatches on the statement's own rule.
    fn stmt(&mut self, pair: Pair<'_, Rule>) -> Lowered<Stmt> {
        match pair.as_rule() {
            Rule::let_stmt => self.let_stmt(pair),
            Rule::shared_let => self.shared_let(pair),
            Rule::assign_stmt => self.assign_stmt(pair),
            Rule::if_stmt => self.if_stmt(pair),
            Rule::if_inner => self.if_inner(pair),
            Rule::for_stmt => self.for_stmt(pair),
            Rule::while_stmt => self.while_stmt(pair),
            Rule::return_stmt => self.return_stmt(pair),
            Rule::call_stmt => self.call_stmt(pair),
            _ => Err(self.internal(&pair, "unexpected pair where a statement should be")),
        }
    }

    fn let_stmt(&mut self, pair: Pair<'_, Rule>) -> Lowered<Stmt> {
        let span = self.span(&pair);
        let mut c = self.children(&pair);
        let name = self.ident(c.expect(Rule::ident, "variable name")?);
        let ty = self.type_expr(c.expect(Rule::type_expr, "variable type")?)?;
        let init = self.expr(c.expect(Rule::expr, "initializer")?)?;
        Ok(Stmt::Let {
            name,
            ty,
            init: Some(init),
            shared: false,
            span,
        })
    }

    fn shared_let(&mut self, pair: Pair<'_, Rule>) -> Lowered<Stmt> {
        let span = self.span(&pair);
        let mut c = self.children(&pair);
        let name = self.ident(c.expect(Rule::ident, "variable name")?);
        let ty = self.type_expr(c.expect(Rule::type_expr, "variable type")?)?;
        let init = match c.take_if(Rule::expr) {
            Some(e) => Some(self.expr(e)?),
            None => None,
        };
        Ok(Stmt::Let {
            name,
            ty,
            init,
            shared: true,
            span,
        })
    }

    fn call_stmt(&mut self, pair: Pair<'_, Rule>) -> Lowered<Stmt> {
        let span = self.span(&pair);
        let mut c = self.children(&pair);
        let call = self.call(c.expect(Rule::call, "call")?)?;
        Ok(Stmt::Call { call, span })
    }

    fn assign_stmt(&mut self, pair: Pair<'_, Rule>) -> Lowered<Stmt> {
        let span = self.span(&pair);
        let mut c = self.children(&pair);
        let target = self.expr(c.expect(Rule::expr, "assignment target")?)?;
        let value = self.expr(c.expect(Rule::expr, "assigned value")?)?;
        Ok(Stmt::Assign {
            target,
            value,
            span,
        })
    }

    fn if_stmt(&mut self, pair: Pair<'_, Rule>) -> Lowered<Stmt> {
        self.if_parts(pair)
    }

    /// An `if` after `then`: the same statement, but it cannot take an `else` from a later line.
    fn if_inner(&mut self, pair: Pair<'_, Rule>) -> Lowered<Stmt> {
        self.if_parts(pair)
    }

    fn if_parts(&mut self, pair: Pair<'_, Rule>) -> Lowered<Stmt> {
        let span = self.span(&pair);
        self.enter(span)?;
        let mut c = self.children(&pair);
        let cond = self.expr(c.expect(Rule::expr, "if condition")?)?;
        let then = c.next("then branch")?;
        let then_branch = match then.as_rule() {
            Rule::then_branch => self.then_branch(then)?,
            Rule::block => self.block(then)?,
            _ => return Err(self.internal(&then, "unexpected pair where a then branch should be")),
        };
        let else_branch = match c.take_if(Rule::else_branch) {
            Some(e) => Some(self.else_branch(e)?),
            None => None,
        };
        self.leave();
        Ok(Stmt::If {
            cond,
            then_branch,
            else_branch,
            span,
        })
    }

    fn then_branch(&mut self, pair: Pair<'_, Rule>) -> Lowered<Block> {
        self.branch(pair)
    }

    fn else_branch(&mut self, pair: Pair<'_, Rule>) -> Lowered<Block> {
        self.branch(pair)
    }

    /// A branch is an indented block, or one statement that becomes a block of its own.
    fn branch(&mut self, pair: Pair<'_, Rule>) -> Lowered<Block> {
        let inner = self.children(&pair).next("branch body")?;
        if inner.as_rule() == Rule::block {
            return self.block(inner);
        }
        let stmt = self.stmt(inner)?;
        Ok(Block {
            span: stmt.span(),
            stmts: vec![stmt],
        })
    }

    fn for_stmt(&mut self, pair: Pair<'_, Rule>) -> Lowered<Stmt> {
        let span = self.span(&pair);
        let mut c = self.children(&pair);
        let var = self.ident(c.expect(Rule::ident, "loop variable")?);
        let ty = self.type_expr(c.expect(Rule::type_expr, "loop variable type")?)?;
        let range = self.expr(c.expect(Rule::expr, "loop range")?)?;
        let body = self.block(c.expect(Rule::block, "loop body")?)?;
        Ok(Stmt::For {
            var,
            ty,
            range,
            body,
            span,
        })
    }

    fn while_stmt(&mut self, pair: Pair<'_, Rule>) -> Lowered<Stmt> {
        let span = self.span(&pair);
        let mut c = self.children(&pair);
        let cond = self.expr(c.expect(Rule::expr, "while condition")?)?;
        let body = self.block(c.expect(Rule::block, "loop body")?)?;
        Ok(Stmt::While { cond, body, span })
    }

    fn return_stmt(&mut self, pair: Pair<'_, Rule>) -> Lowered<Stmt> {
        let span = self.span(&pair);
        let value = match self.children(&pair).take_if(Rule::expr) {
            Some(e) => Some(self.expr(e)?),
            None => None,
        };
        Ok(Stmt::Return { value, span })
    }

    // -------------------------------------------------------------------------------- expressions

    fn expr(&mut self, pair: Pair<'_, Rule>) -> Lowered<Expr> {
        if !self.in_expression {
            // The outermost expression: count its operators afresh.
            self.in_expression = true;
            self.operators = 0;
            let result = self.expr(pair);
            self.in_expression = false;
            return result;
        }
        let span = self.span(&pair);
        self.enter(span)?;
        let mut c = self.children(&pair);
        let binary = c.expect(Rule::binary, "expression")?;
        let result = match c.take_if(Rule::collective_op) {
            None => self.binary(binary)?,
            Some(op_pair) => {
                let op = self.collective_op(&op_pair)?;
                let op_span = self.span(&op_pair);
                let func = self.func_ref(binary, op, op_span)?;
                let operand = self.expr(c.expect(Rule::expr, "collective operand")?)?;
                match func {
                    Some(func) => {
                        let span = func.span.to(operand.span);
                        self.make(
                            ExprKind::Collective {
                                op,
                                op_span,
                                func,
                                operand: Box::new(operand),
                            },
                            span,
                        )
                    }
                    // Reported already; the operand stands in so that lowering can go on.
                    None => operand,
                }
            }
        };
        self.leave();
        Ok(result)
    }

    fn collective_op(&self, pair: &Pair<'_, Rule>) -> Lowered<CollectiveOp> {
        Ok(match pair.as_str() {
            "/~" => CollectiveOp::Map,
            "/." => CollectiveOp::Reduce,
            "/:" => CollectiveOp::ScanLeft,
            ":/" => CollectiveOp::ScanRight,
            _ => return Err(self.internal(pair, "unknown collective operator")),
        })
    }

    /// The left operand of a collective must be a bare `f` or `f(args)`: one operand with no
    /// prefix operator and a postfix part that is only a name or a call.
    fn func_ref(
        &mut self,
        binary: Pair<'_, Rule>,
        op: CollectiveOp,
        op_span: Span,
    ) -> Lowered<Option<FuncRef>> {
        let span = self.span(&binary);
        let atom = {
            let mut operands = self.children(&binary).rest();
            let operand = if operands.len() == 1 {
                operands.pop()
            } else {
                None
            };
            let postfix = operand
                .map(|o| self.children(&o).rest())
                .filter(|p| p.len() == 1)
                .and_then(|mut p| p.pop());
            postfix
                .filter(|p| p.as_rule() == Rule::postfix)
                .map(|p| self.children(&p).rest())
                .filter(|a| a.len() == 1)
                .and_then(|mut a| a.pop())
        };
        match atom {
            Some(atom) if atom.as_rule() == Rule::ident => Ok(Some(FuncRef {
                name: self.ident(atom),
                bound_args: Vec::new(),
                span,
            })),
            Some(atom) if atom.as_rule() == Rule::call => {
                let mut c = self.children(&atom);
                let name = self.ident(c.expect(Rule::ident, "function name")?);
                let bound_args = self.call_args(c.expect(Rule::call_args, "bound arguments")?)?;
                Ok(Some(FuncRef {
                    name,
                    bound_args,
                    span,
                }))
            }
            _ => {
                self.errors.push(SyntaxError::BadCollectiveOperand {
                    op,
                    op_span,
                    operand: span,
                });
                // Lower it anyway, for the errors it may hold.
                self.binary(binary)?;
                Ok(None)
            }
        }
    }

    fn binary(&mut self, pair: Pair<'_, Rule>) -> Lowered<Expr> {
        let mut pieces = Vec::new();
        for child in self.children(&pair).rest() {
            match child.as_rule() {
                Rule::operand => self.operand(child, &mut pieces)?,
                Rule::infix_op => {
                    self.operators += 1;
                    if self.operators > MAX_EXPR_OPERATORS {
                        return Err(SyntaxError::NestingTooDeep {
                            span: self.span(&child),
                        });
                    }
                    let op = self.infix_op(&child)?;
                    pieces.push(Piece::Infix(op, self.span(&child)));
                }
                _ => return Err(self.internal(&child, "unexpected pair in a binary expression")),
            }
        }
        let span = self.span(&pair);
        let mut pieces = pieces.into_iter().peekable();
        let expr = self.climb(&mut pieces, 0, span)?;
        match pieces.next() {
            None => Ok(expr),
            Some(_) => Err(SyntaxError::Internal {
                span,
                what: "operators left over after precedence climbing",
            }),
        }
    }

    /// Precedence climbing over the flat list of a `binary` rule. Binary operators associate to
    /// the left; comparisons do not associate at all.
    fn climb(
        &mut self,
        pieces: &mut std::iter::Peekable<std::vec::IntoIter<Piece>>,
        min_prec: u8,
        span: Span,
    ) -> Lowered<Expr> {
        self.enter(span)?;
        let mut lhs = match pieces.next() {
            Some(Piece::Prefix(op, op_span)) => {
                let operand_prec = if op == UnaryOp::Not {
                    PREC_COMPARE
                } else {
                    PREC_UNARY
                };
                let operand = self.climb(pieces, operand_prec, span)?;
                let span = op_span.to(operand.span);
                self.make(
                    ExprKind::Unary {
                        op,
                        op_span,
                        operand: Box::new(operand),
                    },
                    span,
                )
            }
            Some(Piece::Operand(expr)) => expr,
            _ => {
                return Err(SyntaxError::Internal {
                    span,
                    what: "expected an operand in a binary expression",
                })
            }
        };
        let mut first_comparison: Option<Span> = None;
        while let Some(Piece::Infix(op, _)) = pieces.peek() {
            let prec = precedence(*op);
            if prec < min_prec {
                break;
            }
            let Some(Piece::Infix(op, op_span)) = pieces.next() else {
                break;
            };
            if op.is_comparison() {
                match first_comparison {
                    Some(first) => self.errors.push(SyntaxError::ChainedComparison {
                        first,
                        second: op_span,
                    }),
                    None => first_comparison = Some(op_span),
                }
            }
            let rhs = self.climb(pieces, prec + 1, span)?;
            let span = lhs.span.to(rhs.span);
            lhs = self.make(
                ExprKind::Binary {
                    op,
                    op_span,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
                span,
            );
        }
        self.leave();
        Ok(lhs)
    }

    fn infix_op(&self, pair: &Pair<'_, Rule>) -> Lowered<BinaryOp> {
        use BinaryOp::*;
        Ok(match pair.as_str() {
            "or" => Or,
            "and" => And,
            "==" => Eq,
            "!=" => Ne,
            "<" => Lt,
            "<=" => Le,
            ">" => Gt,
            ">=" => Ge,
            "|" => BitOr,
            "^" => BitXor,
            "&" => BitAnd,
            "<<" => Shl,
            ">>" => Shr,
            "+" => Add,
            "-" => Sub,
            "*" => Mul,
            "/" => Div,
            "%" => Rem,
            _ => return Err(self.internal(pair, "unknown binary operator")),
        })
    }

    fn operand(&mut self, pair: Pair<'_, Rule>, pieces: &mut Vec<Piece>) -> Lowered<()> {
        for child in self.children(&pair).rest() {
            match child.as_rule() {
                Rule::prefix_op => {
                    let op = self.prefix_op(&child)?;
                    pieces.push(Piece::Prefix(op, self.span(&child)));
                }
                Rule::postfix => pieces.push(Piece::Operand(self.postfix(child)?)),
                _ => return Err(self.internal(&child, "unexpected pair in an operand")),
            }
        }
        Ok(())
    }

    fn prefix_op(&self, pair: &Pair<'_, Rule>) -> Lowered<UnaryOp> {
        Ok(match pair.as_str() {
            "not" => UnaryOp::Not,
            "-" => UnaryOp::Neg,
            "~" => UnaryOp::BitNot,
            _ => return Err(self.internal(pair, "unknown prefix operator")),
        })
    }

    fn postfix(&mut self, pair: Pair<'_, Rule>) -> Lowered<Expr> {
        let start = pair.as_span().start();
        let mut c = self.children(&pair);
        let mut base = self.atom(c.next("operand")?)?;
        for op in c.rest() {
            let end = self.span(&op).end;
            let span = Span {
                end,
                ..self.at(start, start)
            };
            let kind = match op.as_rule() {
                Rule::checked_index => ExprKind::Index {
                    base: Box::new(base),
                    indices: self.checked_index(op)?,
                    checked: true,
                },
                Rule::index => ExprKind::Index {
                    base: Box::new(base),
                    indices: self.index(op)?,
                    checked: false,
                },
                Rule::field => ExprKind::Field {
                    base: Box::new(base),
                    field: self.field(op)?,
                },
                _ => return Err(self.internal(&op, "unexpected postfix operator")),
            };
            base = self.make(kind, span);
        }
        Ok(base)
    }

    fn checked_index(&mut self, pair: Pair<'_, Rule>) -> Lowered<Vec<Expr>> {
        self.expr_list(&pair)
    }

    fn index(&mut self, pair: Pair<'_, Rule>) -> Lowered<Vec<Expr>> {
        self.expr_list(&pair)
    }

    fn field(&mut self, pair: Pair<'_, Rule>) -> Lowered<Ident> {
        Ok(self.ident(self.children(&pair).expect(Rule::ident, "field name")?))
    }

    /// The comma-separated expressions among a pair's children.
    fn expr_list(&mut self, pair: &Pair<'_, Rule>) -> Lowered<Vec<Expr>> {
        self.children(pair)
            .rest()
            .into_iter()
            .map(|p| self.expr(p))
            .collect()
    }

    /// `atom` is a silent choice: this dispatches on the atom's own rule.
    fn atom(&mut self, pair: Pair<'_, Rule>) -> Lowered<Expr> {
        match pair.as_rule() {
            Rule::paren_expr => self.paren_expr(pair),
            Rule::record_lit => self.record_lit(pair),
            Rule::vector_lit => self.vector_lit(pair),
            Rule::bool_lit => self.bool_lit(pair),
            Rule::number => self.number(pair),
            Rule::call => self.call(pair),
            Rule::ident => {
                let name = self.ident(pair);
                let span = name.span;
                Ok(self.make(ExprKind::Name(name), span))
            }
            _ => Err(self.internal(&pair, "unexpected pair where an operand should be")),
        }
    }

    /// `(e)` is `e` itself, with a span that includes the parentheses.
    fn paren_expr(&mut self, pair: Pair<'_, Rule>) -> Lowered<Expr> {
        let span = self.span(&pair);
        let mut inner = self.expr(
            self.children(&pair)
                .expect(Rule::expr, "parenthesized expression")?,
        )?;
        inner.span = span;
        Ok(inner)
    }

    fn record_lit(&mut self, pair: Pair<'_, Rule>) -> Lowered<Expr> {
        let span = self.span(&pair);
        let fields = self
            .children(&pair)
            .rest()
            .into_iter()
            .map(|p| self.field_init(p))
            .collect::<Lowered<_>>()?;
        Ok(self.make(ExprKind::Record { fields }, span))
    }

    fn field_init(&mut self, pair: Pair<'_, Rule>) -> Lowered<FieldInit> {
        let span = self.span(&pair);
        let mut c = self.children(&pair);
        let name = self.ident(c.expect(Rule::ident, "field name")?);
        let value = self.expr(c.expect(Rule::expr, "field value")?)?;
        Ok(FieldInit { name, value, span })
    }

    fn vector_lit(&mut self, pair: Pair<'_, Rule>) -> Lowered<Expr> {
        let span = self.span(&pair);
        let elems = self.expr_list(&pair)?;
        Ok(self.make(ExprKind::VectorLit { elems }, span))
    }

    fn bool_lit(&mut self, pair: Pair<'_, Rule>) -> Lowered<Expr> {
        let span = self.span(&pair);
        let value = pair.as_str().trim() == "true";
        Ok(self.make(ExprKind::Bool(value), span))
    }

    fn number(&mut self, pair: Pair<'_, Rule>) -> Lowered<Expr> {
        let span = self.span(&pair);
        let kind = match parse_number(pair.as_str()) {
            Ok(Number::Int(v)) => ExprKind::Int(v),
            Ok(Number::Float(v)) => ExprKind::Float(v),
            Err(error) => {
                self.errors.push(error.at(span));
                ExprKind::Int(0)
            }
        };
        Ok(self.make(kind, span))
    }

    fn call(&mut self, pair: Pair<'_, Rule>) -> Lowered<Expr> {
        let span = self.span(&pair);
        let mut c = self.children(&pair);
        let callee = self.ident(c.expect(Rule::ident, "callee")?);
        let args = self.call_args(c.expect(Rule::call_args, "call arguments")?)?;
        Ok(self.make(ExprKind::Call { callee, args }, span))
    }

    fn call_args(&mut self, pair: Pair<'_, Rule>) -> Lowered<Vec<Expr>> {
        self.expr_list(&pair)
    }
}

// ------------------------------------------------------------------------------------------------
// Number literals

#[derive(Debug, Clone, PartialEq)]
enum Number {
    Int(u128),
    Float(FloatLit),
}

#[derive(Debug, Clone, PartialEq)]
enum NumberError {
    Malformed(NumberProblem),
    TooLarge { float: bool },
}

impl NumberError {
    fn at(self, span: Span) -> SyntaxError {
        match self {
            NumberError::Malformed(problem) => SyntaxError::MalformedNumber { span, problem },
            NumberError::TooLarge { float } => SyntaxError::NumberTooLarge { span, float },
        }
    }
}

/// Reads the lexeme of the (deliberately lenient) `number` rule: decimal, `0x` hexadecimal and
/// `0b` binary integers with `_` separators, and decimal floats with a fraction or an exponent.
fn parse_number(text: &str) -> Result<Number, NumberError> {
    let malformed = |problem| Err(NumberError::Malformed(problem));
    let lower = text.to_ascii_lowercase();
    for (prefix, radix, base) in [("0x", 16, "hexadecimal"), ("0b", 2, "binary")] {
        let Some(digits) = lower.strip_prefix(prefix) else {
            continue;
        };
        let prefix = if radix == 16 { "0x" } else { "0b" };
        let mut value: u128 = 0;
        let mut any = false;
        for ch in digits.chars() {
            if ch == '_' {
                continue;
            }
            if ch == '.' {
                return malformed(NumberProblem::ExtraPoint);
            }
            let Some(digit) = ch.to_digit(radix) else {
                let original = text
                    .chars()
                    .nth(ch_index(&lower, ch, prefix.len()))
                    .unwrap_or(ch);
                return malformed(NumberProblem::InvalidDigit { ch: original, base });
            };
            any = true;
            value = value
                .checked_mul(u128::from(radix))
                .and_then(|v| v.checked_add(u128::from(digit)))
                .ok_or(NumberError::TooLarge { float: false })?;
        }
        if !any {
            return malformed(NumberProblem::NoDigits { prefix });
        }
        return Ok(Number::Int(value));
    }

    // Decimal: digits, then an optional fraction, then an optional exponent.
    let bytes = lower.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < bytes.len() && (bytes[*i].is_ascii_digit() || bytes[*i] == b'_') {
            *i += 1;
        }
        *i > start
    };
    digits(&mut i);
    let mut is_float = false;
    if i < bytes.len() && bytes[i] == b'.' {
        is_float = true;
        i += 1;
        digits(&mut i);
    }
    if i < bytes.len() && bytes[i] == b'e' {
        is_float = true;
        i += 1;
        if i < bytes.len() && (bytes[i] == b'+' || bytes[i] == b'-') {
            i += 1;
        }
        let exponent_start = i;
        digits(&mut i);
        if i == exponent_start || lower[exponent_start..i].chars().all(|c| c == '_') {
            return malformed(NumberProblem::MissingExponent);
        }
    }
    if i < bytes.len() {
        let ch = text[i..].chars().next().unwrap_or('?');
        return malformed(if ch == '.' {
            NumberProblem::ExtraPoint
        } else {
            NumberProblem::InvalidDigit {
                ch,
                base: "decimal",
            }
        });
    }
    let cleaned: String = lower.chars().filter(|&c| c != '_').collect();
    if is_float {
        match cleaned.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(Number::Float(FloatLit::new(cleaned))),
            Ok(_) => Err(NumberError::TooLarge { float: true }),
            Err(_) => malformed(NumberProblem::MissingExponent),
        }
    } else {
        cleaned
            .parse::<u128>()
            .map(Number::Int)
            .map_err(|_| NumberError::TooLarge { float: false })
    }
}

/// Index (in chars) of the first `ch` after `skip` chars of `lower`, to report the digit as written.
fn ch_index(lower: &str, ch: char, skip: usize) -> usize {
    lower
        .chars()
        .skip(skip)
        .position(|c| c == ch)
        .map(|p| p + skip)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests;
