//! One func or kernel body: parameters, scopes and statements.

use super::atomic::atomic_call;
use super::ctx::{BodyKind, DimsMode, FnCtx};
use super::error::{
    BadDimReason, CheckError, NotAssignableReason, ReturnProblem, TypeContext, UniformContext,
};
use super::items::is_reserved;
use super::scope::{Var, VarKind, BLOCK_CONSTANTS};
use super::types::{Len, Scalar, Space, Ty};
use super::{ParamSig, Signature};
use crate::syntax::ast::{Block, Expr, ExprKind, Ident, Param, Stmt, TypeExpr};
use crate::syntax::span::Span;
use std::collections::HashSet;

/// What an assignment target is.
enum Place {
    /// A scalar, Range or record: one uniform value.
    Uniform(Ty),
    /// A slice or a whole one-dimensional array: a vector of elements; with the shape of a
    /// tile (a 2-D slice, a whole two-dimensional array of compile-time shape).
    Vector(Ty, Len, Option<(u64, u64)>),
}

impl<'c, 'p> FnCtx<'c, 'p> {
    /// Resolves parameter types in order (a dimension may use earlier parameters only) and
    /// declares the parameters.
    pub fn params(&mut self, params: &[Param], kernel: bool) -> Vec<ParamSig> {
        let mut sigs: Vec<ParamSig> = Vec::new();
        for (k, param) in params.iter().enumerate() {
            let later = params
                .get(k + 1..)
                .unwrap_or(&[])
                .iter()
                .map(|p| (p.name.name.clone(), p.name.span))
                .collect();
            self.dims = Some(DimsMode { later });
            let ty = self.param_type(param, kernel);
            self.dims = None;
            let name = &param.name;
            let sig = ParamSig {
                name: name.name.clone(),
                ty,
                span: name.span,
                ty_span: param.ty.span(),
            };
            if is_reserved(&name.name) {
                self.error(CheckError::ReservedName {
                    name: name.name.clone(),
                    span: name.span,
                });
            } else if let Some(first) = sigs.iter().find(|s| s.name == name.name) {
                // Kept in the signature, so that calls are checked against what was written.
                let first = first.span;
                self.error(CheckError::DuplicateParam {
                    name: name.name.clone(),
                    span: name.span,
                    first,
                });
            } else {
                self.declare_param(&sig);
            }
            sigs.push(sig);
        }
        sigs
    }

    fn param_type(&mut self, param: &Param, kernel: bool) -> Ty {
        match &param.ty {
            TypeExpr::Array { elem, dims, span } => {
                let elem = self.element_type(elem);
                if dims.len() > 2 {
                    self.error(CheckError::TooManyDims {
                        span: *span,
                        count: dims.len(),
                    });
                    return Ty::Error;
                }
                let mut lens: Vec<Len> = dims
                    .iter()
                    .map(|d| self.dim(d).unwrap_or(Len::Dynamic))
                    .collect();
                if lens.is_empty() {
                    if kernel {
                        let name = param.name.name.clone();
                        self.error(CheckError::KernelArrayNeedsDims { span: *span, name });
                    }
                    lens.push(Len::Dynamic);
                }
                if elem.is_error() {
                    return Ty::Error;
                }
                Ty::Array {
                    elem: Box::new(elem),
                    dims: lens,
                    space: Space::Global,
                }
            }
            other => {
                let from_stdlib = self.from_stdlib;
                self.cx
                    .plain_type(other, TypeContext::RecordField, from_stdlib)
            }
        }
    }

    /// The element type of an array type: a scalar, or a record (an array of records is laid
    /// out like an array of C structs).
    pub fn element_type(&mut self, elem: &TypeExpr) -> Ty {
        let from_stdlib = self.from_stdlib;
        let ty = self
            .cx
            .plain_type(elem, TypeContext::ArrayElement, from_stdlib);
        match ty {
            Ty::Scalar(_) | Ty::Record(_) | Ty::Error => ty,
            other => {
                self.error(CheckError::TypeNotAllowed {
                    span: elem.span(),
                    ty: Some(other),
                    context: TypeContext::ArrayElement,
                });
                Ty::Error
            }
        }
    }

