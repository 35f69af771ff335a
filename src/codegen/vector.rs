//! Block vectors: slices, ranges, maps, elementwise operators, vector assignment, reductions and
//! scans.
//!
//! A vector expression is never built in memory. [`Body::prepare`] evaluates its uniform parts
//! (slice bounds, broadcast operands, bound arguments) once, in block-uniform code, materialises
//! the scans it contains, and returns its length; [`Body::elem`] then computes element `k` inside a
//! loop. The consumer decides who computes which `k`: a vector assignment uses a block-stride loop
//! (thread `t` handles `k = t, t + BLOCKSIZE, ...`, so element `k` belongs to thread
//! `k mod BLOCKSIZE`), reductions and scans give each thread a contiguous chunk so that the
//! combining order is the vector's order.
//!
//! This is the simple, correct lowering; issue #3 replaces it with warp shuffles, registers and
//! fewer barriers.

use super::body::{ArrayRef, Body, Result, Var};
use super::error::CodegenError;
use super::hazards::Hazards;
use super::memory::Element;
use crate::check::types::{Len, Ty};
use crate::check::Callee;
use crate::syntax::ast::{CollectiveOp, Expr, ExprKind};
use crate::syntax::span::Span;
use inkwell::types::BasicType;
use inkwell::values::{BasicValueEnum, IntValue};
use inkwell::IntPredicate;

