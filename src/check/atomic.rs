//! The atomic builtins: `atomic_add(hist[[v]], 1)`, `old: Int32 <- atomic_cas(a[i], e, n)`.
//!
//! The first argument is a place: an element, or a vector of elements (a slice or a gather), of
//! a kernel's array parameter or a `shared` array. The other arguments are the operands, uniform
//! or block vectors, broadcast against the place like the operands of an elementwise operator:
//! each element of the result is one atomic operation on its element of memory. A uniform place
//! with uniform operands is one operation for the whole block, made by thread 0.
//!
//! An atomic is a statement (`atomic_add(h[[v]], 1)` on its own line) or, when its place and
//! operands are uniform, the whole right side of a scalar declaration or of an assignment to a
//! variable (`base: Int32 <- atomic_add(count[0], n)`): its old value, uniform, like the result
//! of a reduce. Anywhere else its effect would be run as often as the expression is evaluated
//! (by every thread of the block, or not at all behind `and`), so it is an error there.

use super::error::{CheckError, UniformContext};
use super::scope::VarKind;
use super::stmt::FnCtx;
use super::types::{Len, RecordTable, Scalar, Space, Ty};
use super::{Builtin, Callee};
use crate::diagnostics::Diagnostic;
use crate::syntax::ast::{Expr, ExprKind};
use crate::syntax::span::Span;
use serde::Serialize;

/// The read-modify-write operations, as CUDA's `atomicAdd`, `atomicMin`, ... do them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum AtomicOp {
    Add,
    Sub,
    Min,
    Max,
    And,
    Or,
    Xor,
    /// `atomic_exch(p, v)`: stores `v`, gives the old value.
    Exch,
    /// `atomic_cas(p, expected, new)`: stores `new` if the element is `expected`; gives the old
    /// value either way.
    Cas,
}

impl AtomicOp {
    pub const ALL: [AtomicOp; 9] = [
        AtomicOp::Add,
        AtomicOp::Sub,
        AtomicOp::Min,
        AtomicOp::Max,
        AtomicOp::And,
        AtomicOp::Or,
        AtomicOp::Xor,
        AtomicOp::Exch,
        AtomicOp::Cas,
    ];

    pub const NAMES: [&'static str; 9] = [
        "atomic_add",
        "atomic_sub",
        "atomic_min",
        "atomic_max",
        "atomic_and",
        "atomic_or",
        "atomic_xor",
        "atomic_exch",
        "atomic_cas",
    ];

    pub fn name(self) -> &'static str {
        let k = AtomicOp::ALL.iter().position(|&o| o == self).unwrap_or(0);
        AtomicOp::NAMES[k]
    }

    pub fn from_name(name: &str) -> Option<AtomicOp> {
        let k = AtomicOp::NAMES.iter().position(|&n| n == name)?;
        AtomicOp::ALL.get(k).copied()
    }

    /// The number of arguments, the place included.
    pub fn arity(self) -> usize {
        match self {
            AtomicOp::Cas => 3,
            _ => 2,
        }
    }

    /// Whether the operation is defined on elements of type `s`: every operation on the 32-
    /// and 64-bit integers, `add` and `exch` on `Float32` and `Float64` too (what PTX's `atom`
    /// offers on every target loomc accepts; there is no 16-bit float atomic yet).
    pub fn accepts(self, s: Scalar) -> bool {
        // PTX's `atom` works on 32- and 64-bit elements (any narrower type a later change adds
        // needs its own lowering first).
        if !matches!(s.bits(), 32 | 64) {
            return false;
        }
        match self {
            AtomicOp::Add | AtomicOp::Exch => s.is_integer() || s.is_float(),
            _ => s.is_integer(),
        }
    }

    /// What a type the operation refuses could use instead, for the error's help.
    fn accepted(self) -> &'static str {
        match self {
            AtomicOp::Add | AtomicOp::Exch => {
                "Int32, Int64, UInt32, UInt64, Float32 and Float64 elements"
            }
            _ => "Int32, Int64, UInt32 and UInt64 elements",
        }
    }
}

