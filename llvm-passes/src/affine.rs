//! Exact linear combinations, `sum(coefficient * key)`, the one form that the checker's
//! constant folding (`Linear`, keys: names), code generation's subscript analyses (`Poly`, keys:
//! products of uniform symbols) and anything else comparing integer expressions build on.
//!
//! Coefficients are `i128` and every operation is checked: a result that does not fit is `None`
//! ("no form"), never a wrapped value, so two forms that compare equal are equal as integers.
//! Zero terms are dropped, so equal combinations have equal maps. (The race analysis's address
//! form, `races::address::Lin`, saturates instead: it bounds addresses rather than comparing
//! them, and keeps its thread terms apart.)

use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Combination<K: Ord> {
    terms: BTreeMap<K, i128>,
}

impl<K: Ord> Default for Combination<K> {
    fn default() -> Self {
        Combination {
            terms: BTreeMap::new(),
        }
    }
}

impl<K: Ord + Clone> Combination<K> {
    /// `coefficient * key` (nothing when the coefficient is zero).
    pub fn term(key: K, coefficient: i128) -> Combination<K> {
        let mut terms = BTreeMap::new();
        if coefficient != 0 {
            terms.insert(key, coefficient);
        }
        Combination { terms }
    }

    pub fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    pub fn term_count(&self) -> usize {
        self.terms.len()
    }

    /// The coefficient of `key` (zero when it has none).
    pub fn coefficient(&self, key: &K) -> i128 {
        self.terms.get(key).copied().unwrap_or(0)
    }

    /// The terms, in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, i128)> {
        self.terms.iter().map(|(k, c)| (k, *c))
    }

    pub fn add(&self, other: &Combination<K>) -> Option<Combination<K>> {
        self.add_scaled(other, 1)
    }

    pub fn sub(&self, other: &Combination<K>) -> Option<Combination<K>> {
        self.add_scaled(other, -1)
    }

    /// `self + factor * other`.
    pub fn add_scaled(&self, other: &Combination<K>, factor: i128) -> Option<Combination<K>> {
        let mut terms = self.terms.clone();
        for (key, c) in &other.terms {
            let entry = terms.entry(key.clone()).or_insert(0);
            *entry = entry.checked_add(c.checked_mul(factor)?)?;
        }
        terms.retain(|_, c| *c != 0);
        Some(Combination { terms })
    }

    pub fn scale(&self, factor: i128) -> Option<Combination<K>> {
        let mut terms = BTreeMap::new();
        if factor != 0 {
            for (key, c) in &self.terms {
                terms.insert(key.clone(), c.checked_mul(factor)?);
            }
        }
        Some(Combination { terms })
    }

    /// The same combination with every key replaced by `f`'s (terms whose new keys meet are
    /// added).
    pub fn map_keys(&self, f: &mut dyn FnMut(&K) -> K) -> Option<Combination<K>> {
        let mut result = Combination::default();
        for (key, c) in &self.terms {
            result = result.add(&Combination::term(f(key), *c))?;
        }
        Some(result)
    }

    /// Every coefficient is a multiple of `m` (`m` nonzero).
    pub fn all_multiples_of(&self, m: i128) -> bool {
        m != 0 && self.terms.values().all(|c| c % m == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::Combination;

    #[test]
    fn terms_cancel_and_overflow_is_no_form() {
        let a = Combination::term("n", 3)
            .add(&Combination::term("b", 1))
            .unwrap();
        let b = Combination::term("n", 3);
        let d = a.sub(&b).unwrap();
        assert_eq!(d, Combination::term("b", 1));
        assert!(a.sub(&a).unwrap().is_zero());
        assert_eq!(Combination::term("n", i128::MAX).scale(2), None);
        assert_eq!(
            Combination::term("n", i128::MAX).add(&Combination::term("n", 1)),
            None
        );
        let merged = a.map_keys(&mut |_| "x").unwrap();
        assert_eq!(merged, Combination::term("x", 4));
        assert!(Combination::term("n", 6).all_multiples_of(3));
        assert!(!Combination::term("n", 6).all_multiples_of(4));
    }
}