    /// One array dimension: a uniform integer expression, folded when it is a constant. `None`
    /// after an error (reported here or earlier).
    pub fn dim(&mut self, e: &Expr) -> Option<Len> {
        let ty = self.expr(e, None);
        match &ty {
            Ty::Error => None,
            Ty::Scalar(s) if s.is_integer() && self.overflowed(e) => None,
            Ty::Scalar(s) if s.is_integer() => match self.constant(e) {
                Some(n) if n < 0 => {
                    self.error(CheckError::BadDim {
                        span: e.span,
                        reason: BadDimReason::Negative(n),
                    });
                    None
                }
                Some(n) => Some(u64::try_from(n).map_or(Len::Dynamic, Len::Static)),
                None => Some(Len::Dynamic),
            },
            Ty::Vector { .. } => {
                self.error(CheckError::BadDim {
                    span: e.span,
                    reason: BadDimReason::NotUniform,
                });
                None
            }
            _ => {
                self.error(CheckError::BadDim {
                    span: e.span,
                    reason: BadDimReason::NotInteger(ty),
                });
                None
            }
        }
    }

    fn declare_param(&mut self, sig: &ParamSig) {
        let var = Var {
            name: sig.name.clone(),
            ty: sig.ty.clone(),
            span: sig.span,
            kind: VarKind::Param,
            range_len: None,
            range_bound: None,
        };
        self.scopes.declare(var);
    }

    pub fn declare_params(&mut self, sig: &Signature) {
        for (k, p) in sig.params.iter().enumerate() {
            // The first of duplicate parameters is the one in scope.
            let duplicate = sig
                .params
                .get(..k)
                .is_some_and(|earlier| earlier.iter().any(|e| e.name == p.name));
            if !duplicate && !is_reserved(&p.name) {
                self.declare_param(p);
            }
        }
    }

    /// Checks a whole body; `name` is the func's or kernel's name, for "missing return".
    pub fn body(&mut self, body: &Block, name: &Ident) {
        collect_decls(body, &mut self.all_decls, &mut self.assigned);
        let returns = self.block(body);
        if !self.in_func() && !self.from_stdlib {
            self.racy_updates(body);
            self.grid_collectives(body);
            self.check_recomputed_vectors(body);
        }
        if let BodyKind::Func {
            ret,
            ret_span: Some(ret_span),
            ..
        } = &self.kind
        {
            if *ret != Ty::Unit && !returns {
                let (name, span, ret_span) = (name.name.clone(), name.span, *ret_span);
                self.error(CheckError::MissingReturn {
                    name,
                    span,
                    ret_span,
                });
            }
        }
    }

    /// Checks a block in a new scope. Returns whether every path through it returns.
    fn block(&mut self, block: &Block) -> bool {
        self.scopes.push();
        let mut returned: Option<Span> = None;
        let mut warned = false;
        for stmt in &block.stmts {
            if let (Some(after), false) = (returned, warned) {
                self.error(CheckError::Unreachable {
                    span: stmt.span(),
                    after,
                });
                warned = true;
            }
            if self.stmt(stmt) && returned.is_none() {
                returned = Some(stmt.span());
            }
        }
        self.scopes.pop();
        returned.is_some()
    }

    /// Checks one statement. Returns whether every path through it returns.
    fn stmt(&mut self, stmt: &Stmt) -> bool {
        match stmt {
            Stmt::Let {
                name,
                ty,
                init,
                shared,
                span,
            } => {
                self.atomic_binding = init.as_ref().and_then(atomic_call).map(|c| c.id);
                self.let_stmt(name, ty, init.as_ref(), *shared, *span);
                self.atomic_binding = None;
                false
            }
            Stmt::Assign { target, value, .. } => {
                if matches!(target.kind, ExprKind::Name(_)) {
                    self.atomic_binding = atomic_call(value).map(|c| c.id);
                }
                self.assign(target, value);
                self.atomic_binding = None;
                false
            }
            Stmt::Call { call, .. } => {
                self.call_stmt(call);
                false
            }
            Stmt::If {
                cond,
                then_branch,
                else_branch,
                ..
            } => {
                self.condition(cond, "if");
                let then_returns = self.block(then_branch);
                let else_returns = else_branch.as_ref().is_some_and(|b| self.block(b));
                then_returns && else_returns
            }
            Stmt::For {
                var,
                ty,
                range,
                body,
                ..
            } => {
                let var_ty = match ty {
                    TypeExpr::Array { elem, dims, .. } => {
                        let elem = self.element_type(elem);
                        let dims = vec![Len::Dynamic; dims.len().max(1)];
                        Ty::Array {
                            elem: Box::new(elem),
                            dims,
                            space: Space::Local,
                        }
                    }
                    other => {
                        let from_stdlib = self.from_stdlib;
                        self.cx
                            .plain_type(other, TypeContext::RecordField, from_stdlib)
                    }
                };
                if !var_ty.is_error() && var_ty != Ty::INT32 {
                    self.error(CheckError::LoopVarType {
                        span: ty.span(),
                        ty: var_ty.clone(),
                    });
                }
                // A loop variable of the wrong type is not used with either type.
                let var_ty = if var_ty == Ty::INT32 {
                    var_ty
                } else {
                    Ty::Error
                };
                let range_ty = self.expr(range, Some(&Ty::Range));
                self.expect(&range_ty, &Ty::Range, range, None, UniformContext::Variable);
                self.scopes.push();
                self.declare_local(var, var_ty, VarKind::LoopVar, None, None);
                self.block(body);
                self.scopes.pop();
                false
            }
            Stmt::While { cond, body, .. } => {
                self.condition(cond, "while");
                self.block(body);
                false
            }
            Stmt::Return { value, span } => {
                self.return_stmt(value.as_ref(), *span);
                true
            }
        }
    }

