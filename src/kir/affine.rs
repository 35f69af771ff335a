//! Integer expressions as polynomials over uniform symbols, for the two analyses that must compare
//! subscripts: which thread touches which element (barrier placement, `sync.rs`) and whether two
//! iterations of a loop touch the same element (dependence tests, `distribute.rs`).
//!
//! A [`Poly`] is `c + sum(k_i * m_i)` where each `m_i` is a product of symbols. A symbol stands
//! for one uniform value: `B`, a scalar parameter, or one *version* of a local variable (every
//! assignment makes a new version, so two uses of `x` with an assignment between them are
//! different symbols). Arithmetic is exact on the integers: wrapping is ignored, which is sound
//! for the subscripts of arrays smaller than 2^31 elements, the only ones LOOM indexes with
//! `Int32`.

use crate::check::types::Ty;
use crate::check::{Builtin, Callee, Checked};
use crate::syntax::ast::{BinaryOp, Expr, ExprKind, UnaryOp};
use llvm_passes::affine::Combination;
use std::collections::HashMap;
use std::fmt;

/// One uniform value: a name and a version (0 for names that never change).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Sym {
    pub name: String,
    pub version: u32,
}

impl Sym {
    pub fn new(name: impl Into<String>, version: u32) -> Sym {
        Sym {
            name: name.into(),
            version,
        }
    }
}

/// A product of symbols, sorted; empty for the constant term.
pub type Monomial = Vec<Sym>;

#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Poly {
    /// Monomial to coefficient; the constant term is the empty monomial.
    terms: Combination<Monomial>,
}

impl Poly {
    pub fn constant(c: i64) -> Poly {
        Poly {
            terms: Combination::term(Vec::new(), i128::from(c)),
        }
    }

    pub fn sym(sym: Sym) -> Poly {
        Poly {
            terms: Combination::term(vec![sym], 1),
        }
    }

    pub fn as_constant(&self) -> Option<i64> {
        match self.terms.term_count() {
            0 => Some(0),
            1 => i64::try_from(self.terms.coefficient(&Vec::new()))
                .ok()
                .filter(|c| *c != 0),
            _ => None,
        }
    }

    pub fn constant_part(&self) -> i64 {
        i64::try_from(self.terms.coefficient(&Vec::new())).unwrap_or(0)
    }

    pub fn is_zero(&self) -> bool {
        self.terms.is_zero()
    }

    /// The non-constant terms (coefficients that do not fit `i64` are left out: the forms the
    /// analyses build stay far inside it, each operation being checked).
    pub fn terms(&self) -> impl Iterator<Item = (&Monomial, i64)> {
        self.terms
            .iter()
            .filter(|(m, _)| !m.is_empty())
            .filter_map(|(m, k)| Some((m, i64::try_from(k).ok()?)))
    }

    /// Coefficients must fit `i64`, the analyses' integers.
    fn checked(terms: Combination<Monomial>) -> Option<Poly> {
        let fits = terms.iter().all(|(_, k)| i64::try_from(k).is_ok());
        fits.then_some(Poly { terms })
    }

    pub fn add(&self, other: &Poly) -> Option<Poly> {
        Poly::checked(self.terms.add(&other.terms)?)
    }

    pub fn neg(&self) -> Option<Poly> {
        self.scale(-1)
    }

    pub fn sub(&self, other: &Poly) -> Option<Poly> {
        Poly::checked(self.terms.sub(&other.terms)?)
    }

    pub fn scale(&self, k: i64) -> Option<Poly> {
        Poly::checked(self.terms.scale(i128::from(k))?)
    }

    pub fn mul(&self, other: &Poly) -> Option<Poly> {
        let mut product = Combination::default();
        for (m1, k1) in self.terms.iter() {
            for (m2, k2) in other.terms.iter() {
                let mut m = m1.clone();
                m.extend(m2.iter().cloned());
                m.sort();
                product = product.add(&Combination::term(m, k1.checked_mul(k2)?))?;
            }
        }
        Poly::checked(product)
    }

