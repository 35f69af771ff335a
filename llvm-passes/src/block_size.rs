//! A kernel specialised to its block size: when the block's dimensions are known (`reqntid` or
//! `--block-size`), every read of `ntid.x/y/z` is that constant, and integer arithmetic on such
//! constants is folded. Then `for (i = tid; i < n; i += blockDim.x)` is an induction with a
//! constant step and `blockIdx.x * blockDim.x + tid` is affine in the block id, which the affine
//! analyses need (a product of two unknown values is not affine).

use crate::fast_hash::HashMap;
use crate::ir::{CastOp, Function, InstId, Module, Op, Val};
use crate::nvvm::{self, Intrinsic, Sreg};
use crate::threads::{binary, signed};

/// `function` with its block-dimension reads replaced by `dims` and folded; `None` when it reads
/// none.
pub fn specialise(module: &Module, function: &Function, dims: [u32; 3]) -> Option<Function> {
    let mut known: HashMap<InstId, (u64, u32)> = HashMap::default();
    for (id, inst) in function.insts.iter().enumerate() {
        if let Op::Call(callee) = inst.op {
            if let Some(Intrinsic::Sreg(Sreg::Ntid(axis))) =
                module.callee_name(callee).map(nvvm::classify)
            {
                let bits = function.bits(Val::Inst(id)).unwrap_or(32);
                known.insert(id, (u64::from(dims[axis.min(2)]), bits));
            }
        }
    }
    if known.is_empty() {
        return None;
    }
    // Fold until nothing changes; each round folds at least one more instruction.
    loop {
        let before = known.len();
        for (id, inst) in function.insts.iter().enumerate() {
            if known.contains_key(&id) {
                continue;
            }
            let Some(bits) = function.bits(Val::Inst(id)).filter(|b| *b <= 64) else {
                continue;
            };
            let operand = |v: &Val| match v {
                Val::Int { value, bits } if *bits <= 64 => Some((*value as u64, *bits)),
                Val::Inst(i) => known.get(i).copied(),
                _ => None,
            };
            let folded = match (&inst.op, inst.args.as_slice()) {
                (Op::Bin(op), [a, b]) => match (operand(a), operand(b)) {
                    (Some((a, _)), Some((b, _))) => Some(binary(*op, a, b, bits)),
                    _ => None,
                },
                (Op::Cast(CastOp::ZExt { .. }), [a]) => operand(a).map(|(v, from)| mask(v, from)),
                (Op::Cast(CastOp::SExt), [a]) => {
                    operand(a).map(|(v, from)| signed(mask(v, from), from) as u64)
                }
                (Op::Cast(CastOp::Trunc | CastOp::Freeze), [a]) => operand(a).map(|(v, _)| v),
                _ => None,
            };
            if let Some(value) = folded {
                known.insert(id, (mask(value, bits), bits));
            }
        }
        if known.len() == before {
            break;
        }
    }
    let mut out = function.clone();
    for inst in &mut out.insts {
        for arg in &mut inst.args {
            if let Val::Inst(i) = arg {
                if let Some((value, bits)) = known.get(i) {
                    *arg = Val::Int {
                        value: i128::from(signed(*value, *bits)),
                        bits: *bits,
                    };
                }
            }
        }
    }
    Some(out)
}

fn mask(value: u64, bits: u32) -> u64 {
    if bits >= 64 {
        value
    } else {
        value & ((1u64 << bits) - 1)
    }
}
