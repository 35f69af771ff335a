//! Checker errors, as data, and their rendering into [`Diagnostic`]s.
//!
//! Variants hold spans, names and types; the words are written only in
//! [`CheckError::into_diagnostic`], which needs the record table to print record types.

mod atomic;
mod grid;
mod racy_update;
mod recompute;

pub use atomic::AtomicError;
pub use grid::{GridError, Placement, ScratchProblem};
pub use racy_update::{RacyUpdate, CODE as RACY_UPDATE};
pub use recompute::{NotRecomputed, MAX_RECOMPUTED_NODES};

use super::types::{Len, RecordTable, Scalar, Space, Ty};
use crate::diagnostics::Diagnostic;
use crate::syntax::ast::CollectiveOp;
use crate::syntax::span::Span;

/// Every diagnostic id this stage can produce (the UI suite checks each one is tested).
pub const CODES: &[&str] = &[
    "E0100", "E0101", "E0102", "E0103", "E0104", "E0105", "E0106", "E0107", "E0108", "E0109",
    "E0110", "E0111", "E0112", //
    "E0200", "E0201", "E0202", "E0203", "E0204", "E0205", "E0206", "E0207", "E0208", "E0209",
    "E0210", "E0211", "E0212", "E0213", "E0214", "E0215", "E0216", "E0217", "E0218", //
    "E0300", "E0301", "E0302", "E0303", "E0304", "E0305", "E0306", "E0307", "E0308", "E0309",
    "E0310", //
    "E0400", "E0401", "E0402", "E0403", "E0404", "E0405", //
    "E0500", "E0501", "E0502", //
    "W0001", //
    // The atomics (`check/atomic.rs`) and the racy read-modify-write (`check/racy_update.rs`).
    "E0600", "E0601", "E0602", "E0603", "E0604", "E0605", "W0600", //
    // The grid-wide collectives (`check/grid.rs`).
    "E0700", "E0701", "E0702", "E0703",
];

/// Why a constant expression has no value in its type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConstantProblem {
    /// The exact result (in decimal: a product of two 64-bit values may not fit an `i128`),
    /// which the type cannot hold.
    Overflow(String),
    /// A shift by a negative amount or by at least the type's width.
    ShiftAmount(i128),
}

/// Why a name, parameter or expression cannot be assigned to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotAssignableReason {
    /// Scalar, Range and record parameters are read-only values.
    Param,
    LoopVar,
    /// `B`, `BLOCKS`, `BLOCKSIZE`, `THREADS`.
    BlockConstant,
    /// An array parameter of a `func`: funcs only read global memory.
    FuncArray,
    /// A call, literal, operator...: not a place in memory.
    NotAPlace,
}

/// What a misplaced type was meant to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeContext {
    /// Array elements are scalars.
    ArrayElement,
    RecordField,
    TypeAlias,
    FuncResult,
    /// A two-dimensional array that is neither a parameter nor `shared`.
    LocalArray2d,
    /// `shared x: Int32`: shared variables are arrays.
    SharedScalar,
}

/// What a block vector was used as where only a uniform value can stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UniformContext {
    /// `x: Float32 <- v` or `x <- v` with a scalar `x`.
    Variable,
    /// `a[i] <- v`: one element.
    Element,
    Argument,
    /// `f(x) /~ v`: the bound arguments of a collective are the same for every element.
    BoundArgument,
    Return,
    Index,
    RecordField,
    /// An argument of `block` or `range`.
    RangeBound,
}

/// Why an array dimension is rejected.
#[derive(Debug, Clone, PartialEq)]
pub enum BadDimReason {
    /// A parameter declared after the array: dimensions are computed from earlier parameters.
    LaterParam {
        name: String,
        decl: Span,
    },
    /// The dimension is not an integer (a float, a Bool, an array...).
    NotInteger(Ty),
    /// `B` (or another per-block constant, named) differs between blocks, or describes a
    /// two-dimensional grid; a dimension is fixed for the launch.
    BlockIndex(String),
    Negative(i128),
    /// A local array dimension that is not uniform.
    NotUniform,
}

/// Why the function operand of a collective does not fit it.
#[derive(Debug, Clone, PartialEq)]
pub enum CollectiveFuncProblem {
    /// `block`, `range`, `select`: builtins are not functions of elements.
    Builtin,
    /// A cast can map, but it does not combine two values.
    CastInCombine,
    /// The func returns nothing.
    NoResult,
    /// `/.`, `/:` and `:/` need `(T, T) -> T`; the func has these last two parameters and result.
    NotCombining { params: Vec<Ty>, ret: Ty },
}

/// Why a `return` does not fit where it stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReturnProblem {
    /// `return e` in a func without a result type.
    ValueInUnitFunc,
    /// `return` without value in a func with a result type.
    MissingValue,
    /// `return e` in a kernel.
    ValueInKernel,
}

/// What a kernel name would collide with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KernelNameClash {
    /// `_` alone is not a PTX identifier.
    NotPtxIdentifier,
    /// `WARP_SZ`: PTX's predefined identifier.
    PtxPredefined,
    /// `__nv_*`, `__nvvm_*`: libdevice's functions and NVVM's builtins.
    Libdevice,
    /// `loom_simt_*`: the CPU backend's runtime.
    Runtime,
}

/// Where a kernel's `BLOCKSIZE` came from, for notes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockSizeSource {
    Attribute(Span),
    Option,
}

#[derive(Debug, Clone, PartialEq)]
pub enum CheckError {
    // ---- E01xx: names and scopes ----
    UnknownName {
        name: String,
        span: Span,
        suggestion: Option<String>,
        /// The name is declared in this function, but not visible here: (declaration, declared later).
        out_of_scope: Option<(Span, bool)>,
        /// The name is a func (or kernel) rather than a value.
        is_func: bool,
    },
    UnknownFunc {
        name: String,
        span: Span,
        suggestion: Option<String>,
        is_value: bool,
    },
    UnknownType {
        name: String,
        span: Span,
        suggestion: Option<String>,
    },
    DuplicateItem {
        name: String,
        span: Span,
        first: Span,
    },
    DuplicateParam {
        name: String,
        span: Span,
        first: Span,
    },
    AlreadyDeclared {
        name: String,
        span: Span,
        first: Span,
    },
    /// `B`, `BLOCKS`, `BLOCKSIZE`, `THREADS` or `block(..)` inside a func.
    BlockConstantInFunc {
        name: String,
        span: Span,
    },
    ReservedName {
        name: String,
        span: Span,
    },
    UnknownField {
        field: String,
        span: Span,
        ty: Ty,
        suggestion: Option<String>,
    },
    DuplicateField {
        name: String,
        span: Span,
        first: Span,
    },
    RecursiveAlias {
        name: String,
        span: Span,
    },
    /// A kernel's name is its PTX entry name, the name hosts launch it by: it must not collide
    /// with what PTX, libdevice or LOOM's runtimes define.
    ReservedKernelName {
        name: String,
        span: Span,
        why: KernelNameClash,
    },
    /// The kernel's parameters need more of PTX's parameter space than there is.
    ParamSpaceExceeded {
        kernel: String,
        span: Span,
        bytes: u64,
        limit: u64,
        params: usize,
    },

