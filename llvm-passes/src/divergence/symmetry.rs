//! Block-uniform broadcasts: a `shfl.sync.idx` from one lane whose value every warp computes
//! alike.
//!
//! A block reduction ends with every warp folding the same per-warp partials from shared memory
//! (lane `l` reads partial `l`), then broadcasting lane 0's result with `shfl.sync.idx`. Within a
//! warp that result is the same in every lane; across warps it is the same too, because every
//! warp computed it from the same values in the same lanes. Divergence alone calls it
//! warp-uniform, and a branch on it around a barrier would be reported as divergent.
//!
//! A value is *warp-symmetric* when lane `l` of every warp holds the same value: uniform values,
//! the lane id, thread-only values that repeat every 32 threads, loads from warp-symmetric
//! addresses (every warp reads the same memory; a write racing with those reads is reported by
//! the race analysis), shuffles and votes of warp-symmetric values, and pure operations on them,
//! provided every divergent branch the value depends on has a warp-symmetric condition (so every
//! warp's lanes took the same paths). A broadcast of a warp-symmetric value from a uniform lane
//! with the full mask is the same in every thread of the block.

use super::DivergenceInfo;
use crate::fast_hash::HashSet;
use crate::ir::{Function, InstId, Module, Op, Val};
use crate::nvvm::{self, Intrinsic, Sreg, WarpOp};
use crate::threads::{ThreadValues, WARP_SIZE};

use super::Divergence;

/// The `shfl.sync.idx` broadcasts whose result is the same in every thread of the block.
pub fn block_uniform_broadcasts(
    module: &Module,
    function: &Function,
    threads: &ThreadValues<'_>,
    info: &DivergenceInfo,
) -> HashSet<InstId> {
    let symmetric = warp_symmetric(module, function, threads, info);
    let is = |v: Val| match v {
        Val::Inst(i) => symmetric[i],
        _ => true,
    };
    (0..function.insts.len())
        .filter(|&id| {
            let inst = function.inst(id);
            let Op::Call(callee) = inst.op else {
                return false;
            };
            let broadcast = matches!(
                module.callee_name(callee).map(nvvm::classify),
                Some(Intrinsic::Warp(WarpOp::ShuffleIndexed))
            );
            broadcast
                && info.of(id_val(id)) != Divergence::Uniform
                && inst.args.len() >= 3
                && full_mask(inst.args[0])
                && is(inst.args[1])
                && info.of(inst.args[2]) == Divergence::Uniform
        })
        .collect()
}

fn id_val(id: InstId) -> Val {
    Val::Inst(id)
}

/// The mask of every lane of a warp (`-1` as an `i32`).
fn full_mask(mask: Val) -> bool {
    matches!(mask, Val::Int { value, bits: 32 } if value == -1 || value == 0xffff_ffff)
}

/// Per instruction: whether lane `l` of every warp holds the same value. Optimistic: every
/// instruction starts symmetric and loses it until nothing changes.
fn warp_symmetric(
    module: &Module,
    function: &Function,
    threads: &ThreadValues<'_>,
    info: &DivergenceInfo,
) -> Vec<bool> {
    let n = function.insts.len();
    let mut symmetric = vec![true; n];
    let mut changed = true;
    while changed {
        changed = false;
        for id in 0..n {
            if !symmetric[id] {
                continue;
            }
            let is = |v: &Val| match v {
                Val::Inst(i) => symmetric[*i],
                _ => true,
            };
            let inst = function.inst(id);
            let local = if info.of(Val::Inst(id)) == Divergence::Uniform {
                true
            } else if threads.is_evaluable(Val::Inst(id)) {
                repeats_every_warp(threads, id)
            } else {
                match &inst.op {
                    Op::AtomicRmw { .. } | Op::CmpXchg { .. } | Op::Alloca => false,
                    Op::Load { atomic: true, .. } => false,
                    Op::Load { .. } => {
                        !super::points_to_private(function, inst.args[0]) && is(&inst.args[0])
                    }
                    Op::Call(callee) => match module.callee_name(*callee).map(nvvm::classify) {
                        Some(Intrinsic::Sreg(Sreg::LaneId | Sreg::LaneMask(_))) => true,
                        Some(Intrinsic::Warp(_) | Intrinsic::Pure) => inst.args.iter().all(is),
                        Some(Intrinsic::Sreg(Sreg::Ntid(_) | Sreg::BlockUniform)) => true,
                        _ => false,
                    },
                    _ => inst.args.iter().all(is),
                }
            };
            let paths = info.controlled_by[id].iter().all(is);
            if !(local && paths) {
                symmetric[id] = false;
                changed = true;
            }
        }
    }
    symmetric
}

/// Whether a thread-only value is the same in thread `t` and thread `t mod 32`.
fn repeats_every_warp(threads: &ThreadValues<'_>, id: InstId) -> bool {
    let Some(values) = threads.values(Val::Inst(id)) else {
        return false;
    };
    let warp = WARP_SIZE as usize;
    values
        .iter()
        .enumerate()
        .all(|(t, v)| *v == values[t % warp])
}