/// Misused atomics.
#[derive(Debug, Clone, PartialEq)]
pub enum AtomicError {
    /// The first argument is not an element of an array in memory.
    NotAPlace { span: Span, op: AtomicOp },
    /// The element type has no such atomic operation.
    BadElement { span: Span, op: AtomicOp, ty: Ty },
    /// An atomic inside an expression, where it would run as often as the expression is
    /// evaluated; or a vector atomic whose old values are used.
    Position {
        span: Span,
        op: AtomicOp,
        vector: bool,
    },
    /// A call on its own line that is not an atomic: it would do nothing.
    CallStatement { span: Span, name: String },
    /// An atomic in a `func`: funcs only read memory.
    InFunc { span: Span, op: AtomicOp },
    /// A vector atomic whose subscripts or operands read, element by element, the array it
    /// updates: the reads and the atomics of its elements would interleave in no fixed order.
    ReadsPlace {
        span: Span,
        place: Span,
        array: String,
        op: AtomicOp,
    },
}

impl AtomicError {
    pub fn code(&self) -> &'static str {
        match self {
            AtomicError::NotAPlace { .. } => "E0600",
            AtomicError::BadElement { .. } => "E0601",
            AtomicError::Position { .. } => "E0602",
            AtomicError::CallStatement { .. } => "E0603",
            AtomicError::InFunc { .. } => "E0604",
            AtomicError::ReadsPlace { .. } => "E0605",
        }
    }

    pub fn into_diagnostic(self, records: &RecordTable) -> Diagnostic {
        let code = self.code();
        match self {
            AtomicError::NotAPlace { span, op } => Diagnostic::error(
                code,
                format!("the first argument of `{}` must be an array element", op.name()),
            )
            .primary(span, "not an element of a kernel's array or of a `shared` array")
            .note("an atomic operation changes memory in place: it needs the element's address")
            .help(format!(
                "name the element: `{}(hist[[i]], ...)`, or a vector of them: `{}(hist[[v]], ...)`",
                op.name(),
                op.name()
            )),
            AtomicError::BadElement { span, op, ty } => Diagnostic::error(
                code,
                format!(
                    "`{}` is not defined on elements of type `{}`",
                    op.name(),
                    ty.display(records)
                ),
            )
            .primary(span, format!("an element of type `{}`", ty.display(records)))
            .note(format!("`{}` works on {}", op.name(), op.accepted()))
            .help(match ty {
                Ty::Scalar(Scalar::Float16 | Scalar::BFloat16) => {
                    "loomc has no 16-bit float atomics yet (PTX has only `atom.add` for them, for `BFloat16` from sm_90 on): accumulate in a `Float32` array, `atomic_add(total[i], Float32(h))`"
                }
                Ty::Scalar(s) if s.is_float() => {
                    "only `atomic_add` and `atomic_exch` take floats, as in CUDA: keep these values in an integer array (fixed point, or a flag per element)"
                }
                _ => "keep the values in an `Int32`, `Int64`, `UInt32` or `UInt64` array",
            }),
            AtomicError::Position { span, op, vector } => {
                let d = Diagnostic::error(
                    code,
                    format!("the old value of `{}` cannot be used here", op.name()),
                );
                if vector {
                    d.primary(span, "one old value per element: a block vector")
                        .note("the old values of a vector of atomics are not available yet")
                        .help("use it as a statement on its own line; to reserve space per element, scan the counts (`sum /: n`) and make one uniform atomic for the block")
                } else {
                    d.primary(span, "inside an expression")
                        .note("an atomic happens once per statement: only a statement of its own, or the whole right side of a declaration or of an assignment to a variable, says when")
                        .help(format!(
                            "bind the old value first: `old: T <- {}(...)`, then use `old`",
                            op.name()
                        ))
                }
            }
            AtomicError::CallStatement { span, name } => {
                Diagnostic::error(code, format!("a call of `{name}` does nothing on its own"))
                    .primary(span, "its result is dropped")
                    .note("only the atomic builtins (`atomic_add`, `atomic_cas`, ...) may stand as a statement: funcs and the other builtins have no effect")
                    .help("assign the result: `x: T <- ...`")
            }
            AtomicError::InFunc { span, op } => {
                Diagnostic::error(code, format!("`{}` in a func", op.name()))
                    .primary(span, "funcs only read memory")
                    .note("a func is element-level code whose array parameters are read-only")
                    .help("make the atomic in the kernel, passing it the func's result")
            }
            AtomicError::ReadsPlace {
                span,
                place,
                array,
                op,
            } => Diagnostic::error(
                code,
                format!("`{}` reads the array `{array}` it updates, element by element", op.name()),
            )
            .primary(span, format!("a read of `{array}`"))
            .secondary(place, "updated here, one atomic per element")
            .note("the threads' reads and atomics of one statement are not ordered: a read could see an element before or after another thread's atomic, so the result would depend on timing")
            .help(format!(
                "read it into a vector variable first (`v: T[] <- {array}[[...]]`), then make the atomics with `v`"
            )),
        }
    }
}

