//! Atomic read-modify-writes (`atomic_add(hist[[v]], 1)`, `old: Int32 <- atomic_cas(a[i], e, n)`;
//! the checker's `check/atomic.rs` says where they may stand).
//!
//! Each is LLVM's `atomicrmw` (`cmpxchg` for `atomic_cas`) on the element's address, in the
//! array's own address space (`addrspace(1)` global, `addrspace(3)` shared), so the NVPTX
//! backend emits `atom.global.*` / `atom.shared.*`, and the CPU backend a locked instruction
//! (blocks run on several OS threads at once there too). The ordering is `monotonic` (PTX's
//! `.relaxed`) in the default (system) scope, which NVPTX emits as a plain `atom` (relaxed, GPU
//! scope): CUDA's `atomicAdd` and friends. An atomic orders nothing else; within the block the
//! barriers of "synchronised by default" order it with other statements (`kir-barriers` counts
//! it as a read and a write of the element that never conflicts with another atomic).
//!
//! A uniform place with uniform operands is one atomic for the block, made by thread 0; its old
//! value, when the statement uses it, goes to the other threads through a one-element shared
//! array behind a barrier (what CUDA code does by hand with `if (threadIdx.x == 0)`). A vector
//! place or operand is one atomic per element, each made by the element's owner thread, walked
//! like a vector store; elements of a checked place outside the array are dropped.

use super::body::{ArrayRef, Body, Result};
use super::error::CodegenError;
use super::memory::Element;
use crate::check::types::{Scalar, Ty};
use crate::check::{AtomicOp, Builtin, Callee};
use crate::syntax::ast::{Expr, ExprKind};
use crate::syntax::span::Span;
use inkwell::llvm_sys::core::LLVMBuildAtomicRMW;
use inkwell::llvm_sys::{LLVMAtomicOrdering, LLVMAtomicRMWBinOp};
use inkwell::values::{AsValueRef, BasicValueEnum, IntValue};
use inkwell::AtomicOrdering;

/// An atomic call taken apart.
struct AtomicCall<'e> {
    op: AtomicOp,
    base: &'e Expr,
    indices: &'e [Expr],
    checked: bool,
    operands: &'e [Expr],
}

impl<'a, 'ctx> Body<'a, 'ctx> {
    /// Whether `e` is a call of an atomic builtin.
    pub fn is_atomic_call(&self, e: &Expr) -> bool {
        matches!(
            self.cx.checked.callees.get(&e.id),
            Some(Callee::Builtin(Builtin::Atomic(_)))
        )
    }

    /// `atomic_op(place, operands)` on its own line: its old values are not needed.
    pub fn atomic_stmt(&mut self, call: &Expr, span: Span) -> Result<()> {
        let parts = self.atomic_parts(call)?;
        if self.ty_of(call).is_uniform() {
            self.atomic_uniform(&parts, false, span)?;
            Ok(())
        } else {
            self.atomic_vector(&parts, call, span)
        }
    }

