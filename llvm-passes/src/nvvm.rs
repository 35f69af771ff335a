//! What the NVVM intrinsics (and a few generic LLVM intrinsics) mean to the analyses: which read
//! thread or block ids, which are barriers and warp collectives, which touch memory.

/// A special register read (`llvm.nvvm.read.ptx.sreg.*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sreg {
    /// `tid.x`, `tid.y`, `tid.z`: the thread's index in its block.
    Tid(usize),
    LaneId,
    /// `ntid.*`: the block's dimensions.
    Ntid(usize),
    /// `ctaid.*`, `nctaid.*`, `smid`, `nsmid`, `gridid`, ...: the same for every thread of a block.
    BlockUniform,
    WarpSize,
    /// `lanemask.eq/le/lt/ge/gt`: a function of the lane id.
    LaneMask(LaneMask),
    /// `clock`, `clock64`, `globaltimer`, `warpid`, performance counters: may differ per thread.
    Varying,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LaneMask {
    Eq,
    Le,
    Lt,
    Ge,
    Gt,
}

/// Which threads a barrier waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BarrierKind {
    /// Every thread of the block (`barrier0`, `barrier.sync` without a count, `bar.sync`, the
    /// reducing `barrier0.popc/and/or`).
    Block,
    /// `barrier.sync.cnt` / `barrier.n` with a thread count: only that many threads; an argument
    /// index of the count.
    Counted { count_arg: usize },
}

/// A warp-level collective with a member mask (argument 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WarpOp {
    /// `shfl.sync.idx`: every lane reads the value of one lane (argument 2).
    ShuffleIndexed,
    /// `shfl.sync.up/down/bfly`: lanes read from other lanes at an offset.
    Shuffle,
    /// `vote.sync.*`, `match.*.sync`, `redux.sync.*`: one result per warp.
    Vote,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Intrinsic {
    Sreg(Sreg),
    Barrier(BarrierKind),
    /// `bar.warp.sync`: orders the memory accesses of the warp's threads named by its mask.
    WarpSync,
    Warp(WarpOp),
    /// NVVM atomics that have no IR instruction form.
    Atomic,
    /// `llvm.memcpy`, `llvm.memmove` (argument 0 written, 1 read) and `llvm.memset` (0 written);
    /// argument 2 is the length.
    MemTransfer {
        reads_arg1: bool,
    },
    /// No memory effect that matters here (lifetime markers, debug intrinsics, assumptions,
    /// fences: a fence orders a thread's own accesses but synchronises no one).
    NoEffect,
    /// A value computed from the arguments alone (integer and floating-point math).
    Pure,
    /// A load through an NVVM intrinsic (`ldg`, `ldu`): argument 0 is the address.
    Load,
    /// Any other call.
    Unknown,
}

/// The argument that holds a barrier's id (0 to 15), for barriers that take one: every thread
/// of the block must pass the same id, or they wait at different barriers.
pub fn barrier_id_arg(name: &str) -> Option<usize> {
    matches!(
        name,
        "llvm.nvvm.barrier.sync"
            | "llvm.nvvm.bar.sync"
            | "llvm.nvvm.barrier.sync.aligned"
            | "llvm.nvvm.barrier.sync.cnt"
            | "llvm.nvvm.barrier"
            | "llvm.nvvm.barrier.n"
    )
    .then_some(0)
}