/// A place's elements: a uniform one or a vector of them.
struct PlaceTy {
    elem: Ty,
    len: Option<Len>,
}

impl<'c, 'p> FnCtx<'c, 'p> {
    /// `atomic_op(place, operands...)`; `e` is the call.
    pub(super) fn builtin_atomic(&mut self, e: &Expr, op: AtomicOp, args: &[Expr]) -> Ty {
        self.cx
            .callees
            .insert(e.id, Callee::Builtin(Builtin::Atomic(op)));
        if self.in_func() {
            self.check_args_unhinted(args);
            self.error(CheckError::Atomic(AtomicError::InFunc { span: e.span, op }));
            return Ty::Error;
        }
        if !self.builtin_arity(e, op.name(), args, op.arity()) {
            return Ty::Error;
        }
        let Some((place, operands)) = args.split_first() else {
            return Ty::Error;
        };
        let Some(placed) = self.atomic_place(op, place) else {
            self.check_args_unhinted(operands);
            return Ty::Error;
        };
        let mut len = placed.len.map(|l| (l, place.span));
        for operand in operands {
            let found = self.expr(operand, Some(&placed.elem));
            if found.is_error() || placed.elem.is_error() {
                return Ty::Error;
            }
            let operand_len = match self.vector_of(&found, operand.id) {
                Some((found_elem, found_len)) => {
                    if found_elem != placed.elem {
                        self.element_mismatch(&found, &placed.elem, operand, Some(place.span));
                        return Ty::Error;
                    }
                    Some(found_len)
                }
                _ => {
                    self.expect(
                        &found,
                        &placed.elem,
                        operand,
                        Some(place.span),
                        UniformContext::Element,
                    );
                    None
                }
            };
            if let Some(l) = operand_len {
                len = match len {
                    None => Some((l, operand.span)),
                    Some((prev, prev_span)) => match prev.unify(l) {
                        Some(u) => Some((u, prev_span)),
                        None => {
                            self.error(CheckError::LengthMismatch {
                                span: operand.span,
                                found: l,
                                expected: prev,
                                other: prev_span,
                            });
                            return Ty::Error;
                        }
                    },
                };
            }
        }
        if len.is_some() {
            if let Some(error) = self.reads_own_place(op, place, operands) {
                self.error(CheckError::Atomic(error));
                return Ty::Error;
            }
        }
        let result = match len {
            Some((len, _)) => Ty::vector(placed.elem, len),
            None => placed.elem,
        };
        let is_statement = self.atomic_statement == Some(e.id);
        let is_binding = self.atomic_binding == Some(e.id);
        let vector = len.is_some();
        if !is_statement && (!is_binding || vector) {
            self.error(CheckError::Atomic(AtomicError::Position {
                span: e.span,
                op,
                vector,
            }));
            return Ty::Error;
        }
        result
    }