    fn return_stmt(&mut self, value: Option<&Expr>, span: Span) {
        match (&self.kind, value) {
            (BodyKind::Kernel { .. }, None) => {}
            (BodyKind::Kernel { .. }, Some(v)) => {
                self.expr(v, None);
                self.error(CheckError::BadReturn {
                    span: v.span,
                    problem: ReturnProblem::ValueInKernel,
                    ret: None,
                });
            }
            (BodyKind::Func { ret, ret_span, .. }, None) => {
                if *ret != Ty::Unit {
                    let ret = ret_span.map(|s| (ret.clone(), s));
                    self.error(CheckError::BadReturn {
                        span,
                        problem: ReturnProblem::MissingValue,
                        ret,
                    });
                }
            }
            (BodyKind::Func { ret, ret_span, .. }, Some(v)) => {
                let (ret, ret_span) = (ret.clone(), *ret_span);
                if ret == Ty::Unit {
                    self.expr(v, None);
                    self.error(CheckError::BadReturn {
                        span: v.span,
                        problem: ReturnProblem::ValueInUnitFunc,
                        ret: None,
                    });
                } else {
                    let found = self.expr(v, Some(&ret));
                    self.expect(&found, &ret, v, ret_span, UniformContext::Return);
                }
            }
        }
    }

    /// An `if` or `while` condition: a uniform Bool.
    fn condition(&mut self, cond: &Expr, keyword: &'static str) {
        let ty = self.expr(cond, Some(&Ty::BOOL));
        match &ty {
            Ty::Error => {}
            Ty::Vector { .. } | Ty::Array { .. } => {
                self.error(CheckError::VectorCondition {
                    span: cond.span,
                    ty,
                    keyword,
                });
            }
            _ => self.expect(&ty, &Ty::BOOL, cond, None, UniformContext::Variable),
        }
    }

    /// Declares a local, after checking that the name is free in this body.
    fn declare_local(
        &mut self,
        name: &Ident,
        ty: Ty,
        kind: VarKind,
        range_len: Option<Len>,
        range_bound: Option<u64>,
    ) {
        if is_reserved(&name.name) {
            self.error(CheckError::ReservedName {
                name: name.name.clone(),
                span: name.span,
            });
            return;
        }
        if let Some(previous) = self.scopes.lookup(&name.name) {
            let first = previous.span;
            self.error(CheckError::AlreadyDeclared {
                name: name.name.clone(),
                span: name.span,
                first,
            });
        }
        let assigned = self.assigned.contains(&name.name);
        let range_len = range_len.filter(|_| !assigned);
        let range_bound = range_bound.filter(|_| !assigned);
        self.cx.locals.insert(name.span, ty.clone());
        self.scopes.declare(Var {
            name: name.name.clone(),
            ty,
            span: name.span,
            kind,
            range_len,
            range_bound,
        });
    }

