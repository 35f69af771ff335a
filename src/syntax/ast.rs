//! The abstract syntax tree: one enum per syntactic category, every node with its span.
//!
//! Only `syntax::parser` builds these; every later stage reads them. Expressions carry an
//! [`ExprId`] so that the checker can record facts about them (types, uniformity) in tables indexed
//! by id instead of mutating the tree.

use super::span::Span;
use serde::{Deserialize, Serialize};

/// Dense index of an expression, unique across every file parsed into one [`Program`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ExprId(pub u32);

#[derive(Debug, Clone, Serialize)]
pub struct Program {
    pub items: Vec<Item>,
    /// One more than the largest `ExprId` in `items`: the size of per-expression tables.
    pub expr_count: u32,
    /// `items[library_start..]` come from libraries appended after the program was parsed (the
    /// standard library): the checker lets user items hide them.
    #[serde(skip)]
    pub library_start: usize,
}

impl Program {
    /// Appends a library's items after this program's (the standard library, parsed with its
    /// expression ids continuing this program's).
    pub fn append_library(&mut self, library: Program) {
        self.items.extend(library.items);
        self.expr_count = library.expr_count;
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Item {
    Func(FuncDecl),
    Kernel(KernelDecl),
    /// `type Pair = {first: Int32, second: Int32}`
    TypeAlias(TypeAlias),
}

impl Item {
    pub fn name(&self) -> &Ident {
        match self {
            Item::Func(f) => &f.name,
            Item::Kernel(k) => &k.name,
            Item::TypeAlias(t) => &t.name,
        }
    }

    pub fn span(&self) -> Span {
        match self {
            Item::Func(f) => f.span,
            Item::Kernel(k) => k.span,
            Item::TypeAlias(t) => t.span,
        }
    }
}

/// `func name(params): Ret` followed by an indented body. Element-level code, inlined at calls.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FuncDecl {
    pub name: Ident,
    pub params: Vec<Param>,
    /// `None` for a function that returns nothing.
    pub ret: Option<TypeExpr>,
    pub body: Block,
    pub span: Span,
}

/// `kernel name(params)` followed by an indented body: what one block does.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KernelDecl {
    pub name: Ident,
    pub params: Vec<Param>,
    /// `@blocksize(N)` or `@blocksize(R, C)` on the line above the kernel: overrides
    /// `--block-size` for this kernel.
    pub block_size: Option<BlockSizeAttr>,
    pub body: Block,
    pub span: Span,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BlockSizeAttr {
    /// `N` in `@blocksize(N)`; the rows `R` in `@blocksize(R, C)`.
    pub value: u64,
    /// The columns `C` of a two-dimensional block shape `@blocksize(R, C)`.
    pub cols: Option<u64>,
    pub span: Span,
}

impl BlockSizeAttr {
    /// The threads per block: `N`, or `R * C` (saturating: the checker rejects anything over
    /// 1024 anyway).
    pub fn total(&self) -> u64 {
        match self.cols {
            Some(c) => self.value.saturating_mul(c),
            None => self.value,
        }
    }

