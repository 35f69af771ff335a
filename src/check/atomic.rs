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

use super::atomic_op::AtomicOp;
use super::ctx::FnCtx;
use super::error::{AtomicError, CheckError, UniformContext};
use super::scope::VarKind;
use super::types::{Len, Space, Ty};
use super::{Builtin, Callee};
use crate::syntax::ast::{Expr, ExprKind};

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
            Ty::Vector { elem, len, .. } => ((**elem).clone(), Some(*len)),
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