    // ---- E02xx: types ----
    Mismatch {
        expected: Ty,
        found: Ty,
        span: Span,
        /// Where the expected type was written (declaration, parameter, result type).
        expected_span: Option<Span>,
        /// A cast that fixes it: the target type and the expression as written.
        cast: Option<(Scalar, String)>,
    },
    /// A vector whose elements have the wrong type: `shared t: Float32[] <- in[r]` with Int32 `in`.
    ElementMismatch {
        expected: Ty,
        /// The whole vector or array found.
        found: Ty,
        span: Span,
        expected_span: Option<Span>,
        cast: Option<(Scalar, String)>,
    },
    OperandMismatch {
        op: &'static str,
        op_span: Span,
        lhs: (Span, Ty),
        rhs: (Span, Ty),
        /// Which operand to cast (false: left, true: right), to what, and its text.
        cast: Option<(bool, Scalar, String)>,
    },
    BadOperand {
        op: &'static str,
        op_span: Span,
        span: Span,
        ty: Ty,
    },
    FloatLiteralForInteger {
        span: Span,
        expected: Scalar,
    },
    LiteralOutOfRange {
        span: Span,
        text: String,
        ty: Scalar,
    },
    /// A constant integer expression whose exact value does not fit its type.
    ConstantOutOfRange {
        span: Span,
        /// The expression, as written.
        text: String,
        ty: Scalar,
        problem: ConstantProblem,
    },
    NotIndexable {
        span: Span,
        ty: Ty,
    },
    BadIndexType {
        span: Span,
        ty: Ty,
    },
    WrongIndexCount {
        span: Span,
        ty: Ty,
        found: usize,
    },
    NoFields {
        span: Span,
        field: String,
        ty: Ty,
    },
    BadCast {
        span: Span,
        from: Ty,
        to: Scalar,
    },
    LengthMismatch {
        span: Span,
        found: Len,
        expected: Len,
        other: Span,
    },
    /// Two tiles of equal length but different shapes combined or stored.
    TileShapeMismatch {
        span: Span,
        found: (u64, u64),
        expected: (u64, u64),
        other: Span,
    },
    /// A two-dimensional slice `a[r, s]` whose ranges' lengths are not known at compile time.
    TileShapeUnknown {
        span: Span,
        /// The range subscript whose length is unknown.
        range: Span,
    },
    /// `transpose(v)` of something other than a two-dimensional array of compile-time shape.
    BadTranspose {
        span: Span,
        ty: Ty,
    },
    NotAssignable {
        span: Span,
        name: Option<String>,
        reason: NotAssignableReason,
        decl: Option<Span>,
    },
    RecordLiteralMismatch {
        span: Span,
        expected: Ty,
        found_fields: Vec<String>,
    },
    /// An empty vector literal with nothing to say its element type.
    CannotInfer {
        span: Span,
    },
    MissingInitializer {
        name: String,
        span: Span,
    },
    TooManyDims {
        span: Span,
        count: usize,
    },
    TypeNotAllowed {
        span: Span,
        ty: Option<Ty>,
        context: TypeContext,
    },

    // ---- E03xx: uniformity, control flow, collectives ----
    VectorCondition {
        span: Span,
        ty: Ty,
        keyword: &'static str,
    },
    LoopVarType {
        span: Span,
        ty: Ty,
    },
    CollectiveInFunc {
        span: Span,
        op: CollectiveOp,
        func_decl: Span,
    },
    BadCollectiveFunc {
        span: Span,
        op: CollectiveOp,
        name: String,
        problem: CollectiveFuncProblem,
        def: Option<Span>,
    },
    NotAVector {
        span: Span,
        ty: Ty,
        op: CollectiveOp,
    },
    NeedsPowerOfTwo {
        span: Span,
        op: CollectiveOp,
        block_size: u32,
        source: BlockSizeSource,
    },
    VectorWhereUniform {
        span: Span,
        ty: Ty,
        context: UniformContext,
        expected_span: Option<Span>,
    },
    /// A vector variable of run-time length that cannot be recomputed at each use
    /// (`check/recompute.rs`).
    DynamicRegisterVector {
        span: Span,
        name: String,
        ty: Ty,
        reason: NotRecomputed,
        /// Why it cannot be stored in a scratch row instead.
        no_scratch: super::scratch_rows::NoScratchRow,
    },
    SharedDynamicLength {
        span: Span,
        name: String,
        ty: Ty,
    },
    SharedInFunc {
        span: Span,
        func_decl: Span,
    },
    VectorInFunc {
        span: Span,
        ty: Ty,
    },

    // ---- E04xx: funcs, calls, recursion ----
    Recursion {
        /// The funcs of the cycle, the first repeated at the end: `f -> g -> f`.
        cycle: Vec<String>,
        span: Span,
        /// Each call of the cycle, with the name of the func it calls.
        calls: Vec<(Span, String)>,
    },
    Arity {
        span: Span,
        name: String,
        expected: usize,
        found: usize,
        def: Option<Span>,
        bound: Option<usize>,
    },
    MissingReturn {
        name: String,
        span: Span,
        ret_span: Span,
    },
    BadReturn {
        span: Span,
        problem: ReturnProblem,
        ret: Option<(Ty, Span)>,
    },
    CallKernel {
        span: Span,
        name: String,
        def: Span,
    },
    NoOverload {
        span: Span,
        name: String,
        args: Vec<Option<Ty>>,
        candidates: Vec<(Vec<Ty>, Ty)>,
        ambiguous: bool,
    },

    // ---- E05xx: kernels, parameters, block size ----
    BlockSizeRange {
        span: Span,
        value: u64,
    },
    BadDim {
        span: Span,
        reason: BadDimReason,
    },
    KernelArrayNeedsDims {
        span: Span,
        name: String,
    },