    /// The block's rows: `R` for `@blocksize(R, C)`, 1 for `@blocksize(N)`.
    pub fn rows(&self) -> u64 {
        if self.cols.is_some() {
            self.value
        } else {
            1
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Param {
    pub name: Ident,
    pub ty: TypeExpr,
    pub span: Span,
    /// A per-block scratch array that loomc added for a vector variable it cannot recompute
    /// (`check/scratch_rows.rs`): the host allocates it, the user never passes it.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub scratch: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TypeAlias {
    pub name: Ident,
    pub ty: TypeExpr,
    pub span: Span,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum TypeExpr {
    /// A primitive (`Int32`, `Float32`, `Bool`, `Range`, ...) or an alias name.
    Named { name: Ident },
    /// `{first: Int32, second: Int32}`
    Record { fields: Vec<FieldType>, span: Span },
    /// `T[n]`, `T[r, c]`, or `T[]` (empty `dims`: the length comes from the initializer).
    Array {
        elem: Box<TypeExpr>,
        dims: Vec<Expr>,
        span: Span,
    },
}

impl TypeExpr {
    /// A type loomc made, as source (`Float32[BLOCKS, cols - lo]`): no span shows it.
    pub fn made_text(&self) -> String {
        match self {
            TypeExpr::Named { name } => name.name.clone(),
            TypeExpr::Record { .. } => "{...}".into(),
            TypeExpr::Array { elem, dims, .. } => {
                let dims: Vec<String> = dims.iter().map(Expr::made_text).collect();
                format!("{}[{}]", elem.made_text(), dims.join(", "))
            }
        }
    }

    pub fn span(&self) -> Span {
        match self {
            TypeExpr::Named { name } => name.span,
            TypeExpr::Record { span, .. } | TypeExpr::Array { span, .. } => *span,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FieldType {
    pub name: Ident,
    pub ty: TypeExpr,
    pub span: Span,
}

/// An indented sequence of statements (or the single statement of a one-line form).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Stmt {
    /// `x: T <- e`, `shared x: T[] <- e`, or `shared x: T[n]` (no initializer: shared only).
    Let {
        name: Ident,
        ty: TypeExpr,
        init: Option<Expr>,
        shared: bool,
        span: Span,
    },
    /// `target <- value`; `target` is a name, an index (`a[i]`, `a[[r]]`, `a[i, j]`) or a field.
    Assign {
        target: Expr,
        value: Expr,
        span: Span,
    },
    /// `if c then s else s` on one line, or `if c` with indented `then`/`else` clauses.
    If {
        cond: Expr,
        then_branch: Block,
        else_branch: Option<Block>,
        span: Span,
    },
    /// `for i: Int32 <- range(a, b)`: `range` is any Range-typed expression.
    For {
        var: Ident,
        ty: TypeExpr,
        range: Expr,
        body: Block,
        span: Span,
    },
    While {
        cond: Expr,
        body: Block,
        span: Span,
    },
    Return {
        value: Option<Expr>,
        span: Span,
    },
    /// A call on its own line, for its effect: `atomic_add(hist[[v]], 1)` (the checker accepts
    /// only the atomic builtins here).
    Call {
        call: Expr,
        span: Span,
    },
}

impl Stmt {
    pub fn span(&self) -> Span {
        match self {
            Stmt::Let { span, .. }
            | Stmt::Assign { span, .. }
            | Stmt::If { span, .. }
            | Stmt::For { span, .. }
            | Stmt::While { span, .. }
            | Stmt::Return { span, .. }
            | Stmt::Call { span, .. } => *span,
        }
    }
}

/// A float literal's decimal text (`_` separators removed). A float type rounds it once, from the
/// exact decimal value, to its own precision: going through `f64` first would round twice and can
/// give a `Float32` one ulp off (`16777217.000000001` must become 16777218, not 16777216).
#[derive(Debug, Clone, PartialEq)]
pub struct FloatLit {
    text: String,
}

impl FloatLit {
    /// `text` must parse as a finite `f64` (the parser checks it).
    pub fn new(text: String) -> FloatLit {
        FloatLit { text }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// The nearest `Float64` (NaN only if the parser let a bad text through).
    pub fn f64(&self) -> f64 {
        self.text.parse().unwrap_or(f64::NAN)
    }

    /// The nearest `Float32`, rounded once from the decimal value; infinite beyond the largest
    /// finite `Float32` plus half an ulp.
    pub fn f32(&self) -> f32 {
        self.text.parse().unwrap_or(f32::NAN)
    }

    /// The nearest `Float16`'s encoding, rounded once from the decimal value (infinity beyond
    /// the largest finite value plus half an ulp).
    pub fn f16(&self) -> u16 {
        let nan = loom_runtime::half::F16.infinity() | 0x200;
        loom_runtime::half::F16
            .from_decimal(&self.text)
            .unwrap_or(nan)
    }

    /// The nearest `BFloat16`'s encoding, rounded once from the decimal value.
    pub fn bf16(&self) -> u16 {
        let nan = loom_runtime::half::BF16.infinity() | 0x40;
        loom_runtime::half::BF16
            .from_decimal(&self.text)
            .unwrap_or(nan)
    }
}

/// The AST's JSON gives a float literal as its `Float64` value, as before it kept its text.
impl Serialize for FloatLit {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.f64())
    }
}

/// Refused: the JSON has the literal's `Float64` value, not its text, which a `Float32` must be
/// rounded from. The standard library's parsed items (`crate::stdlib::parsed`) are read from
/// JSON; one with a float literal is parsed instead.
impl<'de> Deserialize<'de> for FloatLit {
    fn deserialize<D: serde::Deserializer<'de>>(_: D) -> Result<FloatLit, D::Error> {
        Err(serde::de::Error::custom(
            "a float literal's text is not in the AST's JSON",
        ))
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Expr {
    pub id: ExprId,
    pub kind: ExprKind,
    /// Covers the whole expression, including enclosing parentheses.
    pub span: Span,
}

impl Expr {
    /// An expression loomc made, as source (a scratch array's length, `cols - lo`): the
    /// integer forms it takes; `?` for any other.
    pub fn made_text(&self) -> String {
        let operand = |x: &Expr| match x.kind {
            ExprKind::Binary { .. } => format!("({})", x.made_text()),
            _ => x.made_text(),
        };
        match &self.kind {
            ExprKind::Int(v) => v.to_string(),
            ExprKind::Name(id) => id.name.clone(),
            ExprKind::Unary { op, operand: x, .. } => format!("{}{}", op.symbol(), operand(x)),
            ExprKind::Binary { op, lhs, rhs, .. } => {
                format!("{} {} {}", operand(lhs), op.symbol(), operand(rhs))
            }
            ExprKind::Call { callee, args } => {
                let args: Vec<String> = args.iter().map(Expr::made_text).collect();
                format!("{}({})", callee.name, args.join(", "))
            }
            _ => "?".into(),
        }
    }

    /// `((a, b), c)` when `lhs op rhs` is `a * b + c` or `c + a * b`: the operands of the
    /// fused multiply-add that `--fast-math` contracts it into (code generation's
    /// `Body::contracted`, and `kir-barriers`, which follows its order of evaluation).
    pub fn multiply_add<'e>(
        op: BinaryOp,
        lhs: &'e Expr,
        rhs: &'e Expr,
    ) -> Option<((&'e Expr, &'e Expr), &'e Expr)> {
        if op != BinaryOp::Add {
            return None;
        }
        let factors = |e: &'e Expr| match &e.kind {
            ExprKind::Binary {
                op: BinaryOp::Mul,
                lhs,
                rhs,
                ..
            } => Some((lhs.as_ref(), rhs.as_ref())),
            _ => None,
        };
        match (factors(lhs), factors(rhs)) {
            (Some(ab), _) => Some((ab, rhs)),
            (None, Some(ab)) => Some((ab, lhs)),
            (None, None) => None,
        }
    }

    /// Where the expression's own work is in the source, for debug locations: an operator's
    /// symbol (`*` in `a * x`, `/.` in `sum /. v`), otherwise where the expression starts (an
    /// access `x[[r]]` at its array, a call at its callee).
    pub fn point(&self) -> Span {
        match &self.kind {
            ExprKind::Unary { op_span, .. }
            | ExprKind::Binary { op_span, .. }
            | ExprKind::Collective { op_span, .. } => *op_span,
            _ => self.span,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum ExprKind {
    /// An integer literal as written (decimal, `0x` hex or `0b` binary, `_` separators allowed).
    /// Its type comes from context; `u128` so that out-of-range literals can be reported.
    Int(u128),
    /// A floating-point literal (`1.5`, `2e-3`, `1.0e10`), kept as written so that each float
    /// type rounds it once.
    Float(FloatLit),
    Bool(bool),
    /// A variable, parameter, or one of `B`, `BLOCKS`, `BLOCKSIZE`, `THREADS`.
    Name(Ident),
    Unary {
        op: UnaryOp,
        op_span: Span,
        operand: Box<Expr>,
    },
    Binary {
        op: BinaryOp,
        op_span: Span,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `f(args)`: a `func` call, a builtin (`block`, `range`, `select`, ...) or a cast
    /// (`Float32(x)`: the callee is a type name).
    Call {
        callee: Ident,
        args: Vec<Expr>,
    },
    /// `a[i]`, `a[i, j]` (unchecked) or `a[[i]]`, `a[[i, j]]` (checked).
    Index {
        base: Box<Expr>,
        indices: Vec<Expr>,
        checked: bool,
    },
    /// `e.field`
    Field {
        base: Box<Expr>,
        field: Ident,
    },
    /// `{first: 1, second: 2}`
    Record {
        fields: Vec<FieldInit>,
    },
    /// `[1, 2, 3]`: a register vector of compile-time length.
    VectorLit {
        elems: Vec<Expr>,
    },
    /// `f /~ v`, `f /. v`, `f /: v`, `f :/ v`.
    Collective {
        op: CollectiveOp,
        op_span: Span,
        func: FuncRef,
        operand: Box<Expr>,
    },
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FieldInit {
    pub name: Ident,
    pub value: Expr,
    pub span: Span,
}

/// The function operand of a collective: `f`, or a partial application `f(x, y)` whose
/// arguments come first (`f(x, y) /~ v` maps `e -> f(x, y, e)`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FuncRef {
    pub name: Ident,
    pub bound_args: Vec<Expr>,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CollectiveOp {
    /// `/~`
    Map,
    /// `/.`
    Reduce,
    /// `/:` inclusive prefix scan
    ScanLeft,
    /// `:/` inclusive suffix scan
    ScanRight,
}

impl CollectiveOp {
    pub fn symbol(self) -> &'static str {
        match self {
            CollectiveOp::Map => "/~",
            CollectiveOp::Reduce => "/.",
            CollectiveOp::ScanLeft => "/:",
            CollectiveOp::ScanRight => ":/",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum UnaryOp {
    /// `-x`
    Neg,
    /// `not b`
    Not,
    /// `~x` bitwise complement
    BitNot,
}

impl UnaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Neg => "-",
            UnaryOp::Not => "not",
            UnaryOp::BitNot => "~",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BinaryOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    BitOr,
    BitXor,
    BitAnd,
    Shl,
    Shr,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Or => "or",
            And => "and",
            Eq => "==",
            Ne => "!=",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            BitOr => "|",
            BitXor => "^",
            BitAnd => "&",
            Shl => "<<",
            Shr => ">>",
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Rem => "%",
        }
    }

    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
        )
    }

    pub fn is_logical(self) -> bool {
        matches!(self, BinaryOp::And | BinaryOp::Or)
    }
}
