//! Statements. In a kernel every statement is block-uniform: all threads run it, with the same
//! values, and only stores to memory are narrowed (to thread 0, or to each element's owner).

use super::body::{Body, Mode, RegVector, Result, Var};
use super::error::CodegenError;
use crate::check::types::{Len, Space, Ty};
use crate::syntax::ast::{Block, Expr, ExprKind, Ident, Stmt, TypeExpr};
use crate::syntax::span::Span;
use inkwell::values::{BasicValue, PointerValue};

/// How a loop or a branch lowers its body: a `func`'s statements (`Body::block`), or a kernel's
/// as the kernel IR has them (`Body::kernel_block`).
pub(super) type LowerBody<'b, 'a, 'ctx> = &'b mut dyn FnMut(&mut Body<'a, 'ctx>) -> Result<()>;

impl<'a, 'ctx> Body<'a, 'ctx> {
    /// A `func`'s block. A kernel's statements are lowered from the kernel IR
    /// (`Body::kernel_block`, `translate.rs`).
    pub fn block(&mut self, block: &Block) -> Result<()> {
        self.push_scope();
        let result = block.stmts.iter().try_for_each(|stmt| self.stmt(stmt));
        self.pop_scope();
        result
    }

    /// Between statements nothing is kept: hoisted values and a statement's copies belong to
    /// one statement.
    pub(super) fn start_stmt(&mut self, span: Span) {
        self.hoisted.clear();
        self.tile_vals.clear();
        self.materialised.clear();
        self.indexed_copies.clear();
        self.set_location(span);
    }

    /// One statement of a `func`: element-level code, with no vectors, barriers or atomics.
    fn stmt(&mut self, stmt: &Stmt) -> Result<()> {
        self.start_stmt(stmt.span());
        match stmt {
            Stmt::Let {
                name,
                ty,
                init,
                shared,
                span,
            } => self.let_stmt(name, ty, init.as_ref(), *shared, *span),
            Stmt::Assign {
                target,
                value,
                span,
            } => self.assign(target, value, *span),
            Stmt::If {
                cond,
                then_branch,
                else_branch,
                ..
            } => self.if_stmt(cond, &mut |this| this.block(then_branch), &mut |this| {
                else_branch.as_ref().map_or(Ok(()), |e| this.block(e))
            }),
            Stmt::For {
                var,
                ty,
                range,
                body,
                span,
            } => self.sequential_for(var, ty, range, &mut |this| this.block(body), *span),
            Stmt::While { cond, body, span } => {
                self.while_stmt(cond, &mut |this| this.block(body), *span)
            }
            Stmt::Return { value, span } => self.return_stmt(value.as_ref(), *span),
            // The checker accepts only atomics as calls on their own line, and none in a `func`
            // (E0604).
            Stmt::Call { span, .. } => Err(CodegenError::internal(
                "a call statement inside a `func`",
                *span,
            )),
        }
    }

    pub(super) fn let_stmt(
        &mut self,
        name: &Ident,
        ty: &TypeExpr,
        init: Option<&Expr>,
        shared: bool,
        span: Span,
    ) -> Result<()> {
        let space = if shared { Space::Shared } else { Space::Local };
        let declared = self.cx.resolver.borrow_mut().resolve(ty, space)?;
        let init_is_vector =
            init.is_some_and(|i| matches!(self.ty_of(i), Ty::Vector { .. } | Ty::Array { .. }));
        if shared || init_is_vector || matches!(declared, Ty::Array { .. }) {
            // The checker rejects `shared` (E0309) and vector variables (E0310) in a func.
            if !self.is_kernel() {
                return Err(CodegenError::internal(
                    "an array variable inside a `func`",
                    span,
                ));
            }
            if !shared && self.registers.contains(&name.span) {
                return self.let_registers(name, &declared, init, span);
            }
            return self.let_array(name, ty, &declared, init, span);
        }
        let init =
            init.ok_or_else(|| CodegenError::internal("a variable without an initializer", span))?;
        let v = if self.is_atomic_call(init) {
            self.atomic_value(init, span)?
        } else {
            self.expr(init)?
        };
        let ptr = self.alloca(self.reg_type(&declared, span)?, &name.name)?;
        self.b.build_store(ptr, v)?;
        self.bind(&name.name, Var::Local { ptr, ty: declared });
        Ok(())
    }