    /// The first argument: an element, or a vector of elements, of an array in memory, of a
    /// type `op` works on.
    fn atomic_place(&mut self, op: AtomicOp, place: &Expr) -> Option<PlaceTy> {
        let not_a_place = |this: &mut Self| {
            this.error(CheckError::Atomic(AtomicError::NotAPlace {
                span: place.span,
                op,
            }));
        };
        let ExprKind::Index { base, .. } = &place.kind else {
            self.expr(place, None);
            not_a_place(self);
            return None;
        };
        let in_memory = match &base.kind {
            ExprKind::Name(id) => self.scopes.lookup(&id.name).is_some_and(|v| {
                matches!(v.kind, VarKind::Param | VarKind::Shared)
                    && matches!(&v.ty, Ty::Array { space, .. } if *space != Space::Local)
            }),
            _ => false,
        };
        let ty = self.expr(place, None);
        if ty.is_error() {
            return None;
        }
        if !in_memory {
            not_a_place(self);
            return None;
        }
        let (elem, len) = match &ty {
            Ty::Scalar(_) | Ty::Record(_) => (ty.clone(), None),
            Ty::Vector { elem, len } => ((**elem).clone(), Some(*len)),
            _ => {
                not_a_place(self);
                return None;
            }
        };
        match elem {
            Ty::Scalar(s) if op.accepts(s) => Some(PlaceTy {
                elem: Ty::Scalar(s),
                len,
            }),
            _ => {
                self.error(CheckError::Atomic(AtomicError::BadElement {
                    span: place.span,
                    op,
                    ty: elem,
                }));
                None
            }
        }
    }

    /// A read of the place's array in a vector subscript or a vector operand of a vector atomic
    /// (uniform ones are read by every thread before any atomic: a barrier orders them).
    fn reads_own_place(
        &self,
        op: AtomicOp,
        place: &Expr,
        operands: &[Expr],
    ) -> Option<AtomicError> {
        let ExprKind::Index { base, indices, .. } = &place.kind else {
            return None;
        };
        let ExprKind::Name(array) = &base.kind else {
            return None;
        };
        let is_vector = |e: &Expr| {
            matches!(
                self.cx.expr_types.get(e.id.0 as usize),
                Some(Ty::Vector { .. } | Ty::Array { .. })
            )
        };
        let mut found = None;
        for part in indices.iter().chain(operands).filter(|e| is_vector(e)) {
            crate::syntax::visit::visit_expr(part, &mut |x| {
                if let ExprKind::Name(id) = &x.kind {
                    if id.name == array.name && found.is_none() {
                        found = Some(x.span);
                    }
                }
            });
        }
        found.map(|span| AtomicError::ReadsPlace {
            span,
            place: place.span,
            array: array.name.clone(),
            op,
        })
    }

    /// A call on its own line: an atomic, whose old values are dropped.
    pub(super) fn call_stmt(&mut self, call: &Expr) {
        let ExprKind::Call { callee, .. } = &call.kind else {
            self.expr(call, None);
            return;
        };
        if AtomicOp::from_name(&callee.name).is_none() {
            self.expr(call, None);
            self.error(CheckError::Atomic(AtomicError::CallStatement {
                span: call.span,
                name: callee.name.clone(),
            }));
            return;
        }
        self.atomic_statement = Some(call.id);
        self.expr(call, None);
        self.atomic_statement = None;
    }
}

/// The atomic call that `value` is, if it is one: the right side of a declaration or an
/// assignment, whose old value the statement binds.
pub(super) fn atomic_call(value: &Expr) -> Option<&Expr> {
    match &value.kind {
        ExprKind::Call { callee, .. } if AtomicOp::from_name(&callee.name).is_some() => Some(value),
        _ => None,
    }
}
