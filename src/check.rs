//! The checker: names and scopes, types, the uniform/vector distinction, where collectives may
//! stand, `func` restrictions, recursion and block sizes. Its output is everything code
//! generation needs to know beyond the AST itself.

mod atomic;
mod atomic_op;
mod call;
mod ctx;
mod elementwise;
mod error;
pub use error::NotRecomputed;
mod expr;
mod fold;
pub mod grid;
mod items;
mod pretty;
mod racy_update;
mod recompute;
mod recursion;
mod scope;
pub mod scratch_rows;
mod stmt;
pub mod types;

use crate::diagnostics::Diagnostic;
use crate::syntax::ast::{ExprId, Program};
use crate::syntax::span::Span;
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use types::{Len, RecordTable, Scalar, Ty};

pub use atomic_op::AtomicOp;
pub use error::{CheckError, CODES};

/// The standard library: `(path, source)` of every file, parsed by the driver after the user's
/// file and appended to its items.
pub const STDLIB: &[(&str, &str)] = &[
    ("stdlib/reduce.loom", include_str!("../stdlib/reduce.loom")),
    ("stdlib/math.loom", include_str!("../stdlib/math.loom")),
];

#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// `--block-size`: the default `BLOCKSIZE` of kernels without `@blocksize(N)`.
    pub block_size: u32,
}

/// What a call expression (or the function operand of a collective) refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Callee {
    /// A `func`: its index in `Checked::program.items`.
    Func(usize),
    /// `Float32(x)` and friends (elementwise on vectors).
    Cast(Scalar),
    Builtin(Builtin),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Builtin {
    /// `block(b)`: the Range `[b*BLOCKSIZE, (b+1)*BLOCKSIZE)`.
    Block,
    /// `range(a, b)`: the Range `[a, b)`.
    Range,
    /// `select(c, a, b)`: elementwise choice.
    Select,
    /// `transpose(t)`: a two-dimensional array of compile-time shape read as the tile of its
    /// columns: element `(i, j)` is `t[j, i]`.
    Transpose,
    /// `grid(v, scratch)`: `v` spread over every block of the launch, as the operand of a
    /// grid-wide reduce or left scan (`check/grid.rs`).
    Grid,
    /// `atomic_add(a[[i]], v)` and the other atomic read-modify-writes (`check/atomic.rs`).
    Atomic(AtomicOp),
    /// A math primitive, `__sqrt(x)` and friends: callable from the standard library only, which
    /// wraps them in overloaded `func`s (`stdlib/math.loom`).
    Math(MathFn),
}

/// The math primitives the standard library is written with. Each takes and returns values of
/// one scalar type (floats only, except `Abs`, `Min` and `Max`, which take any numeric type).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum MathFn {
    Sqrt,
    Rsqrt,
    Exp,
    Exp2,
    Log,
    Log2,
    Sin,
    Cos,
    Pow,
    Abs,
    Fma,
    Floor,
    Ceil,
    Min,
    Max,
}

impl MathFn {
    pub const ALL: [MathFn; 15] = [
        MathFn::Sqrt,
        MathFn::Rsqrt,
        MathFn::Exp,
        MathFn::Exp2,
        MathFn::Log,
        MathFn::Log2,
        MathFn::Sin,
        MathFn::Cos,
        MathFn::Pow,
        MathFn::Abs,
        MathFn::Fma,
        MathFn::Floor,
        MathFn::Ceil,
        MathFn::Min,
        MathFn::Max,
    ];