    /// `x: T[] <- v` whose length is a compile-time constant and whose elements are only ever
    /// used by their owners: a register vector.
    fn let_registers(
        &mut self,
        name: &Ident,
        declared: &Ty,
        init: Option<&Expr>,
        span: Span,
    ) -> Result<()> {
        let len = match self.cx.checked.locals.get(&name.span) {
            Some(Ty::Array { dims, .. }) => match dims.as_slice() {
                [Len::Static(n)] => *n,
                // A register tile: its elements row-major.
                [Len::Static(r), Len::Static(c)] => r.saturating_mul(*c),
                _ => 0,
            },
            _ => 0,
        };
        let block_size = u64::from(self.block_size(span)?);
        let slots = u32::try_from(len.div_ceil(block_size))
            .map_err(|_| CodegenError::internal("a register vector too long", span))?;
        let elem = declared.element().clone();
        let elem_ty = self.reg_type(&elem, span)?;
        let ptr = self.alloca_array(elem_ty, slots, &name.name)?;
        let r = RegVector {
            ptr,
            elem,
            len,
            slots,
        };
        self.bind(&name.name, Var::Registers(r.clone()));
        match init {
            Some(init) => self.init_registers(r, init, span),
            None => Ok(()),
        }
    }

    /// `shared x: T[n] <- v`, `shared x: T[] <- v`, `x: T[] <- v`: a block's array in shared
    /// memory. (Block vector variables live in shared memory for now, even without `shared`;
    /// issue #3 keeps those whose length is a multiple of `BLOCKSIZE` in registers.)
    fn let_array(
        &mut self,
        name: &Ident,
        ty: &TypeExpr,
        declared: &Ty,
        init: Option<&Expr>,
        span: Span,
    ) -> Result<()> {
        let elem = declared.element().clone();
        let declared_dims = match ty {
            TypeExpr::Array { dims, .. } => dims.as_slice(),
            _ => &[],
        };
        let mut dims = Vec::new();
        for dim in declared_dims {
            let v = self.expr(dim)?.into_int_value();
            match v.get_sign_extended_constant() {
                Some(n) if n >= 0 => dims.push(n as u64),
                _ => {
                    return Err(CodegenError::NeedsStaticLength {
                        what: "a `shared` array",
                        why: "shared memory is allocated per block when the kernel is compiled",
                        span: dim.span,
                    })
                }
            }
        }
        if dims.is_empty() {
            let len = init.map(|i| match self.ty_of(i) {
                Ty::Vector { len, .. } => *len,
                Ty::Array { dims, .. } if dims.len() == 1 => dims[0],
                // `shared lane: Int32[] <- range(0, BLOCKSIZE)`: the range's indices.
                Ty::Range => self.static_len(i).map_or(Len::Dynamic, Len::Static),
                _ => Len::Dynamic,
            });
            match len {
                Some(Len::Static(n)) => dims.push(n),
                _ => {
                    return Err(CodegenError::NeedsStaticLength {
                        what: "a block vector variable",
                        why: "a vector variable lives in registers or shared memory, both sized when the kernel is compiled",
                        span,
                    })
                }
            }
        }
        let array = self.shared_array(&name.name, &elem, &dims, span)?;
        self.bind(&name.name, Var::Array(array.clone()));
        match init {
            Some(init) => self.init_array(crate::kir::Consumer::Store(span), array, init, span),
            None => Ok(()),
        }
    }

    /// An assignment in a `func`: a scalar, record or element place (the checker rejects a
    /// block vector there, E0310).
    fn assign(&mut self, target: &Expr, value: &Expr, span: Span) -> Result<()> {
        if matches!(self.ty_of(target), Ty::Vector { .. } | Ty::Array { .. }) {
            return Err(CodegenError::internal(
                "a block vector assignment inside a `func`",
                span,
            ));
        }
        self.assign_uniform(target, value, span)
    }

    /// `x <- e`, `r.f <- e`, `a[i] <- e`, `a[i].f <- e`: a uniform value, or one element
    /// (stored once per block in kernel code).
    pub(super) fn assign_uniform(&mut self, target: &Expr, value: &Expr, span: Span) -> Result<()> {
        if let Some((base, indices, checked, fields)) = element_field(target) {
            return self.store_element_field(base, indices, checked, &fields, value, span);
        }
        match &target.kind {
            ExprKind::Name(_) | ExprKind::Field { .. } => {
                let v = if self.is_atomic_call(value) {
                    self.atomic_value(value, span)?
                } else {
                    self.expr(value)?
                };
                let (ptr, ty) = self.place(target)?;
                let v = if matches!(target.kind, ExprKind::Field { .. }) {
                    self.to_mem(v, &ty)?
                } else {
                    v
                };
                self.b.build_store(ptr, v)?;
                Ok(())
            }
            ExprKind::Index {
                base,
                indices,
                checked,
            } => self.store_uniform(base, indices, *checked, value, span),
            _ => Err(CodegenError::internal(
                "not an assignable place",
                target.span,
            )),
        }
    }

