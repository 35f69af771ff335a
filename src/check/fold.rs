//! Compile-time facts about integer expressions: constant values (array dimensions, `shared`
//! sizes, any expression of literals and `BLOCKSIZE`) and linear forms (the length of
//! `range(a, b)` when `b - a` is constant, as in `range(B * BLOCKSIZE, (B + 1) * BLOCKSIZE)`).
//!
//! Every constant is folded here, once, bottom-up as the checker types each expression
//! ([`FnCtx::fold_constant`]), with one checked arithmetic: exact values, each result required to
//! fit the expression's type. An overflow is an error (`E0204`, like a literal that does not fit),
//! never a wrapped value: `65536 * 65536 + 4` as a dimension is not 4.

use super::ctx::FnCtx;
use super::error::{CheckError, ConstantProblem};
use super::types::Scalar;
use super::Callee;
use crate::syntax::ast::{BinaryOp, Expr, ExprId, ExprKind, UnaryOp};
use llvm_passes::affine::Combination;
use std::collections::HashMap;

/// `constant + sum(coefficient * name)`. Names stand for whatever value they have where the
/// expression is evaluated; two forms evaluated together can be subtracted. The names' part is
/// the exact combination every LOOM analysis compares integers with (`llvm_passes::affine`).
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Linear {
    pub constant: i128,
    pub terms: Combination<String>,
}

impl Linear {
    fn constant(c: i128) -> Linear {
        Linear {
            constant: c,
            terms: Combination::default(),
        }
    }

    fn scale(self, k: i128) -> Option<Linear> {
        Some(Linear {
            constant: self.constant.checked_mul(k)?,
            terms: self.terms.scale(k)?,
        })
    }

    fn add(self, other: Linear, sign: i128) -> Option<Linear> {
        Some(Linear {
            constant: self
                .constant
                .checked_add(other.constant.checked_mul(sign)?)?,
            terms: self.terms.add_scaled(&other.terms, sign)?,
        })
    }

    pub fn as_constant(&self) -> Option<i128> {
        self.terms.is_zero().then_some(self.constant)
    }

    /// `self - other` when it is a constant (their names cancel).
    pub fn constant_difference(self, other: Linear) -> Option<i128> {
        self.add(other, -1)?.as_constant()
    }
}

/// The linear form of a checked integer expression, if it has one. `consts` holds the values the
/// checker folded (`BLOCKSIZE` included).
pub(super) fn linear(e: &Expr, consts: &HashMap<ExprId, i128>) -> Option<Linear> {
    if let Some(c) = consts.get(&e.id) {
        return Some(Linear::constant(*c));
    }
    match &e.kind {
        ExprKind::Name(id) => Some(Linear {
            constant: 0,
            terms: Combination::term(id.name.clone(), 1),
        }),
        ExprKind::Unary {
            op: UnaryOp::Neg,
            operand,
            ..
        } => linear(operand, consts)?.scale(-1),
        ExprKind::Binary { op, lhs, rhs, .. } => {
            let (l, r) = (linear(lhs, consts)?, linear(rhs, consts)?);
            match op {
                BinaryOp::Add => l.add(r, 1),
                BinaryOp::Sub => l.add(r, -1),
                BinaryOp::Mul => match (l.as_constant(), r.as_constant()) {
                    (Some(k), _) => r.scale(k),
                    (_, Some(k)) => l.scale(k),
                    _ => None,
                },
                _ => None,
            }
        }
        _ => None,
    }
}

/// `v` if it fits `ty`, else the overflow.
fn fits(v: i128, ty: Scalar) -> Result<i128, ConstantProblem> {
    match ty.int_range() {
        Some((min, max)) if (min..=max).contains(&v) => Ok(v),
        _ => Err(ConstantProblem::Overflow(v.to_string())),
    }
}

/// `v` converted to the integer type `ty` as a run-time cast does: the low bits, two's
/// complement. A cast is explicit, so it wraps rather than overflows.
fn wrap(v: i128, ty: Scalar) -> i128 {
    let bits = ty.bits();
    let m = v.rem_euclid(1i128 << bits);
    if ty.is_signed() && m >= 1i128 << (bits - 1) {
        m - (1i128 << bits)
    } else {
        m
    }
}

/// `op` on two constants of type `ty`, exactly; `Ok(None)` for an operator that does not give an
/// integer (comparisons). Division by zero gives what it gives at run time (`x / 0` is 0,
/// `x % 0` is `x`): it is defined, not an overflow.
fn binary(op: BinaryOp, l: i128, r: i128, ty: Scalar) -> Result<Option<i128>, ConstantProblem> {
    let shift_amount = || match u32::try_from(r) {
        Ok(s) if s < ty.bits() => Ok(s),
        _ => Err(ConstantProblem::ShiftAmount(r)),
    };
    let v = match op {
        BinaryOp::Add => l + r,
        BinaryOp::Sub => l - r,
        BinaryOp::Mul => match l.checked_mul(r) {
            Some(v) => v,
            // Two 64-bit magnitudes: their product fits in a u128.
            None => {
                let sign = if (l < 0) != (r < 0) { "-" } else { "" };
                let magnitude = l.unsigned_abs() * r.unsigned_abs();
                return Err(ConstantProblem::Overflow(format!("{sign}{magnitude}")));
            }
        },
        BinaryOp::Div if r == 0 => 0,
        BinaryOp::Div => l / r,
        BinaryOp::Rem if r == 0 => l,
        BinaryOp::Rem => l % r,
        // A left shift is a multiplication by a power of two: it overflows like one.
        BinaryOp::Shl => l << shift_amount()?,
        // Arithmetic for signed types; an unsigned constant is never negative.
        BinaryOp::Shr => l >> shift_amount()?,
        BinaryOp::BitAnd => l & r,
        BinaryOp::BitOr => l | r,
        BinaryOp::BitXor => l ^ r,
        _ => return Ok(None),
    };
    fits(v, ty).map(Some)
}

