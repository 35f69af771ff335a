//! Calls: funcs (with the standard library's overloads), casts, builtins, and collectives.

use super::atomic_op::AtomicOp;
use super::ctx::{BodyKind, FnCtx};
use super::elementwise::{fits_elementwise, VectorArgs};
use super::error::{CheckError, CollectiveFuncProblem, UniformContext};
use super::expr::{literal_kind, LitKind};
use super::items::{builtin_funcs, Lookup};
use super::scope::suggest;
use super::types::{cast_allowed, Len, Scalar, Space, Ty};
use super::{fold, Builtin, CallEdge, Callee, MathFn, Signature};
use crate::syntax::ast::{CollectiveOp, Expr, ExprId, FuncRef, Ident, Item};
use crate::syntax::span::Span;

/// A `shared` array passed where a func takes an array: the same elements and number of
/// dimensions, each dimension the parameter names (if it names one) the argument's. Funcs are
/// inlined, so the callee reads the block's shared copy as it reads a global array (code
/// generation specialises the func for the argument's address space).
fn shared_array_fits(arg: &Ty, param: &Ty) -> bool {
    match (arg, param) {
        (
            Ty::Array {
                elem,
                dims,
                space: Space::Shared,
            },
            Ty::Array {
                elem: param_elem,
                dims: param_dims,
                space: Space::Global,
            },
        ) => {
            elem == param_elem
                && dims.len() == param_dims.len()
                && dims
                    .iter()
                    .zip(param_dims)
                    .all(|(d, p)| *p == Len::Dynamic || d == p)
        }
        _ => false,
    }
}

/// An argument as overload resolution sees it.
#[derive(Debug, Clone)]
enum ArgInfo {
    Fixed(Ty),
    /// A literal (or literal arithmetic): fits any type of its kind.
    Literal(LitKind),
}

impl ArgInfo {
    fn fits(&self, param: &Ty) -> bool {
        match self {
            ArgInfo::Fixed(t) => t == param || shared_array_fits(t, param),
            ArgInfo::Literal(LitKind::Int) => param.is_numeric(),
            ArgInfo::Literal(LitKind::Float) => param.scalar().is_some_and(Scalar::is_float),
        }
    }

    /// [`ArgInfo::fits`], or a vector whose elements fit (an elementwise call).
    fn fits_or_elementwise(&self, param: &Ty) -> bool {
        self.fits(param) || matches!(self, ArgInfo::Fixed(t) if fits_elementwise(t, param))
    }

    /// The type a literal has when nothing else decides it.
    fn fits_default(&self, param: &Ty) -> bool {
        match self {
            ArgInfo::Fixed(_) => true,
            ArgInfo::Literal(LitKind::Int) => *param == Ty::INT32,
            ArgInfo::Literal(LitKind::Float) => *param == Ty::Scalar(Scalar::Float32),
        }
    }

    fn shown(&self) -> Option<Ty> {
        match self {
            ArgInfo::Fixed(t) => Some(t.clone()),
            ArgInfo::Literal(_) => None,
        }
    }
}

impl FnCtx<'_, '_> {
    fn sig(&self, item: usize) -> Option<Signature> {
        self.cx.sigs.get(item).cloned().flatten()
    }

    fn def_span(&self, item: usize) -> Option<Span> {
        self.cx.program.items.get(item).map(|i| i.name().span)
    }

    fn record_call(&mut self, id: ExprId, callee: usize, span: Span) {
        self.cx.callees.insert(id, Callee::Func(callee));
        if self.in_func() {
            self.cx.calls.push(CallEdge {
                caller: self.item,
                callee,
                span,
            });
        }
    }

    pub(super) fn check_args_unhinted(&mut self, args: &[Expr]) {
        for a in args {
            self.expr(a, None);
        }
    }