    /// The address of a local variable or a field of one (nested fields included).
    fn place(&mut self, target: &Expr) -> Result<(PointerValue<'ctx>, Ty)> {
        match &target.kind {
            ExprKind::Name(name) => match self.lookup(&name.name) {
                Some(Var::Local { ptr, ty }) => Ok((*ptr, ty.clone())),
                // The checker lets only local variables be assigned this way (E0211).
                _ => Err(CodegenError::internal(
                    format!("assigning to `{}`", name.name),
                    target.span,
                )),
            },
            ExprKind::Field { base, field } => {
                let (ptr, ty) = self.place(base)?;
                let (index, field_ty) = self.field_index(&ty, field)?;
                let llvm = self.reg_type(&ty, base.span)?.into_struct_type();
                Ok((
                    self.b.build_struct_gep(llvm, ptr, index, &field.name)?,
                    field_ty,
                ))
            }
            // A field of an array element is stored by `store_element_field`; the checker
            // rejects every other place (E0211).
            _ => Err(CodegenError::internal(
                "not an assignable place",
                target.span,
            )),
        }
    }

    /// `a[i] <- v` in uniform code: every thread computes `v` and the address (they may involve
    /// collectives), thread 0 stores.
    fn store_uniform(
        &mut self,
        base: &Expr,
        indices: &[Expr],
        checked: bool,
        value: &Expr,
        span: Span,
    ) -> Result<()> {
        let array = self.array(base)?;
        let v = self.expr(value)?;
        let at = self.subscripts(&array, indices, checked, span)?;
        if !self.is_kernel() || self.lane_depth > 0 {
            // Element-level code (a `func`, a distributed loop): this thread's own store.
            return self.store_element(&array, &at, v, span);
        }
        self.touch(span)?;
        // A grid-wide reduce: only the block of the last chunk holds the total.
        let guard = self.grid_store_guard;
        self.once_per_block(&mut |this| match guard {
            Some(last) => this.when(last, &mut |this| this.store_element(&array, &at, v, span)),
            None => this.store_element(&array, &at, v, span),
        })?;
        Ok(())
    }

    /// `a[i].f.g <- v`: one field of one element of an array of records, stored once per block
    /// (by thread 0) in kernel code, like any uniform store.
    fn store_element_field(
        &mut self,
        base: &Expr,
        indices: &[Expr],
        checked: bool,
        fields: &[&Ident],
        value: &Expr,
        span: Span,
    ) -> Result<()> {
        let array = self.array(base)?;
        let v = self.expr(value)?;
        let at = self.subscripts(&array, indices, checked, span)?;
        // The field's position, walking down the record types.
        let mut path = Vec::with_capacity(fields.len());
        let mut ty = array.elem.clone();
        for field in fields {
            let (index, field_ty) = self.field_index(&ty, field)?;
            path.push((self.reg_type(&ty, span)?.into_struct_type(), index));
            ty = field_ty;
        }
        let v = self.to_mem(v, &ty)?;
        let store = |this: &mut Self| -> Result<()> {
            let mut ptr = this.element_ptr(&array, at.index, span)?;
            for (struct_ty, index) in &path {
                ptr = this.b.build_struct_gep(*struct_ty, ptr, *index, "field")?;
            }
            let guarded = |this: &mut Self| -> Result<()> {
                this.b.build_store(ptr, v)?;
                Ok(())
            };
            match at.in_bounds {
                Some(inside) => this.build_if(inside, &mut |this| guarded(this)),
                None => guarded(this),
            }
        };
        if !self.is_kernel() || self.lane_depth > 0 {
            return store(self);
        }
        self.touch(span)?;
        self.once_per_block(&mut |this| store(this))?;
        Ok(())
    }

    pub(super) fn if_stmt(
        &mut self,
        cond: &Expr,
        then_body: LowerBody<'_, 'a, 'ctx>,
        else_body: LowerBody<'_, 'a, 'ctx>,
    ) -> Result<()> {
        let c = self.expr(cond)?.into_int_value();
        let context = self.cx.context;
        let then_bb = context.append_basic_block(self.function, "then");
        let else_bb = context.append_basic_block(self.function, "else");
        let join = context.append_basic_block(self.function, "endif");
        self.b.build_conditional_branch(c, then_bb, else_bb)?;
        self.b.position_at_end(then_bb);
        then_body(self)?;
        self.branch_to(join)?;
        self.b.position_at_end(else_bb);
        else_body(self)?;
        self.branch_to(join)?;
        self.b.position_at_end(join);
        Ok(())
    }

