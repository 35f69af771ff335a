//! Uniform (and element-level) expressions: literals, names, operators, casts, calls, records.
//!
//! Operator semantics that LLVM leaves undefined are made defined here:
//! - integer `x / 0 == 0` and `x % 0 == x`, and `MIN / -1 == MIN` (wraps), `MIN % -1 == 0`, so that
//!   `(x / y) * y + x % y == x` always holds; the divisor is replaced by 1 in those cases before
//!   `sdiv`/`udiv`, which the optimiser removes when the divisor is a non-zero constant;
//! - shift amounts are taken modulo the bit width (`x << 33 == x << 1` for 32-bit `x`), as PTX's
//!   `shl.b32` with a masked amount and x86 do; `>>` is arithmetic for signed types, logical for
//!   unsigned ones;
//! - float to integer casts saturate and map NaN to 0 (`llvm.fpto[su]i.sat`, PTX `cvt.rzi.sat`).
//!
//! Float division by zero follows IEEE 754 (`fdiv`). Float `%` is C's `fmod`, exact: libdevice's
//! `__nv_fmodf`/`__nv_fmod`, what CUDA's `fmodf` calls, never LLVM's `frem`, which the NVPTX
//! backend lowers as `x - trunc(x / y) * y` (inexact: the quotient is rounded, so the GPU and the
//! CPU backend, where `frem` is `fmodf`, disagreed; found by the first GPU fuzz campaign).

use super::body::{Body, Result, Var};
use super::error::CodegenError;
use super::intrinsics::{FloatWidth, IntMath, Intrinsic, LlvmMath};
use crate::check::types::{Scalar, Ty};
use crate::check::{Builtin, Callee};
use crate::syntax::ast::{BinaryOp, Expr, ExprKind, FieldInit, FloatLit, Ident, UnaryOp};
use crate::syntax::span::Span;
use inkwell::values::{
    BasicMetadataValueEnum, BasicValue, BasicValueEnum, FastMathFlags, IntValue, StructValue,
};
use inkwell::{FloatPredicate, IntPredicate};

