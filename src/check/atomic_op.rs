//! The atomic read-modify-write operations (`atomic_add`, ...): their names, arities and the
//! element types each takes. What the checker does with an atomic call is `atomic.rs`.

use super::types::Scalar;
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
    pub fn accepted(self) -> &'static str {
        match self {
            AtomicOp::Add | AtomicOp::Exch => {
                "Int32, Int64, UInt32, UInt64, Float32 and Float64 elements"
            }
            _ => "Int32, Int64, UInt32 and UInt64 elements",
        }
    }
}