pub fn classify(name: &str) -> Intrinsic {
    if let Some(register) = name.strip_prefix("llvm.nvvm.read.ptx.sreg.") {
        return Intrinsic::Sreg(sreg(register));
    }
    match name {
        "llvm.nvvm.barrier0"
        | "llvm.nvvm.barrier0.popc"
        | "llvm.nvvm.barrier0.and"
        | "llvm.nvvm.barrier0.or"
        | "llvm.nvvm.barrier.sync"
        | "llvm.nvvm.bar.sync"
        | "llvm.nvvm.barrier.sync.aligned" => return Intrinsic::Barrier(BarrierKind::Block),
        "llvm.nvvm.barrier.sync.cnt" | "llvm.nvvm.barrier" => {
            return Intrinsic::Barrier(BarrierKind::Counted { count_arg: 1 })
        }
        "llvm.nvvm.barrier.n" => return Intrinsic::Barrier(BarrierKind::Block),
        "llvm.nvvm.bar.warp.sync" => return Intrinsic::WarpSync,
        _ => {}
    }
    if name.starts_with("llvm.nvvm.shfl.sync.idx") {
        return Intrinsic::Warp(WarpOp::ShuffleIndexed);
    }
    if name.starts_with("llvm.nvvm.shfl.sync.") {
        return Intrinsic::Warp(WarpOp::Shuffle);
    }
    if (name.starts_with("llvm.nvvm.vote.") && name.contains(".sync"))
        || (name.starts_with("llvm.nvvm.match.") && name.contains(".sync"))
        || name.starts_with("llvm.nvvm.redux.sync.")
    {
        return Intrinsic::Warp(WarpOp::Vote);
    }
    if name.starts_with("llvm.nvvm.atomic.") {
        return Intrinsic::Atomic;
    }
    if name.starts_with("llvm.memcpy") || name.starts_with("llvm.memmove") {
        return Intrinsic::MemTransfer { reads_arg1: true };
    }
    if name.starts_with("llvm.memset") {
        return Intrinsic::MemTransfer { reads_arg1: false };
    }
    if name.starts_with("llvm.nvvm.ldg.global.") || name.starts_with("llvm.nvvm.ldu.global.") {
        return Intrinsic::Load;
    }
    if name.starts_with("llvm.lifetime.")
        || name.starts_with("llvm.dbg.")
        || name.starts_with("llvm.assume")
        || name.starts_with("llvm.experimental.noalias.scope.decl")
        || name.starts_with("llvm.nvvm.membar")
        || name.starts_with("llvm.nvvm.fence")
        || name.starts_with("llvm.invariant.")
        || name.starts_with("llvm.sideeffect")
    {
        return Intrinsic::NoEffect;
    }
    if is_pure(name) || is_libdevice_math(name) {
        return Intrinsic::Pure;
    }
    Intrinsic::Unknown
}

/// Inline assembly that computes its result from its operands alone: no `sideeffect`, no
/// memory clobber, no pointer operand, and no special register (`%tid.x`, `%clock`, ...) named
/// in its template. libdevice's bodies hold such (`rcp.approx.ftz.f32 $0,$1;` in `__nv_fmodf`),
/// and once linked and inlined they must not make a uniform remainder look varying.
pub fn is_pure_inline_asm(function: &crate::ir::Function, id: crate::ir::InstId) -> bool {
    let inst = function.inst(id);
    if inst.op != crate::ir::Op::Call(crate::ir::Callee::InlineAsm) {
        return false;
    }
    let text = function.text(id);
    let Some((_, after)) = text.split_once("asm \"") else {
        return false;
    };
    let template = after.split('"').next().unwrap_or("");
    !template.contains('%')
        && !text.contains("~{memory}")
        && !inst
            .args
            .iter()
            .any(|a| matches!(function.ty(*a), crate::ir::Ty::Ptr(_)))
}

/// libdevice's functions (`__nv_sinf`, `__nv_fmodf`, ...), which loomc's IR calls before they
/// are linked: math whose result depends on its arguments alone, so uniform arguments give a
/// uniform result (a branch on `sum /. x % 4.375` stays uniform), except the few that write
/// through a pointer argument or read a string.
fn is_libdevice_math(name: &str) -> bool {
    let Some(function) = name.strip_prefix("__nv_") else {
        return false;
    };
    !["sincos", "frexp", "modf", "remquo", "nan"]
        .iter()
        .any(|p| function.starts_with(p))
}