    /// True when every coefficient (the constant included) is a multiple of `m`: the value is
    /// a multiple of `m` whatever the symbols are.
    pub fn is_multiple_of(&self, m: i64) -> bool {
        self.terms.all_multiples_of(i128::from(m))
    }

    /// The same polynomial with every symbol `rename` maps replaced (a fresh name for the value
    /// a symbol had in another iteration of a loop).
    pub fn rename(&self, rename: &dyn Fn(&Sym) -> Option<Sym>) -> Option<Poly> {
        let renamed = self.terms.map_keys(&mut |m: &Monomial| {
            let mut monomial: Vec<Sym> = m
                .iter()
                .map(|s| rename(s).unwrap_or_else(|| s.clone()))
                .collect();
            monomial.sort();
            monomial
        })?;
        Poly::checked(renamed)
    }

    /// The same polynomial with every symbol replaced by `value`'s polynomial for it (a
    /// `func`'s parameters by a call's arguments); `None` where `value` has none for a symbol.
    pub fn substitute(&self, value: &dyn Fn(&Sym) -> Option<Poly>) -> Option<Poly> {
        let mut sum = Poly::default();
        for (m, k) in self.terms.iter() {
            let mut product = Poly::constant(i64::try_from(k).ok()?);
            for sym in m {
                product = product.mul(&value(sym)?)?;
            }
            sum = sum.add(&product)?;
        }
        Some(sum)
    }

    /// Splits off the terms linear in `var`: `self == coefficient * var + rest`. `None` when
    /// `var` occurs in a product with another symbol (the expression is not affine in `var`).
    pub fn split_linear(&self, var: &Sym) -> Option<(i64, Poly)> {
        let mut coefficient = 0;
        let mut rest = Combination::default();
        for (m, k) in self.terms.iter() {
            match m.iter().filter(|s| *s == var).count() {
                0 => rest = rest.add(&Combination::term(m.clone(), k))?,
                1 if m.len() == 1 => coefficient = i64::try_from(k).ok()?,
                _ => return None,
            }
        }
        Some((coefficient, Poly { terms: rest }))
    }
}

impl fmt::Display for Poly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.terms.is_zero() {
            return write!(f, "0");
        }
        let mut first = true;
        let terms: Vec<(&Monomial, i128)> = self.terms.iter().collect();
        for (m, k) in terms.into_iter().rev() {
            let (sign, k) = if k < 0 { ("-", -k) } else { ("+", k) };
            if first {
                if sign == "-" {
                    write!(f, "-")?;
                }
            } else {
                write!(f, " {sign} ")?;
            }
            first = false;
            let names: Vec<&str> = m.iter().map(|s| s.name.as_str()).collect();
            match (names.is_empty(), k) {
                (true, k) => write!(f, "{k}")?,
                (false, 1) => write!(f, "{}", names.join(" * "))?,
                (false, k) => write!(f, "{k} * {}", names.join(" * "))?,
            }
        }
        Ok(())
    }
}

/// The value of a variable as far as the analyses know it.
#[derive(Debug, Clone)]
pub enum Known {
    Int(Poly),
    Range(Poly, Poly),
}

/// What every integer and `Range` variable of a kernel holds, as polynomials: its initializer's
/// form while it is not assigned, a fresh symbol (a new version) after an assignment it cannot
/// follow, and a fresh symbol for every name assigned in a loop when the loop starts (its value
/// differs from iteration to iteration).
#[derive(Debug, Default, Clone)]
pub struct Symbols {
    values: HashMap<String, Known>,
    next_version: u32,
}

impl Symbols {
    /// A symbol no other value shares (an unknown value).
    pub fn fresh(&mut self, name: &str) -> Sym {
        self.next_version += 1;
        Sym::new(name, self.next_version)
    }