    /// A misused atomic builtin (`check/atomic.rs`).
    Atomic(AtomicError),
    /// A read-modify-write of global memory that other blocks may make at once
    /// (`check/racy_update.rs`).
    RacyUpdate(RacyUpdate),
    /// A misplaced grid-wide collective or its scratch array (`check/grid.rs`).
    Grid(GridError),
    // ---- warnings ----
    Unreachable {
        span: Span,
        after: Span,
    },
}

fn quoted(ty: &Ty, records: &RecordTable) -> String {
    format!("`{}`", ty.display(records))
}

fn candidates_note(candidates: &[(Vec<Ty>, Ty)], name: &str, records: &RecordTable) -> String {
    let lines: Vec<String> = candidates
        .iter()
        .map(|(params, ret)| {
            let params: Vec<String> = params
                .iter()
                .map(|p| p.display(records).to_string())
                .collect();
            match ret {
                Ty::Unit => format!("  {name}({})", params.join(", ")),
                ret => format!("  {name}({}): {}", params.join(", "), ret.display(records)),
            }
        })
        .collect();
    format!("the candidates are:\n{}", lines.join("\n"))
}

fn did_you_mean(d: Diagnostic, suggestion: &Option<String>) -> Diagnostic {
    match suggestion {
        Some(s) => d.help(format!("a similar name exists: `{s}`")),
        None => d,
    }
}

