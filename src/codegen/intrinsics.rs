//! The NVVM and LLVM intrinsics code generation calls, and the libdevice functions it may call,
//! declared on first use.
//!
//! LLVM recognises an `llvm.*` function declared by name as the intrinsic and gives it the
//! intrinsic's attributes (`convergent` for barriers and shuffles, `readnone` for the id
//! registers). The NVVM intrinsics used are exactly those the CPU backend's SIMT runtime
//! implements: the special registers, `llvm.nvvm.barrier0` and `llvm.nvvm.shfl.sync.*.i32`.
//! Everything wider or narrower than 32 bits is shuffled as `i32` pieces (`warp.rs`).

use crate::check::types::Scalar;
use inkwell::context::Context;
use inkwell::module::Module;
use inkwell::types::{BasicMetadataTypeEnum, BasicTypeEnum, FloatType};
use inkwell::values::FunctionValue;

/// Which lanes a warp shuffle reads from (PTX `shfl.sync.{idx,up,down,bfly}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShuffleKind {
    /// From lane `arg`.
    Idx,
    /// From lane `lane - arg` (own value when that is below 0).
    Up,
    /// From lane `lane + arg` (own value when that is past the last lane).
    Down,
}

impl ShuffleKind {
    fn name(self) -> &'static str {
        match self {
            ShuffleKind::Idx => "idx",
            ShuffleKind::Up => "up",
            ShuffleKind::Down => "down",
        }
    }
}

/// A floating-point width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FloatWidth {
    /// `half`: `Float16`.
    F16,
    /// `bfloat`: `BFloat16`.
    BF16,
    F32,
    F64,
}

impl FloatWidth {
    /// The LLVM float type of a float scalar; `None` for the others.
    pub fn of(s: Scalar) -> Option<FloatWidth> {
        match s {
            Scalar::Float16 => Some(FloatWidth::F16),
            Scalar::BFloat16 => Some(FloatWidth::BF16),
            Scalar::Float32 => Some(FloatWidth::F32),
            Scalar::Float64 => Some(FloatWidth::F64),
            _ => None,
        }
    }

    fn suffix(self) -> &'static str {
        match self {
            FloatWidth::F16 => "f16",
            FloatWidth::BF16 => "bf16",
            FloatWidth::F32 => "f32",
            FloatWidth::F64 => "f64",
        }
    }

    pub fn ty(self, context: &Context) -> FloatType<'_> {
        match self {
            FloatWidth::F16 => context.f16_type(),
            FloatWidth::BF16 => context.bf16_type(),
            FloatWidth::F32 => context.f32_type(),
            FloatWidth::F64 => context.f64_type(),
        }
    }
}

/// Floating-point math LLVM lowers on NVPTX by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LlvmMath {
    Sqrt,
    Fabs,
    Floor,
    Ceil,
    Fma,
    MinNum,
    MaxNum,
}

impl LlvmMath {
    fn stem(self) -> &'static str {
        match self {
            LlvmMath::Sqrt => "sqrt",
            LlvmMath::Fabs => "fabs",
            LlvmMath::Floor => "floor",
            LlvmMath::Ceil => "ceil",
            LlvmMath::Fma => "fma",
            LlvmMath::MinNum => "minnum",
            LlvmMath::MaxNum => "maxnum",
        }
    }

    fn arity(self) -> usize {
        match self {
            LlvmMath::Sqrt | LlvmMath::Fabs | LlvmMath::Floor | LlvmMath::Ceil => 1,
            LlvmMath::MinNum | LlvmMath::MaxNum => 2,
            LlvmMath::Fma => 3,
        }
    }
}

/// Integer intrinsics (`llvm.smin.i32`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntMath {
    SMin,
    SMax,
    UMin,
    UMax,
    /// `llvm.abs` with `is_int_min_poison = false`: `abs(MIN) == MIN`, wrapping.
    Abs,
    /// `llvm.ctlz` (called with `is_zero_poison = false`: `ctlz(0)` is the width).
    Ctlz,
}

