//! The diagnostics of misused atomics (E0600-E0605), as data.

use crate::check::atomic_op::AtomicOp;
use crate::check::types::{RecordTable, Scalar, Ty};
use crate::diagnostics::Diagnostic;
use crate::syntax::span::Span;

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
                    "PTX has only `atom.add` for 16-bit floats: keep these values in a `Float32` array (`atomic_exch` and the others take it), or make the choice with an integer atomic on a flag or an index"
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