    /// The version the next fresh symbol gets: symbols made after this point are newer.
    pub fn watermark(&self) -> u32 {
        self.next_version + 1
    }

    pub fn set(&mut self, name: &str, value: Option<Known>, is_range: bool) {
        let value = match value {
            Some(v) => v,
            None if is_range => {
                let lo = Poly::sym(self.fresh(&format!("{name}.start")));
                let hi = Poly::sym(self.fresh(&format!("{name}.end")));
                Known::Range(lo, hi)
            }
            None => Known::Int(Poly::sym(self.fresh(name))),
        };
        self.values.insert(name.to_string(), value);
    }

    /// A name that stands for itself (a scalar parameter): never assigned.
    pub fn bind_parameter(&mut self, name: &str) {
        self.values
            .insert(name.to_string(), Known::Int(Poly::sym(Sym::new(name, 0))));
    }

    pub fn get(&self, name: &str) -> Option<&Known> {
        self.values.get(name)
    }

    /// The polynomial of dimension `index` of the array parameter `param`, written `dim`:
    /// its own polynomial, or, where it has none (`n % 7`, `cols / 2`), a symbol of its own.
    /// Parameters never change, so the dimension is one unknown value throughout the kernel:
    /// `a[B]`'s elements are `B * D + k` for every access, and two accesses of one row compare
    /// as rows of a dimension `cols` do.
    pub fn param_dim(
        &self,
        param: &str,
        index: usize,
        dim: &Expr,
        checked: &Checked,
        block_size: u32,
    ) -> Poly {
        self.poly(dim, checked, block_size)
            .unwrap_or_else(|| Poly::sym(Sym::new(format!("{param}.dim{index}"), 0)))
    }