fn sreg(register: &str) -> Sreg {
    let axis = |s: &str| match s {
        "x" => Some(0),
        "y" => Some(1),
        "z" => Some(2),
        _ => None,
    };
    if let Some(a) = register.strip_prefix("tid.").and_then(axis) {
        return Sreg::Tid(a);
    }
    if let Some(a) = register.strip_prefix("ntid.").and_then(axis) {
        return Sreg::Ntid(a);
    }
    match register {
        "laneid" => Sreg::LaneId,
        "warpsize" => Sreg::WarpSize,
        "lanemask.eq" => Sreg::LaneMask(LaneMask::Eq),
        "lanemask.le" => Sreg::LaneMask(LaneMask::Le),
        "lanemask.lt" => Sreg::LaneMask(LaneMask::Lt),
        "lanemask.ge" => Sreg::LaneMask(LaneMask::Ge),
        "lanemask.gt" => Sreg::LaneMask(LaneMask::Gt),
        r if r.starts_with("ctaid.")
            || r.starts_with("nctaid.")
            || r.starts_with("cluster")
            || r.starts_with("ncluster")
            || r == "smid"
            || r == "nsmid"
            || r == "gridid"
            || r == "nwarpid" =>
        {
            Sreg::BlockUniform
        }
        _ => Sreg::Varying,
    }
}

/// Integer and floating-point intrinsics whose result depends on their arguments alone.
fn is_pure(name: &str) -> bool {
    const GENERIC: &[&str] = &[
        "llvm.smin.",
        "llvm.smax.",
        "llvm.umin.",
        "llvm.umax.",
        "llvm.abs.",
        "llvm.ctlz.",
        "llvm.cttz.",
        "llvm.ctpop.",
        "llvm.bswap.",
        "llvm.bitreverse.",
        "llvm.fshl.",
        "llvm.fshr.",
        "llvm.sadd.",
        "llvm.uadd.",
        "llvm.ssub.",
        "llvm.usub.",
        "llvm.smul.",
        "llvm.umul.",
        "llvm.fma.",
        "llvm.fmuladd.",
        "llvm.sqrt.",
        "llvm.fabs.",
        "llvm.minnum.",
        "llvm.maxnum.",
        "llvm.minimum.",
        "llvm.maximum.",
        "llvm.copysign.",
        "llvm.floor.",
        "llvm.ceil.",
        "llvm.trunc.",
        "llvm.rint.",
        "llvm.nearbyint.",
        "llvm.round.",
        "llvm.roundeven.",
        "llvm.exp.",
        "llvm.exp2.",
        "llvm.log.",
        "llvm.log2.",
        "llvm.log10.",
        "llvm.pow.",
        "llvm.powi.",
        "llvm.sin.",
        "llvm.cos.",
        "llvm.is.fpclass.",
        "llvm.expect.",
        "llvm.fptoui.sat.",
        "llvm.fptosi.sat.",
        "llvm.scmp.",
        "llvm.ucmp.",
        "llvm.ldexp.",
        "llvm.frexp.",
        "llvm.tan.",
        "llvm.lround.",
        "llvm.llround.",
        "llvm.lrint.",
        "llvm.llrint.",
        "llvm.canonicalize.",
    ];
    if GENERIC.iter().any(|p| name.starts_with(p)) {
        return true;
    }
    // NVVM math: everything under llvm.nvvm. that is not memory, synchronisation or a register.
    name.starts_with("llvm.nvvm.")
        && [
            "fmin", "fmax", "sqrt", "rsqrt", "rcp", "ex2", "lg2", "sin", "cos", "fabs", "abs",
            "saturate", "mul24", "umul24", "mulhi", "umulhi", "mul.", "div.", "add.", "fma.",
            "f2i", "f2ui", "i2f", "ui2f", "d2", "f2", "ll2", "ull2", "bitcast", "brev", "clz",
            "popc", "prmt", "floor", "ceil", "trunc", "round", "min.", "max.", "flo", "sad",
            "lohi.i2d",
        ]
        .iter()
        .any(|p| name["llvm.nvvm.".len()..].starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn libdevice_math_is_pure_but_not_what_writes_through_a_pointer() {
        for name in [
            "__nv_fmodf",
            "__nv_fmod",
            "__nv_sinf",
            "__nv_powf",
            "llvm.nvvm.lohi.i2d",
        ] {
            assert_eq!(classify(name), Intrinsic::Pure, "{name}");
        }
        for name in [
            "__nv_sincosf",
            "__nv_frexp",
            "__nv_modff",
            "__nv_remquof",
            "__nv_nanf",
        ] {
            assert_eq!(classify(name), Intrinsic::Unknown, "{name}");
        }
    }
}