/// Where a vector assignment writes element `k`.
#[derive(Clone, Copy)]
enum Dest<'ctx> {
    /// `x <- v` for an array variable `x`: element `k`.
    Whole,
    /// `a[r] <- v` / `a[[r]] <- v`: element `lo + k`.
    Slice { lo: IntValue<'ctx>, checked: bool },
    /// `a[i] <- v` for a two-dimensional `a`: element `(i, k)`.
    Row { row: IntValue<'ctx>, checked: bool },
}

impl<'a, 'ctx> Body<'a, 'ctx> {
    /// True for an operand that is a block vector in an elementwise position.
    fn is_vector_operand(&self, e: &Expr) -> bool {
        matches!(
            self.ty_of(e),
            Ty::Vector { .. } | Ty::Array { .. } | Ty::Range
        )
    }

    fn hoist(&mut self, e: &Expr) -> Result<()> {
        let v = self.expr(e)?;
        self.hoisted.insert(e.id, v);
        Ok(())
    }

    fn range_len(&self, lo: IntValue<'ctx>, hi: IntValue<'ctx>) -> Result<IntValue<'ctx>> {
        let len = self.b.build_int_sub(hi, lo, "len")?;
        self.smax(len, self.i32(0))
    }

    /// Evaluates the uniform parts of vector expression `e` and returns its length (`i32`).
    /// Must run in block-uniform code: scans inside `e` place barriers.
    pub fn prepare(&mut self, e: &Expr) -> Result<IntValue<'ctx>> {
        if self.lane_depth > 0 {
            return Err(CodegenError::not_implemented(
                "a block vector inside per-element code",
                e.span,
            ));
        }
        if *self.ty_of(e) == Ty::Range {
            self.hoist(e)?;
            let (lo, hi) = self.range_bounds(self.hoisted[&e.id])?;
            return self.range_len(lo, hi);
        }
        match &e.kind {
            ExprKind::Name(_) => {
                let array = self.array(e)?;
                if array.dims.len() != 1 {
                    return Err(CodegenError::not_implemented(
                        "a two-dimensional array used as a block vector",
                        e.span,
                    ));
                }
                Ok(self.length(&array))
            }
            ExprKind::Index { base, indices, .. } => {
                let array = self.array(base)?;
                if let [index] = indices.as_slice() {
                    if array.dims.len() == 2 && matches!(self.ty_of(index), Ty::Scalar(_)) {
                        // A row of a two-dimensional array.
                        self.hoist(index)?;
                        return Ok(array.dims[1]);
                    }
                }
                // A slice or gather: some subscripts are vectors (ranges), the others uniform.
                let mut len: Option<IntValue> = None;
                for index in indices {
                    let n = match self.ty_of(index) {
                        Ty::Range => {
                            self.hoist(index)?;
                            let (lo, hi) = self.range_bounds(self.hoisted[&index.id])?;
                            Some(self.range_len(lo, hi)?)
                        }
                        Ty::Vector { .. } | Ty::Array { .. } => Some(self.prepare(index)?),
                        _ => {
                            self.hoist(index)?;
                            None
                        }
                    };
                    if let Some(n) = n {
                        len = Some(match len {
                            Some(m) => self.smin(m, n)?,
                            None => n,
                        });
                    }
                }
                len.ok_or_else(|| {
                    CodegenError::internal("a subscript that makes no block vector", e.span)
                })
            }
            ExprKind::Unary { operand, .. } => self.prepare(operand),
            ExprKind::Field { base, .. } => self.prepare(base),
            ExprKind::Binary { lhs, rhs, .. } => {
                self.prepare_operands(e, &[lhs.as_ref(), rhs.as_ref()])
            }
            ExprKind::Call { args, .. } => {
                let args: Vec<&Expr> = args.iter().collect();
                self.prepare_operands(e, &args)
            }
            ExprKind::Collective {
                op: CollectiveOp::Map,
                func,
                operand,
                ..
            } => {
                for arg in &func.bound_args {
                    self.hoist(arg)?;
                }
                self.prepare(operand)
            }
            ExprKind::Collective {
                op: CollectiveOp::ScanLeft | CollectiveOp::ScanRight,
                ..
            } => {
                let array = self.scan(e)?;
                let len = self.length(&array);
                self.materialized.insert(e.id, array);
                Ok(len)
            }
            ExprKind::VectorLit { elems } => {
                for elem in elems {
                    self.hoist(elem)?;
                }
                Ok(self.i32(elems.len() as i64))
            }
            _ => Err(CodegenError::internal(
                "a uniform value where a block vector was expected",
                e.span,
            )),
        }
    }

    /// Elementwise operands: vectors are prepared, uniform ones evaluated once (broadcast).
    /// The length is the shortest vector operand's (the checker makes them equal when it can).
    fn prepare_operands(&mut self, e: &Expr, operands: &[&Expr]) -> Result<IntValue<'ctx>> {
        let mut len: Option<IntValue> = None;
        for operand in operands {
            if self.is_vector_operand(operand) {
                let n = self.prepare(operand)?;
                len = Some(match len {
                    Some(m) => self.smin(m, n)?,
                    None => n,
                });
            } else {
                self.hoist(operand)?;
            }
        }
        len.ok_or_else(|| {
            CodegenError::internal("an elementwise operation without a vector operand", e.span)
        })
    }

    /// Element `k` of prepared vector expression `e` (or `e` itself when it is uniform).
    pub fn elem(&mut self, e: &Expr, k: IntValue<'ctx>) -> Result<BasicValueEnum<'ctx>> {
        if *self.ty_of(e) == Ty::Range {
            let range = *self
                .hoisted
                .get(&e.id)
                .ok_or_else(|| CodegenError::internal("range not prepared", e.span))?;
            let (lo, _) = self.range_bounds(range)?;
            return Ok(self.b.build_int_add(lo, k, "k")?.into());
        }
        if let Some(v) = self.hoisted.get(&e.id) {
            return Ok(*v);
        }
        if let Some(array) = self.materialized.get(&e.id).cloned() {
            let k64 = self.index64(k, true)?;
            let at = self.element(&array, &[k64], false, e.span)?;
            return self.load_element(&array, &at, e.span);
        }
        match &e.kind {
            ExprKind::Name(_) => {
                let array = self.array(e)?;
                let k64 = self.index64(k, true)?;
                let at = self.element(&array, &[k64], false, e.span)?;
                self.load_element(&array, &at, e.span)
            }
            ExprKind::Index {
                base,
                indices,
                checked,
            } => {
                let array = self.array(base)?;
                let row_of_2d = indices.len() == 1 && array.dims.len() == 2;
                let mut subscripts = Vec::with_capacity(2);
                for index in indices {
                    let i = self.elem(index, k)?.into_int_value();
                    subscripts.push(self.index64(i, self.scalar_of(index)?.is_signed())?);
                }
                if row_of_2d {
                    subscripts.push(self.index64(k, true)?);
                }
                let at = self.element(&array, &subscripts, *checked, e.span)?;
                self.load_element(&array, &at, e.span)
            }
            ExprKind::Unary { op, operand, .. } => {
                let v = self.elem(operand, k)?;
                let scalar = self.scalar_of(operand)?;
                self.unary(*op, v, scalar)
            }
            ExprKind::Binary { op, lhs, rhs, .. } => {
                let l = self.elem(lhs, k)?;
                let r = self.elem(rhs, k)?;
                let (ls, rs) = (self.scalar_of(lhs)?, self.scalar_of(rhs)?);
                self.binary(*op, l, r, ls, rs)
            }
            ExprKind::Field { base, field } => {
                let v = self.elem(base, k)?;
                self.field(base, v, field)
            }
            ExprKind::Call { args, .. } => {
                let target = self.callee(e)?;
                let mut values = Vec::with_capacity(args.len());
                for arg in args {
                    values.push(self.elem(arg, k)?);
                }
                self.apply(target, e, &values, args)
            }
            ExprKind::Collective {
                op: CollectiveOp::Map,
                func,
                operand,
                ..
            } => {
                let target = self.callee(e)?;
                let mut values = Vec::with_capacity(func.bound_args.len() + 1);
                for arg in &func.bound_args {
                    values.push(self.elem(arg, k)?);
                }
                values.push(self.elem(operand, k)?);
                let mut args = func.bound_args.clone();
                args.push(operand.as_ref().clone());
                self.apply(target, e, &values, &args)
            }
            ExprKind::VectorLit { elems } => {
                let Some(first) = elems.first() else {
                    return Err(CodegenError::not_implemented(
                        "an empty vector literal",
                        e.span,
                    ));
                };
                let mut v = self.elem(first, k)?;
                for (i, elem) in elems.iter().enumerate().skip(1) {
                    let x = self.elem(elem, k)?;
                    let here =
                        self.b
                            .build_int_compare(IntPredicate::EQ, k, self.i32(i as i64), "")?;
                    v = self.b.build_select(here, x, v, "lit")?;
                }
                Ok(v)
            }
            _ => Err(CodegenError::internal(
                "this expression was not prepared as a block vector",
                e.span,
            )),
        }
    }

    pub fn callee(&self, e: &Expr) -> Result<Callee> {
        self.cx.checked.callees.get(&e.id).copied().ok_or_else(|| {
            CodegenError::internal("the checker did not resolve this function", e.span)
        })
    }

    // ---- vector assignment ----

    /// `target <- value` where `target` is an array, a slice or a row: every element of `value`
    /// is read before any element of `target` is written, and the writes are visible to every
    /// thread afterwards.
    pub fn assign_vector(&mut self, target: &Expr, value: &Expr, span: Span) -> Result<()> {
        if self.lane_depth > 0 || !self.is_kernel() {
            return Err(CodegenError::not_implemented(
                "a block vector assignment inside per-element code",
                span,
            ));
        }
        let (array, dest, n_dest) = self.destination(target)?;
        self.store_vector(array, dest, n_dest, value, span)
    }

    /// `x <- value` for a freshly declared array variable `x` (its initializer).
    pub fn init_vector(&mut self, array: ArrayRef<'ctx>, value: &Expr, span: Span) -> Result<()> {
        let n = self.length(&array);
        self.store_vector(array, Dest::Whole, n, value, span)
    }

    fn store_vector(
        &mut self,
        array: ArrayRef<'ctx>,
        dest: Dest<'ctx>,
        n_dest: IntValue<'ctx>,
        value: &Expr,
        span: Span,
    ) -> Result<()> {
        let n_src = if self.is_vector_operand(value) {
            self.prepare(value)?
        } else {
            self.hoist(value)?;
            n_dest
        };
        let n = self.smin(n_dest, n_src)?;
        let reads_target = Hazards::of_expr(self.cx.checked, value)
            .read_by_all
            .contains(&array.key);
        if !self.hazards.is_clean() {
            self.barrier()?;
        }
        if reads_target {
            self.assign_vector_buffered(&array, dest, value, n, span)?;
        } else {
            self.block_stride_loop(n, span, &mut |this, k| {
                let v = this.elem(value, k)?;
                let at = this.dest_element(&array, dest, k, span)?;
                this.store_element(&array, &at, v, span)
            })?;
        }
        self.barrier()
    }

    /// A vector assignment whose right side reads the array it writes: each thread first reads
    /// its elements into a private buffer, then, after a barrier, writes them.
    fn assign_vector_buffered(
        &mut self,
        array: &ArrayRef<'ctx>,
        dest: Dest<'ctx>,
        value: &Expr,
        n: IntValue<'ctx>,
        span: Span,
    ) -> Result<()> {
        let block_size = self.block_size(span)?;
        let max_len = match (self.ty_of(value), n.get_sign_extended_constant()) {
            (
                Ty::Vector {
                    len: Len::Static(len),
                    ..
                },
                _,
            ) => *len,
            (_, Some(len)) => len.max(0) as u64,
            _ => {
                return Err(CodegenError::NeedsStaticLength {
                    what: "a vector assignment that reads its own target",
                    span,
                })
            }
        };
        let slots = max_len.div_ceil(block_size as u64).max(1) as u32;
        let elem_ty = self.reg_type(&array.elem, span)?;
        let buffer_ty = elem_ty.array_type(slots);
        let buffer = self.alloca(buffer_ty.into(), "buffer")?;
        let size = self.i32(block_size as i64);
        let slot =
            |this: &Self, k: IntValue<'ctx>| -> Result<inkwell::values::PointerValue<'ctx>> {
                let j = this.b.build_int_signed_div(k, size, "slot")?;
                // SAFETY: j < slots because k < n <= max_len.
                Ok(unsafe {
                    this.b
                        .build_in_bounds_gep(buffer_ty, buffer, &[this.i32(0), j], "")?
                })
            };
        self.block_stride_loop(n, span, &mut |this, k| {
            let v = this.elem(value, k)?;
            let p = slot(this, k)?;
            this.b.build_store(p, v)?;
            Ok(())
        })?;
        self.barrier()?;
        self.block_stride_loop(n, span, &mut |this, k| {
            let p = slot(this, k)?;
            let v = this.b.build_load(elem_ty, p, "")?;
            let at = this.dest_element(array, dest, k, span)?;
            this.store_element(array, &at, v, span)
        })
    }

    fn destination(
        &mut self,
        target: &Expr,
    ) -> Result<(ArrayRef<'ctx>, Dest<'ctx>, IntValue<'ctx>)> {
        match &target.kind {
            ExprKind::Name(name) => match self.lookup(&name.name) {
                Some(Var::Array(array)) if array.dims.len() == 1 => {
                    let array = array.clone();
                    let n = self.length(&array);
                    Ok((array, Dest::Whole, n))
                }
                _ => Err(CodegenError::not_implemented(
                    "assigning a block vector to this variable",
                    target.span,
                )),
            },
            ExprKind::Index {
                base,
                indices,
                checked,
            } if indices.len() == 1 => {
                let array = self.array(base)?;
                let index = &indices[0];
                match self.ty_of(index) {
                    Ty::Range => {
                        let range = self.expr(index)?;
                        let (lo, hi) = self.range_bounds(range)?;
                        let n = self.range_len(lo, hi)?;
                        Ok((
                            array,
                            Dest::Slice {
                                lo,
                                checked: *checked,
                            },
                            n,
                        ))
                    }
                    Ty::Scalar(s) if array.dims.len() == 2 => {
                        let row = self.expr(index)?.into_int_value();
                        let row = self.index64(row, s.is_signed())?;
                        let n = array.dims[1];
                        Ok((
                            array,
                            Dest::Row {
                                row,
                                checked: *checked,
                            },
                            n,
                        ))
                    }
                    _ => Err(CodegenError::not_implemented(
                        "this kind of vector assignment target",
                        target.span,
                    )),
                }
            }
            _ => Err(CodegenError::not_implemented(
                "this kind of vector assignment target",
                target.span,
            )),
        }
    }

    fn dest_element(
        &self,
        array: &ArrayRef<'ctx>,
        dest: Dest<'ctx>,
        k: IntValue<'ctx>,
        span: Span,
    ) -> Result<Element<'ctx>> {
        match dest {
            Dest::Whole => {
                let k64 = self.index64(k, true)?;
                self.element(array, &[k64], false, span)
            }
            Dest::Slice { lo, checked } => {
                let i = self.b.build_int_add(lo, k, "i")?;
                let i64v = self.index64(i, true)?;
                self.element(array, &[i64v], checked, span)
            }
            Dest::Row { row, checked } => {
                let k64 = self.index64(k, true)?;
                self.element(array, &[row, k64], checked, span)
            }
        }
    }

    // ---- collectives ----

    fn collective_parts<'e>(
        &self,
        e: &'e Expr,
    ) -> Result<(Callee, &'e [Expr], &'e Expr, CollectiveOp)> {
        match &e.kind {
            ExprKind::Collective {
                op, func, operand, ..
            } => {
                if self.lane_depth > 0 || !self.is_kernel() {
                    return Err(CodegenError::not_implemented(
                        format!("`{}` inside per-element code", op.symbol()),
                        e.span,
                    ));
                }
                Ok((self.callee(e)?, &func.bound_args, operand, *op))
            }
            _ => Err(CodegenError::internal("not a collective", e.span)),
        }
    }

    fn combine(
        &mut self,
        f: Callee,
        e: &Expr,
        bound: &[BasicValueEnum<'ctx>],
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let mut values = bound.to_vec();
        values.push(a);
        values.push(b);
        match f {
            Callee::Func(item) => self.call_func(item, &values, e.span),
            _ => Err(CodegenError::not_implemented(
                "a builtin as the function of a reduction or scan",
                e.span,
            )),
        }
    }

    fn uniform_values(&mut self, exprs: &[Expr]) -> Result<Vec<BasicValueEnum<'ctx>>> {
        exprs.iter().map(|a| self.expr(a)).collect()
    }

    /// `f /. v`: one uniform value per block.
    ///
    /// Thread `t` folds the contiguous chunk `[t*c, min((t+1)*c, n))`, `c = ceil(n / BLOCKSIZE)`,
    /// into `partial[t]`; then a tree combines neighbours (`partial[i]` with `partial[i + s]` for
    /// `s = 1, 2, 4, ...`), so the combining order is the vector's order and a non-commutative
    /// `f` is safe. Threads without elements (`t*c >= n`) take no part: no identity element is
    /// needed. The reduction of an empty vector is zero of the element type.
    pub fn reduce(&mut self, e: &Expr) -> Result<BasicValueEnum<'ctx>> {
        let (f, bound, operand, _) = self.collective_parts(e)?;
        let result_ty = self.ty_of(e).clone();
        let block_size = self.block_size(e.span)?;
        let bound = self.uniform_values(bound)?;
        let n = self.prepare(operand)?;
        if !self.hazards.written_by_leader.is_empty() {
            self.barrier()?;
        }
        let partial = self.shared_array("reduce", &result_ty, &[block_size as u64], e.span)?;
        let reg_ty = self.reg_type(&result_ty, e.span)?;
        let tid = self.tid()?;
        let size = self.i32(block_size as i64);
        let chunk = self.ceil_div(n, size)?;
        let chunk = self.smax(chunk, self.i32(1))?;
        let lo = self.b.build_int_mul(tid, chunk, "lo")?;
        let hi = self.b.build_int_add(lo, chunk, "")?;
        let hi = self.smin(hi, n)?;
        let acc = self.alloca(reg_ty, "acc")?;
        let has_elements = self
            .b
            .build_int_compare(IntPredicate::SLT, lo, hi, "has_elements")?;
        self.lane_depth += 1;
        self.build_if(has_elements, &mut |this| {
            let first = this.elem(operand, lo)?;
            this.b.build_store(acc, first)?;
            let next = this.b.build_int_add(lo, this.i32(1), "")?;
            this.build_counted_loop(next, hi, this.i32(1), &mut |this, k| {
                let a = this.b.build_load(reg_ty, acc, "acc")?;
                let x = this.elem(operand, k)?;
                let r = this.combine(f, e, &bound, a, x)?;
                this.b.build_store(acc, r)?;
                Ok(())
            })?;
            let a = this.b.build_load(reg_ty, acc, "acc")?;
            let at = this.partial_at(&partial, tid)?;
            this.store_element(&partial, &at, a, e.span)
        })?;
        self.lane_depth -= 1;
        self.barrier()?;
        // Threads with elements: the first `ceil(n / chunk)`.
        let active = self.ceil_div(n, chunk)?;
        let mut stride = 1u32;
        while stride < block_size {
            let mask = self.i32((2 * stride - 1) as i64);
            let low_bits = self.b.build_and(tid, mask, "")?;
            let leads = self
                .b
                .build_int_compare(IntPredicate::EQ, low_bits, self.i32(0), "")?;
            let other = self
                .b
                .build_int_add(tid, self.i32(stride as i64), "other")?;
            let other_active = self
                .b
                .build_int_compare(IntPredicate::SLT, other, active, "")?;
            let combines = self.b.build_and(leads, other_active, "combines")?;
            self.lane_depth += 1;
            self.build_if(combines, &mut |this| {
                let mine = this.partial_at(&partial, tid)?;
                let theirs = this.partial_at(&partial, other)?;
                let a = this.load_element(&partial, &mine, e.span)?;
                let b = this.load_element(&partial, &theirs, e.span)?;
                let r = this.combine(f, e, &bound, a, b)?;
                this.store_element(&partial, &mine, r, e.span)
            })?;
            self.lane_depth -= 1;
            self.barrier()?;
            stride *= 2;
        }
        let at = self.partial_at(&partial, self.i32(0))?;
        let total = self.load_element(&partial, &at, e.span)?;
        // The scratch array is reused if this reduction runs again (in a loop).
        self.barrier()?;
        let nonempty = self
            .b
            .build_int_compare(IntPredicate::SGT, n, self.i32(0), "nonempty")?;
        let zero = self.zero_of(&result_ty, e.span)?;
        Ok(self.b.build_select(nonempty, total, zero, "reduced")?)
    }

    fn partial_at(&self, _array: &ArrayRef<'ctx>, i: IntValue<'ctx>) -> Result<Element<'ctx>> {
        let i = self.index64(i, true)?;
        Ok(Element {
            index: i,
            in_bounds: None,
        })
    }

    /// `f /: v` and `f :/ v`, inclusive, into a shared array of the vector's (static) length.
    ///
    /// Thread `t` scans its contiguous chunk sequentially, a Hillis-Steele scan over the chunk
    /// totals (in shared memory) gives each chunk the combination of all chunks before it, and
    /// every thread then folds that into its chunk. The suffix scan is the prefix scan of the
    /// reversed vector with `f`'s arguments swapped.
    fn scan(&mut self, e: &Expr) -> Result<ArrayRef<'ctx>> {
        let (f, bound, operand, op) = self.collective_parts(e)?;
        let elem_ty = self.ty_of(e).element().clone();
        let block_size = self.block_size(e.span)? as i64;
        let bound = self.uniform_values(bound)?;
        let n = self.prepare(operand)?;
        let len = match (self.ty_of(e), n.get_sign_extended_constant()) {
            (
                Ty::Vector {
                    len: Len::Static(len),
                    ..
                },
                _,
            ) => *len as i64,
            (_, Some(len)) => len.max(0),
            _ => {
                return Err(CodegenError::NeedsStaticLength {
                    what: "a scan",
                    span: e.span,
                })
            }
        };
        let out = self.shared_array("scan", &elem_ty, &[len.max(1) as u64], e.span)?;
        let out = ArrayRef {
            dims: vec![self.i32(len)],
            ..out
        };
        if len == 0 {
            return Ok(out);
        }
        if !self.hazards.written_by_leader.is_empty() {
            self.barrier()?;
        }
        let partials =
            self.shared_array("scan.partials", &elem_ty, &[block_size as u64], e.span)?;
        let right = op == CollectiveOp::ScanRight;
        let chunk = (len + block_size - 1) / block_size;
        let active = (len + chunk - 1) / chunk;
        let reg_ty = self.reg_type(&elem_ty, e.span)?;
        let tid = self.tid()?;
        let lo = self.b.build_int_mul(tid, self.i32(chunk), "lo")?;
        let hi = self.b.build_int_add(lo, self.i32(chunk), "")?;
        let hi = self.smin(hi, self.i32(len))?;
        let acc = self.alloca(reg_ty, "acc")?;
        // Position in the vector of the k-th element in scan order.
        let position = move |this: &Self, k: IntValue<'ctx>| -> Result<IntValue<'ctx>> {
            if right {
                Ok(this.b.build_int_sub(this.i32(len - 1), k, "pos")?)
            } else {
                Ok(k)
            }
        };
        // `earlier` combined with `later` in scan order.
        let combine =
            move |this: &mut Self, earlier: BasicValueEnum<'ctx>, later: BasicValueEnum<'ctx>| {
                if right {
                    this.combine(f, e, &bound, later, earlier)
                } else {
                    this.combine(f, e, &bound, earlier, later)
                }
            };
        let has_elements = self
            .b
            .build_int_compare(IntPredicate::SLT, lo, hi, "has_elements")?;
        self.lane_depth += 1;
        self.build_if(has_elements, &mut |this| {
            let p = position(this, lo)?;
            let first = this.elem(operand, p)?;
            this.b.build_store(acc, first)?;
            let at = this.partial_at(&out, p)?;
            this.store_element(&out, &at, first, e.span)?;
            let next = this.b.build_int_add(lo, this.i32(1), "")?;
            this.build_counted_loop(next, hi, this.i32(1), &mut |this, k| {
                let p = position(this, k)?;
                let a = this.b.build_load(reg_ty, acc, "acc")?;
                let x = this.elem(operand, p)?;
                let r = combine(this, a, x)?;
                this.b.build_store(acc, r)?;
                let at = this.partial_at(&out, p)?;
                this.store_element(&out, &at, r, e.span)
            })?;
            let a = this.b.build_load(reg_ty, acc, "acc")?;
            let at = this.partial_at(&partials, tid)?;
            this.store_element(&partials, &at, a, e.span)
        })?;
        self.lane_depth -= 1;
        self.barrier()?;
        let mut stride = 1i64;
        let tmp = self.alloca(reg_ty, "tmp")?;
        while stride < active {
            let s = self.i32(stride);
            let far_enough = self.b.build_int_compare(IntPredicate::SGE, tid, s, "")?;
            let in_range =
                self.b
                    .build_int_compare(IntPredicate::SLT, tid, self.i32(active), "")?;
            let takes = self.b.build_and(far_enough, in_range, "takes")?;
            self.lane_depth += 1;
            self.build_if(takes, &mut |this| {
                let before = this.b.build_int_sub(tid, s, "")?;
                let at_before = this.partial_at(&partials, before)?;
                let at_mine = this.partial_at(&partials, tid)?;
                let a = this.load_element(&partials, &at_before, e.span)?;
                let b = this.load_element(&partials, &at_mine, e.span)?;
                let r = combine(this, a, b)?;
                this.b.build_store(tmp, r)?;
                Ok(())
            })?;
            self.lane_depth -= 1;
            self.barrier()?;
            self.lane_depth += 1;
            self.build_if(takes, &mut |this| {
                let r = this.b.build_load(reg_ty, tmp, "")?;
                let at = this.partial_at(&partials, tid)?;
                this.store_element(&partials, &at, r, e.span)
            })?;
            self.lane_depth -= 1;
            self.barrier()?;
            stride *= 2;
        }
        let not_first = self
            .b
            .build_int_compare(IntPredicate::SGT, tid, self.i32(0), "")?;
        let adds_prefix = self.b.build_and(not_first, has_elements, "adds_prefix")?;
        self.lane_depth += 1;
        self.build_if(adds_prefix, &mut |this| {
            let before = this.b.build_int_sub(tid, this.i32(1), "")?;
            let at = this.partial_at(&partials, before)?;
            let prefix = this.load_element(&partials, &at, e.span)?;
            this.build_counted_loop(lo, hi, this.i32(1), &mut |this, k| {
                let p = position(this, k)?;
                let at = this.partial_at(&out, p)?;
                let x = this.load_element(&out, &at, e.span)?;
                let r = combine(this, prefix, x)?;
                this.store_element(&out, &at, r, e.span)
            })
        })?;
        self.lane_depth -= 1;
        self.barrier()?;
        Ok(out)
    }
}