    /// The name after `__`.
    pub fn name(self) -> &'static str {
        match self {
            MathFn::Sqrt => "sqrt",
            MathFn::Rsqrt => "rsqrt",
            MathFn::Exp => "exp",
            MathFn::Exp2 => "exp2",
            MathFn::Log => "log",
            MathFn::Log2 => "log2",
            MathFn::Sin => "sin",
            MathFn::Cos => "cos",
            MathFn::Pow => "pow",
            MathFn::Abs => "abs",
            MathFn::Fma => "fma",
            MathFn::Floor => "floor",
            MathFn::Ceil => "ceil",
            MathFn::Min => "min",
            MathFn::Max => "max",
        }
    }

    pub fn from_name(name: &str) -> Option<MathFn> {
        MathFn::ALL.into_iter().find(|m| m.name() == name)
    }

    pub fn arity(self) -> usize {
        match self {
            MathFn::Pow | MathFn::Min | MathFn::Max => 2,
            MathFn::Fma => 3,
            _ => 1,
        }
    }

    /// Only for `Float32` and `Float64`.
    pub fn float_only(self) -> bool {
        !matches!(self, MathFn::Abs | MathFn::Min | MathFn::Max)
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct KernelFacts {
    /// Index in `Checked::program.items`.
    pub item: usize,
    pub name: String,
    /// `@blocksize(N)` if given, else `--block-size`; `R * C` for `@blocksize(R, C)`.
    pub block_size: u32,
    /// The block's rows: `R` for `@blocksize(R, C)` (PTX `.reqntid C, R, 1`), 1 otherwise.
    pub block_rows: u32,
}

/// A checked program: the AST (user items first, then the standard library's) and the facts the
/// checker established about it.
#[derive(Debug, Clone)]
pub struct Checked {
    pub program: Program,
    pub records: RecordTable,
    /// The type of every expression, indexed by `ExprId`.
    pub expr_types: Vec<Ty>,
    /// The target of every `Call` expression, and of every `Collective`'s function operand,
    /// keyed by the id of the `Call` or `Collective` expression.
    pub callees: HashMap<ExprId, Callee>,
    /// Kernels in source order.
    pub kernels: Vec<KernelFacts>,
    /// The number of elements of Range-typed expressions, where the checker knows it:
    /// `block(b)` has `BLOCKSIZE`, `range(a, b)` has `b - a` when that is a constant (as in
    /// `range(B * BLOCKSIZE, (B + 1) * BLOCKSIZE)`), and a Range variable that is never assigned
    /// has its initializer's. A Range used as a vector (`shared i: Int32[] <- block(B)`,
    /// `f /~ block(B)`) is a vector of this length.
    pub range_lens: HashMap<ExprId, Len>,
    /// The most elements a Range-typed expression can have where their number is not a constant
    /// but has a constant bound: `range(a, min(n, a + c))` has at most `c` (a block's slice cut
    /// at the array's end, `range(B * BLOCKSIZE, min(n, (B + 1) * BLOCKSIZE))`), and
    /// `range(max(m, b - c), b)` too; a Range variable never assigned has its initializer's.
    pub range_bounds: HashMap<ExprId, u64>,
    /// The type of every local variable (`x: T <- e`, `shared x: T`, `for i: Int32 <- r`), keyed
    /// by the span of its name where it is declared: arrays with their lengths as resolved
    /// (`T[]` takes its initializer's) and their space (`Shared`, or `Local` for registers).
    pub locals: HashMap<Span, Ty>,
    /// The vector variables that must move to scratch rows (`check/scratch_rows.rs`):
    /// [`check`] rewrites the program and checks it again. After that, the ones that moved.
    pub scratch_rows: Vec<scratch_rows::ScratchRow>,
}

impl Checked {
    pub fn ty(&self, id: ExprId) -> &Ty {
        &self.expr_types[id.0 as usize]
    }
}

/// Checks `program` (which already includes the standard library). Returns the facts and every
/// diagnostic found; the driver stops if any of them is an error.
///
/// Vector variables that must move to scratch rows move (the program is rewritten and checked
/// again, `check/scratch_rows.rs`); the result lists them in `scratch_rows`.
pub fn check(program: Program, options: &CheckOptions) -> (Checked, Vec<Diagnostic>) {
    let (mut checked, mut diagnostics) = check_library(program, options, true);
    let mut moved = Vec::new();
    // A variable read by one that moved may have to move in turn. Each round moves variables
    // that are still declarations; one asked to move twice would mean the rewrite missed it,
    // and would loop for ever.
    while !checked.scratch_rows.is_empty() && !diagnostics.iter().any(Diagnostic::is_error) {
        let rows = std::mem::take(&mut checked.scratch_rows);
        if let Some(again) = rows.iter().find(|r| {
            moved
                .iter()
                .any(|m: &scratch_rows::ScratchRow| m.name_span == r.name_span)
        }) {
            diagnostics.push(
                Diagnostic::error(
                    crate::diagnostics::INTERNAL_ERROR,
                    format!(
                        "internal compiler error: vector variable `{}` did not move to its scratch row",
                        again.name
                    ),
                )
                .primary(again.name_span, "this variable")
                .note("this is a bug in loomc: please report it with the program that caused it"),
            );
            break;
        }
        let mut program = checked.program;
        scratch_rows::store_in_scratch_rows(&mut program, &rows);
        moved.extend(rows);
        (checked, diagnostics) = check_library(program, options, true);
    }
    checked.scratch_rows = moved;
    (checked, diagnostics)
}

/// [`check`]; `lazy_library`: check only the library funcs that the program calls.
fn check_library(
    program: Program,
    options: &CheckOptions,
    lazy_library: bool,
) -> (Checked, Vec<Diagnostic>) {
    let stdlib_start = program.library_start;
    let mut checker = Checker::new(&program, options, stdlib_start);
    checker.lazy_library = lazy_library;
    checker.run();
    let Checker {
        records,
        expr_types,
        callees,
        kernels,
        errors,
        range_lens,
        range_bounds,
        locals,
        scratch_rows,
        ..
    } = checker;
    let diagnostics = errors
        .into_iter()
        .map(|e| e.into_diagnostic(&records))
        .collect();
    (
        Checked {
            program,
            records,
            expr_types,
            callees,
            kernels,
            range_lens,
            range_bounds,
            locals,
            scratch_rows,
        },
        diagnostics,
    )
}

/// A func's or kernel's parameters and result, resolved once before any body is checked so that
/// calls can be checked in any order.
#[derive(Debug, Clone)]
struct Signature {
    params: Vec<ParamSig>,
    /// `Ty::Unit` for a func without a result type, and for kernels.
    ret: Ty,
    ret_span: Option<Span>,
}

#[derive(Debug, Clone)]
struct ParamSig {
    name: String,
    ty: Ty,
    /// The parameter's name.
    span: Span,
    /// Its type as written.
    ty_span: Span,
}

/// A call from one func to another (directly or as the function of a collective), for the
/// recursion check.
#[derive(Debug, Clone)]
struct CallEdge {
    caller: usize,
    callee: usize,
    span: Span,
}

/// State shared by the checks of all items.
struct Checker<'p> {
    program: &'p Program,
    options: &'p CheckOptions,
    items: items::ItemTable,
    records: RecordTable,
    expr_types: Vec<Ty>,
    callees: HashMap<ExprId, Callee>,
    kernels: Vec<KernelFacts>,
    /// Per item: the signature of funcs and kernels, once resolved.
    sigs: Vec<Option<Signature>>,
    /// Per item: the resolved type of type aliases (`None` while unresolved).
    aliases: Vec<items::AliasState>,
    calls: Vec<CallEdge>,
    /// How many elements a Range-typed expression has, where that is known.
    range_lens: HashMap<ExprId, Len>,
    /// The most elements a Range-typed expression of no constant length can have, where known.
    range_bounds: HashMap<ExprId, u64>,
    /// The values of constant integer expressions (`fold`), each checked to fit its type.
    consts: HashMap<ExprId, i128>,
    /// Constant expressions that overflowed, or contain one that did: reported once, at the
    /// innermost, and not reported again as "not a constant".
    overflowed: HashSet<ExprId>,
    locals: HashMap<Span, Ty>,
    scratch_rows: Vec<scratch_rows::ScratchRow>,
    errors: Vec<CheckError>,
    /// Check only the standard library's funcs that checked bodies call (see `check_bodies`).
    lazy_library: bool,
}

