//! Compile-time facts about integer expressions: constant values (array dimensions) and linear
//! forms (the length of `range(a, b)` when `b - a` is constant, as in
//! `range(B * BLOCKSIZE, (B + 1) * BLOCKSIZE)`).

use crate::syntax::ast::{BinaryOp, Expr, ExprKind, UnaryOp};
use std::collections::BTreeMap;

/// `constant + sum(coefficient * name)`. Names stand for whatever value they have where the
/// expression is evaluated; two forms evaluated together can be subtracted.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Linear {
    pub constant: i128,
    pub terms: BTreeMap<String, i128>,
}

impl Linear {
    fn constant(c: i128) -> Linear {
        Linear {
            constant: c,
            terms: BTreeMap::new(),
        }
    }

    fn scale(mut self, k: i128) -> Option<Linear> {
        self.constant = self.constant.checked_mul(k)?;
        for v in self.terms.values_mut() {
            *v = v.checked_mul(k)?;
        }
        Some(self)
    }

    fn add(mut self, other: Linear, sign: i128) -> Option<Linear> {
        self.constant = self
            .constant
            .checked_add(other.constant.checked_mul(sign)?)?;
        for (name, k) in other.terms {
            let entry = self.terms.entry(name).or_insert(0);
            *entry = entry.checked_add(k.checked_mul(sign)?)?;
        }
        self.terms.retain(|_, k| *k != 0);
        Some(self)
    }

    pub fn as_constant(&self) -> Option<i128> {
        self.terms.is_empty().then_some(self.constant)
    }
}

/// The linear form of an integer expression, if it has one. `block_size` is the value of
/// `BLOCKSIZE` (kernels), `None` in funcs.
pub(super) fn linear(e: &Expr, block_size: Option<u32>) -> Option<Linear> {
    match &e.kind {
        ExprKind::Int(v) => Some(Linear::constant(i128::try_from(*v).ok()?)),
        ExprKind::Name(id) if id.name == "BLOCKSIZE" => {
            block_size.map(|b| Linear::constant(i128::from(b)))
        }
        ExprKind::Name(id) => {
            let mut terms = BTreeMap::new();
            terms.insert(id.name.clone(), 1);
            Some(Linear { constant: 0, terms })
        }
        ExprKind::Unary {
            op: UnaryOp::Neg,
            operand,
            ..
        } => linear(operand, block_size)?.scale(-1),
        ExprKind::Binary { op, lhs, rhs, .. } => {
            let l = linear(lhs, block_size);
            let r = linear(rhs, block_size);
            match op {
                BinaryOp::Add => l?.add(r?, 1),
                BinaryOp::Sub => l?.add(r?, -1),
                BinaryOp::Mul => {
                    let (l, r) = (l?, r?);
                    match (l.as_constant(), r.as_constant()) {
                        (Some(k), _) => r.scale(k),
                        (_, Some(k)) => l.scale(k),
                        _ => None,
                    }
                }
                _ => Some(Linear::constant(constant(e, block_size)?)),
            }
        }
        _ => None,
    }
}

/// The value of an integer expression made of literals and `BLOCKSIZE`.
pub(super) fn constant(e: &Expr, block_size: Option<u32>) -> Option<i128> {
    match &e.kind {
        ExprKind::Int(v) => i128::try_from(*v).ok(),
        ExprKind::Name(id) if id.name == "BLOCKSIZE" => block_size.map(i128::from),
        ExprKind::Unary {
            op: UnaryOp::Neg,
            operand,
            ..
        } => constant(operand, block_size)?.checked_neg(),
        ExprKind::Binary { op, lhs, rhs, .. } => {
            let (l, r) = (constant(lhs, block_size)?, constant(rhs, block_size)?);
            match op {
                BinaryOp::Add => l.checked_add(r),
                BinaryOp::Sub => l.checked_sub(r),
                BinaryOp::Mul => l.checked_mul(r),
                BinaryOp::Div => l.checked_div(r),
                BinaryOp::Rem => l.checked_rem(r),
                BinaryOp::Shl => u32::try_from(r)
                    .ok()
                    .filter(|s| *s < 64)
                    .and_then(|s| l.checked_shl(s)),
                BinaryOp::Shr => u32::try_from(r)
                    .ok()
                    .filter(|s| *s < 64)
                    .and_then(|s| l.checked_shr(s)),
                BinaryOp::BitAnd => Some(l & r),
                BinaryOp::BitOr => Some(l | r),
                BinaryOp::BitXor => Some(l ^ r),
                _ => None,
            }
        }
        _ => None,
    }
}