impl CheckError {
    pub fn code(&self) -> &'static str {
        use CheckError::*;
        match self {
            UnknownName { .. } => "E0100",
            UnknownFunc { .. } => "E0101",
            UnknownType { .. } => "E0102",
            DuplicateItem { .. } => "E0103",
            DuplicateParam { .. } => "E0104",
            AlreadyDeclared { .. } => "E0105",
            BlockConstantInFunc { .. } => "E0106",
            ReservedName { .. } => "E0107",
            UnknownField { .. } => "E0108",
            DuplicateField { .. } => "E0109",
            RecursiveAlias { .. } => "E0110",
            ReservedKernelName { .. } => "E0111",
            ParamSpaceExceeded { .. } => "E0112",
            Mismatch { .. } | ElementMismatch { .. } => "E0200",
            OperandMismatch { .. } => "E0201",
            BadOperand { .. } => "E0202",
            FloatLiteralForInteger { .. } => "E0203",
            LiteralOutOfRange { .. } | ConstantOutOfRange { .. } => "E0204",
            NotIndexable { .. } => "E0205",
            BadIndexType { .. } => "E0206",
            WrongIndexCount { .. } => "E0207",
            NoFields { .. } => "E0208",
            BadCast { .. } => "E0209",
            LengthMismatch { .. } => "E0210",
            TileShapeMismatch { .. } => "E0216",
            TileShapeUnknown { .. } => "E0217",
            BadTranspose { .. } => "E0218",
            NotAssignable { .. } => "E0211",
            RecordLiteralMismatch { .. } => "E0212",
            CannotInfer { .. } => "E0213",
            MissingInitializer { .. } => "E0214",
            TooManyDims { .. } | TypeNotAllowed { .. } => "E0215",
            VectorCondition { .. } => "E0300",
            LoopVarType { .. } => "E0301",
            CollectiveInFunc { .. } => "E0302",
            BadCollectiveFunc { .. } => "E0303",
            NotAVector { .. } => "E0304",
            NeedsPowerOfTwo { .. } => "E0305",
            VectorWhereUniform { .. } => "E0306",
            DynamicRegisterVector { .. } => "E0307",
            SharedDynamicLength { .. } => "E0308",
            SharedInFunc { .. } => "E0309",
            VectorInFunc { .. } => "E0310",
            Recursion { .. } => "E0400",
            Arity { .. } => "E0401",
            MissingReturn { .. } => "E0402",
            BadReturn { .. } => "E0403",
            CallKernel { .. } => "E0404",
            NoOverload { .. } => "E0405",
            BlockSizeRange { .. } => "E0500",
            BadDim { .. } => "E0501",
            KernelArrayNeedsDims { .. } => "E0502",
            Unreachable { .. } => "W0001",
            Atomic(e) => e.code(),
            RacyUpdate(_) => RACY_UPDATE,
            Grid(e) => e.code(),
        }
    }

    pub fn into_diagnostic(self, records: &RecordTable) -> Diagnostic {
        use CheckError::*;
        let code = self.code();
        match self {
            UnknownName { name, span, suggestion, out_of_scope, is_func } => {
                let d = Diagnostic::error(code, format!("cannot find value `{name}` in this scope")).primary(span, "not found in this scope");
                let d = match out_of_scope {
                    Some((decl, true)) => d.secondary(decl, format!("`{name}` is declared here, after its use")),
                    Some((decl, false)) => {
                        d.secondary(decl, format!("`{name}` is declared here, in a block that has ended"))
                    }
                    None => d,
                };
                let d = if is_func { d.note(format!("`{name}` is a function, not a value: call it")) } else { d };
                did_you_mean(d, &suggestion)
            }
            UnknownFunc { name, span, suggestion, is_value } => {
                let d = Diagnostic::error(code, format!("cannot find function `{name}`")).primary(span, "not a func, builtin or cast");
                let d = if is_value { d.note(format!("`{name}` is a variable, not a function")) } else { d };
                did_you_mean(d, &suggestion)
            }
            UnknownType { name, span, suggestion } => {
                let d = Diagnostic::error(code, format!("cannot find type `{name}`")).primary(span, "unknown type").note(
                    "the types are Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64, Float16, BFloat16, Float32, Float64, Bool, Range, records and `type` aliases",
                );
                did_you_mean(d, &suggestion)
            }
            DuplicateItem { name, span, first } => Diagnostic::error(code, format!("`{name}` is defined more than once"))
                .primary(span, format!("`{name}` redefined here"))
                .secondary(first, format!("first definition of `{name}` here"))
                .note("funcs, kernels and type aliases share one global namespace"),
            DuplicateParam { name, span, first } => Diagnostic::error(code, format!("parameter `{name}` is declared more than once"))
                .primary(span, "declared again here")
                .secondary(first, "first declared here"),
            AlreadyDeclared { name, span, first } => Diagnostic::error(code, format!("`{name}` is already declared"))
                .primary(span, format!("`{name}` declared again here"))
                .secondary(first, "previous declaration, still in scope")
                .note("a name can be declared once per func or kernel body, and shadowing an outer name is not allowed")
                .help(format!("choose another name, or assign to the existing variable: `{name} <- ...`")),
            BlockConstantInFunc { name, span } => {
                let what = if name == "block" { "`block` uses `BLOCKSIZE`, which" } else { "it" };
                Diagnostic::error(code, format!("`{name}` cannot be used in a func"))
                    .primary(span, "block-level name used in element-level code")
                    .note(format!(
                        "`B`, `BLOCKS`, `BLOCKSIZE`, `THREADS`, the grid's and block's rows and columns (`BROW`, `BCOL`, `GRIDROWS`, `GRIDCOLS`, `BLOCKROWS`, `BLOCKCOLS`, `ROW`, `COL`), `block` and `transpose` describe the block a kernel runs on; funcs are element-level code and {what} is only available in kernels"
                    ))
                    .help("pass the value to the func as an argument")
            }
            ReservedName { name, span } => Diagnostic::error(code, format!("`{name}` is a reserved name"))
                .primary(span, "cannot be declared")
                .note("`B`, `BLOCKS`, `BLOCKSIZE`, `THREADS`, `BLOCKROWS`, `BLOCKCOLS`, `BROW`, `BCOL`, `GRIDROWS`, `GRIDCOLS`, `ROW`, `COL`, the type names and the builtins `block`, `range`, `select` and `transpose` cannot be redefined"),
            UnknownField { field, span, ty, suggestion } => {
                let d = Diagnostic::error(code, format!("no field `{field}` on type {}", quoted(&ty, records)))
                    .primary(span, "unknown field");
                let fields = match &ty {
                    Ty::Record(id) => records.fields(*id).iter().map(|f| format!("`{}`", f.name)).collect(),
                    Ty::Range => vec!["`start`".to_string(), "`end`".to_string()],
                    _ => vec![],
                };
                let d = if fields.is_empty() { d } else { d.note(format!("the fields are {}", fields.join(", "))) };
                did_you_mean(d, &suggestion)
            }
            DuplicateField { name, span, first } => Diagnostic::error(code, format!("field `{name}` appears more than once"))
                .primary(span, "duplicate field")
                .secondary(first, "first appears here"),
            RecursiveAlias { name, span } => Diagnostic::error(code, format!("type alias `{name}` refers to itself"))
                .primary(span, "recursive type alias")
                .note("records are stored by value, so a type cannot contain itself"),

            ReservedKernelName { name, span, why } => {
                let (label, note) = match why {
                    KernelNameClash::NotPtxIdentifier => ("is not a PTX identifier", "PTX names that start with `_` need a letter, digit, `_` or `$` after it"),
                    KernelNameClash::PtxPredefined => ("is PTX's predefined identifier", "`WARP_SZ` is predefined in every PTX module"),
                    KernelNameClash::Libdevice => ("collides with libdevice's and NVVM's names", "names starting with `__nv` belong to libdevice and NVVM, which are linked into the same module"),
                    KernelNameClash::Runtime => ("collides with the CPU backend's runtime", "names starting with `loom_simt_` belong to the runtime that runs kernels on the CPU"),
                };
                Diagnostic::error(code, format!("`{name}` cannot name a kernel"))
                    .primary(span, label)
                    .note(format!("a kernel's name is its PTX entry name, the name a host launches it by; {note}"))
                    .help("rename the kernel")
            }
            ParamSpaceExceeded { kernel, span, bytes, limit, params } => Diagnostic::error(code, format!("the parameters of kernel `{kernel}` need {bytes} bytes of PTX parameter space; at most {limit} fit"))
                .primary(span, format!("{params} parameters"))
                .note("each array parameter is an 8-byte pointer; scalars take their size, aligned to it; a record or `Range` its C layout's size, aligned to its largest field")
                .help("pass fewer arrays: put several into one array with an extra dimension"),

            Mismatch { expected, found, span, expected_span, cast } => {
                let mut d = Diagnostic::error(code, format!(
                    "mismatched types: expected {}, found {}",
                    quoted(&expected, records),
                    quoted(&found, records)
                ))
                .primary(span, format!("this has type {}", quoted(&found, records)));
                if let Some(es) = expected_span {
                    d = d.secondary(es, format!("expected {} because of this", quoted(&expected, records)));
                }
                d = d.note("LOOM has no implicit conversions between types");
                if let Some((to, text)) = cast {
                    d = d.help(format!("convert explicitly: `{}({text})`", to.name()));
                }
                let register_vector = matches!(found, Ty::Array { space: Space::Local, .. });
                if register_vector && matches!(expected, Ty::Array { .. }) {
                    d = d.help("a vector variable lives in registers, spread over the threads; a func's array parameter takes an array in memory, global or `shared`: declare the variable `shared`");
                }
                d
            }
            ElementMismatch { expected, found, span, expected_span, cast } => {
                let found_elem = found.element().clone();
                let mut d = Diagnostic::error(code, format!(
                    "mismatched element types: expected {} elements, found {}",
                    quoted(&expected, records),
                    quoted(&found_elem, records)
                ))
                .primary(span, format!("this is {}", quoted(&found, records)));
                if let Some(es) = expected_span {
                    d = d.secondary(es, format!("elements of type {} expected because of this", quoted(&expected, records)));
                }
                d = d.note("LOOM has no implicit conversions between types; a cast converts a vector elementwise");
                if let Some((to, text)) = cast {
                    d = d.help(format!("convert explicitly: `{}({text})`", to.name()));
                }
                d
            }
            OperandMismatch { op, op_span, lhs, rhs, cast } => {
                let mut d = Diagnostic::error(code, format!(
                    "mismatched operand types for `{op}`: {} and {}",
                    quoted(&lhs.1, records),
                    quoted(&rhs.1, records)
                ))
                .primary(lhs.0, format!("this has type {}", quoted(&lhs.1, records)))
                .primary(rhs.0, format!("this has type {}", quoted(&rhs.1, records)))
                .secondary(op_span, "operands must have the same type")
                .note("LOOM has no implicit conversions between types");
                if let Some((right, to, text)) = cast {
                    let side = if right { "right" } else { "left" };
                    d = d.help(format!("convert the {side} operand: `{}({text})`", to.name()));
                }
                d
            }
            BadOperand { op, op_span, span, ty } => {
                let want = match op {
                    "and" | "or" | "not" => "`Bool` operands",
                    "&" | "|" | "^" | "~" | "<<" | ">>" => "integer operands",
                    "==" | "!=" => "numeric or `Bool` operands",
                    _ => "numeric operands",
                };
                Diagnostic::error(code, format!("`{op}` cannot be applied to {}", quoted(&ty, records)))
                    .primary(span, format!("this has type {}", quoted(&ty, records)))
                    .secondary(op_span, format!("`{op}` needs {want}"))
            }
            FloatLiteralForInteger { span, expected } => {
                Diagnostic::error(code, format!("a float literal cannot have the integer type `{}`", expected.name()))
                    .primary(span, format!("expected `{}` here", expected.name()))
                    .help(format!(
                        "write an integer literal, or convert explicitly: `{}(...)` truncates toward zero",
                        expected.name()
                    ))
            }
            LiteralOutOfRange { span, text, ty } => Diagnostic::error(code, format!("literal `{text}` does not fit in `{}`", ty.name()))
                .primary(span, format!("out of range for `{}`", ty.name()))
                .help(literal_range_hint(ty, &text)),
            ConstantOutOfRange { span, text, ty, problem } => match problem {
                ConstantProblem::Overflow(value) => Diagnostic::error(code, format!("constant `{text}` does not fit in `{}`: it is {value}", ty.name()))
                    .primary(span, format!("{value} is out of range for `{}`", ty.name()))
                    .note("constant expressions are computed exactly and must fit their type; they never wrap")
                    .help(if ty.bits() < 64 {
                        "compute in a wider type, e.g. `Int64(65536) * 65536`, or use a smaller constant"
                    } else {
                        "LOOM's integers are at most 64 bits: use smaller constants"
                    }),
                ConstantProblem::ShiftAmount(amount) => Diagnostic::error(code, format!("constant `{text}` shifts by {amount}, outside 0 to {} for `{}`", ty.bits() - 1, ty.name()))
                    .primary(span, format!("shift amount {amount} is out of range for `{}`", ty.name()))
                    .help("shift a wider type, e.g. `Int64(1) << 40`"),
            },
            NotIndexable { span, ty } => {
                let d = Diagnostic::error(code, format!("cannot index a value of type {}", quoted(&ty, records)))
                    .primary(span, "not an array");
                match ty {
                    Ty::Vector { .. } => d
                        .note("a block vector is indexed through a copy in shared memory, which needs its length at compile time; this one's is known only at run time")
                        .help("index the arrays it is computed from instead"),
                    Ty::Array { .. } => d
                        .note("a vector variable of run-time length is recomputed at each use, and indexing needs a copy in shared memory of a length known at compile time")
                        .help("index the arrays it is computed from instead"),
                    _ => d,
                }
            }
            BadIndexType { span, ty } => {
                // A vector of indices (a gather or a scatter) converts element by element.
                let help = match ty {
                    Ty::Vector { .. } | Ty::Array { .. } => "convert it with `Int32 /~ (...)`",
                    _ => "convert it with `Int32(...)`",
                };
                Diagnostic::error(code, format!("an index must be an integer or a Range, not {}", quoted(&ty, records)))
                    .primary(span, format!("this has type {}", quoted(&ty, records)))
                    .help(help)
            }
            WrongIndexCount { span, ty, found } => {
                let dims = match &ty {
                    Ty::Array { dims, .. } => dims.len(),
                    _ => 1,
                };
                Diagnostic::error(code, format!("{found} indices for an array of {dims} dimension{}", if dims == 1 { "" } else { "s" }))
                    .primary(span, format!("{} has {dims} dimension{}", quoted(&ty, records), if dims == 1 { "" } else { "s" }))
            }
            NoFields { span, field, ty } => Diagnostic::error(code, format!("type {} has no fields", quoted(&ty, records)))
                .primary(span, format!("cannot read `.{field}` here"))
                .note("only records and `Range` (`.start`, `.end`) have fields"),
            BadCast { span, from, to } => Diagnostic::error(code, format!("cannot convert {} to `{}`", quoted(&from, records), to.name()))
                .primary(span, format!("this has type {}", quoted(&from, records)))
                .note("casts convert between numeric types, and between `Bool` and integer types"),
            LengthMismatch { span, found, expected, other } => {
                Diagnostic::error(code, format!("vector lengths differ: {found} and {expected}"))
                    .primary(span, format!("this has length {found}"))
                    .secondary(other, format!("this has length {expected}"))
                    .note("elementwise operations, stores and initializers need vectors of equal length")
            }
            TileShapeMismatch { span, found, expected, other } => {
                let shape = |(r, c): (u64, u64)| format!("{r} x {c}");
                Diagnostic::error(code, format!("tile shapes differ: {} and {}", shape(found), shape(expected)))
                    .primary(span, format!("this tile is {}", shape(found)))
                    .secondary(other, format!("this tile is {}", shape(expected)))
                    .note("elementwise operations, stores and initializers of tiles need equal shapes, since element (i, j) of each belongs to the same thread")
                    .help("to exchange rows and columns, read a tile through `transpose(t)`")
            }
            TileShapeUnknown { span, range } => Diagnostic::error(code, "a two-dimensional slice needs ranges of known length")
                .primary(range, "the length of this range is not known at compile time")
                .secondary(span, "this slice is a tile")
                .note("a tile's shape must be known at compile time: element (i, j) belongs to the thread at row i and column j")
                .help("write the range so that its length folds to a constant, e.g. `range(BROW * 16, BROW * 16 + 16)`"),
            BadTranspose { span, ty } => Diagnostic::error(code, "`transpose` needs a two-dimensional array of known shape")
                .primary(span, format!("this has type {}", quoted(&ty, records)))
                .note("`transpose(t)` reads a tile in memory (a `shared` array `T[r, c]`, or a global one of compile-time shape) with rows and columns exchanged: element (i, j) is `t[j, i]`")
                .help("store the tile into a `shared` array first: `shared t: Float32[16, 16] <- v`"),
            NotAssignable { span, name, reason, decl } => {
                let what = name.map(|n| format!("`{n}`")).unwrap_or_else(|| "this expression".to_string());
                let d = Diagnostic::error(code, format!("cannot assign to {what}")).primary(span, "cannot be assigned");
                let d = match decl {
                    Some(decl) => d.secondary(decl, "declared here"),
                    None => d,
                };
                match reason {
                    NotAssignableReason::Param => d
                        .note("scalar, Range and record parameters are read-only")
                        .help("copy it into a local variable: `x: T <- param`"),
                    NotAssignableReason::LoopVar => d
                        .note("a `for` loop variable is read-only: the loop sets it")
                        .help("use a `while` loop with your own counter to change it"),
                    NotAssignableReason::BlockConstant => {
                        d.note("`B`, `BLOCKS`, `BLOCKSIZE` and `THREADS` are fixed for the launch")
                    }
                    NotAssignableReason::FuncArray => d
                        .note("funcs are element-level code: they may read global arrays but not write them")
                        .help("return the value and store it in the kernel"),
                    NotAssignableReason::NotAPlace => {
                        d.note("only variables, array elements, slices and record fields can be assigned")
                    }
                }
            }
            RecordLiteralMismatch { span, expected, found_fields } => {
                Diagnostic::error(code, format!("record literal does not match type {}", quoted(&expected, records)))
                    .primary(span, format!("has fields {{{}}}", found_fields.join(", ")))
                    .note("record types are structural: the same field names in the same order")
            }
            CannotInfer { span } => Diagnostic::error(code, "cannot infer the element type of an empty vector literal")
                .primary(span, "type unknown")
                .help("declare the variable's type: `v: Int32[] <- []`"),
            MissingInitializer { name, span } => Diagnostic::error(code, format!("`{name}` needs an initializer"))
                .primary(span, "declared without a value")
                .note("only `shared` arrays may be declared without an initializer")
                .help(format!("give it a value: `{name}: T <- ...`")),
            TooManyDims { span, count } => Diagnostic::error(code, format!("arrays have at most 2 dimensions, this one has {count}"))
                .primary(span, "too many dimensions"),
            TypeNotAllowed { span, ty, context } => {
                let shown = ty.map(|t| quoted(&t, records)).unwrap_or_else(|| "this type".to_string());
                let (message, note) = match context {
                    TypeContext::ArrayElement => (
                        format!("{shown} cannot be an array element"),
                        "array elements are scalars (Int8 to Int64, UInt8 to UInt64, Float16, BFloat16, Float32, Float64, Bool) or records",
                    ),
                    TypeContext::RecordField => {
                        (format!("{shown} cannot be a record field"), "record fields are scalars, Ranges or records")
                    }
                    TypeContext::TypeAlias => (
                        "type aliases cannot name array types".to_string(),
                        "an array's dimensions depend on where it is declared",
                    ),
                    TypeContext::FuncResult => (
                        format!("a func cannot return {shown}"),
                        "funcs are element-level code: they return scalars, Ranges or records",
                    ),
                    TypeContext::LocalArray2d => (
                        "a two-dimensional array of run-time shape must be a parameter or `shared`".to_string(),
                        "a register tile's shape must be known at compile time",
                    ),
                    TypeContext::SharedScalar => (
                        "a `shared` variable must be an array".to_string(),
                        "a uniform value is already one value per block",
                    ),
                };
                Diagnostic::error(code, message).primary(span, "not allowed here").note(note)
            }

            VectorCondition { span, ty, keyword } => {
                Diagnostic::error(code, format!("the condition of `{keyword}` must be uniform, but this is a block vector"))
                    .primary(span, format!("this has type {}: one value per element", quoted(&ty, records)))
                    .note("kernel control flow is uniform: every thread of the block takes the same branch, so no barrier can be divergent")
                    .help("use `select(c, a, b)` for a per-element choice, or an `if` inside a `func`")
            }
            LoopVarType { span, ty } => {
                Diagnostic::error(code, format!("a `for` loop variable must be `Int32`, not {}", quoted(&ty, records)))
                    .primary(span, "declared here")
                    .note("`for` iterates over a Range, whose bounds are `Int32`")
            }
            CollectiveInFunc { span, op, func_decl } => {
                Diagnostic::error(code, format!("collective operation `{}` in a func", op.symbol()))
                    .primary(span, "collective operation here")
                    .secondary(func_decl, "in this func")
                    .note("funcs are element-level code, run by one thread for one element; `/~`, `/.`, `/:` and `:/` work on a whole block vector")
                    .help("move the collective operation into the kernel and pass its result to the func")
            }
            BadCollectiveFunc { span, op, name, problem, def } => {
                let mut d = match problem {
                    CollectiveFuncProblem::Builtin => Diagnostic::error(code, format!("`{name}` cannot be the function of `{}`", op.symbol()))
                        .primary(span, "a builtin, not a func")
                        .help("wrap it in a `func`"),
                    CollectiveFuncProblem::CastInCombine => {
                        Diagnostic::error(code, format!("a cast cannot combine two values in `{}`", op.symbol()))
                            .primary(span, "a cast takes one value")
                            .help("a reduction or scan needs a func `(T, T): T`, such as `sum`")
                    }
                    CollectiveFuncProblem::NoResult => Diagnostic::error(code, format!("`{name}` returns nothing, so `{}` cannot use it", op.symbol()))
                        .primary(span, "no result type"),
                    CollectiveFuncProblem::NotCombining { params, ret } => {
                        let params: Vec<String> = params.iter().map(|p| p.display(records).to_string()).collect();
                        Diagnostic::error(code, format!("`{}` needs a func that combines two values of one type", op.symbol()))
                            .primary(span, format!("`{name}` has type ({}): {}", params.join(", "), ret.display(records)))
                            .note("the func of a reduction or scan has type `(T, T): T` and must be associative")
                    }
                };
                if let Some(def) = def {
                    d = d.secondary(def, format!("`{name}` defined here"));
                }
                d
            }
            NotAVector { span, ty, op } => {
                let d = Diagnostic::error(code, format!("`{}` needs a block vector, found {}", op.symbol(), quoted(&ty, records)))
                    .primary(span, "not a vector");
                match ty {
                    Ty::Array { .. } => d.help("index one row of the two-dimensional array: `a[i]`"),
                    _ => d.note("vectors are slices such as `a[r]`, one-dimensional arrays, Ranges and the results of `/~`, `/:` and `:/`"),
                }
            }
            NeedsPowerOfTwo { span, op, block_size, source } => {
                let d = Diagnostic::error(code, format!("`{}` needs a power-of-two BLOCKSIZE, but it is {block_size}", op.symbol()))
                    .primary(span, "reductions and scans combine values in a tree");
                match source {
                    BlockSizeSource::Attribute(attr) => d.secondary(attr, format!("BLOCKSIZE set to {block_size} here")),
                    BlockSizeSource::Option => d.note(format!("BLOCKSIZE is {block_size}, from `--block-size {block_size}`")),
                }
                .help("use a block size of 32, 64, 128, 256, 512 or 1024")
            }
            VectorWhereUniform { span, ty, context, expected_span } => {
                let (message, help) = match context {
                    UniformContext::Variable => (
                        "a block vector cannot be stored in a uniform variable",
                        "reduce it to one value (`sum /. v`), or declare a vector: `x: T[] <- ...`",
                    ),
                    UniformContext::Element => (
                        "a block vector cannot be stored in one element",
                        "store it into a slice (`a[r] <- v` with a Range `r`), or reduce it first (`sum /. v`)",
                    ),
                    UniformContext::Argument => (
                        "a block vector cannot be passed where a uniform value is expected",
                        "a func called with block vectors applies to each element and gives a vector of its results, so it needs a result type",
                    ),
                    UniformContext::BoundArgument => (
                        "the bound arguments of a collective must be uniform",
                        "map over the vector instead, or reduce it first",
                    ),
                    UniformContext::Return => ("a kernel cannot return a block vector", "store it into an array"),
                    UniformContext::Index => ("this index must be uniform", "index with one uniform value"),
                    UniformContext::RecordField => {
                        ("a record field must be uniform", "reduce the vector first (`sum /. v`)")
                    }
                    UniformContext::RangeBound => {
                        ("the bounds of a Range must be uniform", "reduce the vector first (`min /. v`)")
                    }
                };
                let mut d = Diagnostic::error(code, message)
                    .primary(span, format!("this is a block vector: {}", quoted(&ty, records)))
                    .note("a block vector has one element per thread; a uniform value is one value for the whole block")
                    .help(help);
                if let Some(es) = expected_span {
                    d = d.secondary(es, "a uniform value is expected because of this");
                }
                d
            }
            DynamicRegisterVector { span, name, ty, reason, no_scratch } => {
                use super::scratch_rows::NoScratchRow as NoRow;
                use NotRecomputed as Why;
                let d = Diagnostic::error(code, format!("vector variable `{name}` has a run-time length and cannot be recomputed at each use"))
                    .primary(span, format!("this has type {}, whose length is known only at run time", quoted(&ty, records)))
                    .note("a vector of run-time length does not fit a fixed number of registers per thread, so each use of the variable evaluates its initializer again; here that is not possible");
                let d = match no_scratch {
                    NoRow::LengthAfterLaunch => d.note("nor can it be stored in a per-block scratch row, which the host allocates at launch: its length is not an expression over literals, `BLOCKS`, `BLOCKSIZE`, `THREADS` and integer scalar parameters"),
                    NoRow::NotScalarElements => d.note("nor can it be stored in a per-block scratch row: its elements are not scalars"),
                    NoRow::InFunc => d,
                };
                match reason {
                    Why::UniformFill => d
                        .note("a uniform initializer only fills an array: there is no vector expression to recompute")
                        .help("use the value directly, or declare a global array parameter and store into it"),
                    Why::Assigned { at } => d
                        .secondary(at, format!("`{name}` is assigned here"))
                        .help("declare a new variable for the new value, or store the vector into an array"),
                    Why::TooLarge { nodes } => d
                        .note(format!("with the recomputed variables it is defined from substituted, its initializer is {nodes} expression nodes, more than {}", MAX_RECOMPUTED_NODES))
                        .help("store an intermediate vector into an array, or use the variables it is defined from fewer times"),
                    Why::Changed { name: written, at } => d
                        .secondary(at, format!("`{written}`, which the initializer reads, changes here"))
                        .help(format!("use `{name}` before `{written}` changes, or store the vector into an array")),
                }
            }
            SharedDynamicLength { span, name, ty } => {
                Diagnostic::error(code, format!("shared array `{name}` needs a compile-time length"))
                    .primary(span, format!("this has type {}, whose length is known only at run time", quoted(&ty, records)))
                    .note("shared memory is allocated per block when the kernel is launched, so its size is fixed when compiling")
                    .help("give it a length from literals and `BLOCKSIZE`, e.g. `shared t: Float32[BLOCKSIZE]`, or initialize it from a `block(..)` slice")
            }
            SharedInFunc { span, func_decl } => Diagnostic::error(code, "`shared` variables cannot be declared in a func")
                .primary(span, "shared declaration")
                .secondary(func_decl, "in this func")
                .note("funcs are element-level code; shared memory belongs to a block")
                .help("declare the shared array in the kernel and pass values to the func"),
            VectorInFunc { span, ty } => Diagnostic::error(code, "a func cannot make a block vector")
                .primary(span, format!("this would be {}", quoted(&ty, records)))
                .note("funcs are element-level code: one thread runs them for one element, so they work on scalars")
                .help("index one element (`a[i]`), or do the vector work in the kernel"),

            Recursion { cycle, span, calls } => {
                let mut d = Diagnostic::error(code, format!("recursive call cycle: {}", cycle.join(" -> ")))
                    .primary(span, "this func calls itself through the cycle");
                for (call, callee) in calls {
                    d = d.secondary(call, format!("calls `{callee}`"));
                }
                d.note("funcs are inlined and GPU threads have no call stack to spare, so recursion is not allowed")
                    .help("rewrite the recursion as a `while` or `for` loop")
            }
            Arity { span, name, expected, found, def, bound } => {
                let plural = |n: usize| if n == 1 { "" } else { "s" };
                let mut d = Diagnostic::error(code, format!(
                    "`{name}` takes {expected} argument{} but {found} {} supplied",
                    plural(expected),
                    if found == 1 { "was" } else { "were" }
                ))
                .primary(span, format!("{found} argument{}", plural(found)));
                if let Some(def) = def {
                    d = d.secondary(def, format!("`{name}` defined here"));
                }
                if let Some(k) = bound {
                    d = d.note(format!("the collective passes {k} bound argument{} and then the elements", plural(k)));
                }
                d
            }
            MissingReturn { name, span, ret_span } => Diagnostic::error(code, format!("func `{name}` may end without returning a value"))
                .primary(span, "some path through this func returns nothing")
                .secondary(ret_span, "a value of this type must be returned")
                .note("`if` without `else`, `for` and `while` may fall through to the end of the body")
                .help("add a `return` at the end of the body"),
            BadReturn { span, problem, ret } => {
                let mut d = match problem {
                    ReturnProblem::ValueInUnitFunc => {
                        Diagnostic::error(code, "this func has no result type, so it cannot return a value").primary(span, "value returned here")
                    }
                    ReturnProblem::MissingValue => Diagnostic::error(code, "`return` needs a value here").primary(span, "no value"),
                    ReturnProblem::ValueInKernel => Diagnostic::error(code, "a kernel cannot return a value")
                        .primary(span, "value returned here")
                        .help("store results into an array parameter; a bare `return` ends the block early"),
                };
                if let Some((ty, rspan)) = ret {
                    d = d.secondary(rspan, format!("the func returns {}", quoted(&ty, records)));
                }
                d
            }
            CallKernel { span, name, def } => Diagnostic::error(code, format!("kernel `{name}` cannot be called"))
                .primary(span, "called here")
                .secondary(def, "kernel defined here")
                .note("kernels are launched by the host; code shared between kernels goes into a `func`"),
            NoOverload { span, name, args, candidates, ambiguous } => {
                let shown: Vec<String> = args
                    .iter()
                    .map(|a| match a {
                        Some(t) => t.display(records).to_string(),
                        None => "literal".to_string(),
                    })
                    .collect();
                let message = if ambiguous {
                    format!("call to `{name}` is ambiguous for arguments ({})", shown.join(", "))
                } else {
                    format!("no overload of `{name}` takes arguments ({})", shown.join(", "))
                };
                let d = Diagnostic::error(code, message).primary(span, "no single overload fits").note(candidates_note(&candidates, &name, records));
                if ambiguous {
                    d.help("give the literal a type, e.g. `Float32(1)`")
                } else {
                    d.help("convert the arguments so that their types match one candidate exactly")
                }
            }

            BlockSizeRange { span, value } => Diagnostic::error(code, format!("block size {value} is out of range"))
                .primary(span, "must be between 1 and 1024")
                .note("CUDA blocks have at most 1024 threads"),
            BadDim { span, reason } => {
                const ALLOWED: &str =
                    "dimensions may use literals, `BLOCKS`, `BLOCKSIZE`, `THREADS` and earlier integer parameters";
                match reason {
                    BadDimReason::LaterParam { name, decl } => {
                        Diagnostic::error(code, format!("array dimension uses `{name}`, which is declared after this parameter"))
                            .primary(span, format!("`{name}` is not known yet here"))
                            .secondary(decl, format!("`{name}` declared here"))
                            .note(ALLOWED)
                            .help(format!("move `{name}` before the array parameter"))
                    }
                    BadDimReason::NotInteger(ty) => {
                        Diagnostic::error(code, format!("array dimension must be an integer, not {}", quoted(&ty, records)))
                            .primary(span, format!("this has type {}", quoted(&ty, records)))
                            .note(ALLOWED)
                    }
                    BadDimReason::BlockIndex(name) if name == "B" || name == "BROW" || name == "BCOL" => Diagnostic::error(code, format!("array dimension cannot use `{name}`"))
                        .primary(span, format!("`{name}` differs between blocks"))
                        .note("an array's dimensions are the same for every block of a launch"),
                    BadDimReason::BlockIndex(name) if name == "ROW" || name == "COL" => Diagnostic::error(code, format!("array dimension cannot use `{name}`"))
                        .primary(span, format!("`{name}` is a block vector: it differs between threads"))
                        .note("an array's dimensions are the same for every block of a launch"),
                    BadDimReason::BlockIndex(name) => Diagnostic::error(code, format!("array dimension cannot use `{name}`"))
                        .primary(span, format!("`{name}` describes a two-dimensional grid"))
                        .note("a dimension may use `BLOCKS` (every block of the grid), not the grid's rows or columns: the calling convention describes dimensions over `BLOCKS`, `BLOCKSIZE` and `THREADS` (docs/abi.md)"),
                    BadDimReason::Negative(n) => Diagnostic::error(code, format!("array dimension is negative: {n}"))
                        .primary(span, format!("this is {n}"))
                        .note("dimensions cannot be negative"),
                    BadDimReason::NotUniform => Diagnostic::error(code, "array dimension must be uniform")
                        .primary(span, "a block vector")
                        .note("a dimension is one value for the whole block"),
                }
            }
            KernelArrayNeedsDims { span, name } => Diagnostic::error(code, format!("kernel array parameter `{name}` needs dimensions"))
                .primary(span, "`T[]` has no length")
                .note("the dimensions of a global array travel with the launch")
                .help("write the dimensions, e.g. `Float32[n]` with an earlier parameter `n: Int32`, or `Float32[THREADS]`"),

            Unreachable { span, after } => Diagnostic::warning(code, "unreachable statement")
                .primary(span, "this is never run")
                .secondary(after, "every path returns before it"),
            Atomic(e) => e.into_diagnostic(records),
            RacyUpdate(w) => w.into_diagnostic(),
            Grid(e) => e.into_diagnostic(),
        }
    }
}