    /// `x <- atomic_op(place, operands)` with a uniform place and operands: the old value, the
    /// same for every thread.
    pub fn atomic_value(&mut self, call: &Expr, span: Span) -> Result<BasicValueEnum<'ctx>> {
        let parts = self.atomic_parts(call)?;
        self.atomic_uniform(&parts, true, span)?
            .ok_or_else(|| CodegenError::internal("an atomic without its old value", span))
    }

    fn atomic_parts<'e>(&self, call: &'e Expr) -> Result<AtomicCall<'e>> {
        let op = match self.cx.checked.callees.get(&call.id) {
            Some(Callee::Builtin(Builtin::Atomic(op))) => *op,
            _ => return Err(CodegenError::internal("not an atomic call", call.span)),
        };
        let ExprKind::Call { args, .. } = &call.kind else {
            return Err(CodegenError::internal("not an atomic call", call.span));
        };
        let Some((place, operands)) = args.split_first() else {
            return Err(CodegenError::internal(
                "an atomic without a place",
                call.span,
            ));
        };
        let ExprKind::Index {
            base,
            indices,
            checked,
        } = &place.kind
        else {
            return Err(CodegenError::internal(
                "an atomic whose place is not an element",
                place.span,
            ));
        };
        Ok(AtomicCall {
            op,
            base,
            indices,
            checked: *checked,
            operands,
        })
    }

    /// One atomic for the block, by thread 0; with `keep`, its old value for every thread.
    fn atomic_uniform(
        &mut self,
        call: &AtomicCall,
        keep: bool,
        span: Span,
    ) -> Result<Option<BasicValueEnum<'ctx>>> {
        let array = self.array(call.base)?;
        let mut values = Vec::with_capacity(call.operands.len());
        for operand in call.operands {
            values.push(self.expr(operand)?);
        }
        let at = self.subscripts(&array, call.indices, call.checked, span)?;
        let slot = if keep {
            Some(self.shared_array("atomic.old", &array.elem, &[1], span)?)
        } else {
            None
        };
        self.touch(span)?;
        let zero = self.zero_of(&array.elem, span)?;
        let op = call.op;
        self.once_per_block(&mut |this| {
            let old = this.atomic_at(op, &array, &at, &values, span)?;
            if let Some(slot) = &slot {
                let old = old.unwrap_or(zero);
                let first = Element {
                    index: this.i64(0),
                    in_bounds: None,
                };
                this.store_element(slot, &first, old, span)?;
            }
            Ok(())
        })?;
        let Some(slot) = slot else {
            return Ok(None);
        };
        // Every thread reads what thread 0 wrote: `touch` puts the barrier between the two.
        self.touch(span)?;
        let first = Element {
            index: self.i64(0),
            in_bounds: None,
        };
        Ok(Some(self.load_element(&slot, &first, span)?))
    }

    /// One atomic per element of the place and operands, by each element's owner thread.
    fn atomic_vector(&mut self, call: &AtomicCall, whole: &Expr, span: Span) -> Result<()> {
        if self.lane_depth > 0 || !self.is_kernel() {
            return Err(CodegenError::internal(
                "a vector atomic inside per-element code",
                span,
            ));
        }
        let array = self.array(call.base)?;
        let mut shape = None;
        let mut vectors: Vec<&Expr> = Vec::new();
        for e in call.indices.iter().chain(call.operands) {
            if self.is_vector_operand(e) {
                let s = self.prepare(e)?;
                vectors.push(e);
                shape = Some(match shape {
                    Some(m) => self.meet(m, s)?,
                    None => s,
                });
            } else {
                self.hoist(e)?;
            }
        }
        let shape = shape.ok_or_else(|| {
            CodegenError::internal("a vector atomic without a vector operand", span)
        })?;
        self.touch(span)?;
        self.before_scans(whole)?;
        let plan = self.planned(crate::kir::Consumer::Atomic(span))?;
        let shape = self.materialise_mixed_scans(&vectors, shape, &plan, span)?;
        let sweep = plan.sweep;
        self.check_sweep(sweep, &shape, span)?;
        let mut signed = Vec::with_capacity(call.indices.len());
        for index in call.indices {
            signed.push(self.scalar_of(index)?.is_signed());
        }
        let op = call.op;
        self.sweep(&shape, sweep, shape.right_scan, span, &mut |this, pos| {
            for e in &vectors {
                this.tile_prepare(e, pos)?;
            }
            let exists = this.slices_inside(&vectors, pos, span)?;
            let valid = this.b.build_and(pos.valid, exists, "exists")?;
            this.when(valid, &mut |this| {
                let mut subscripts = Vec::with_capacity(call.indices.len());
                for (index, signed) in call.indices.iter().zip(&signed) {
                    let v = this.elem(index, pos)?.into_int_value();
                    subscripts.push(this.index64(v, *signed)?);
                }
                let at = this.element(&array, &subscripts, call.checked, span)?;
                let mut values = Vec::with_capacity(call.operands.len());
                for operand in call.operands {
                    values.push(this.elem(operand, pos)?);
                }
                this.atomic_at(op, &array, &at, &values, span)?;
                Ok(())
            })
        })?;
        Ok(())
    }

    /// Whether element `pos.k` exists in every checked slice (`x[[r]]`) the vector operands
    /// read elementwise: outside its array a slice reads zero, which no array holds, so that
    /// element makes no atomic (a histogram of `x[[block(B)]]` counts the elements of `x` only).
    fn slices_inside(
        &mut self,
        vectors: &[&Expr],
        pos: &super::vector::Pos<'ctx>,
        span: Span,
    ) -> Result<IntValue<'ctx>> {
        let mut slices = Vec::new();
        for e in vectors {
            checked_slices(self, e, &mut slices);
        }
        let mut inside = self.bool_const(true);
        for (base, index) in slices {
            let array = self.array(base)?;
            let k = self.elem(index, pos)?.into_int_value();
            let k = self.index64(k, true)?;
            if let Some(ok) = self.element(&array, &[k], true, span)?.in_bounds {
                inside = self.b.build_and(inside, ok, "inside")?;
            }
        }
        Ok(inside)
    }

    /// The atomic on one element, skipped outside a checked place's array; the old value where
    /// it was made.
    fn atomic_at(
        &mut self,
        op: AtomicOp,
        array: &ArrayRef<'ctx>,
        at: &Element<'ctx>,
        values: &[BasicValueEnum<'ctx>],
        span: Span,
    ) -> Result<Option<BasicValueEnum<'ctx>>> {
        let Ty::Scalar(elem) = array.elem else {
            return Err(CodegenError::internal(
                "an atomic on an element that is not a scalar",
                span,
            ));
        };
        let Some(in_bounds) = at.in_bounds else {
            return self
                .atomic_instruction(op, elem, array, at.index, values, span)
                .map(Some);
        };
        let zero = self.zero_of(&array.elem, span)?;
        let index = at.index;
        let old = self.value_when(in_bounds, zero, &mut |this| {
            this.atomic_instruction(op, elem, array, index, values, span)
        })?;
        Ok(Some(old))
    }

    fn atomic_instruction(
        &mut self,
        op: AtomicOp,
        elem: Scalar,
        array: &ArrayRef<'ctx>,
        index: IntValue<'ctx>,
        values: &[BasicValueEnum<'ctx>],
        span: Span,
    ) -> Result<BasicValueEnum<'ctx>> {
        let ptr = self.element_ptr(array, index, span)?;
        let operand = |k: usize| {
            values
                .get(k)
                .copied()
                .ok_or_else(|| CodegenError::internal("an atomic without its operands", span))
        };
        if op == AtomicOp::Cas {
            let (expected, new) = (operand(0)?, operand(1)?);
            let pair = self.b.build_cmpxchg(
                ptr,
                expected,
                new,
                AtomicOrdering::Monotonic,
                AtomicOrdering::Monotonic,
            )?;
            return Ok(self.b.build_extract_value(pair, 0, "atomic.old")?);
        }
        let value = operand(0)?;
        // `xchg` on a float goes through the integer of its width: every target has that one.
        if op == AtomicOp::Exch && elem.is_float() {
            let int = match elem.bits() {
                64 => self.cx.context.i64_type(),
                _ => self.cx.context.i32_type(),
            };
            let bits = self.b.build_bit_cast(value, int, "atomic.bits")?;
            let old = self.atomicrmw(LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpXchg, ptr, bits)?;
            let float = self.reg_type(&array.elem, span)?;
            return Ok(self.b.build_bit_cast(old, float, "atomic.old")?);
        }
        use LLVMAtomicRMWBinOp::*;
        let rmw = match (op, elem.is_float(), elem.is_signed()) {
            (AtomicOp::Add, true, _) => LLVMAtomicRMWBinOpFAdd,
            (AtomicOp::Add, false, _) => LLVMAtomicRMWBinOpAdd,
            (AtomicOp::Sub, _, _) => LLVMAtomicRMWBinOpSub,
            (AtomicOp::Min, _, true) => LLVMAtomicRMWBinOpMin,
            (AtomicOp::Min, _, false) => LLVMAtomicRMWBinOpUMin,
            (AtomicOp::Max, _, true) => LLVMAtomicRMWBinOpMax,
            (AtomicOp::Max, _, false) => LLVMAtomicRMWBinOpUMax,
            (AtomicOp::And, _, _) => LLVMAtomicRMWBinOpAnd,
            (AtomicOp::Or, _, _) => LLVMAtomicRMWBinOpOr,
            (AtomicOp::Xor, _, _) => LLVMAtomicRMWBinOpXor,
            (AtomicOp::Exch, _, _) => LLVMAtomicRMWBinOpXchg,
            (AtomicOp::Cas, _, _) => {
                return Err(CodegenError::internal("cmpxchg is built above", span))
            }
        };
        self.atomicrmw(rmw, ptr, value)
    }

    /// `atomicrmw OP ptr, value monotonic`, for integers and floats (inkwell's builder takes
    /// integers only).
    pub(super) fn atomicrmw(
        &self,
        op: LLVMAtomicRMWBinOp,
        ptr: inkwell::values::PointerValue<'ctx>,
        value: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        // SAFETY: the builder is positioned in a function (every caller emits into the body),
        // `ptr` points at an element of `value`'s type, and LLVM returns the instruction, a
        // value of that type.
        let old = unsafe {
            let raw = LLVMBuildAtomicRMW(
                self.b.as_mut_ptr(),
                op,
                ptr.as_value_ref(),
                value.as_value_ref(),
                LLVMAtomicOrdering::LLVMAtomicOrderingMonotonic,
                0,
            );
            BasicValueEnum::new(raw)
        };
        // The builder gives it the statement's debug location, like every instruction it builds.
        Ok(old)
    }
}

/// The checked slices `a[[r]]` of a one-dimensional array that `e` reads element by element
/// (through operators, calls, casts, fields and maps).
fn checked_slices<'e>(body: &Body, e: &'e Expr, out: &mut Vec<(&'e Expr, &'e Expr)>) {
    match &e.kind {
        ExprKind::Index {
            base,
            indices,
            checked: true,
        } => {
            if let [index] = indices.as_slice() {
                if *body.ty_of(index) == Ty::Range
                    && matches!(body.ty_of(base), Ty::Array { dims, .. } if dims.len() == 1)
                {
                    out.push((base, index));
                }
            }
        }
        ExprKind::Unary { operand, .. } => checked_slices(body, operand, out),
        ExprKind::Binary { lhs, rhs, .. } => {
            checked_slices(body, lhs, out);
            checked_slices(body, rhs, out);
        }
        ExprKind::Call { args, .. } => args.iter().for_each(|a| checked_slices(body, a, out)),
        ExprKind::Field { base, .. } => checked_slices(body, base, out),
        ExprKind::Collective {
            op: crate::syntax::ast::CollectiveOp::Map,
            operand,
            ..
        } => checked_slices(body, operand, out),
        _ => {}
    }
}