    fn let_stmt(
        &mut self,
        name: &Ident,
        texpr: &TypeExpr,
        init: Option<&Expr>,
        shared: bool,
        span: Span,
    ) {
        if shared {
            if let BodyKind::Func { decl, .. } = self.kind {
                self.error(CheckError::SharedInFunc {
                    span,
                    func_decl: decl,
                });
                if let Some(init) = init {
                    self.expr(init, None);
                }
                self.declare_local(name, Ty::Error, VarKind::Shared, None, None);
                return;
            }
        }
        let ty = match texpr {
            TypeExpr::Array {
                elem,
                dims,
                span: tspan,
            } => self.let_array(name, elem, dims, *tspan, init, shared),
            other => {
                let from_stdlib = self.from_stdlib;
                let ty = self
                    .cx
                    .plain_type(other, TypeContext::RecordField, from_stdlib);
                if shared {
                    self.error(CheckError::TypeNotAllowed {
                        span: other.span(),
                        ty: Some(ty.clone()),
                        context: TypeContext::SharedScalar,
                    });
                }
                let mut range_len = None;
                let mut range_bound = None;
                match init {
                    Some(init) => {
                        let found = self.expr(init, Some(&ty));
                        self.expect(
                            &found,
                            &ty,
                            init,
                            Some(other.span()),
                            UniformContext::Variable,
                        );
                        if ty == Ty::Range {
                            range_len = self.cx.range_lens.get(&init.id).copied();
                            range_bound = self.cx.range_bounds.get(&init.id).copied();
                        }
                    }
                    None if !shared => {
                        self.error(CheckError::MissingInitializer {
                            name: name.name.clone(),
                            span: name.span,
                        });
                    }
                    None => {}
                }
                let kind = if shared {
                    VarKind::Shared
                } else {
                    VarKind::Local
                };
                self.declare_local(name, ty, kind, range_len, range_bound);
                return;
            }
        };
        let kind = if shared {
            VarKind::Shared
        } else {
            VarKind::Local
        };
        self.declare_local(name, ty, kind, None, None);
    }