/// What to do about a literal that does not fit its type: a float type needs a wider float type,
/// an integer one a wider integer type, unless no LOOM integer holds it.
fn literal_range_hint(ty: Scalar, text: &str) -> String {
    let digits = text.trim_start_matches('-');
    let is_integer = !digits.contains(['.', 'e']);
    let any_integer_holds = digits
        .parse::<u128>()
        .is_ok_and(|v| v <= u128::from(u64::MAX) && (!text.starts_with('-') || v <= 1 << 63));
    match ty {
        Scalar::Float32 if !is_integer => "the largest finite `Float32` is 3.4028235e38 (a literal \
             rounds to infinity from about 3.4028235678e38 on); use `Float64` for larger magnitudes, \
             e.g. `x: Float64 <- ...`"
            .to_string(),
        Scalar::Float16 if !is_integer || any_integer_holds => "the largest finite `Float16` is \
             65504 (a literal rounds to infinity from 65520 on); use `Float32` or `BFloat16` (the \
             range of `Float32`, with 8 bits of precision) for larger magnitudes"
            .to_string(),
        Scalar::BFloat16 if !is_integer || any_integer_holds => "the largest finite `BFloat16` is \
             3.3895314e38 (a literal rounds to infinity from about 3.3961775e38 on); use \
             `Float64` for larger magnitudes"
            .to_string(),
        _ if is_integer && !any_integer_holds => "LOOM's integers are at most 64 bits (`Int64` \
             from -9223372036854775808, `UInt64` up to 18446744073709551615); for a larger float \
             write a float literal such as `1.0e20`"
            .to_string(),
        _ => match ty.int_range() {
            Some((min, max)) if ty.bits() < 32 => format!(
                "`{}` holds {min} to {max}; use a wider type such as `Int32`, e.g. `x: Int32 <- ...`",
                ty.name()
            ),
            _ => "use a wider type such as `Int64` or `UInt64`, e.g. `x: Int64 <- ...`".to_string(),
        },
    }
}