fn unary(op: UnaryOp, v: i128, ty: Scalar) -> Result<Option<i128>, ConstantProblem> {
    match op {
        UnaryOp::Neg => fits(-v, ty).map(Some),
        // All ones minus `v`: `!v` for a signed type, `MAX - v` for an unsigned one.
        UnaryOp::BitNot if ty.is_signed() => Ok(Some(!v)),
        UnaryOp::BitNot => Ok(ty.int_range().map(|(_, max)| max - v)),
        UnaryOp::Not => Ok(None),
    }
}

impl FnCtx<'_, '_> {
    /// Records the value of `e`, just checked with the integer type `ty`, when it is a constant
    /// made of literals, `BLOCKSIZE`, operators and integer casts; reports an overflow at the
    /// operation that overflows (the expressions around it are then not constants, so one
    /// overflow is one error).
    pub fn fold_constant(&mut self, e: &Expr, ty: Scalar) {
        self.forget_constant(e);
        let overflowed = |id: &ExprId| self.cx.overflowed.contains(id);
        let inherited = match &e.kind {
            ExprKind::Unary { operand, .. } => overflowed(&operand.id),
            ExprKind::Binary { lhs, rhs, .. } => overflowed(&lhs.id) || overflowed(&rhs.id),
            ExprKind::Call { args, .. } => args.iter().any(|a| overflowed(&a.id)),
            _ => false,
        };
        if inherited {
            self.cx.overflowed.insert(e.id);
            return;
        }
        let consts = &self.cx.consts;
        let value = match &e.kind {
            ExprKind::Int(v) => i128::try_from(*v).ok().and_then(|v| fits(v, ty).ok()),
            ExprKind::Name(id) if id.name == "BLOCKSIZE" => self.block_size().map(i128::from),
            ExprKind::Name(id) if id.name == "BLOCKROWS" => {
                self.block_shape().map(|(r, _)| i128::from(r))
            }
            ExprKind::Name(id) if id.name == "BLOCKCOLS" => {
                self.block_shape().map(|(_, c)| i128::from(c))
            }
            // `-N` is one literal (checked as such): not an operation that can overflow.
            ExprKind::Unary {
                op: UnaryOp::Neg,
                operand,
                ..
            } if matches!(operand.kind, ExprKind::Int(_)) => match operand.kind {
                ExprKind::Int(v) => i128::try_from(v).ok().and_then(|v| fits(-v, ty).ok()),
                _ => None,
            },
            ExprKind::Unary { op, operand, .. } => match consts.get(&operand.id) {
                Some(&v) => self.report(e, ty, unary(*op, v, ty)),
                None => None,
            },
            ExprKind::Binary { op, lhs, rhs, .. } => {
                match (consts.get(&lhs.id), consts.get(&rhs.id)) {
                    (Some(&l), Some(&r)) => self.report(e, ty, binary(*op, l, r, ty)),
                    _ => None,
                }
            }
            ExprKind::Call { args, .. } => match (self.cx.callees.get(&e.id), args.as_slice()) {
                (Some(Callee::Cast(_)), [arg]) => consts.get(&arg.id).map(|&v| wrap(v, ty)),
                _ => None,
            },
            _ => None,
        };
        if let Some(v) = value {
            self.cx.consts.insert(e.id, v);
        }
    }

    /// Drops what an earlier check of `e` folded: an expression checked again (with another
    /// expected type) is folded afresh, or is no longer an integer constant.
    pub fn forget_constant(&mut self, e: &Expr) {
        self.cx.consts.remove(&e.id);
        self.cx.overflowed.remove(&e.id);
    }

    /// The folded value, or `None` after reporting why there is none.
    fn report(
        &mut self,
        e: &Expr,
        ty: Scalar,
        folded: Result<Option<i128>, ConstantProblem>,
    ) -> Option<i128> {
        match folded {
            Ok(v) => v,
            Err(problem) => {
                self.cx.overflowed.insert(e.id);
                self.error(CheckError::ConstantOutOfRange {
                    span: e.span,
                    text: super::pretty::render(e),
                    ty,
                    problem,
                });
                None
            }
        }
    }

    /// The folded value of a checked integer expression, if it is a constant.
    pub fn constant(&self, e: &Expr) -> Option<i128> {
        self.cx.consts.get(&e.id).copied()
    }

    /// Whether `e` is a constant expression that overflowed (already reported).
    pub fn overflowed(&self, e: &Expr) -> bool {
        self.cx.overflowed.contains(&e.id)
    }
}
