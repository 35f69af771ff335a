//! Statements. In a kernel every statement is block-uniform: all threads run it, with the same
//! values, and only stores to memory are narrowed (to thread 0, or to each element's owner).

use super::body::{Body, Mode, Result, Var};
use super::error::CodegenError;
use super::hazards::Hazards;
use crate::check::types::{Len, Space, Ty};
use crate::syntax::ast::{Block, Expr, ExprKind, Ident, Stmt, TypeExpr};
use crate::syntax::span::Span;
use inkwell::values::{BasicValue, PointerValue};

impl<'a, 'ctx> Body<'a, 'ctx> {
    pub fn block(&mut self, block: &Block) -> Result<()> {
        self.push_scope();
        let result = block.stmts.iter().try_for_each(|stmt| self.stmt(stmt));
        self.pop_scope();
        result
    }

    fn stmt(&mut self, stmt: &Stmt) -> Result<()> {
        // Between statements nothing is hoisted: hoisted values belong to one statement.
        self.hoisted.clear();
        self.materialized.clear();
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
            } => self.if_stmt(cond, then_branch, else_branch.as_ref()),
            Stmt::For {
                var,
                ty,
                range,
                body,
                span,
            } => self.for_stmt(var, ty, range, body, *span),
            Stmt::While { cond, body, .. } => self.while_stmt(cond, body),
            Stmt::Return { value, span } => self.return_stmt(value.as_ref(), *span),
        }
    }

    fn let_stmt(
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
            if !self.is_kernel() {
                return Err(CodegenError::not_implemented(
                    "an array variable inside a `func`",
                    span,
                ));
            }
            return self.let_array(name, ty, &declared, init, span);
        }
        let init =
            init.ok_or_else(|| CodegenError::internal("a variable without an initializer", span))?;
        let v = self.expr(init)?;
        let ptr = self.alloca(self.reg_type(&declared, span)?, &name.name)?;
        self.b.build_store(ptr, v)?;
        self.bind(&name.name, Var::Local { ptr, ty: declared });
        Ok(())
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
                        span: dim.span,
                    })
                }
            }
        }
        if dims.is_empty() {
            let len = init.map(|i| match self.ty_of(i) {
                Ty::Vector { len, .. } => *len,
                Ty::Array { dims, .. } if dims.len() == 1 => dims[0],
                _ => Len::Dynamic,
            });
            match len {
                Some(Len::Static(n)) => dims.push(n),
                _ => {
                    return Err(CodegenError::NeedsStaticLength {
                        what: "a block vector variable",
                        span,
                    })
                }
            }
        }
        let mut array = self.shared_array(&name.name, &elem, &dims, span)?;
        array.key = name.name.clone();
        self.bind(&name.name, Var::Array(array.clone()));
        match init {
            Some(init) if dims.len() == 1 => self.init_vector(array, init, span),
            Some(init) => Err(CodegenError::not_implemented(
                "initialising a two-dimensional array",
                init.span,
            )),
            None => Ok(()),
        }
    }

    fn assign(&mut self, target: &Expr, value: &Expr, span: Span) -> Result<()> {
        if matches!(self.ty_of(target), Ty::Vector { .. } | Ty::Array { .. }) {
            return self.assign_vector(target, value, span);
        }
        match &target.kind {
            ExprKind::Name(_) | ExprKind::Field { .. } => {
                let v = self.expr(value)?;
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
                _ => Err(CodegenError::not_implemented(
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
            _ => Err(CodegenError::not_implemented(
                "assigning to a field of an array element",
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
        if !self.is_kernel() {
            return self.store_element(&array, &at, v, span);
        }
        if self.hazards.read_by_all.contains(&array.key) {
            // Every thread read this array since the last barrier: let them finish first.
            self.barrier()?;
        }
        self.once_per_block(&mut |this| this.store_element(&array, &at, v, span))?;
        self.hazards.written_by_leader.insert(array.key.clone());
        Ok(())
    }

    fn if_stmt(
        &mut self,
        cond: &Expr,
        then_branch: &Block,
        else_branch: Option<&Block>,
    ) -> Result<()> {
        let c = self.expr(cond)?.into_int_value();
        let context = self.cx.context;
        let then_bb = context.append_basic_block(self.function, "then");
        let else_bb = context.append_basic_block(self.function, "else");
        let join = context.append_basic_block(self.function, "endif");
        self.b.build_conditional_branch(c, then_bb, else_bb)?;
        let before = self.hazards.clone();
        self.b.position_at_end(then_bb);
        self.block(then_branch)?;
        self.branch_to(join)?;
        let after_then = std::mem::replace(&mut self.hazards, before);
        self.b.position_at_end(else_bb);
        if let Some(else_branch) = else_branch {
            self.block(else_branch)?;
        }
        self.branch_to(join)?;
        self.hazards.union(&after_then);
        self.b.position_at_end(join);
        Ok(())
    }

    /// `for i: Int32 <- r`: a uniform sequential loop over `[r.lo, r.hi)`. The range is evaluated
    /// once; assigning to `i` in the body does not change the iteration.
    fn for_stmt(
        &mut self,
        var: &Ident,
        ty: &TypeExpr,
        range: &Expr,
        body: &Block,
        span: Span,
    ) -> Result<()> {
        let r = self.expr(range)?;
        let (lo, hi) = self.range_bounds(r)?;
        let var_ty = self.cx.resolver.borrow_mut().resolve(ty, Space::Local)?;
        if var_ty != Ty::INT32 {
            return Err(CodegenError::not_implemented(
                "a loop variable of a type other than Int32",
                span,
            ));
        }
        self.hazards
            .union(&Hazards::of_block(self.cx.checked, body));
        let entry = self.hazards.clone();
        let var_ptr = self.alloca(self.cx.context.i32_type().into(), &var.name)?;
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
            let result = this.block(body);
            this.pop_scope();
            result
        })?;
        self.hazards = entry;
        Ok(())
    }

    fn while_stmt(&mut self, cond: &Expr, body: &Block) -> Result<()> {
        self.hazards
            .union(&Hazards::of_block(self.cx.checked, body));
        self.hazards.union(&Hazards::of_expr(self.cx.checked, cond));
        let entry = self.hazards.clone();
        let context = self.cx.context;
        let head = context.append_basic_block(self.function, "while");
        let body_bb = context.append_basic_block(self.function, "while.body");
        let exit = context.append_basic_block(self.function, "while.end");
        self.b.build_unconditional_branch(head)?;
        self.b.position_at_end(head);
        let c = self.expr(cond)?.into_int_value();
        self.b.build_conditional_branch(c, body_bb, exit)?;
        self.b.position_at_end(body_bb);
        self.block(body)?;
        self.branch_to(head)?;
        self.b.position_at_end(exit);
        self.hazards = entry;
        Ok(())
    }

    /// `return` in a kernel ends the block's work (every thread returns: it is uniform); in a
    /// `func` it returns the value.
    fn return_stmt(&mut self, value: Option<&Expr>, span: Span) -> Result<()> {
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
