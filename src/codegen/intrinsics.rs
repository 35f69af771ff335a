//! The NVVM and LLVM intrinsics code generation calls, declared on first use.
//!
//! LLVM recognises an `llvm.*` function declared by name as the intrinsic and gives it the
//! intrinsic's attributes (`convergent` for the barrier, `readnone` for the id registers).

use inkwell::context::Context;
use inkwell::module::Module;
use inkwell::types::BasicMetadataTypeEnum;
use inkwell::values::FunctionValue;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Intrinsic {
    /// `%tid.x`: the thread's index in its block.
    TidX,
    /// `%ctaid.x`: the block's index in the grid (`B`).
    CtaidX,
    /// `%ntid.x`: threads per block.
    NtidX,
    /// `%nctaid.x`: blocks in the grid (`BLOCKS`).
    NctaidX,
    /// `bar.sync 0`: the block-wide barrier.
    Barrier0,
    /// `llvm.fptosi.sat`: float to signed integer, saturating, NaN to 0 (PTX `cvt.rzi.sat`).
    FpToSiSat { int_bits: u32, float_bits: u32 },
    /// `llvm.fptoui.sat`: float to unsigned integer, saturating, NaN to 0.
    FpToUiSat { int_bits: u32, float_bits: u32 },
}

impl Intrinsic {
    pub fn name(self) -> String {
        match self {
            Intrinsic::TidX => "llvm.nvvm.read.ptx.sreg.tid.x".into(),
            Intrinsic::CtaidX => "llvm.nvvm.read.ptx.sreg.ctaid.x".into(),
            Intrinsic::NtidX => "llvm.nvvm.read.ptx.sreg.ntid.x".into(),
            Intrinsic::NctaidX => "llvm.nvvm.read.ptx.sreg.nctaid.x".into(),
            Intrinsic::Barrier0 => "llvm.nvvm.barrier0".into(),
            Intrinsic::FpToSiSat {
                int_bits,
                float_bits,
            } => format!("llvm.fptosi.sat.i{int_bits}.f{float_bits}"),
            Intrinsic::FpToUiSat {
                int_bits,
                float_bits,
            } => format!("llvm.fptoui.sat.i{int_bits}.f{float_bits}"),
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
            Intrinsic::TidX | Intrinsic::CtaidX | Intrinsic::NtidX | Intrinsic::NctaidX => {
                i32t.fn_type(&[], false)
            }
            Intrinsic::Barrier0 => context.void_type().fn_type(&[], false),
            Intrinsic::FpToSiSat {
                int_bits,
                float_bits,
            }
            | Intrinsic::FpToUiSat {
                int_bits,
                float_bits,
            } => {
                let float: BasicMetadataTypeEnum = if float_bits == 32 {
                    context.f32_type().into()
                } else {
                    context.f64_type().into()
                };
                let int = if int_bits == 64 {
                    context.i64_type()
                } else {
                    context.i32_type()
                };
                int.fn_type(&[float], false)
            }
        };
        module.add_function(&name, fn_type, None)
    }
}