impl IntMath {
    fn stem(self) -> &'static str {
        match self {
            IntMath::SMin => "smin",
            IntMath::SMax => "smax",
            IntMath::UMin => "umin",
            IntMath::UMax => "umax",
            IntMath::Abs => "abs",
            IntMath::Ctlz => "ctlz",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Intrinsic {
    /// `%tid.x`: the thread's index in its block (its column in a two-dimensional block).
    TidX,
    /// `%tid.y`: the thread's row in a two-dimensional block.
    TidY,
    /// `%ctaid.y`: the block's row in a two-dimensional grid (`BROW`).
    CtaidY,
    /// `%nctaid.y`: the grid's rows (`GRIDROWS`).
    NctaidY,
    /// `%ctaid.x`: the block's index in the grid (`B`).
    CtaidX,
    /// `%ntid.x`: threads per block.
    NtidX,
    /// `%nctaid.x`: blocks in the grid (`BLOCKS`).
    NctaidX,
    /// `bar.sync 0`: the block-wide barrier.
    Barrier0,
    /// `membar.gl`: orders the thread's global memory accesses for the whole GPU.
    MembarGl,
    /// `shfl.sync.{idx,up,down}.b32 d, a, b, c, membermask` on an `i32`.
    Shuffle(ShuffleKind),
    /// `llvm.fptosi.sat`: float to signed integer, saturating, NaN to 0 (PTX `cvt.rzi.sat`).
    FpToSiSat { int_bits: u32, float: FloatWidth },
    /// `llvm.fptoui.sat`: float to unsigned integer, saturating, NaN to 0.
    FpToUiSat { int_bits: u32, float: FloatWidth },
    /// `llvm.sqrt.f32` and friends.
    Math(LlvmMath, FloatWidth),
    /// `llvm.smin.i32` and friends; `bits` is 8, 16, 32 or 64.
    Int(IntMath, u32),
    /// `llvm.assume`: tells the optimiser a fact it cannot prove (no code of its own).
    Assume,
}

impl Intrinsic {
    pub fn name(self) -> String {
        match self {
            Intrinsic::TidX => "llvm.nvvm.read.ptx.sreg.tid.x".into(),
            Intrinsic::TidY => "llvm.nvvm.read.ptx.sreg.tid.y".into(),
            Intrinsic::CtaidY => "llvm.nvvm.read.ptx.sreg.ctaid.y".into(),
            Intrinsic::NctaidY => "llvm.nvvm.read.ptx.sreg.nctaid.y".into(),
            Intrinsic::CtaidX => "llvm.nvvm.read.ptx.sreg.ctaid.x".into(),
            Intrinsic::NtidX => "llvm.nvvm.read.ptx.sreg.ntid.x".into(),
            Intrinsic::NctaidX => "llvm.nvvm.read.ptx.sreg.nctaid.x".into(),
            Intrinsic::Barrier0 => "llvm.nvvm.barrier0".into(),
            Intrinsic::MembarGl => "llvm.nvvm.membar.gl".into(),
            Intrinsic::Shuffle(kind) => format!("llvm.nvvm.shfl.sync.{}.i32", kind.name()),
            Intrinsic::FpToSiSat { int_bits, float } => {
                format!("llvm.fptosi.sat.i{int_bits}.{}", float.suffix())
            }
            Intrinsic::FpToUiSat { int_bits, float } => {
                format!("llvm.fptoui.sat.i{int_bits}.{}", float.suffix())
            }
            Intrinsic::Math(op, width) => format!("llvm.{}.{}", op.stem(), width.suffix()),
            Intrinsic::Int(op, bits) => format!("llvm.{}.i{bits}", op.stem()),
            Intrinsic::Assume => "llvm.assume".into(),
        }
    }

    /// The declaration in `module`, added the first time it is asked for.
    pub fn declare<'ctx>(
        self,
        context: &'ctx Context,
        module: &Module<'ctx>,
    ) -> FunctionValue<'ctx> {
        let name = self.name();
        if let Some(function) = module.get_function(&name) {
            return function;
        }
        let i32t = context.i32_type();
        let fn_type = match self {
            Intrinsic::TidX
            | Intrinsic::TidY
            | Intrinsic::CtaidX
            | Intrinsic::CtaidY
            | Intrinsic::NtidX
            | Intrinsic::NctaidX
            | Intrinsic::NctaidY => i32t.fn_type(&[], false),
            Intrinsic::Barrier0 | Intrinsic::MembarGl => context.void_type().fn_type(&[], false),
            Intrinsic::Assume => context
                .void_type()
                .fn_type(&[context.bool_type().into()], false),
            // (membermask, value, lane or offset, clamp/segment mask)
            Intrinsic::Shuffle(_) => {
                i32t.fn_type(&[i32t.into(), i32t.into(), i32t.into(), i32t.into()], false)
            }
            Intrinsic::FpToSiSat { int_bits, float } | Intrinsic::FpToUiSat { int_bits, float } => {
                int_type(context, int_bits).fn_type(&[float.ty(context).into()], false)
            }
            Intrinsic::Math(op, width) => {
                let f = width.ty(context);
                let params: Vec<BasicMetadataTypeEnum> = vec![f.into(); op.arity()];
                f.fn_type(&params, false)
            }
            Intrinsic::Int(IntMath::Abs | IntMath::Ctlz, bits) => {
                let int = int_type(context, bits);
                int.fn_type(&[int.into(), context.bool_type().into()], false)
            }
            Intrinsic::Int(_, bits) => {
                let int = int_type(context, bits);
                int.fn_type(&[int.into(), int.into()], false)
            }
        };
        module.add_function(&name, fn_type, None)
    }
}

fn int_type(context: &Context, bits: u32) -> inkwell::types::IntType<'_> {
    match bits {
        8 => context.i8_type(),
        16 => context.i16_type(),
        64 => context.i64_type(),
        _ => context.i32_type(),
    }
}

/// A function of NVIDIA's libdevice (`__nv_expf`, ...), linked into the module by the NVPTX
/// target before optimisation; used where LLVM has no lowering of its own for NVPTX.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Libdevice {
    pub name: String,
    pub width: FloatWidth,
    pub arity: usize,
}

impl Libdevice {
    pub fn declare<'ctx>(
        &self,
        context: &'ctx Context,
        module: &Module<'ctx>,
    ) -> FunctionValue<'ctx> {
        if let Some(function) = module.get_function(&self.name) {
            return function;
        }
        let f: BasicTypeEnum = self.width.ty(context).into();
        let params: Vec<BasicMetadataTypeEnum> = vec![f.into(); self.arity];
        let fn_type = self.width.ty(context).fn_type(&params, false);
        module.add_function(&self.name, fn_type, None)
    }
}