impl<'a, 'ctx> Body<'a, 'ctx> {
    pub fn ty_of(&self, e: &Expr) -> &'a Ty {
        self.cx.checked.ty(e.id)
    }

    /// Under `--fast-math`, `a * b + c` and `c + a * b` on floats of one type as one `llvm.fma`
    /// (fused, rounded once: PTX `fma.rn`; exactly the same value wherever it runs). Contracted
    /// here, on the expression, because LLVM contracts an `fmul` and an `fadd` only within one
    /// block, and a checked read of `c` (its guard) puts them in different blocks. `None` where it does not
    /// apply (not fast math, another operator, integers, mixed types); `eval` computes an
    /// operand (scalar code or one element of a vector).
    pub fn contracted(
        &mut self,
        op: BinaryOp,
        lhs: &Expr,
        rhs: &Expr,
        eval: &mut dyn FnMut(&mut Self, &Expr) -> Result<BasicValueEnum<'ctx>>,
    ) -> Result<Option<BasicValueEnum<'ctx>>> {
        if !self.cx.options.fast_math {
            return Ok(None);
        }
        let Some(((a, b), c)) = Expr::multiply_add(op, lhs, rhs) else {
            return Ok(None);
        };
        let scalar = self.scalar_of(c)?;
        // Not the 16-bit floats: where the target has no 16-bit `fma` (sm_75's `BFloat16`, the
        // CPU backend) the fused form is a slower sequence (`math.rs`, `half_fma`), so
        // contracting would cost time, not save it.
        let width = match scalar {
            Scalar::Float32 => FloatWidth::F32,
            Scalar::Float64 => FloatWidth::F64,
            _ => return Ok(None),
        };
        for operand in [a, b, lhs, rhs] {
            if self.scalar_of(operand)? != scalar {
                return Ok(None);
            }
        }
        let (a, b, c) = (eval(self, a)?, eval(self, b)?, eval(self, c)?);
        let function = self.intrinsic(Intrinsic::Math(LlvmMath::Fma, width));
        let call = self
            .b
            .build_call(function, &[a.into(), b.into(), c.into()], "fma")?;
        let v = call
            .try_as_basic_value()
            .basic()
            .ok_or_else(|| CodegenError::internal("llvm.fma has no value", lhs.span))?;
        Ok(Some(v))
    }

    /// The scalar type of `e`'s elements (of `e` itself when it is a scalar).
    pub fn scalar_of(&self, e: &Expr) -> Result<Scalar> {
        match self.ty_of(e).element() {
            Ty::Scalar(s) => Ok(*s),
            Ty::Range => Ok(Scalar::Int32),
            other => Err(CodegenError::internal(
                format!(
                    "expected a scalar, the checker says {}",
                    other.display(&self.cx.resolver.borrow().records)
                ),
                e.span,
            )),
        }
    }

    /// The value of a uniform expression (or an element-level one inside a `func`).
    pub fn expr(&mut self, e: &Expr) -> Result<BasicValueEnum<'ctx>> {
        if let Some(v) = self.hoisted.get(&e.id) {
            return Ok(*v);
        }
        // Each node's instructions carry its own line and column (see `Expr::point`).
        self.located(e.point(), |this| this.expr_here(e))
    }

    fn expr_here(&mut self, e: &Expr) -> Result<BasicValueEnum<'ctx>> {
        match &e.kind {
            ExprKind::Int(v) => self.int_literal(e, *v),
            ExprKind::Float(v) => self.float_literal(e, v),
            ExprKind::Bool(v) => Ok(self
                .cx
                .context
                .bool_type()
                .const_int(*v as u64, false)
                .into()),
            ExprKind::Name(name) => self.name(name, e),
            ExprKind::Unary { op, operand, .. } => {
                let scalar = self.scalar_of(operand)?;
                let v = self.expr(operand)?;
                self.unary(*op, v, scalar)
            }
            ExprKind::Binary {
                op: op @ (BinaryOp::And | BinaryOp::Or),
                lhs,
                rhs,
                ..
            } => self.short_circuit(*op, lhs, rhs),
            ExprKind::Binary {
                op,
                lhs,
                rhs,
                op_span,
            } => {
                let scalar = self.binary_operand_scalar(*op, lhs, rhs, *op_span)?;
                if let Some(v) = self.contracted(*op, lhs, rhs, &mut |this, e| this.expr(e))? {
                    return Ok(v);
                }
                let l = self.expr(lhs)?;
                let r = self.expr(rhs)?;
                self.binary(*op, l, r, scalar, self.scalar_of(rhs)?)
            }
            ExprKind::Call { callee, args } => self.call(e, callee, args),
            ExprKind::Index {
                base,
                indices,
                checked,
            } => self.index_uniform(e, base, indices, *checked),
            ExprKind::Field { base, field } => {
                let v = self.expr(base)?;
                self.field(base, v, field)
            }
            ExprKind::Record { fields } => self.record_literal(e, fields),
            ExprKind::Collective {
                op: crate::syntax::ast::CollectiveOp::Reduce,
                ..
            } => self.reduce(e),
            ExprKind::VectorLit { .. } | ExprKind::Collective { .. } => Err(
                CodegenError::internal("a block vector where a uniform value was expected", e.span),
            ),
        }
    }

    fn int_literal(&self, e: &Expr, v: u128) -> Result<BasicValueEnum<'ctx>> {
        let c = self.cx.context;
        Ok(match self.ty_of(e).element() {
            // Rounded once, from the exact integer (`u128 as f32` rounds to nearest, ties to
            // even): through `f64` first, 2^60 + 2^36 + 1 would become 2^60, not 2^60 + 2^37.
            Ty::Scalar(Scalar::Float32) => self.f32_const(v as f32),
            Ty::Scalar(Scalar::Float64) => self.f64_const(v as f64),
            // The checker rejects a literal that does not fit `Int64` or `UInt64`.
            Ty::Scalar(s @ (Scalar::Float16 | Scalar::BFloat16)) => {
                self.half_const(*s, half_format(*s).from_integer(v as i128))
            }
            Ty::Scalar(Scalar::Bool) => c.bool_type().const_int((v != 0) as u64, false).into(),
            Ty::Scalar(s) if s.is_integer() => self
                .cx
                .types
                .scalar(*s)
                .into_int_type()
                .const_int(v as u64, false)
                .into(),
            // Literals the checker left untyped (array dimensions).
            _ => c.i32_type().const_int(v as u64 & 0xffff_ffff, false).into(),
        })
    }

    /// A float literal, rounded once from its decimal text to its type.
    fn float_literal(&self, e: &Expr, lit: &FloatLit) -> Result<BasicValueEnum<'ctx>> {
        Ok(match self.ty_of(e).element() {
            Ty::Scalar(Scalar::Float64) => self.f64_const(lit.f64()),
            Ty::Scalar(Scalar::Float16) => self.half_const(Scalar::Float16, lit.f16()),
            Ty::Scalar(Scalar::BFloat16) => self.half_const(Scalar::BFloat16, lit.bf16()),
            _ => self.f32_const(lit.f32()),
        })
    }

    /// A `Float16` or `BFloat16` constant of the encoding `bits` (its exact value as an `f64`,
    /// so LLVM has nothing left to round).
    fn half_const(&self, s: Scalar, bits: u16) -> BasicValueEnum<'ctx> {
        let ty = self.cx.types.scalar(s).into_float_type();
        ty.const_float(half_format(s).to_f64(bits)).into()
    }

    /// A `Float32` constant holding exactly `v` (widening to `f64` is exact, so LLVM has nothing
    /// left to round).
    fn f32_const(&self, v: f32) -> BasicValueEnum<'ctx> {
        self.cx.context.f32_type().const_float(f64::from(v)).into()
    }

    fn f64_const(&self, v: f64) -> BasicValueEnum<'ctx> {
        self.cx.context.f64_type().const_float(v).into()
    }

    fn name(&mut self, ident: &Ident, e: &Expr) -> Result<BasicValueEnum<'ctx>> {
        match self.lookup(&ident.name).cloned() {
            Some(Var::Local { ptr, ty }) => {
                let llvm = self.reg_type(&ty, e.span)?;
                Ok(self.b.build_load(llvm, ptr, &ident.name)?)
            }
            // A whole array is a block vector or a func's array argument (`arg_value`); the
            // checker rejects it where a scalar is expected (E0200, E0306).
            Some(Var::Array(_)) | Some(Var::Registers(_)) => Err(CodegenError::internal(
                format!("the whole array `{}` used as a uniform value", ident.name),
                e.span,
            )),
            None => Ok(self.builtin_name(ident)?.into()),
        }
    }

    /// `B`, `BLOCKS`, `BLOCKSIZE`, `THREADS` and the two-dimensional block and grid's rows and
    /// columns: all `Int32`. On a two-dimensional grid (`kir-grid`), `B` is the block's
    /// row-major index `BROW * GRIDCOLS + BCOL` and `BLOCKS` is `GRIDROWS * GRIDCOLS`.
    pub fn builtin_name(&mut self, ident: &Ident) -> Result<IntValue<'ctx>> {
        match ident.name.as_str() {
            "B" if self.grid_2d() => {
                let (x, y) = (self.sreg(Intrinsic::CtaidX)?, self.sreg(Intrinsic::CtaidY)?);
                let cols = self.sreg(Intrinsic::NctaidX)?;
                let row = self.b.build_int_mul(y, cols, "B.row")?;
                Ok(self.b.build_int_add(row, x, "B")?)
            }
            "B" | "BCOL" => self.sreg(Intrinsic::CtaidX),
            "BROW" => self.sreg(Intrinsic::CtaidY),
            "GRIDCOLS" => self.sreg(Intrinsic::NctaidX),
            "GRIDROWS" => self.sreg(Intrinsic::NctaidY),
            "BLOCKS" => self.blocks(),
            "BLOCKSIZE" => Ok(self.i32(self.block_size(ident.span)? as i64)),
            "BLOCKROWS" => Ok(self.i32(i64::from(self.block_shape().0))),
            "BLOCKCOLS" => Ok(self.i32(i64::from(self.block_shape().1))),
            "THREADS" => {
                let blocks = self.blocks()?;
                let size = self.i32(self.block_size(ident.span)? as i64);
                Ok(self.b.build_int_mul(blocks, size, "THREADS")?)
            }
            other => Err(CodegenError::internal(
                format!("`{other}` is not defined here"),
                ident.span,
            )),
        }
    }

    /// `BLOCKS`: `%nctaid.x`, times `%nctaid.y` on a two-dimensional grid.
    fn blocks(&mut self) -> Result<IntValue<'ctx>> {
        let x = self.sreg(Intrinsic::NctaidX)?;
        if !self.grid_2d() {
            return Ok(x);
        }
        let y = self.sreg(Intrinsic::NctaidY)?;
        Ok(self.b.build_int_mul(y, x, "BLOCKS")?)
    }

    pub fn reg_type(&self, ty: &Ty, span: Span) -> Result<inkwell::types::BasicTypeEnum<'ctx>> {
        self.cx
            .types
            .reg(ty, &self.cx.resolver.borrow().records)
            .ok_or_else(|| {
                CodegenError::internal("a value of this type has no register form", span)
            })
    }

    pub fn mem_type(&self, ty: &Ty, span: Span) -> Result<inkwell::types::BasicTypeEnum<'ctx>> {
        self.cx
            .types
            .mem(ty, &self.cx.resolver.borrow().records)
            .ok_or_else(|| CodegenError::internal("a value of this type has no memory form", span))
    }

    /// Register form to memory form (`Bool`: `i1` to `i8`).
    pub fn to_mem(&self, v: BasicValueEnum<'ctx>, ty: &Ty) -> Result<BasicValueEnum<'ctx>> {
        if *ty == Ty::BOOL {
            return Ok(self
                .b
                .build_int_z_extend(v.into_int_value(), self.cx.context.i8_type(), "")?
                .into());
        }
        Ok(v)
    }

    /// Memory form to register form (`Bool`: any non-zero byte is true).
    pub fn to_reg(&self, v: BasicValueEnum<'ctx>, ty: &Ty) -> Result<BasicValueEnum<'ctx>> {
        if *ty == Ty::BOOL {
            let zero = self.cx.context.i8_type().const_zero();
            return Ok(self
                .b
                .build_int_compare(IntPredicate::NE, v.into_int_value(), zero, "")?
                .into());
        }
        Ok(v)
    }

    pub fn zero_of(&self, ty: &Ty, span: Span) -> Result<BasicValueEnum<'ctx>> {
        Ok(self.reg_type(ty, span)?.const_zero())
    }

    // ---- operators ----

    pub fn unary(
        &mut self,
        op: UnaryOp,
        v: BasicValueEnum<'ctx>,
        s: Scalar,
    ) -> Result<BasicValueEnum<'ctx>> {
        Ok(match op {
            UnaryOp::Neg if s.is_float() => {
                self.b.build_float_neg(v.into_float_value(), "neg")?.into()
            }
            UnaryOp::Neg => self.b.build_int_neg(v.into_int_value(), "neg")?.into(),
            UnaryOp::Not | UnaryOp::BitNot => self.b.build_not(v.into_int_value(), "not")?.into(),
        })
    }

    /// The operand type of a binary operator (both operands share it, except a shift amount).
    fn binary_operand_scalar(
        &self,
        op: BinaryOp,
        lhs: &Expr,
        rhs: &Expr,
        span: Span,
    ) -> Result<Scalar> {
        let _ = (op, rhs, span);
        self.scalar_of(lhs)
    }

    /// `and`/`or` on uniform Booleans: the right side runs only when it decides the result.
    fn short_circuit(
        &mut self,
        op: BinaryOp,
        lhs: &Expr,
        rhs: &Expr,
    ) -> Result<BasicValueEnum<'ctx>> {
        if !matches!(self.ty_of(lhs), Ty::Scalar(_)) || !matches!(self.ty_of(rhs), Ty::Scalar(_)) {
            return Err(CodegenError::internal(
                "`and`/`or` on a non-scalar",
                lhs.span,
            ));
        }
        let context = self.cx.context;
        let l = self.expr(lhs)?.into_int_value();
        let lhs_end = self
            .b
            .get_insert_block()
            .ok_or_else(|| CodegenError::internal("no block", lhs.span))?;
        let rhs_bb = context.append_basic_block(
            self.function,
            if op == BinaryOp::And {
                "and.rhs"
            } else {
                "or.rhs"
            },
        );
        let join = context.append_basic_block(self.function, "logic.end");
        match op {
            BinaryOp::And => self.b.build_conditional_branch(l, rhs_bb, join)?,
            _ => self.b.build_conditional_branch(l, join, rhs_bb)?,
        };
        self.b.position_at_end(rhs_bb);
        // The right side may not run: `kir-barriers` joins both paths as for an `if` without
        // `else`.
        let r = self.expr(rhs)?.into_int_value();
        let rhs_end = self
            .b
            .get_insert_block()
            .ok_or_else(|| CodegenError::internal("no block", rhs.span))?;
        self.b.build_unconditional_branch(join)?;
        self.b.position_at_end(join);
        let phi = self.b.build_phi(context.bool_type(), "logic")?;
        let short = context
            .bool_type()
            .const_int((op == BinaryOp::Or) as u64, false);
        phi.add_incoming(&[(&short, lhs_end), (&r, rhs_end)]);
        Ok(phi.as_basic_value())
    }

    /// A binary operator on two scalars of type `s` (`amount` is the shift amount's type).
    pub fn binary(
        &mut self,
        op: BinaryOp,
        l: BasicValueEnum<'ctx>,
        r: BasicValueEnum<'ctx>,
        s: Scalar,
        amount: Scalar,
    ) -> Result<BasicValueEnum<'ctx>> {
        if s.is_float() {
            return self.float_binary(op, l, r);
        }
        let (l, r) = (l.into_int_value(), r.into_int_value());
        let b = &self.b;
        let signed = s.is_signed();
        Ok(match op {
            BinaryOp::Add => b.build_int_add(l, r, "add")?.into(),
            BinaryOp::Sub => b.build_int_sub(l, r, "sub")?.into(),
            BinaryOp::Mul => b.build_int_mul(l, r, "mul")?.into(),
            BinaryOp::Div | BinaryOp::Rem => self.int_division(op, l, r, signed)?.into(),
            BinaryOp::BitAnd | BinaryOp::And => b.build_and(l, r, "and")?.into(),
            BinaryOp::BitOr | BinaryOp::Or => b.build_or(l, r, "or")?.into(),
            BinaryOp::BitXor => b.build_xor(l, r, "xor")?.into(),
            BinaryOp::Shl | BinaryOp::Shr => {
                let r = self.shift_amount(r, l.get_type().get_bit_width(), amount)?;
                if op == BinaryOp::Shl {
                    self.b.build_left_shift(l, r, "shl")?.into()
                } else {
                    self.b.build_right_shift(l, r, signed, "shr")?.into()
                }
            }
            cmp => {
                let predicate =
                    int_predicate(cmp, signed).ok_or_else(|| CodegenError::Internal {
                        message: format!("operator {cmp:?}"),
                        span: None,
                    })?;
                b.build_int_compare(predicate, l, r, "cmp")?.into()
            }
        })
    }

    /// The amount converted to the shifted value's width, modulo that width.
    fn shift_amount(&self, r: IntValue<'ctx>, bits: u32, amount: Scalar) -> Result<IntValue<'ctx>> {
        let ty = self.cx.types.int(bits);
        let r = match r.get_type().get_bit_width().cmp(&bits) {
            std::cmp::Ordering::Less => self.b.build_int_z_extend(r, ty, "")?,
            std::cmp::Ordering::Greater => self.b.build_int_truncate(r, ty, "")?,
            std::cmp::Ordering::Equal => r,
        };
        let _ = amount;
        Ok(self
            .b
            .build_and(r, ty.const_int((bits - 1) as u64, false), "amount")?)
    }

    /// Division and remainder with every case defined (see the module comment).
    fn int_division(
        &self,
        op: BinaryOp,
        l: IntValue<'ctx>,
        r: IntValue<'ctx>,
        signed: bool,
    ) -> Result<IntValue<'ctx>> {
        let b = &self.b;
        let ty = l.get_type();
        let zero = ty.const_zero();
        let one = ty.const_int(1, false);
        let by_zero = b.build_int_compare(IntPredicate::EQ, r, zero, "by_zero")?;
        let by_minus_one =
            b.build_int_compare(IntPredicate::EQ, r, ty.const_all_ones(), "by_minus_one")?;
        let special = if signed {
            b.build_or(by_zero, by_minus_one, "")?
        } else {
            by_zero
        };
        let divisor = b.build_select(special, one, r, "divisor")?.into_int_value();
        let result = match (op, signed) {
            (BinaryOp::Div, true) => b.build_int_signed_div(l, divisor, "div")?,
            (BinaryOp::Div, false) => b.build_int_unsigned_div(l, divisor, "div")?,
            (_, true) => b.build_int_signed_rem(l, divisor, "rem")?,
            (_, false) => b.build_int_unsigned_rem(l, divisor, "rem")?,
        };
        Ok(match op {
            // x / 1 == x: fix up x / 0 (0) and x / -1 (-x, wrapping).
            BinaryOp::Div => {
                let result = if signed {
                    let negated = b.build_int_neg(l, "")?;
                    b.build_select(by_minus_one, negated, result, "")?
                        .into_int_value()
                } else {
                    result
                };
                b.build_select(by_zero, zero, result, "div")?
                    .into_int_value()
            }
            // x % 1 == 0, right for x % -1; fix up x % 0 (x).
            _ => b.build_select(by_zero, l, result, "rem")?.into_int_value(),
        })
    }

    /// `fmod(l, r)` through libdevice; 16-bit floats through `__nv_fmodf` (their remainder is
    /// a value of their own type: the conversion back is exact).
    fn float_remainder(
        &self,
        l: inkwell::values::FloatValue<'ctx>,
        r: inkwell::values::FloatValue<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let ty = l.get_type();
        let context = self.cx.context;
        let (name, width) = if ty == context.f64_type() {
            ("__nv_fmod", FloatWidth::F64)
        } else {
            ("__nv_fmodf", FloatWidth::F32)
        };
        let fmod = super::intrinsics::Libdevice {
            name: name.to_string(),
            width,
            arity: 2,
        }
        .declare(context, self.cx.module);
        let wide = width.ty(context);
        let (wl, wr) = if ty == wide {
            (l, r)
        } else {
            (
                self.b.build_float_ext(l, wide, "")?,
                self.b.build_float_ext(r, wide, "")?,
            )
        };
        let call = self
            .b
            .build_call(fmod, &[wl.into(), wr.into()], "fmod")?
            .try_as_basic_value()
            .basic()
            .ok_or_else(|| CodegenError::Internal {
                message: "`fmod` returned nothing".to_string(),
                span: None,
            })?
            .into_float_value();
        Ok(if ty == wide {
            call.into()
        } else {
            self.b.build_float_trunc(call, ty, "rem")?.into()
        })
    }

    fn float_binary(
        &self,
        op: BinaryOp,
        l: BasicValueEnum<'ctx>,
        r: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let (l, r) = (l.into_float_value(), r.into_float_value());
        let b = &self.b;
        let arithmetic = match op {
            BinaryOp::Add => Some(b.build_float_add(l, r, "fadd")?),
            BinaryOp::Sub => Some(b.build_float_sub(l, r, "fsub")?),
            BinaryOp::Mul => Some(b.build_float_mul(l, r, "fmul")?),
            BinaryOp::Div => Some(b.build_float_div(l, r, "fdiv")?),
            BinaryOp::Rem => return self.float_remainder(l, r),
            _ => None,
        };
        if let Some(v) = arithmetic {
            if self.cx.options.fast_math {
                // Like CUDA's -use_fast_math: reassociation, contraction into fma, approximate
                // division and functions, signs of zeros ignored. NaNs and infinities keep
                // their meaning (programs test for them).
                if let Some(instruction) = v.as_instruction() {
                    let flags = FastMathFlags::AllowReassoc
                        | FastMathFlags::AllowContract
                        | FastMathFlags::AllowReciprocal
                        | FastMathFlags::ApproxFunc
                        | FastMathFlags::NoSignedZeros;
                    let _ = instruction.set_fast_math_flags(flags);
                }
            }
            return Ok(v.into());
        }
        let predicate = float_predicate(op).ok_or_else(|| CodegenError::Internal {
            message: format!("float operator {op:?}"),
            span: None,
        })?;
        Ok(b.build_float_compare(predicate, l, r, "fcmp")?.into())
    }

    // ---- calls ----

    fn call(&mut self, e: &Expr, callee: &Ident, args: &[Expr]) -> Result<BasicValueEnum<'ctx>> {
        let target = self.cx.checked.callees.get(&e.id).copied().ok_or_else(|| {
            CodegenError::internal(
                format!("the checker did not resolve the call to `{}`", callee.name),
                e.span,
            )
        })?;
        let mut values = Vec::with_capacity(args.len());
        for arg in args {
            values.push(self.arg_value(arg)?);
        }
        self.apply(target, e, &values, args)
    }

    /// An argument's value: an array (a `func`'s array parameter) as its address and
    /// dimensions, read by the callee from any thread; anything else as itself.
    pub fn arg_value(&mut self, arg: &Expr) -> Result<BasicValueEnum<'ctx>> {
        if !matches!(self.ty_of(arg), Ty::Array { .. }) {
            return self.expr(arg);
        }
        if let Some(v) = self.hoisted.get(&arg.id) {
            return Ok(*v);
        }
        let array = self.array(arg)?;
        self.touch(arg.span)?;
        self.pack_array_arg(&array, arg.span)
    }

    /// `{ptr, dims...}` of a global or `shared` array, for a `func` call.
    pub fn pack_array_arg(
        &self,
        array: &super::body::ArrayRef<'ctx>,
        span: Span,
    ) -> Result<BasicValueEnum<'ctx>> {
        let here = array.ptr.get_type().get_address_space();
        let space = [super::types::GLOBAL, super::types::SHARED]
            .into_iter()
            .find(|s| here == inkwell::AddressSpace::from(*s))
            .ok_or_else(|| {
                // Register vectors are not arrays in memory: the checker refuses them (E0200).
                CodegenError::internal(
                    "a func argument that is not in global or shared memory",
                    span,
                )
            })?;
        let ty = self.cx.types.array_arg(array.dims.len(), space);
        let mut packed = self
            .b
            .build_insert_value(ty.get_undef(), array.ptr, 0, "")?
            .into_struct_value();
        for (i, dim) in array.dims.iter().enumerate() {
            packed = self
                .b
                .build_insert_value(packed, *dim, i as u32 + 1, "")?
                .into_struct_value();
        }
        Ok(packed.into())
    }

    /// The array a `func` receives as `{ptr, dims...}`.
    pub fn unpack_array_arg(
        &self,
        value: BasicValueEnum<'ctx>,
        name: &str,
        elem: &Ty,
    ) -> Result<super::body::ArrayRef<'ctx>> {
        let packed = value.into_struct_value();
        let ptr = self
            .b
            .build_extract_value(packed, 0, name)?
            .into_pointer_value();
        let mut dims = Vec::new();
        for i in 1..packed.get_type().count_fields() {
            dims.push(
                self.b
                    .build_extract_value(packed, i, "dim")?
                    .into_int_value(),
            );
        }
        Ok(super::body::ArrayRef {
            name: name.to_string(),
            ptr,
            elem: elem.clone(),
            dims,
        })
    }

    /// A call on already evaluated arguments (the elementwise form passes element values).
    pub fn apply(
        &mut self,
        target: Callee,
        e: &Expr,
        values: &[BasicValueEnum<'ctx>],
        args: &[Expr],
    ) -> Result<BasicValueEnum<'ctx>> {
        let arity = |n: usize| {
            if values.len() == n {
                Ok(())
            } else {
                Err(CodegenError::internal(
                    format!("expected {n} arguments, got {}", values.len()),
                    e.span,
                ))
            }
        };
        match target {
            Callee::Builtin(Builtin::Grid) => Err(CodegenError::internal(
                "`grid(...)` as a uniform value (the checker allows it only as the operand of a grid-wide collective, E0700)",
                e.span,
            )),
            Callee::Builtin(Builtin::Atomic(_)) => Err(CodegenError::internal(
                "an atomic inside an expression (the checker allows it only as a statement or a whole right side)",
                e.span,
            )),
            Callee::Func(item) => self.call_func(item, values, e.span),
            Callee::Cast(to) => {
                arity(1)?;
                let from = self.scalar_of(&args[0])?;
                self.cast(values[0], from, to)
            }
            Callee::Builtin(Builtin::Block) => {
                arity(1)?;
                let size = self.i32(self.block_size(e.span)? as i64);
                let b = values[0].into_int_value();
                let lo = self.b.build_int_mul(b, size, "block.lo")?;
                let hi = self.b.build_int_add(lo, size, "block.hi")?;
                self.range_value(lo, hi)
            }
            Callee::Builtin(Builtin::Range) => {
                arity(2)?;
                self.range_value(values[0].into_int_value(), values[1].into_int_value())
            }
            // Read element by element where a tile is consumed (`vector.rs`), never as a value.
            Callee::Builtin(Builtin::Transpose) => Err(CodegenError::internal(
                "`transpose` used as a uniform value (the checker makes it a tile)",
                e.span,
            )),
            Callee::Builtin(Builtin::Select) => {
                arity(3)?;
                Ok(self.b.build_select(
                    values[0].into_int_value(),
                    values[1],
                    values[2],
                    "select",
                )?)
            }
            Callee::Builtin(Builtin::Math(op)) => {
                let first = args.first().ok_or_else(|| {
                    CodegenError::internal("a math primitive without arguments", e.span)
                })?;
                let scalar = self.scalar_of(first)?;
                self.math(op, values, scalar, e.span)
            }
        }
    }

    pub fn call_func(
        &mut self,
        item: usize,
        values: &[BasicValueEnum<'ctx>],
        span: Span,
    ) -> Result<BasicValueEnum<'ctx>> {
        let function = self.cx.func_for(item, values, span)?;
        let args: Vec<BasicMetadataValueEnum> = values.iter().map(|v| (*v).into()).collect();
        let call = self.b.build_call(function, &args, "call")?;
        call.try_as_basic_value()
            .basic()
            // The checker rejects the value of a func that returns nothing (E0200, E0303).
            .ok_or_else(|| CodegenError::internal("calling a `func` without a result", span))
    }

    pub fn range_value(
        &self,
        lo: IntValue<'ctx>,
        hi: IntValue<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let range = self.cx.types.range.get_undef();
        let range = self.b.build_insert_value(range, lo, 0, "")?;
        let range = self.b.build_insert_value(range, hi, 1, "range")?;
        Ok(range.as_basic_value_enum())
    }

    /// The bounds of a `Range` value.
    pub fn range_bounds(
        &self,
        v: BasicValueEnum<'ctx>,
    ) -> Result<(IntValue<'ctx>, IntValue<'ctx>)> {
        let s: StructValue = v.into_struct_value();
        let lo = self.b.build_extract_value(s, 0, "lo")?.into_int_value();
        let hi = self.b.build_extract_value(s, 1, "hi")?.into_int_value();
        Ok((lo, hi))
    }

    /// Explicit conversions between scalar types.
    pub fn cast(
        &self,
        v: BasicValueEnum<'ctx>,
        from: Scalar,
        to: Scalar,
    ) -> Result<BasicValueEnum<'ctx>> {
        let b = &self.b;
        let to_ty = self.cx.types.scalar(to);
        if from == to {
            return Ok(v);
        }
        Ok(match (from, to) {
            (Scalar::Bool, t) if t.is_float() => b
                .build_unsigned_int_to_float(v.into_int_value(), to_ty.into_float_type(), "cast")?
                .into(),
            (f, Scalar::Bool) if f.is_float() => {
                let zero = v.into_float_value().get_type().const_zero();
                b.build_float_compare(FloatPredicate::UNE, v.into_float_value(), zero, "cast")?
                    .into()
            }
            (_, Scalar::Bool) => {
                let zero = v.into_int_value().get_type().const_zero();
                b.build_int_compare(IntPredicate::NE, v.into_int_value(), zero, "cast")?
                    .into()
            }
            (f, t) if !f.is_float() && !t.is_float() => {
                let v = v.into_int_value();
                let to_int = to_ty.into_int_type();
                let (fb, tb) = (v.get_type().get_bit_width(), to_int.get_bit_width());
                if fb > tb {
                    b.build_int_truncate(v, to_int, "cast")?.into()
                } else if fb < tb && f.is_signed() {
                    b.build_int_s_extend(v, to_int, "cast")?.into()
                } else if fb < tb {
                    b.build_int_z_extend(v, to_int, "cast")?.into()
                } else {
                    v.into()
                }
            }
            (f, Scalar::BFloat16) if !f.is_float() && f.bits() >= 32 => {
                self.int_to_bfloat16(v.into_int_value(), f.is_signed())?
            }
            (f, _) if !f.is_float() => {
                let v = v.into_int_value();
                let float = to_ty.into_float_type();
                if f.is_signed() {
                    b.build_signed_int_to_float(v, float, "cast")?.into()
                } else {
                    b.build_unsigned_int_to_float(v, float, "cast")?.into()
                }
            }
            (f, t) if !t.is_float() => {
                let float = FloatWidth::of(f).ok_or_else(|| CodegenError::Internal {
                    message: format!("a float cast from {}", f.name()),
                    span: None,
                })?;
                let intrinsic = if t.is_signed() {
                    Intrinsic::FpToSiSat {
                        int_bits: t.bits(),
                        float,
                    }
                } else {
                    Intrinsic::FpToUiSat {
                        int_bits: t.bits(),
                        float,
                    }
                };
                let call = b.build_call(self.intrinsic(intrinsic), &[v.into()], "cast")?;
                call.try_as_basic_value()
                    .basic()
                    .ok_or_else(|| CodegenError::Internal {
                        message: "fpto*i.sat has no value".into(),
                        span: None,
                    })?
            }
            // Between the two 16-bit floats, through `Float32`: widening is exact, so the value
            // is rounded once (LLVM has no cast between `half` and `bfloat`).
            (Scalar::Float16, Scalar::BFloat16) | (Scalar::BFloat16, Scalar::Float16) => {
                let wide = b.build_float_ext(
                    v.into_float_value(),
                    self.cx.context.f32_type(),
                    "cast.wide",
                )?;
                b.build_float_trunc(wide, to_ty.into_float_type(), "cast")?
                    .into()
            }
            (f, t) if f.bits() < t.bits() => b
                .build_float_ext(v.into_float_value(), to_ty.into_float_type(), "cast")?
                .into(),
            _ => b
                .build_float_trunc(v.into_float_value(), to_ty.into_float_type(), "cast")?
                .into(),
        })
    }

    /// A 32- or 64-bit integer to `BFloat16`, rounded once. LLVM converts to `float` first and
    /// then to `bfloat` on targets without `cvt.rn.bf16.s32` (before sm_90, and the CPU): twice
    /// rounded, 2^24 + 2^16 + 1 would become 2^24 instead of 2^24 + 2^17. Here the magnitude is
    /// first cut to its 24 leading bits, with a sticky bit for the rest (rounding to odd, so no
    /// midpoint of `BFloat16` is made or lost); that converts to `float` exactly, and the one
    /// `float` to `bfloat` rounding is the only one.
    fn int_to_bfloat16(&self, v: IntValue<'ctx>, signed: bool) -> Result<BasicValueEnum<'ctx>> {
        let b = &self.b;
        let ty = v.get_type();
        let width = ty.get_bit_width();
        let zero = ty.const_zero();
        let negative = if signed {
            b.build_int_compare(IntPredicate::SLT, v, zero, "bf16.neg")?
        } else {
            self.cx.context.bool_type().const_zero()
        };
        // |MIN| is MIN's bit pattern, right as an unsigned magnitude.
        let flipped = b.build_int_neg(v, "")?;
        let magnitude = b
            .build_select(negative, flipped, v, "bf16.mag")?
            .into_int_value();
        let ctlz = self.intrinsic(Intrinsic::Int(IntMath::Ctlz, width));
        let leading = b
            .build_call(
                ctlz,
                &[magnitude.into(), self.bool_const(false).into()],
                "bf16.lz",
            )?
            .try_as_basic_value()
            .basic()
            .ok_or_else(|| CodegenError::Internal {
                message: "llvm.ctlz has no value".into(),
                span: None,
            })?
            .into_int_value();
        // Bits below the leading 24: width - 24 - leading, or none.
        let spare = b.build_int_sub(ty.const_int(u64::from(width) - 24, false), leading, "")?;
        let positive = b.build_int_compare(IntPredicate::SGT, spare, zero, "")?;
        let shift = b
            .build_select(positive, spare, zero, "bf16.shift")?
            .into_int_value();
        let one = ty.const_int(1, false);
        let unit = b.build_left_shift(one, shift, "")?;
        let below = b.build_int_sub(unit, one, "")?;
        let rest = b.build_and(magnitude, below, "")?;
        let kept = b.build_and(magnitude, b.build_not(below, "")?, "")?;
        let inexact = b.build_int_compare(IntPredicate::NE, rest, zero, "")?;
        let sticky = b.build_select(inexact, unit, zero, "")?.into_int_value();
        let odd = b.build_or(kept, sticky, "bf16.odd")?;
        let f32t = self.cx.context.f32_type();
        let exact = b.build_unsigned_int_to_float(odd, f32t, "")?;
        let minus = b.build_float_neg(exact, "")?;
        let signed_value = b
            .build_select(negative, minus, exact, "")?
            .into_float_value();
        Ok(
            b.build_float_trunc(signed_value, self.cx.context.bf16_type(), "cast")?
                .into(),
        )
    }

    // ---- records ----

    /// `v.field` where `v` is the value of `base`.
    pub fn field(
        &mut self,
        base: &Expr,
        v: BasicValueEnum<'ctx>,
        field: &Ident,
    ) -> Result<BasicValueEnum<'ctx>> {
        let (index, ty) = self.field_index(self.ty_of(base).element(), field)?;
        let raw = self
            .b
            .build_extract_value(v.into_struct_value(), index, &field.name)?;
        self.to_reg(raw, &ty)
    }

    /// The position and type of a field of a record or `Range`.
    pub fn field_index(&self, ty: &Ty, field: &Ident) -> Result<(u32, Ty)> {
        match ty {
            Ty::Record(id) => {
                let resolver = self.cx.resolver.borrow();
                let (i, f) = resolver.records.field(*id, &field.name).ok_or_else(|| {
                    CodegenError::internal(format!("no field `{}`", field.name), field.span)
                })?;
                Ok((i as u32, f.ty.clone()))
            }
            Ty::Range => match field.name.as_str() {
                "start" => Ok((0, Ty::INT32)),
                "end" => Ok((1, Ty::INT32)),
                other => Err(CodegenError::internal(
                    format!("no field `{other}` on Range"),
                    field.span,
                )),
            },
            _ => Err(CodegenError::internal(
                format!("field `{}` of a non-record", field.name),
                field.span,
            )),
        }
    }

    fn record_literal(&mut self, e: &Expr, fields: &[FieldInit]) -> Result<BasicValueEnum<'ctx>> {
        let ty = self.ty_of(e).clone();
        let llvm = self.reg_type(&ty, e.span)?.into_struct_type();
        let mut record = llvm.get_undef();
        for init in fields {
            let (index, field_ty) = self.field_index(&ty, &init.name)?;
            let v = self.expr(&init.value)?;
            let v = self.to_mem(v, &field_ty)?;
            record = self
                .b
                .build_insert_value(record, v, index, "")?
                .into_struct_value();
        }
        Ok(record.into())
    }
}