impl<'p> Checker<'p> {
    fn new(program: &'p Program, options: &'p CheckOptions, stdlib_start: usize) -> Checker<'p> {
        let n = program.items.len();
        Checker {
            program,
            options,
            items: items::ItemTable::new(stdlib_start),
            records: RecordTable::default(),
            expr_types: vec![Ty::Error; program.expr_count as usize],
            callees: HashMap::new(),
            kernels: Vec::new(),
            sigs: vec![None; n],
            aliases: vec![items::AliasState::Unresolved; n],
            calls: Vec::new(),
            range_lens: HashMap::new(),
            range_bounds: HashMap::new(),
            consts: HashMap::new(),
            overflowed: HashSet::new(),
            locals: HashMap::new(),
            scratch_rows: Vec::new(),
            errors: Vec::new(),
            lazy_library: true,
        }
    }

    /// Names first (every body may call every func), then signatures (calls need parameter
    /// types), then bodies, then the call graph that the bodies built.
    fn run(&mut self) {
        self.collect_items();
        self.resolve_aliases();
        self.resolve_signatures();
        self.check_bodies();
        self.check_recursion();
    }

    fn error(&mut self, error: CheckError) {
        self.errors.push(error);
    }

    /// The type already given to expression `id`.
    fn ty(&self, id: ExprId) -> Option<&Ty> {
        self.expr_types.get(id.0 as usize)
    }

    fn set_ty(&mut self, id: ExprId, ty: Ty) {
        let i = id.0 as usize;
        if i >= self.expr_types.len() {
            self.expr_types.resize(i + 1, Ty::Error);
        }
        self.expr_types[i] = ty;
    }
}

#[cfg(test)]
mod tests;