    /// `x: T[] <- v`, `x: T[n] <- v`, `shared x: T[r, c]`: the variable's type.
    fn let_array(
        &mut self,
        name: &Ident,
        elem_texpr: &TypeExpr,
        dims: &[Expr],
        tspan: Span,
        init: Option<&Expr>,
        shared: bool,
    ) -> Ty {
        let elem = self.element_type(elem_texpr);
        if dims.len() > 2 {
            self.error(CheckError::TooManyDims {
                span: tspan,
                count: dims.len(),
            });
            if let Some(init) = init {
                self.expr(init, None);
            }
            return Ty::Error;
        }
        let checked: Vec<Option<Len>> = dims.iter().map(|d| self.dim(d)).collect();
        // Whether the length is unknown only because of an error already reported.
        let mut len_poisoned = checked.iter().any(Option::is_none);
        let mut lens: Vec<Len> = checked
            .into_iter()
            .map(|l| l.unwrap_or(Len::Dynamic))
            .collect();
        if self.in_func() {
            // The declaration says it all; its initializer would only repeat the news.
            self.error(CheckError::VectorInFunc {
                span: tspan,
                ty: Ty::Array {
                    elem: Box::new(elem),
                    dims: lens,
                    space: Space::Local,
                },
            });
            return Ty::Error;
        }
        let static_2d = matches!(lens.as_slice(), [Len::Static(_), Len::Static(_)]);
        if !shared && lens.len() == 2 && !static_2d {
            self.error(CheckError::TypeNotAllowed {
                span: tspan,
                ty: None,
                context: TypeContext::LocalArray2d,
            });
            if let Some(init) = init {
                self.expr(init, None);
            }
            return Ty::Error;
        }
        let mut init_is_vector = false;
        match init {
            None if !shared || lens.is_empty() => {
                self.error(CheckError::MissingInitializer {
                    name: name.name.clone(),
                    span: name.span,
                });
                return Ty::Error;
            }
            None => {}
            Some(init) => {
                let hint = Ty::vector(elem.clone(), Len::Dynamic);
                let found = self.expr(init, Some(&hint));
                if lens.len() == 2 {
                    // A tile: filled by a tile of its shape, a vector of its length (row-major)
                    // or a uniform value.
                    let total = match lens.as_slice() {
                        [Len::Static(r), Len::Static(c)] => Len::Static(r * c),
                        _ => Len::Dynamic,
                    };
                    let shape = match lens.as_slice() {
                        [Len::Static(r), Len::Static(c)] => Some((*r, *c)),
                        _ => None,
                    };
                    match self.vector_of(&found, init.id) {
                        _ if found.is_error() => {}
                        Some((found_elem, found_len)) => {
                            init_is_vector = true;
                            if !found_elem.is_error() && !elem.is_error() && found_elem != elem {
                                self.element_mismatch(&found, &elem, init, Some(tspan));
                            } else if total.unify(found_len).is_none() {
                                self.error(CheckError::LengthMismatch {
                                    span: init.span,
                                    found: found_len,
                                    expected: total,
                                    other: tspan,
                                });
                            } else {
                                self.same_tile_shape(shape, &found, init, tspan);
                            }
                        }
                        None if found.is_uniform() => {
                            self.expect(&found, &elem, init, Some(tspan), UniformContext::Variable);
                        }
                        None => {
                            let expected = Ty::Array {
                                elem: Box::new(elem.clone()),
                                dims: lens.clone(),
                                space: Space::Local,
                            };
                            self.mismatch(&found, &expected, init, Some(tspan));
                        }
                    }
                } else {
                    match self.vector_of(&found, init.id) {
                        Some((found_elem, found_len)) => {
                            init_is_vector = true;
                            if !found_elem.is_error() && !elem.is_error() && found_elem != elem {
                                self.element_mismatch(&found, &elem, init, Some(tspan));
                            }
                            match lens.first().copied() {
                                None => lens.push(found_len),
                                Some(declared) => match declared.unify(found_len) {
                                    Some(l) => lens = vec![l],
                                    None => self.error(CheckError::LengthMismatch {
                                        span: init.span,
                                        found: found_len,
                                        expected: declared,
                                        other: tspan,
                                    }),
                                },
                            }
                        }
                        None if found.is_error() => {
                            len_poisoned |= lens.is_empty();
                            if lens.is_empty() {
                                lens.push(Len::Dynamic);
                            }
                        }
                        // A uniform value fills an array of declared length.
                        None if !lens.is_empty() && found.is_uniform() => {
                            self.expect(&found, &elem, init, Some(tspan), UniformContext::Variable);
                        }
                        None => {
                            let expected = Ty::vector(
                                elem.clone(),
                                lens.first().copied().unwrap_or(Len::Dynamic),
                            );
                            self.mismatch(&found, &expected, init, Some(tspan));
                            len_poisoned |= lens.is_empty();
                            if lens.is_empty() {
                                lens.push(Len::Dynamic);
                            }
                        }
                    }
                }
            }
        }
        if elem.is_error() {
            return Ty::Error;
        }
        let space = if shared { Space::Shared } else { Space::Local };
        let ty = Ty::Array {
            elem: Box::new(elem),
            dims: lens.clone(),
            space,
        };
        if !len_poisoned && lens.contains(&Len::Dynamic) {
            let span = init.map_or(tspan, |i| i.span);
            let name_span = name.span;
            let name = name.name.clone();
            if shared {
                self.error(CheckError::SharedDynamicLength {
                    span,
                    name,
                    ty: ty.clone(),
                });
            } else if init_is_vector || !self.in_func() {
                // Decided after the body (`check/recompute.rs`): recomputed at each use, or
                // (a uniform fill always) stored in a scratch row.
                self.run_time_vectors.push((name_span, !init_is_vector));
            } else {
                self.error(CheckError::DynamicRegisterVector {
                    span,
                    name,
                    ty: ty.clone(),
                    reason: super::error::NotRecomputed::UniformFill,
                    no_scratch: super::scratch_rows::NoScratchRow::InFunc,
                });
            }
        }
        ty
    }

    /// `target <- value`.
    fn assign(&mut self, target: &Expr, value: &Expr) {
        let place = self.place(target);
        match place {
            None => {
                self.expr(value, None);
            }
            Some(Place::Uniform(ty)) => {
                let found = self.expr(value, Some(&ty));
                let context = if matches!(target.kind, ExprKind::Index { .. }) {
                    UniformContext::Element
                } else {
                    UniformContext::Variable
                };
                self.expect(&found, &ty, value, Some(target.span), context);
            }
            Some(Place::Vector(elem, len, shape)) => {
                let found = self.expr(value, Some(&elem));
                self.store_vector(&found, &elem, len, value, target.span);
                self.same_tile_shape(shape, &found, value, target.span);
            }
        }
    }