    /// `for i: Int32 <- r` run by every thread, every iteration: a uniform loop over
    /// `[r.lo, r.hi)` (`kir::Stmt::For`; `distribute.rs` lowers a `DistributedFor`). The range
    /// is evaluated once; assigning to `i` in the body does not change the iteration.
    /// `lower_body` lowers the loop's statements.
    pub(super) fn sequential_for(
        &mut self,
        var: &Ident,
        ty: &TypeExpr,
        range: &Expr,
        lower_body: LowerBody<'_, 'a, 'ctx>,
        span: Span,
    ) -> Result<()> {
        self.check_loop_variable(ty, span)?;
        let r = self.expr(range)?;
        let (lo, hi) = self.range_bounds(r)?;
        let var_ptr = self.alloca(self.cx.context.i32_type().into(), &var.name)?;
        self.barrier_before_loop(span)?;
        self.build_counted_loop(lo, hi, self.i32(1), &mut |this, i| {
            this.b.build_store(var_ptr, i)?;
            this.push_scope();
            this.bind(
                &var.name,
                Var::Local {
                    ptr: var_ptr,
                    ty: Ty::INT32,
                },
            );
            let result = lower_body(this);
            this.pop_scope();
            result?;
            this.set_location(span);
            this.loop_back_barrier(span)
        })?;
        Ok(())
    }

    /// The checker rejects a loop variable of another type than `Int32` (E0301).
    pub(super) fn check_loop_variable(&mut self, ty: &TypeExpr, span: Span) -> Result<()> {
        let var_ty = self.cx.resolver.borrow_mut().resolve(ty, Space::Local)?;
        if var_ty != Ty::INT32 {
            return Err(CodegenError::internal(
                "a loop variable of a type other than Int32",
                span,
            ));
        }
        Ok(())
    }

    /// In front of a loop: a barrier where the kernel IR places one (something pending
    /// conflicts with an array the body names), once rather than in every iteration.
    fn barrier_before_loop(&mut self, span: Span) -> Result<()> {
        if !self.is_kernel() || self.lane_depth > 0 {
            return Ok(());
        }
        self.barrier_at(crate::kir::Point::LoopHead, span)
    }

    pub(super) fn while_stmt(
        &mut self,
        cond: &Expr,
        lower_body: LowerBody<'_, 'a, 'ctx>,
        span: Span,
    ) -> Result<()> {
        self.barrier_before_loop(span)?;
        let context = self.cx.context;
        let head = context.append_basic_block(self.function, "while");
        let body_bb = context.append_basic_block(self.function, "while.body");
        let exit = context.append_basic_block(self.function, "while.end");
        self.b.build_unconditional_branch(head)?;
        self.b.position_at_end(head);
        self.set_location(cond.span);
        let c = self.expr(cond)?.into_int_value();
        self.b.build_conditional_branch(c, body_bb, exit)?;
        self.b.position_at_end(body_bb);
        lower_body(self)?;
        self.set_location(cond.span);
        self.loop_back_barrier(cond.span)?;
        self.branch_to(head)?;
        self.b.position_at_end(exit);
        Ok(())
    }

    /// `return` in a kernel ends the block's work (every thread returns: it is uniform); in a
    /// `func` it returns the value.
    pub(super) fn return_stmt(&mut self, value: Option<&Expr>, span: Span) -> Result<()> {
        match (&self.mode, value) {
            (Mode::Kernel { .. }, None) | (Mode::Func { ret: None }, None) => {
                self.b.build_return(None)?;
            }
            (Mode::Func { ret: Some(_) }, Some(value)) => {
                let v = self.expr(value)?;
                self.b.build_return(Some(&v as &dyn BasicValue))?;
            }
            _ => {
                return Err(CodegenError::internal(
                    "a `return` that does not match its function",
                    span,
                ))
            }
        }
        self.continue_in_dead_block();
        Ok(())
    }

    /// Ends the function if control can reach its end: `ret void`, or zero for a `func` whose
    /// every path should have returned (the checker makes sure of that).
    pub fn finish(&mut self, span: Span) -> Result<()> {
        if !self.terminated() {
            match self.mode.clone() {
                Mode::Func { ret: Some(ty) } => {
                    let zero = self.zero_of(&ty, span)?;
                    self.b.build_return(Some(&zero as &dyn BasicValue))?;
                }
                _ => {
                    self.b.build_return(None)?;
                }
            }
        }
        self.finish_entry()
    }
}

/// `a[i].f.g` as (`a`, `[i]`, checked, `[f, g]`): a field of an element of an array.
fn element_field(e: &Expr) -> Option<(&Expr, &[Expr], bool, Vec<&Ident>)> {
    match &e.kind {
        ExprKind::Field { base, field } => match &base.kind {
            ExprKind::Index {
                base: array,
                indices,
                checked,
            } => Some((array, indices.as_slice(), *checked, vec![field])),
            _ => {
                let (array, indices, checked, mut fields) = element_field(base)?;
                fields.push(field);
                Some((array, indices, checked, fields))
            }
        },
        _ => None,
    }
}
