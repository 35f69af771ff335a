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
//!
//! `fma` of `Float16` is `llvm.fma.f16` (`fma.rn.f16`) from sm_53 on, of `BFloat16`
//! `llvm.fma.bf16` (`fma.rn.bf16`) from sm_80 on; before that LLVM would compute it in `float`
//! and round twice, so [`Body::half_fma`] builds a sequence that rounds once (the CPU backend
//! replaces the intrinsics by `loom_runtime::half::Format::fma`, the same algorithm in Rust).
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
use inkwell::{FloatPredicate, IntPredicate};

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
        if op == MathFn::Fma && !self.native_fma(s) {
            return self.half_fma(values, s, span);
        }
        if s.is_integer() && s.bits() < 32 && matches!(op, MathFn::Min | MathFn::Max) {
            return self.narrow_int_min_max(op, values, s, span);
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

    /// `min`/`max` of 8- and 16-bit integers, computed in 32 bits. ptxas 12.9 for sm_90 fuses a
    /// chain of `min.s16` over `neg.s16` values into `VIMNMX3.S16x2` with every other negation
    /// dropped; on an H200 the driver's JIT (CUDA 13.0) gave a wrong minimum that a dropped
    /// negation explains and nothing else found (a value below the true minimum; SASS not read
    /// there) (tests/regressions/gpu_min_of_negated_int16.loom; ptxas 13.5 is right). In 32 bits the
    /// values are the same, and ptxas keeps the negations.
    fn narrow_int_min_max(
        &mut self,
        op: MathFn,
        values: &[BasicValueEnum<'ctx>],
        s: Scalar,
        span: Span,
    ) -> Result<BasicValueEnum<'ctx>> {
        let [a, b] = values else {
            return Err(CodegenError::internal(
                format!("`__{}` with {} arguments", op.name(), values.len()),
                span,
            ));
        };
        let i32t = self.cx.context.i32_type();
        let narrow = a.get_type().into_int_type();
        let widen = |v: &BasicValueEnum<'ctx>| {
            let v = v.into_int_value();
            if s.is_signed() {
                self.b.build_int_s_extend(v, i32t, "")
            } else {
                self.b.build_int_z_extend(v, i32t, "")
            }
        };
        let wide_args = [widen(a)?.into(), widen(b)?.into()];
        let wide = if s.is_signed() {
            Scalar::Int32
        } else {
            Scalar::UInt32
        };
        let wide_value = self.math(op, &wide_args, wide, span)?.into_int_value();
        Ok(self.b.build_int_truncate(wide_value, narrow, "")?.into())
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
                MathFn::Fma => llvm(LlvmMath::Fma),
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

    /// Whether the target has a fused multiply-add of `s` rounded once: every 32- and 64-bit
    /// float; `fma.rn.f16` from sm_53 on, `fma.rn.bf16` from sm_80 on.
    fn native_fma(&self, s: Scalar) -> bool {
        let at_least = |v| crate::target::capability(&self.cx.arch).is_some_and(|c| c >= v);
        match s {
            Scalar::Float16 => at_least(53),
            Scalar::BFloat16 => at_least(80),
            _ => true,
        }
    }

    /// `a * b + c` of 16-bit floats, rounded once, without a 16-bit `fma` instruction. In
    /// `double` the product is exact (at most 22 significant bits) and the sum `s` rounds once;
    /// its error `e` is exact too (Knuth's TwoSum, no fused or reordered operations: the
    /// builder sets no fast-math flags). Rounding `s` to the 16-bit type would round twice, so
    /// the sum is first rounded *to odd*: an inexact `s` whose last bit is 0 moves one `double`
    /// ulp towards the exact value. That value is never a 16-bit value or midpoint (at most 12
    /// significant bits, a last bit of 0) and lies on the exact value's side of each, so the one
    /// `fptrunc` (which LLVM lowers with `cvt.rn.f16.f64`, or to `bfloat` rounding to odd
    /// through `float` itself) rounds as the exact value would. Infinities and NaNs pass through
    /// `s` unchanged. `loom_runtime::half::Format::fma` is the same algorithm.
    fn half_fma(
        &mut self,
        values: &[BasicValueEnum<'ctx>],
        s: Scalar,
        span: Span,
    ) -> Result<BasicValueEnum<'ctx>> {
        let [a, b, c] = values else {
            return Err(CodegenError::internal(
                "`__fma` without three operands",
                span,
            ));
        };
        let f64t = self.cx.context.f64_type();
        let i64t = self.cx.context.i64_type();
        let bld = &self.b;
        let wide = |v: &BasicValueEnum<'ctx>, name: &str| {
            bld.build_float_ext(v.into_float_value(), f64t, name)
        };
        let (a, b, c) = (wide(a, "fma.a")?, wide(b, "fma.b")?, wide(c, "fma.c")?);
        let p = bld.build_float_mul(a, b, "fma.p")?;
        let sum = bld.build_float_add(p, c, "fma.s")?;
        let virtual_c = bld.build_float_sub(sum, p, "")?;
        let virtual_p = bld.build_float_sub(sum, virtual_c, "")?;
        let p_error = bld.build_float_sub(p, virtual_p, "")?;
        let c_error = bld.build_float_sub(c, virtual_c, "")?;
        let error = bld.build_float_add(p_error, c_error, "fma.e")?;
        let zero = f64t.const_zero();
        let inexact = bld.build_float_compare(FloatPredicate::ONE, error, zero, "fma.inexact")?;
        let bits = bld.build_bit_cast(sum, i64t, "")?.into_int_value();
        let one = i64t.const_int(1, false);
        let last = bld.build_and(bits, one, "")?;
        let even = bld.build_int_compare(IntPredicate::EQ, last, i64t.const_zero(), "fma.even")?;
        let nudge = bld.build_and(inexact, even, "fma.nudge")?;
        // Towards the exact value: away from zero when the error has the sum's sign (an
        // inexact sum is not zero: x + y rounds to 0 only when it is 0).
        let error_up = bld.build_float_compare(FloatPredicate::OGT, error, zero, "")?;
        let sum_up = bld.build_float_compare(FloatPredicate::OGT, sum, zero, "")?;
        let away = bld.build_int_compare(IntPredicate::EQ, error_up, sum_up, "fma.away")?;
        let step = bld
            .build_select(away, one, i64t.const_all_ones(), "")?
            .into_int_value();
        let step = bld
            .build_select(nudge, step, i64t.const_zero(), "fma.step")?
            .into_int_value();
        let odd = bld.build_int_add(bits, step, "")?;
        let odd = bld.build_bit_cast(odd, f64t, "fma.odd")?.into_float_value();
        let narrow = match s {
            Scalar::Float16 => self.cx.context.f16_type(),
            Scalar::BFloat16 => self.cx.context.bf16_type(),
            _ => return Err(CodegenError::internal("a 16-bit fma of another type", span)),
        };
        Ok(self.b.build_float_trunc(odd, narrow, "fma")?.into())
    }
}
