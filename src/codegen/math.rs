//! The standard library's math primitives (`__sqrt(x)`, ...): LLVM intrinsics where the NVPTX
//! backend has an exact instruction, NVIDIA's libdevice otherwise.
//!
//! | primitive | `Float32` | `Float64` | `--fast-math` (`Float32`) |
//! | --- | --- | --- | --- |
//! | `sqrt` | `llvm.sqrt` (`sqrt.rn.f32`) | `llvm.sqrt` (`sqrt.rn.f64`) | `__nv_sqrtf` (`sqrt.approx`) |
//! | `rsqrt` | `__nv_rsqrtf` | `__nv_rsqrt` | same |
//! | `exp`, `exp2`, `log`, `log2`, `sin`, `cos`, `pow` | `__nv_expf`, ... | `__nv_exp`, ... | `__nv_fast_expf`, `__nv_fast_logf`, `__nv_fast_log2f`, `__nv_fast_sinf`, `__nv_fast_cosf`, `__nv_fast_powf` (`exp2`: `__nv_exp2f`) |
//! | `abs` | `llvm.fabs` | `llvm.fabs` | same |
//! | `fma`, `floor`, `ceil` | `llvm.fma`, `llvm.floor`, `llvm.ceil` | same | same |
//! | `min`, `max` | `llvm.minnum`, `llvm.maxnum` (`min.f32`) | same | same |
//!
//! Integers: `abs` is `llvm.abs` (wrapping), `min`/`max` are `llvm.smin`/`smax`/`umin`/`umax`.
//! The `__nv_*` functions are declared here and linked from libdevice by the NVPTX target.

use super::body::{Body, Result};
use super::error::CodegenError;
use super::intrinsics::{FloatWidth, IntMath, Intrinsic, Libdevice, LlvmMath};
use crate::check::types::Scalar;
use crate::check::MathFn;
use crate::syntax::span::Span;
use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum, FunctionValue};

impl<'a, 'ctx> Body<'a, 'ctx> {
    pub fn math(
        &mut self,
        op: MathFn,
        values: &[BasicValueEnum<'ctx>],
        s: Scalar,
        span: Span,
    ) -> Result<BasicValueEnum<'ctx>> {
        if values.len() != op.arity() {
            return Err(CodegenError::internal(
                format!("`__{}` with {} arguments", op.name(), values.len()),
                span,
            ));
        }
        let function = if s.is_float() {
            self.float_math(op, s)
        } else {
            match self.int_math(op, s) {
                Some(function) => function,
                // Unsigned `abs` is the identity.
                None => return Ok(values[0]),
            }
        };
        let function = function.ok_or_else(|| {
            CodegenError::internal(format!("`__{}` on {}", op.name(), s.name()), span)
        })?;
        let mut args: Vec<BasicMetadataValueEnum> = values.iter().map(|v| (*v).into()).collect();
        if matches!(op, MathFn::Abs) && s.is_integer() {
            // is_int_min_poison = false: abs(MIN) wraps to MIN.
            args.push(self.bool_const(false).into());
        }
        let call = self.b.build_call(function, &args, op.name())?;
        call.try_as_basic_value()
            .basic()
            .ok_or_else(|| CodegenError::internal("a math call without a value", span))
    }

    fn int_math(&self, op: MathFn, s: Scalar) -> Option<Option<FunctionValue<'ctx>>> {
        let bits = s.bits();
        let signed = s.is_signed();
        let which = match op {
            MathFn::Abs if signed => IntMath::Abs,
            MathFn::Abs => return None,
            MathFn::Min if signed => IntMath::SMin,
            MathFn::Min => IntMath::UMin,
            MathFn::Max if signed => IntMath::SMax,
            MathFn::Max => IntMath::UMax,
            _ => return Some(None),
        };
        Some(Some(self.intrinsic(Intrinsic::Int(which, bits))))
    }

    fn float_math(&self, op: MathFn, s: Scalar) -> Option<FunctionValue<'ctx>> {
        let width = FloatWidth::of(s)?;
        let llvm = |m: LlvmMath| Some(self.intrinsic(Intrinsic::Math(m, width)));
        if matches!(width, FloatWidth::F16 | FloatWidth::BF16) {
            // The library computes the other functions of 16-bit floats in `Float32`
            // (stdlib/math.loom): only these primitives reach code generation with them.
            return match op {
                MathFn::Abs => llvm(LlvmMath::Fabs),
                MathFn::Min => llvm(LlvmMath::MinNum),
                MathFn::Max => llvm(LlvmMath::MaxNum),
                _ => None,
            };
        }
        let fast = self.cx.options.fast_math && width == FloatWidth::F32;
        let stem = match op {
            MathFn::Sqrt if !fast => return llvm(LlvmMath::Sqrt),
            MathFn::Sqrt => "sqrt",
            MathFn::Abs => return llvm(LlvmMath::Fabs),
            MathFn::Floor => return llvm(LlvmMath::Floor),
            MathFn::Ceil => return llvm(LlvmMath::Ceil),
            MathFn::Fma => return llvm(LlvmMath::Fma),
            MathFn::Min => return llvm(LlvmMath::MinNum),
            MathFn::Max => return llvm(LlvmMath::MaxNum),
            MathFn::Rsqrt => "rsqrt",
            MathFn::Exp => "exp",
            MathFn::Exp2 => "exp2",
            MathFn::Log => "log",
            MathFn::Log2 => "log2",
            MathFn::Sin => "sin",
            MathFn::Cos => "cos",
            MathFn::Pow => "pow",
        };
        let has_fast_variant = matches!(
            op,
            MathFn::Exp | MathFn::Log | MathFn::Log2 | MathFn::Sin | MathFn::Cos | MathFn::Pow
        );
        let name = match width {
            FloatWidth::F64 => format!("__nv_{stem}"),
            FloatWidth::F16 | FloatWidth::BF16 => return None,
            FloatWidth::F32 if fast && has_fast_variant => format!("__nv_fast_{stem}f"),
            FloatWidth::F32 => format!("__nv_{stem}f"),
        };
        let function = Libdevice {
            name,
            width,
            arity: op.arity(),
        };
        Some(function.declare(self.cx.context, self.cx.module))
    }
}