    /// Every name a call could mean, for suggestions.
    fn callable_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .cx
            .items
            .names(self.from_stdlib)
            .into_iter()
            .map(str::to_string)
            .collect();
        names.extend(builtin_funcs().map(str::to_string));
        names.extend(Scalar::ALL.iter().map(|s| s.name().to_string()));
        names
    }

    fn unknown_func(&mut self, callee: &Ident) {
        let names = self.callable_names();
        let suggestion = suggest(&callee.name, names.iter().map(String::as_str));
        let is_value = self.scopes.lookup(&callee.name).is_some();
        self.error(CheckError::UnknownFunc {
            name: callee.name.clone(),
            span: callee.span,
            suggestion,
            is_value,
        });
    }

    pub fn call(&mut self, e: &Expr, callee: &Ident, args: &[Expr], expect: Option<&Ty>) -> Ty {
        let name = callee.name.as_str();
        if let Some(to) = Scalar::from_name(name) {
            return self.cast(e, to, args);
        }
        match name {
            "block" => return self.builtin_block(e, callee, args),
            "range" => return self.builtin_range(e, args),
            "select" => return self.builtin_select(e, args, expect),
            "transpose" => return self.builtin_transpose(e, callee, args),
            "grid" => return self.builtin_grid(e, args),
            _ => {}
        }
        if let Some(op) = AtomicOp::from_name(name) {
            return self.builtin_atomic(e, op, args);
        }
        if self.from_stdlib {
            if let Some(op) = name.strip_prefix("__").and_then(MathFn::from_name) {
                return self.builtin_math(e, op, callee, args, expect);
            }
        }
        match self.cx.items.lookup(name, self.from_stdlib) {
            Some(Lookup::One(i)) => match self.cx.program.items.get(i) {
                Some(Item::Func(_)) => self.call_func(e, i, callee, args),
                Some(Item::Kernel(k)) => {
                    let def = k.name.span;
                    self.check_args_unhinted(args);
                    self.error(CheckError::CallKernel {
                        span: callee.span,
                        name: name.to_string(),
                        def,
                    });
                    Ty::Error
                }
                _ => {
                    self.check_args_unhinted(args);
                    self.unknown_func(callee);
                    Ty::Error
                }
            },
            Some(Lookup::Overloads(candidates)) => {
                self.call_overloaded(e, &candidates, callee, args, expect)
            }
            None => {
                self.check_args_unhinted(args);
                self.unknown_func(callee);
                Ty::Error
            }
        }
    }

    fn call_func(&mut self, e: &Expr, item: usize, callee: &Ident, args: &[Expr]) -> Ty {
        let Some(sig) = self.sig(item) else {
            self.check_args_unhinted(args);
            return Ty::Error;
        };
        self.record_call(e.id, item, callee.span);
        if args.len() != sig.params.len() {
            self.check_args_unhinted(args);
            self.error(CheckError::Arity {
                span: e.span,
                name: callee.name.clone(),
                expected: sig.params.len(),
                found: args.len(),
                def: self.def_span(item),
                bound: None,
            });
            return sig.ret;
        }
        let mut vectors = VectorArgs::default();
        for (a, p) in args.iter().zip(&sig.params) {
            let t = self.expr(a, Some(&p.ty));
            if !self.elementwise_arg(&t, &p.ty, Some(p.ty_span), a, &mut vectors) {
                self.expect(&t, &p.ty, a, Some(p.ty_span), UniformContext::Argument);
            }
        }
        self.elementwise_result(sig.ret, vectors)
    }

    /// Picks the overload whose parameters are exactly the arguments' types (literals fit any
    /// type of their kind). Several fit only through literals: the expected result type decides,
    /// then the literals' default types. `Err(true)` when still ambiguous.
    fn pick_overload(
        &self,
        candidates: &[usize],
        infos: &[ArgInfo],
        expected_ret: Option<&Ty>,
    ) -> Result<usize, bool> {
        let fitting_by = |fits: fn(&ArgInfo, &Ty) -> bool| -> Vec<usize> {
            candidates
                .iter()
                .copied()
                .filter(|&c| {
                    self.sig(c).is_some_and(|s| {
                        s.params.len() == infos.len()
                            && s.params.iter().zip(infos).all(|(p, a)| fits(a, &p.ty))
                    })
                })
                .collect()
        };
        // An overload that takes the arguments as they are comes first: `f(x: Float32[])` over
        // `f(x: Float32)` applied to each element of an array.
        let mut fitting = fitting_by(ArgInfo::fits);
        if fitting.is_empty() {
            fitting = fitting_by(ArgInfo::fits_or_elementwise);
        }
        match fitting.as_slice() {
            [] => return Err(false),
            [one] => return Ok(*one),
            _ => {}
        }
        if let Some(want) = expected_ret.and_then(|t| t.element().scalar()) {
            let by_ret: Vec<usize> = fitting
                .iter()
                .copied()
                .filter(|&c| self.sig(c).is_some_and(|s| s.ret == Ty::Scalar(want)))
                .collect();
            if let [one] = by_ret.as_slice() {
                return Ok(*one);
            }
        }
        let by_default: Vec<usize> = fitting
            .iter()
            .copied()
            .filter(|&c| {
                self.sig(c).is_some_and(|s| {
                    s.params
                        .iter()
                        .zip(infos)
                        .all(|(p, a)| a.fits_default(&p.ty))
                })
            })
            .collect();
        match by_default.as_slice() {
            [one] => Ok(*one),
            _ => Err(true),
        }
    }

    fn candidate_sigs(&self, candidates: &[usize]) -> Vec<(Vec<Ty>, Ty)> {
        candidates
            .iter()
            .filter_map(|&c| self.sig(c))
            .map(|s| (s.params.iter().map(|p| p.ty.clone()).collect(), s.ret))
            .collect()
    }

    /// Argument infos: non-literal arguments are checked now, literals once the overload is known.
    fn arg_infos(&mut self, args: &[Expr]) -> Vec<ArgInfo> {
        args.iter()
            .map(|a| match literal_kind(a) {
                Some(k) => ArgInfo::Literal(k),
                None => ArgInfo::Fixed(self.expr(a, None)),
            })
            .collect()
    }

    /// Reports a failed overload resolution, unless an argument already has an error. (A block
    /// vector argument fits a parameter of its element type: an elementwise call.)
    fn overload_failed(
        &mut self,
        span: Span,
        name: &str,
        args: &[Expr],
        infos: &[ArgInfo],
        candidates: &[usize],
        ambiguous: bool,
    ) {
        for (a, info) in args.iter().zip(infos) {
            if let ArgInfo::Literal(_) = info {
                self.expr(a, None);
            }
        }
        if infos
            .iter()
            .any(|i| matches!(i, ArgInfo::Fixed(t) if t.is_error()))
        {
            return;
        }
        let args = infos.iter().map(ArgInfo::shown).collect();
        let candidates = self.candidate_sigs(candidates);
        self.error(CheckError::NoOverload {
            span,
            name: name.to_string(),
            args,
            candidates,
            ambiguous,
        });
    }

    fn call_overloaded(
        &mut self,
        e: &Expr,
        candidates: &[usize],
        callee: &Ident,
        args: &[Expr],
        expect: Option<&Ty>,
    ) -> Ty {
        let infos = self.arg_infos(args);
        match self.pick_overload(candidates, &infos, expect) {
            Ok(item) => {
                self.record_call(e.id, item, callee.span);
                let Some(sig) = self.sig(item) else {
                    return Ty::Error;
                };
                let mut vectors = VectorArgs::default();
                for ((a, info), p) in args.iter().zip(&infos).zip(&sig.params) {
                    match info {
                        ArgInfo::Literal(_) => {
                            self.expr(a, Some(&p.ty));
                        }
                        ArgInfo::Fixed(t) => {
                            self.elementwise_arg(t, &p.ty, Some(p.ty_span), a, &mut vectors);
                        }
                    }
                }
                self.elementwise_result(sig.ret, vectors)
            }
            Err(ambiguous) => {
                self.overload_failed(e.span, &callee.name, args, &infos, candidates, ambiguous);
                Ty::Error
            }
        }
    }

    /// `Float32(x)`: elementwise on vectors.
    fn cast(&mut self, e: &Expr, to: Scalar, args: &[Expr]) -> Ty {
        self.cx.callees.insert(e.id, Callee::Cast(to));
        let [arg] = args else {
            self.check_args_unhinted(args);
            let (expected, found) = (1, args.len());
            self.error(CheckError::Arity {
                span: e.span,
                name: to.name().to_string(),
                expected,
                found,
                def: None,
                bound: None,
            });
            return Ty::Error;
        };
        let hint = match literal_kind(arg) {
            Some(LitKind::Int) if to.is_numeric() => Some(Ty::Scalar(to)),
            Some(LitKind::Float) if to.is_float() => Some(Ty::Scalar(to)),
            _ => None,
        };
        let t = self.expr(arg, hint.as_ref());
        if t.is_error() {
            return Ty::Error;
        }
        let shape = match &t {
            Ty::Scalar(s) => Some((*s, None)),
            Ty::Vector { elem, len, .. } => elem.scalar().map(|s| (s, Some(*len))),
            Ty::Array { elem, dims, .. } if dims.len() == 1 => {
                if self.in_func() {
                    self.error(CheckError::VectorInFunc {
                        span: arg.span,
                        ty: t.clone(),
                    });
                    return Ty::Error;
                }
                elem.scalar().map(|s| (s, dims.first().copied()))
            }
            _ => None,
        };
        match shape {
            Some((from, len)) if cast_allowed(from, to) => match len {
                Some(len) => Ty::vector(Ty::Scalar(to), len),
                None => Ty::Scalar(to),
            },
            _ => {
                self.error(CheckError::BadCast {
                    span: arg.span,
                    from: t,
                    to,
                });
                Ty::Error
            }
        }
    }

    pub(super) fn builtin_arity(
        &mut self,
        e: &Expr,
        name: &str,
        args: &[Expr],
        expected: usize,
    ) -> bool {
        if args.len() == expected {
            return true;
        }
        self.check_args_unhinted(args);
        let found = args.len();
        self.error(CheckError::Arity {
            span: e.span,
            name: name.to_string(),
            expected,
            found,
            def: None,
            bound: None,
        });
        false
    }

    /// The most elements `range(a, b)` can have, when a constant bounds it: `b` is at most each
    /// argument of a `min` it is (the standard library's), `a` at least each of a `max`'s, so
    /// `b - a` is at most the smallest constant difference of such a pair.
    fn range_len_bound(&self, a: &Expr, b: &Expr) -> Option<u64> {
        let uppers = self.bounding_args(b, "min");
        let lowers = self.bounding_args(a, "max");
        let linear = |e: &Expr| fold::linear(e, &self.cx.consts);
        uppers
            .iter()
            .filter_map(|&u| linear(u))
            .flat_map(|u| {
                lowers
                    .iter()
                    .filter_map(|&l| linear(l))
                    .filter_map(move |l| u.clone().constant_difference(l))
            })
            .min()
            .map(|d| u64::try_from(d.max(0)).unwrap_or(0))
    }

    /// `e`, and the arguments of `e` if it is a call of the standard library's `func` `name`
    /// (`min` or `max` of two Int32 values).
    fn bounding_args<'e>(&self, e: &'e Expr, name: &str) -> Vec<&'e Expr> {
        let mut args = vec![e];
        if let crate::syntax::ast::ExprKind::Call {
            callee,
            args: call_args,
        } = &e.kind
        {
            let library = matches!(self.cx.callees.get(&e.id),
                Some(Callee::Func(item)) if self.cx.items.is_stdlib(*item));
            if callee.name == name && library && call_args.len() == 2 {
                args.extend(call_args);
            }
        }
        args
    }

    /// An argument of `block` or `range`: a uniform `Int32`.
    fn range_bound(&mut self, a: &Expr) -> bool {
        let t = self.expr(a, Some(&Ty::INT32));
        self.expect(&t, &Ty::INT32, a, None, UniformContext::RangeBound);
        t == Ty::INT32
    }

    fn builtin_block(&mut self, e: &Expr, callee: &Ident, args: &[Expr]) -> Ty {
        self.cx
            .callees
            .insert(e.id, Callee::Builtin(Builtin::Block));
        if self.in_func() {
            self.check_args_unhinted(args);
            self.error(CheckError::BlockConstantInFunc {
                name: "block".to_string(),
                span: callee.span,
            });
            return Ty::Error;
        }
        if self.builtin_arity(e, "block", args, 1) {
            if let Some(a) = args.first() {
                self.range_bound(a);
            }
        }
        if let Some(bs) = self.block_size() {
            self.cx.range_lens.insert(e.id, Len::Static(u64::from(bs)));
        }
        Ty::Range
    }

    /// `transpose(t)`: `t` a two-dimensional array in memory (`shared`, or global) of
    /// compile-time shape `r x c`; the result is the `c x r` tile whose element `(i, j)` is
    /// `t[j, i]`. Code generation reads element `k` of the result at `t`'s element
    /// `(k % r) * c + k / r`, which another thread may have written: hence memory, not
    /// registers (a register tile's elements are private to their threads).
    fn builtin_transpose(&mut self, e: &Expr, callee: &Ident, args: &[Expr]) -> Ty {
        self.cx
            .callees
            .insert(e.id, Callee::Builtin(Builtin::Transpose));
        if self.in_func() {
            self.check_args_unhinted(args);
            self.error(CheckError::BlockConstantInFunc {
                name: "transpose".to_string(),
                span: callee.span,
            });
            return Ty::Error;
        }
        if !self.builtin_arity(e, "transpose", args, 1) {
            return Ty::Error;
        }
        let Some(arg) = args.first() else {
            return Ty::Error;
        };
        let t = self.expr(arg, None);
        match &t {
            Ty::Error => Ty::Error,
            Ty::Array {
                elem,
                dims,
                space: Space::Shared | Space::Global,
            } if matches!(dims.as_slice(), [Len::Static(_), Len::Static(_)]) => {
                let (r, c) = t.tile_shape().unwrap_or((0, 0));
                Ty::tile((**elem).clone(), c, r)
            }
            _ => {
                self.error(CheckError::BadTranspose {
                    span: arg.span,
                    ty: t,
                });
                Ty::Error
            }
        }
    }

    /// `grid(v, scratch)`: the vector `v` itself, spread over the grid; where it may stand and
    /// what `scratch` must be are checked after the body (`check/grid.rs`).
    fn builtin_grid(&mut self, e: &Expr, args: &[Expr]) -> Ty {
        self.cx.callees.insert(e.id, Callee::Builtin(Builtin::Grid));
        if self.in_func() {
            self.check_args_unhinted(args);
            self.error(CheckError::Grid(super::error::GridError::Placement {
                span: e.span,
                reason: super::error::Placement::InFunc,
            }));
            return Ty::Error;
        }
        if !self.builtin_arity(e, "grid", args, 2) {
            return Ty::Error;
        }
        let (Some(v), Some(scratch)) = (args.first(), args.get(1)) else {
            return Ty::Error;
        };
        self.expr(scratch, None);
        let t = self.expr(v, None);
        if t.is_error() {
            return Ty::Error;
        }
        match self.vector_of(&t, v.id) {
            Some((elem, len)) => Ty::vector(elem, len),
            None => {
                self.error(CheckError::NotAVector {
                    span: v.span,
                    ty: t.clone(),
                    op: CollectiveOp::Reduce,
                });
                Ty::Error
            }
        }
    }

    fn builtin_range(&mut self, e: &Expr, args: &[Expr]) -> Ty {
        self.cx
            .callees
            .insert(e.id, Callee::Builtin(Builtin::Range));
        if self.builtin_arity(e, "range", args, 2) {
            if let [a, b] = args {
                let ok = self.range_bound(a) & self.range_bound(b);
                let diff = fold::linear(b, &self.cx.consts)
                    .zip(fold::linear(a, &self.cx.consts))
                    .and_then(|(lb, la)| lb.constant_difference(la));
                let len = match diff {
                    Some(d) if ok => Len::Static(u64::try_from(d.max(0)).unwrap_or(0)),
                    _ => Len::Dynamic,
                };
                self.cx.range_lens.insert(e.id, len);
                if let (Len::Dynamic, true) = (len, ok) {
                    if let Some(bound) = self.range_len_bound(a, b) {
                        self.cx.range_bounds.insert(e.id, bound);
                    }
                }
            }
        }
        Ty::Range
    }

    /// `__sqrt(x)` and the other math primitives of the standard library: every argument and the
    /// result have the first argument's scalar type.
    fn builtin_math(
        &mut self,
        e: &Expr,
        op: MathFn,
        callee: &Ident,
        args: &[Expr],
        expect: Option<&Ty>,
    ) -> Ty {
        self.cx
            .callees
            .insert(e.id, Callee::Builtin(Builtin::Math(op)));
        if !self.builtin_arity(e, &callee.name, args, op.arity()) {
            return Ty::Error;
        }
        let Some((first, rest)) = args.split_first() else {
            return Ty::Error;
        };
        let ty = self.expr(first, expect);
        let fits = match ty.scalar() {
            Some(s) if s.is_float() => true,
            Some(s) => s.is_integer() && !op.float_only(),
            None => false,
        };
        if !fits && !ty.is_error() {
            self.error(CheckError::BadOperand {
                op: op.name(),
                op_span: callee.span,
                span: first.span,
                ty: ty.clone(),
            });
        }
        for a in rest {
            let t = self.expr(a, Some(&ty));
            self.expect(&t, &ty, a, None, UniformContext::Argument);
        }
        if fits {
            ty
        } else {
            Ty::Error
        }
    }

    /// `select(c, a, b)`: `a` where `c`, else `b`; elementwise when any of them is a vector.
    fn builtin_select(&mut self, e: &Expr, args: &[Expr], expect: Option<&Ty>) -> Ty {
        self.cx
            .callees
            .insert(e.id, Callee::Builtin(Builtin::Select));
        if !self.builtin_arity(e, "select", args, 3) {
            return Ty::Error;
        }
        let [c, a, b] = args else { return Ty::Error };
        let ct = self.expr(c, Some(&Ty::BOOL));
        let (at, bt) = match (literal_kind(a), literal_kind(b)) {
            (Some(_), None) => {
                let bt = self.expr(b, expect);
                let h = bt.element().scalar().map(Ty::Scalar).or(expect.cloned());
                (self.expr(a, h.as_ref()), bt)
            }
            _ => {
                let at = self.expr(a, expect);
                let h = at.element().scalar().map(Ty::Scalar).or(expect.cloned());
                (at, self.expr(b, h.as_ref()))
            }
        };
        let clen = match &ct {
            Ty::Error => return Ty::Error,
            Ty::Scalar(Scalar::Bool) => None,
            other => match other.vector_view() {
                Some((elem, len)) if *elem == Ty::BOOL => {
                    if self.in_func() {
                        self.error(CheckError::VectorInFunc {
                            span: c.span,
                            ty: ct.clone(),
                        });
                        return Ty::Error;
                    }
                    Some(len)
                }
                _ => {
                    self.mismatch(&ct, &Ty::BOOL, c, None);
                    return Ty::Error;
                }
            },
        };
        if at.is_error() || bt.is_error() {
            return Ty::Error;
        }
        // Uniform values of any type choose as a whole.
        if clen.is_none() && at.is_uniform() && bt.is_uniform() {
            if at == bt {
                return at;
            }
            self.select_mismatch(e, a, b, &at, &bt);
            return Ty::Error;
        }
        let view = |t: &Ty| -> Option<(Ty, Option<Len>)> {
            match t {
                Ty::Scalar(_) => Some((t.clone(), None)),
                other => other.vector_view().map(|(e, l)| (e.clone(), Some(l))),
            }
        };
        let (Some((ae, al)), Some((be, bl))) = (view(&at), view(&bt)) else {
            let (bad, ty) = if view(&at).is_none() {
                (a, at)
            } else {
                (b, bt)
            };
            self.error(CheckError::BadOperand {
                op: "select",
                op_span: e.span,
                span: bad.span,
                ty,
            });
            return Ty::Error;
        };
        if self.in_func() {
            let (span, ty) = if al.is_some() {
                (a.span, at)
            } else {
                (b.span, bt)
            };
            self.error(CheckError::VectorInFunc { span, ty });
            return Ty::Error;
        }
        if ae != be {
            self.select_mismatch(e, a, b, &at, &bt);
            return Ty::Error;
        }
        let mut len: Option<(Len, Span)> = clen.map(|l| (l, c.span));
        for (l, span) in [(al, a.span), (bl, b.span)] {
            if let Some(l) = l {
                len = match len {
                    None => Some((l, span)),
                    Some((prev, prev_span)) => match prev.unify(l) {
                        Some(u) => Some((u, prev_span)),
                        None => {
                            self.error(CheckError::LengthMismatch {
                                span,
                                found: l,
                                expected: prev,
                                other: prev_span,
                            });
                            return Ty::Error;
                        }
                    },
                };
            }
        }
        match len {
            Some((len, _)) => Ty::vector(ae, len),
            None => ae,
        }
    }

    fn select_mismatch(&mut self, e: &Expr, a: &Expr, b: &Expr, at: &Ty, bt: &Ty) {
        let cast = match (at.element().scalar(), bt.element().scalar()) {
            (Some(x), Some(y)) if cast_allowed(y, x) => Some((true, x, super::pretty::render(b))),
            _ => None,
        };
        self.error(CheckError::OperandMismatch {
            op: "select",
            op_span: e.span,
            lhs: (a.span, at.clone()),
            rhs: (b.span, bt.clone()),
            cast,
        });
    }

    fn require_power_of_two(&mut self, op: CollectiveOp, span: Span) {
        if let BodyKind::Kernel {
            block_size,
            source,
            pow2_reported,
            ..
        } = &mut self.kind
        {
            if !block_size.is_power_of_two() && !*pow2_reported {
                *pow2_reported = true;
                let (block_size, source) = (*block_size, *source);
                self.error(CheckError::NeedsPowerOfTwo {
                    span,
                    op,
                    block_size,
                    source,
                });
            }
        }
    }

    /// `f /~ v`, `f /. v`, `f /: v`, `f :/ v`, with `f` possibly `g(x, y)`.
    pub fn collective(
        &mut self,
        e: &Expr,
        op: CollectiveOp,
        op_span: Span,
        func: &FuncRef,
        operand: &Expr,
    ) -> Ty {
        if let BodyKind::Func { decl, .. } = self.kind {
            self.error(CheckError::CollectiveInFunc {
                span: op_span,
                op,
                func_decl: decl,
            });
            return Ty::Error;
        }
        if op != CollectiveOp::Map {
            self.require_power_of_two(op, op_span);
        }
        let operand_ty = self.expr(operand, None);
        let elements = match &operand_ty {
            Ty::Error => None,
            t => match self.vector_of(t, operand.id) {
                Some(v) => Some(v),
                None => {
                    self.error(CheckError::NotAVector {
                        span: operand.span,
                        ty: operand_ty.clone(),
                        op,
                    });
                    None
                }
            },
        };
        let name = func.name.name.as_str();
        let bound = &func.bound_args;
        // Casts map; builtins never fit.
        if let Some(to) = Scalar::from_name(name) {
            self.check_args_unhinted(bound);
            self.cx.callees.insert(e.id, Callee::Cast(to));
            if op != CollectiveOp::Map {
                let problem = CollectiveFuncProblem::CastInCombine;
                self.error(CheckError::BadCollectiveFunc {
                    span: func.span,
                    op,
                    name: name.to_string(),
                    problem,
                    def: None,
                });
                return Ty::Error;
            }
            if !bound.is_empty() {
                let (expected, found) = (1, bound.len() + 1);
                let bound = Some(bound.len());
                self.error(CheckError::Arity {
                    span: func.span,
                    name: name.to_string(),
                    expected,
                    found,
                    def: None,
                    bound,
                });
                return Ty::Error;
            }
            let (elem, len) = elements.unzip();
            return match elem.as_ref().and_then(Ty::scalar) {
                Some(from) if cast_allowed(from, to) => {
                    Ty::vector(Ty::Scalar(to), len.unwrap_or(Len::Dynamic))
                }
                Some(_) => {
                    let from = elem.unwrap_or(Ty::Error);
                    self.error(CheckError::BadCast {
                        span: operand.span,
                        from,
                        to,
                    });
                    Ty::Error
                }
                None => Ty::Error,
            };
        }
        if builtin_funcs().any(|b| b == name) {
            self.check_args_unhinted(bound);
            let problem = CollectiveFuncProblem::Builtin;
            self.error(CheckError::BadCollectiveFunc {
                span: func.span,
                op,
                name: name.to_string(),
                problem,
                def: None,
            });
            return Ty::Error;
        }
        let per_element = if op == CollectiveOp::Map { 1 } else { 2 };
        let item = match self.cx.items.lookup(name, self.from_stdlib) {
            Some(Lookup::One(i)) => match self.cx.program.items.get(i) {
                Some(Item::Func(_)) => {
                    for (a, p) in bound
                        .iter()
                        .zip(self.sig(i).map(|s| s.params).unwrap_or_default())
                    {
                        let t = self.expr(a, Some(&p.ty));
                        self.bound_arg(&t, &p.ty, a, p.ty_span);
                    }
                    let sig_len = self.sig(i).map_or(0, |s| s.params.len());
                    self.check_args_unhinted(bound.get(sig_len..).unwrap_or(&[]));
                    i
                }
                Some(Item::Kernel(k)) => {
                    let def = k.name.span;
                    self.check_args_unhinted(bound);
                    self.error(CheckError::CallKernel {
                        span: func.name.span,
                        name: name.to_string(),
                        def,
                    });
                    return Ty::Error;
                }
                _ => {
                    self.check_args_unhinted(bound);
                    self.unknown_func(&func.name);
                    return Ty::Error;
                }
            },
            Some(Lookup::Overloads(candidates)) => {
                let mut infos = self.arg_infos(bound);
                let Some((elem, _)) = &elements else {
                    for a in bound.iter().filter(|a| literal_kind(a).is_some()) {
                        self.expr(a, None);
                    }
                    return Ty::Error;
                };
                infos.extend(std::iter::repeat_n(
                    ArgInfo::Fixed(elem.clone()),
                    per_element,
                ));
                match self.pick_overload(&candidates, &infos, None) {
                    Ok(i) => {
                        let params = self.sig(i).map(|s| s.params).unwrap_or_default();
                        for ((a, info), p) in bound.iter().zip(&infos).zip(&params) {
                            match info {
                                ArgInfo::Literal(_) => {
                                    self.expr(a, Some(&p.ty));
                                }
                                ArgInfo::Fixed(t) => self.bound_arg(t, &p.ty, a, p.ty_span),
                            }
                        }
                        i
                    }
                    Err(ambiguous) => {
                        for (a, info) in bound.iter().zip(&infos) {
                            if let ArgInfo::Literal(_) = info {
                                self.expr(a, None);
                            }
                        }
                        let poisoned = infos
                            .iter()
                            .any(|i| matches!(i, ArgInfo::Fixed(t) if t.is_error()));
                        let vector_arg = bound.iter().zip(&infos).find_map(|(a, i)| match i {
                            ArgInfo::Fixed(t) if !t.is_uniform() => Some((a.span, t.clone())),
                            _ => None,
                        });
                        if let Some((span, ty)) = vector_arg {
                            let context = UniformContext::BoundArgument;
                            self.error(CheckError::VectorWhereUniform {
                                span,
                                ty,
                                context,
                                expected_span: None,
                            });
                        } else if !poisoned {
                            // The element types are arguments too, and usually the ones that decide.
                            let args = infos.iter().map(ArgInfo::shown).collect();
                            let candidates = self.candidate_sigs(&candidates);
                            let name = name.to_string();
                            self.error(CheckError::NoOverload {
                                span: func.span,
                                name,
                                args,
                                candidates,
                                ambiguous,
                            });
                        }
                        return Ty::Error;
                    }
                }
            }
            None => {
                self.check_args_unhinted(bound);
                self.unknown_func(&func.name);
                return Ty::Error;
            }
        };
        self.cx.callees.insert(e.id, Callee::Func(item));
        if self.in_func() {
            self.cx.calls.push(CallEdge {
                caller: self.item,
                callee: item,
                span: func.span,
            });
        }
        let Some(sig) = self.sig(item) else {
            return Ty::Error;
        };
        let def = self.def_span(item);
        let needed = bound.len() + per_element;
        if sig.params.len() != needed {
            self.error(CheckError::Arity {
                span: func.span,
                name: name.to_string(),
                expected: sig.params.len(),
                found: needed,
                def,
                bound: Some(bound.len()),
            });
            return Ty::Error;
        }
        if sig.ret == Ty::Unit {
            let problem = CollectiveFuncProblem::NoResult;
            self.error(CheckError::BadCollectiveFunc {
                span: func.span,
                op,
                name: name.to_string(),
                problem,
                def,
            });
            return Ty::Error;
        }
        let element_params: Vec<&super::ParamSig> = sig.params.iter().skip(bound.len()).collect();
        let (param_ty, param_span) = match element_params.as_slice() {
            [p] => (p.ty.clone(), p.ty_span),
            [p, q] if p.ty == q.ty && q.ty == sig.ret => (p.ty.clone(), p.ty_span),
            _ => {
                if element_params.iter().any(|p| p.ty.is_error()) || sig.ret.is_error() {
                    return Ty::Error;
                }
                let params = element_params.iter().map(|p| p.ty.clone()).collect();
                let problem = CollectiveFuncProblem::NotCombining {
                    params,
                    ret: sig.ret.clone(),
                };
                self.error(CheckError::BadCollectiveFunc {
                    span: func.span,
                    op,
                    name: name.to_string(),
                    problem,
                    def,
                });
                return Ty::Error;
            }
        };
        let Some((elem, len)) = elements else {
            return Ty::Error;
        };
        if !elem.is_error() && !param_ty.is_error() && elem != param_ty {
            let found = if operand_ty == Ty::Range {
                Ty::vector(elem.clone(), len)
            } else {
                operand_ty.clone()
            };
            self.element_mismatch(&found, &param_ty, operand, Some(param_span));
        }
        match op {
            CollectiveOp::Map => Ty::vector(sig.ret, len),
            CollectiveOp::Reduce => sig.ret,
            CollectiveOp::ScanLeft | CollectiveOp::ScanRight => Ty::vector(sig.ret, len),
        }
    }

    /// A bound argument of a collective: uniform, of the parameter's type.
    fn bound_arg(&mut self, t: &Ty, param: &Ty, a: &Expr, param_span: Span) {
        if !t.is_uniform() && !t.is_error() && param.is_uniform() {
            let context = UniformContext::BoundArgument;
            self.error(CheckError::VectorWhereUniform {
                span: a.span,
                ty: t.clone(),
                context,
                expected_span: None,
            });
        } else {
            self.expect(t, param, a, Some(param_span), UniformContext::BoundArgument);
        }
    }
}
