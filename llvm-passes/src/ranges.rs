//! Integer ranges of a function's values, by interval analysis: constants, thread and block
//! ids, and what arithmetic, `min`/`max`, shifts and masks make of them, with loops iterated to a
//! fixed point (and widened to the type's range when they do not settle).
//!
//! The race analysis uses them to bound the uniform variables of an address: the classic
//! reduction's stride `d = 128, 64, ..., 1` lies in [0, 128], which with the guard `tid < d` rules
//! out every conflict that a stride of -1 would allow.

use crate::cfg::Cfg;
use crate::fast_hash::HashMap;
use crate::ir::{BinOp, CastOp, Function, InstId, Module, Op, Val};
use crate::nvvm::{self, Intrinsic, Sreg};
use crate::threads::Geometry;

pub type Range = (i128, i128);

pub struct Ranges {
    known: HashMap<InstId, Range>,
}

/// The range of a `bits`-wide integer read as signed or unsigned.
fn type_range(bits: u32) -> Range {
    if bits >= 127 {
        return (i128::MIN / 4, i128::MAX / 4);
    }
    (
        -(1i128 << (bits - 1).min(126)),
        (1i128 << bits.min(126)) - 1,
    )
}

fn union(a: Range, b: Range) -> Range {
    (a.0.min(b.0), a.1.max(b.1))
}

