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
    /// and 64-bit integers, `add` and `exch` on `Float32` and `Float64` too, and `add` on
    /// `Float16` and `BFloat16` (what PTX's `atom` offers: `atom.add.noftz.f16` from sm_70 on,
    /// `.bf16` from sm_90 on, and on older targets LLVM's loop of `atom.cas.b32` on the 32-bit
    /// word that holds the element).
    pub fn accepts(self, s: Scalar) -> bool {
        if matches!(s, Scalar::Float16 | Scalar::BFloat16) {
            return self == AtomicOp::Add;
        }
        // PTX has no atomics on 8- and 16-bit integers.
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
            AtomicOp::Add => {
                "Int32, Int64, UInt32, UInt64, Float16, BFloat16, Float32 and Float64 elements"
            }
            AtomicOp::Exch => "Int32, Int64, UInt32, UInt64, Float32 and Float64 elements",
            _ => "Int32, Int64, UInt32 and UInt64 elements",
        }
    }
}
