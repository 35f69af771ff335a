//! Elementwise calls: a `func` called with block vectors where it takes scalars or records
//! applies to every element, as an operator does (`max(x[[r]], y[[r]])`, `fma(a[r], 2.0, c[r])`).
//! Uniform arguments broadcast; the vector arguments must have one length (`E0210` when two
//! known lengths differ); the call is a block vector of the func's result type. `Range` and array
//! parameters take their argument whole, as in a uniform call.

use super::ctx::FnCtx;
use super::error::{CheckError, UniformContext};
use super::types::{Len, Ty};
use crate::syntax::ast::Expr;
use crate::syntax::span::Span;

/// Whether a parameter of type `param` takes a block vector element by element: scalars and
/// records do; a `Range` or an array is passed whole.
pub(super) fn applies_elementwise(param: &Ty) -> bool {
    matches!(param, Ty::Scalar(_) | Ty::Record(_))
}

/// The elements and length of an argument that stands for a vector of values: a block vector or
/// a one-dimensional array (global, `shared` or a vector variable), as an operator's operand.
pub(super) fn vector_argument(arg: &Ty) -> Option<(&Ty, Len)> {
    match arg {
        Ty::Vector { elem, len, .. } => Some((elem, *len)),
        Ty::Array { elem, dims, .. } if dims.len() == 1 => Some((elem, dims[0])),
        _ => None,
    }
}

/// True when `arg` fits `param` element by element.
pub(super) fn fits_elementwise(arg: &Ty, param: &Ty) -> bool {
    applies_elementwise(param) && vector_argument(arg).is_some_and(|(elem, _)| elem == param)
}

/// The vector arguments of one call, gathered while its arguments are checked.
#[derive(Default)]
pub(super) struct VectorArgs {
    /// Each vector argument's span and length, in argument order.
    lens: Vec<(Span, Len)>,
    /// The first vector argument's type, for messages.
    first_ty: Option<Ty>,
    /// An argument already has an error: the call's type is an error too, without more messages.
    poisoned: bool,
}

impl FnCtx<'_, '_> {
    /// Checks argument `a` of type `t` against a parameter of type `param`. Returns false when it
    /// is not a vector argument of an elementwise parameter (the caller checks it as usual).
    pub(super) fn elementwise_arg(
        &mut self,
        t: &Ty,
        param: &Ty,
        param_span: Option<Span>,
        a: &Expr,
        out: &mut VectorArgs,
    ) -> bool {
        if !applies_elementwise(param) {
            return false;
        }
        let Some((elem, len)) = vector_argument(t) else {
            return false;
        };
        if self.in_func() {
            // Funcs are element-level code: a whole array is no vector there (as for operators).
            self.error(CheckError::VectorInFunc {
                span: a.span,
                ty: t.clone(),
            });
            out.poisoned = true;
            return true;
        }
        if elem.is_error() {
            out.poisoned = true;
        } else if elem != param {
            self.element_mismatch(t, param, a, param_span);
            out.poisoned = true;
        }
        out.lens.push((a.span, len));
        out.first_ty.get_or_insert_with(|| t.clone());
        true
    }

    /// The type of a call to a func returning `ret` whose vector arguments are `args`: `ret`
    /// itself without any, else a block vector of `ret` of their common length.
    pub(super) fn elementwise_result(&mut self, ret: Ty, args: VectorArgs) -> Ty {
        let Some(&(first_span, first_len)) = args.lens.first() else {
            return if args.poisoned { Ty::Error } else { ret };
        };
        if args.poisoned || ret.is_error() {
            return Ty::Error;
        }
        if ret == Ty::Unit {
            // Nothing to make a vector of, and a func has no effect but its result.
            self.error(CheckError::VectorWhereUniform {
                span: first_span,
                ty: args.first_ty.clone().unwrap_or(Ty::Error),
                context: UniformContext::Argument,
                expected_span: None,
            });
            return Ty::Error;
        }
        let mut len = first_len;
        for &(span, l) in &args.lens[1..] {
            match len.unify(l) {
                Some(u) => len = u,
                None => {
                    self.error(CheckError::LengthMismatch {
                        span,
                        found: l,
                        expected: len,
                        other: first_span,
                    });
                    return Ty::Error;
                }
            }
        }
        Ty::vector(ret, len)
    }
}