impl Ranges {
    pub fn new(module: &Module, function: &Function, cfg: &Cfg, geometry: Geometry) -> Ranges {
        let mut ranges = Ranges {
            known: HashMap::default(),
        };
        let order: Vec<InstId> = cfg
            .rpo
            .iter()
            .flat_map(|b| function.blocks[*b].insts.iter().copied())
            .collect();
        for round in 0..24 {
            let mut changed = false;
            for &id in &order {
                let Some(bits) = function.bits(Val::Inst(id)) else {
                    continue;
                };
                let Some(mut new) = ranges.transfer(module, function, geometry, id, bits) else {
                    continue;
                };
                let full = type_range(bits);
                // Arithmetic that may wrap around is not tracked.
                if new.0 < full.0 || new.1 > full.1 {
                    new = full;
                }
                let old = ranges.known.get(&id).copied();
                let merged = match old {
                    Some(o) => union(o, new),
                    None => new,
                };
                if old != Some(merged) {
                    // Widen loops that keep growing.
                    let merged = if round > 16 { full } else { merged };
                    ranges.known.insert(id, merged);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        ranges
    }

    /// The range of a value, if known to be narrower than its type's.
    pub fn of(&self, function: &Function, value: Val) -> Option<Range> {
        match value {
            Val::Int { value, .. } => Some((value, value)),
            Val::Inst(id) => self.known.get(&id).copied(),
            Val::Arg(_) => function.bits(value).map(type_range),
            _ => None,
        }
    }

    fn operand(&self, function: &Function, value: Val) -> Option<Range> {
        self.of(function, value)
    }

    fn transfer(
        &self,
        module: &Module,
        function: &Function,
        geometry: Geometry,
        id: InstId,
        bits: u32,
    ) -> Option<Range> {
        let inst = function.inst(id);
        let arg = |i: usize| self.operand(function, *inst.args.get(i)?);
        let constant = |i: usize| match inst.args.get(i) {
            Some(Val::Int { value, .. }) => Some(*value),
            _ => None,
        };
        match &inst.op {
            Op::Phi(_) => inst
                .args
                .iter()
                .filter_map(|a| self.operand(function, *a))
                .reduce(union),
            Op::Select => Some(union(arg(1)?, arg(2)?)),
            Op::Cast(CastOp::ZExt { .. }) => {
                let a = arg(0)?;
                if a.0 >= 0 {
                    Some(a)
                } else {
                    let from = function.bits(inst.args[0])?;
                    Some((0, (1i128 << from) - 1))
                }
            }
            Op::Cast(CastOp::SExt | CastOp::Freeze) => arg(0),
            Op::Cast(CastOp::Trunc) => {
                let a = arg(0)?;
                let full = type_range(bits);
                (a.0 >= 0 && a.1 < (1i128 << (bits - 1).min(126)) && a.1 <= full.1).then_some(a)
            }
            Op::Bin(op) => {
                let (a, b) = (arg(0)?, arg(1)?);
                match op {
                    BinOp::Add | BinOp::Or { disjoint: true } => {
                        Some((a.0.checked_add(b.0)?, a.1.checked_add(b.1)?))
                    }
                    BinOp::Sub => Some((a.0.checked_sub(b.1)?, a.1.checked_sub(b.0)?)),
                    BinOp::Mul => {
                        let products = [
                            a.0.checked_mul(b.0)?,
                            a.0.checked_mul(b.1)?,
                            a.1.checked_mul(b.0)?,
                            a.1.checked_mul(b.1)?,
                        ];
                        Some((*products.iter().min()?, *products.iter().max()?))
                    }
                    BinOp::Shl => {
                        let c = constant(1).filter(|c| (0..64).contains(c))?;
                        let factor = 1i128 << c;
                        Some((a.0.checked_mul(factor)?, a.1.checked_mul(factor)?))
                    }
                    BinOp::LShr | BinOp::AShr if a.0 >= 0 => {
                        let c = constant(1)?;
                        (0..128).contains(&c).then(|| (a.0 >> c, a.1 >> c))
                    }
                    BinOp::UDiv | BinOp::SDiv if a.0 >= 0 => {
                        let c = constant(1).filter(|c| *c > 0)?;
                        Some((a.0 / c, a.1 / c))
                    }
                    BinOp::URem | BinOp::SRem => {
                        let c = constant(1).filter(|c| *c > 0)?;
                        (a.0 >= 0).then_some((0, (c - 1).min(a.1)))
                    }
                    BinOp::And => {
                        // Masking with a non-negative constant bounds the result by it.
                        let c = constant(1).or(constant(0)).filter(|c| *c >= 0)?;
                        Some((0, c))
                    }
                    _ => None,
                }
            }
            Op::Call(callee) => {
                let name = module.callee_name(*callee)?;
                match nvvm::classify(name) {
                    Intrinsic::Sreg(Sreg::Tid(axis)) => {
                        let d = geometry.dims()?;
                        Some((0, i128::from(d[axis]) - 1))
                    }
                    Intrinsic::Sreg(Sreg::Ntid(axis)) => match geometry {
                        Geometry::Known(d) => Some((i128::from(d[axis]), i128::from(d[axis]))),
                        _ => Some((1, 1024)),
                    },
                    Intrinsic::Sreg(Sreg::LaneId) => Some((0, 31)),
                    // Grid dimensions are below 2^31 in x (65535 in y and z).
                    Intrinsic::Sreg(Sreg::BlockUniform)
                        if name.starts_with("llvm.nvvm.read.ptx.sreg.ctaid.") =>
                    {
                        Some((0, i128::from(i32::MAX) - 1))
                    }
                    Intrinsic::Sreg(Sreg::BlockUniform)
                        if name.starts_with("llvm.nvvm.read.ptx.sreg.nctaid.") =>
                    {
                        Some((1, i128::from(i32::MAX)))
                    }
                    Intrinsic::Sreg(Sreg::WarpSize) => Some((32, 32)),
                    Intrinsic::Pure => {
                        let (a, b) = (arg(0)?, arg(1)?);
                        let unsigned =
                            name.starts_with("llvm.umin.") || name.starts_with("llvm.umax.");
                        if unsigned && (a.0 < 0 || b.0 < 0) {
                            None
                        } else if name.starts_with("llvm.smin.") || name.starts_with("llvm.umin.") {
                            Some((a.0.min(b.0), a.1.min(b.1)))
                        } else if name.starts_with("llvm.smax.") || name.starts_with("llvm.umax.") {
                            Some((a.0.max(b.0), a.1.max(b.1)))
                        } else {
                            None
                        }
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }
}