    /// A tile stored into a tile must have its shape (`E0216`); a one-dimensional vector of the
    /// right length fills a tile row-major, and a tile fills a one-dimensional place row-major.
    fn same_tile_shape(
        &mut self,
        place: Option<(u64, u64)>,
        found: &Ty,
        value: &Expr,
        target: Span,
    ) {
        if let (Some(expected), Some(found_shape)) = (place, found.tile_shape()) {
            if expected != found_shape {
                self.error(CheckError::TileShapeMismatch {
                    span: value.span,
                    found: found_shape,
                    expected,
                    other: target,
                });
            }
        }
    }

    /// Storing `found` into a vector place of `elem`s: a vector of equal length, or a uniform
    /// value broadcast to every element.
    fn store_vector(&mut self, found: &Ty, elem: &Ty, len: Len, value: &Expr, target: Span) {
        if found.is_error() || elem.is_error() {
            return;
        }
        match self.vector_of(found, value.id) {
            Some((found_elem, found_len)) => {
                if found_elem.is_error() {
                    return;
                }
                if found_elem != *elem {
                    self.element_mismatch(found, elem, value, Some(target));
                } else if len.unify(found_len).is_none() {
                    self.error(CheckError::LengthMismatch {
                        span: value.span,
                        found: found_len,
                        expected: len,
                        other: target,
                    });
                }
            }
            None if found.is_uniform() && *found != Ty::Range => {
                self.expect(found, elem, value, Some(target), UniformContext::Element);
            }
            None => self.mismatch(found, &Ty::vector(elem.clone(), len), value, Some(target)),
        }
    }

    /// The type of an assignment target, or `None` after an error.
    fn place(&mut self, target: &Expr) -> Option<Place> {
        // The variable the place belongs to decides whether it may be written.
        let mut root = target;
        while let ExprKind::Index { base, .. } | ExprKind::Field { base, .. } = &root.kind {
            root = base;
        }
        let ExprKind::Name(id) = &root.kind else {
            self.expr(target, None);
            self.error(CheckError::NotAssignable {
                span: target.span,
                name: None,
                reason: NotAssignableReason::NotAPlace,
                decl: None,
            });
            return None;
        };
        if let Some(var) = self.scopes.lookup(&id.name).cloned() {
            let is_array = matches!(var.ty, Ty::Array { .. });
            let reason = match var.kind {
                VarKind::LoopVar => Some(NotAssignableReason::LoopVar),
                VarKind::Param if is_array && self.in_func() => {
                    Some(NotAssignableReason::FuncArray)
                }
                VarKind::Param if !is_array => Some(NotAssignableReason::Param),
                _ => None,
            };
            if let Some(reason) = reason {
                self.expr(target, None);
                self.error(CheckError::NotAssignable {
                    span: root.span,
                    name: Some(id.name.clone()),
                    reason,
                    decl: Some(var.span),
                });
                return None;
            }
        } else if BLOCK_CONSTANTS.contains(&id.name.as_str()) {
            self.expr(target, None);
            let reason = NotAssignableReason::BlockConstant;
            self.error(CheckError::NotAssignable {
                span: root.span,
                name: Some(id.name.clone()),
                reason,
                decl: None,
            });
            return None;
        }
        let ty = self.expr(target, None);
        let shape = ty.tile_shape();
        match ty {
            Ty::Error => None,
            Ty::Vector { elem, len, .. } => Some(Place::Vector(*elem, len, shape)),
            Ty::Array { elem, dims, .. } if dims.len() == 1 => Some(Place::Vector(
                *elem,
                dims.first().copied().unwrap_or(Len::Dynamic),
                None,
            )),
            // A whole two-dimensional array of compile-time shape is a tile.
            Ty::Array { elem, .. } if shape.is_some() => {
                let (r, c) = shape.unwrap_or((0, 0));
                Some(Place::Vector(*elem, Len::Static(r * c), shape))
            }
            Ty::Array { .. } => {
                self.error(CheckError::NotAssignable {
                    span: target.span,
                    name: None,
                    reason: NotAssignableReason::NotAPlace,
                    decl: None,
                });
                None
            }
            other => Some(Place::Uniform(other)),
        }
    }

    /// The elements and length of a value used where a vector is expected: a vector, a
    /// one-dimensional array, or a Range (the vector of its indices).
    pub fn vector_of(&self, ty: &Ty, id: crate::syntax::ast::ExprId) -> Option<(Ty, Len)> {
        match ty {
            Ty::Range => Some((
                Ty::INT32,
                self.cx.range_lens.get(&id).copied().unwrap_or(Len::Dynamic),
            )),
            other => other.vector_view().map(|(e, l)| (e.clone(), l)),
        }
    }