fn int_predicate(op: BinaryOp, signed: bool) -> Option<IntPredicate> {
    Some(match (op, signed) {
        (BinaryOp::Eq, _) => IntPredicate::EQ,
        (BinaryOp::Ne, _) => IntPredicate::NE,
        (BinaryOp::Lt, true) => IntPredicate::SLT,
        (BinaryOp::Le, true) => IntPredicate::SLE,
        (BinaryOp::Gt, true) => IntPredicate::SGT,
        (BinaryOp::Ge, true) => IntPredicate::SGE,
        (BinaryOp::Lt, false) => IntPredicate::ULT,
        (BinaryOp::Le, false) => IntPredicate::ULE,
        (BinaryOp::Gt, false) => IntPredicate::UGT,
        (BinaryOp::Ge, false) => IntPredicate::UGE,
        _ => return None,
    })
}

/// Ordered comparisons (false when either side is NaN), except `!=`, which is true then.
fn float_predicate(op: BinaryOp) -> Option<FloatPredicate> {
    Some(match op {
        BinaryOp::Eq => FloatPredicate::OEQ,
        BinaryOp::Ne => FloatPredicate::UNE,
        BinaryOp::Lt => FloatPredicate::OLT,
        BinaryOp::Le => FloatPredicate::OLE,
        BinaryOp::Gt => FloatPredicate::OGT,
        BinaryOp::Ge => FloatPredicate::OGE,
        _ => return None,
    })
}

/// The encoding of a 16-bit float type (`Float16` or `BFloat16`).
fn half_format(s: Scalar) -> loom_runtime::half::Format {
    if s == Scalar::BFloat16 {
        loom_runtime::half::BF16
    } else {
        loom_runtime::half::F16
    }
}