    /// The polynomial of an integer expression, if it has one. `block_size` is `BLOCKSIZE`.
    pub fn poly(&self, e: &Expr, checked: &Checked, block_size: u32) -> Option<Poly> {
        match &e.kind {
            ExprKind::Int(v) => Some(Poly::constant(i64::try_from(*v).ok()?)),
            ExprKind::Name(id) => match id.name.as_str() {
                "BLOCKSIZE" => Some(Poly::constant(i64::from(block_size))),
                "B" | "BLOCKS" | "BROW" | "BCOL" | "GRIDROWS" | "GRIDCOLS" => {
                    Some(Poly::sym(Sym::new(id.name.clone(), 0)))
                }
                "THREADS" => Poly::sym(Sym::new("BLOCKS", 0)).scale(i64::from(block_size)),
                name => match self.values.get(name)? {
                    Known::Int(p) => Some(p.clone()),
                    Known::Range(..) => None,
                },
            },
            ExprKind::Unary {
                op: UnaryOp::Neg,
                operand,
                ..
            } => self.poly(operand, checked, block_size)?.neg(),
            ExprKind::Binary { op, lhs, rhs, .. } => {
                let l = self.poly(lhs, checked, block_size)?;
                let r = self.poly(rhs, checked, block_size)?;
                match op {
                    BinaryOp::Add => l.add(&r),
                    BinaryOp::Sub => l.sub(&r),
                    BinaryOp::Mul => l.mul(&r),
                    _ => None,
                }
            }
            ExprKind::Field { base, field } if *checked.ty(base.id) == Ty::Range => {
                let (lo, hi) = self.range(base, checked, block_size)?;
                match field.name.as_str() {
                    "start" => Some(lo),
                    "end" => Some(hi),
                    _ => None,
                }
            }
            // A cast between integer types keeps the value (wrapping aside).
            ExprKind::Call { args, .. } => match (checked.callees.get(&e.id), args.as_slice()) {
                (Some(Callee::Cast(to)), [arg]) if to.is_integer() => match checked.ty(arg.id) {
                    Ty::Scalar(s) if s.is_integer() => self.poly(arg, checked, block_size),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }

    /// The bounds of a `Range` expression, if they have polynomials.
    pub fn range(&self, e: &Expr, checked: &Checked, block_size: u32) -> Option<(Poly, Poly)> {
        match &e.kind {
            ExprKind::Name(id) => match self.values.get(&id.name)? {
                Known::Range(lo, hi) => Some((lo.clone(), hi.clone())),
                Known::Int(_) => None,
            },
            ExprKind::Call { args, .. } => match (checked.callees.get(&e.id), args.as_slice()) {
                (Some(Callee::Builtin(Builtin::Block)), [b]) => {
                    let size = i64::from(block_size);
                    let lo = self.poly(b, checked, block_size)?.scale(size)?;
                    let hi = lo.add(&Poly::constant(size))?;
                    Some((lo, hi))
                }
                (Some(Callee::Builtin(Builtin::Range)), [a, b]) => Some((
                    self.poly(a, checked, block_size)?,
                    self.poly(b, checked, block_size)?,
                )),
                _ => None,
            },
            _ => None,
        }
    }

    /// The value of an initializer or assigned expression, for [`Symbols::set`].
    pub fn known(&self, e: &Expr, checked: &Checked, block_size: u32) -> Option<Known> {
        if *checked.ty(e.id) == Ty::Range {
            let (lo, hi) = self.range(e, checked, block_size)?;
            Some(Known::Range(lo, hi))
        } else {
            self.poly(e, checked, block_size).map(Known::Int)
        }
    }
}

/// Greatest common divisor (non-negative; `gcd(0, 0) == 0`).
pub fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    i64::try_from(a).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(name: &str) -> Poly {
        Poly::sym(Sym::new(name, 0))
    }

    #[test]
    fn block_ranges_differ_by_a_multiple_of_the_block_size() {
        let b = s("B");
        let current = b.scale(256).unwrap();
        let previous = b.sub(&Poly::constant(1)).unwrap().scale(256).unwrap();
        let d = current.sub(&previous).unwrap();
        assert_eq!(d.as_constant(), Some(256));
        assert!(d.is_multiple_of(256));
        assert!(!d.is_multiple_of(512));
    }

    #[test]
    fn products_and_linear_split() {
        let i = Sym::new("i", 1);
        let p = s("rows")
            .mul(&s("cols"))
            .unwrap()
            .add(&Poly::sym(i.clone()).scale(3).unwrap())
            .unwrap()
            .add(&Poly::constant(-2))
            .unwrap();
        let (k, rest) = p.split_linear(&i).unwrap();
        assert_eq!(k, 3);
        assert_eq!(rest.constant_part(), -2);
        assert_eq!(rest.to_string(), "cols * rows - 2");
        let square = Poly::sym(i.clone()).mul(&Poly::sym(i.clone())).unwrap();
        assert!(square.split_linear(&i).is_none());
    }

    #[test]
    fn substitution_replaces_each_symbol_by_a_polynomial() {
        let j = Sym::new("j", 0);
        // 2 * j * j + j + 1 with j = B + 3.
        let p = Poly::sym(j.clone())
            .mul(&Poly::sym(j.clone()))
            .unwrap()
            .scale(2)
            .unwrap()
            .add(&Poly::sym(j.clone()))
            .unwrap()
            .add(&Poly::constant(1))
            .unwrap();
        let value = |sym: &Sym| (*sym == j).then(|| s("B").add(&Poly::constant(3)).unwrap());
        let got = p.substitute(&value).unwrap();
        assert_eq!(got.to_string(), "2 * B * B + 13 * B + 22");
        // A symbol without a value: no polynomial.
        assert!(Poly::sym(Sym::new("x", 1)).substitute(&value).is_none());
        assert_eq!(
            Poly::constant(5).substitute(&value),
            Some(Poly::constant(5))
        );
    }

    #[test]
    fn gcd_of_signed_values() {
        assert_eq!(gcd(12, -18), 6);
        assert_eq!(gcd(0, 5), 5);
        assert_eq!(gcd(0, 0), 0);
    }
}