    /// Reports unless `found` fits `expected` (equal types; a block vector where a uniform value
    /// is expected gets its own error).
    pub fn expect(
        &mut self,
        found: &Ty,
        expected: &Ty,
        e: &Expr,
        expected_span: Option<Span>,
        context: UniformContext,
    ) {
        if found.is_error() || expected.is_error() || found == expected {
            return;
        }
        match (expected, found) {
            (
                Ty::Array { elem, dims, .. },
                Ty::Array {
                    elem: fe,
                    dims: fd,
                    space,
                },
            ) => {
                // A func's array parameter takes a global array, or a `shared` one (funcs are
                // inlined; code generation specialises the func for the argument's space).
                let passed = matches!(
                    context,
                    UniformContext::Argument | UniformContext::BoundArgument
                );
                let fits = elem == fe
                    && dims.len() == fd.len()
                    && dims.iter().zip(fd).all(|(a, b)| a.unify(*b).is_some())
                    && (*space == Space::Global || (*space == Space::Shared && passed));
                if !fits {
                    self.mismatch(found, expected, e, expected_span);
                }
            }
            (expected, Ty::Vector { elem, .. } | Ty::Array { elem, .. })
                if expected.is_uniform() && (**elem == *expected || elem.is_error()) =>
            {
                self.error(CheckError::VectorWhereUniform {
                    span: e.span,
                    ty: found.clone(),
                    context,
                    expected_span,
                });
            }
            _ => self.mismatch(found, expected, e, expected_span),
        }
    }

    /// A vector whose elements are not `expected`, suggesting an elementwise cast.
    pub fn element_mismatch(
        &mut self,
        found: &Ty,
        expected: &Ty,
        e: &Expr,
        expected_span: Option<Span>,
    ) {
        let cast = match (found.element().scalar(), expected.scalar()) {
            (Some(from), Some(to)) if super::types::cast_allowed(from, to) => {
                Some((to, super::pretty::render(e)))
            }
            _ => None,
        };
        let (expected, found) = (expected.clone(), found.clone());
        self.error(CheckError::ElementMismatch {
            expected,
            found,
            span: e.span,
            expected_span,
            cast,
        });
    }

    /// A type mismatch, suggesting a cast when one converts `found` into `expected`.
    pub fn mismatch(&mut self, found: &Ty, expected: &Ty, e: &Expr, expected_span: Option<Span>) {
        let cast = match (found.element().scalar(), expected.element().scalar()) {
            // A cast makes a vector, never an array in memory: no fix for an array parameter.
            (Some(from), Some(to))
                if super::types::cast_allowed(from, to)
                    && from != to
                    && found.is_uniform() == expected.is_uniform()
                    && !matches!(expected, Ty::Array { .. }) =>
            {
                Some((to, super::pretty::render(e)))
            }
            _ => None,
        };
        self.error(CheckError::Mismatch {
            expected: expected.clone(),
            found: found.clone(),
            span: e.span,
            expected_span,
            cast,
        });
    }

    pub fn scalar_hint(expect: Option<&Ty>) -> Option<Scalar> {
        expect.and_then(|t| t.element().scalar())
    }
}

/// Every variable declared in `block` (with its span) and every name assigned in it.
fn collect_decls(block: &Block, decls: &mut Vec<(String, Span)>, assigned: &mut HashSet<String>) {
    for stmt in &block.stmts {
        match stmt {
            Stmt::Let { name, .. } => decls.push((name.name.clone(), name.span)),
            Stmt::Assign { target, .. } => {
                let mut root = target;
                while let ExprKind::Index { base, .. } | ExprKind::Field { base, .. } = &root.kind {
                    root = base;
                }
                if let ExprKind::Name(id) = &root.kind {
                    assigned.insert(id.name.clone());
                }
            }
            Stmt::If {
                then_branch,
                else_branch,
                ..
            } => {
                collect_decls(then_branch, decls, assigned);
                if let Some(b) = else_branch {
                    collect_decls(b, decls, assigned);
                }
            }
            Stmt::For { var, body, .. } => {
                decls.push((var.name.clone(), var.span));
                collect_decls(body, decls, assigned);
            }
            Stmt::While { body, .. } => collect_decls(body, decls, assigned),
            Stmt::Return { .. } | Stmt::Call { .. } => {}
        }
    }
}
