//! Expressions: literals, names, operators, indexing, fields, record and vector literals.
//!
//! Types flow both ways: `expr(e, expect)` takes the type the context would like (only literals
//! use it, to pick their type) and returns the type `e` has; the caller compares.

use super::ctx::FnCtx;
use super::error::{BadDimReason, CheckError, TypeContext, UniformContext};
use super::scope::{suggest, BLOCK_CONSTANTS, PER_BLOCK_CONSTANTS};
use super::types::{Len, RecordField, Scalar, Space, Ty};
use super::Callee;
use crate::syntax::ast::{BinaryOp, Expr, ExprKind, FieldInit, FloatLit, Ident, UnaryOp};
use crate::syntax::span::Span;
use loom_runtime::half::{BF16, F16};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum LitKind {
    Int,
    Float,
}

/// Whether `e` is made of literals only (its type comes from its context), and which kind.
pub(super) fn literal_kind(e: &Expr) -> Option<LitKind> {
    match &e.kind {
        ExprKind::Int(_) => Some(LitKind::Int),
        ExprKind::Float(_) => Some(LitKind::Float),
        ExprKind::Unary {
            op: UnaryOp::Neg | UnaryOp::BitNot,
            operand,
            ..
        } => literal_kind(operand),
        ExprKind::Binary { op, lhs, rhs, .. } if !op.is_comparison() && !op.is_logical() => {
            match (literal_kind(lhs)?, literal_kind(rhs)?) {
                (LitKind::Int, LitKind::Int) => Some(LitKind::Int),
                _ => Some(LitKind::Float),
            }
        }
        // `select(c, 3, 5)` chooses between literals: its type comes from its context too.
        ExprKind::Call { callee, args } if callee.name == "select" && args.len() == 3 => {
            match (literal_kind(&args[1])?, literal_kind(&args[2])?) {
                (LitKind::Int, LitKind::Int) => Some(LitKind::Int),
                _ => Some(LitKind::Float),
            }
        }
        _ => None,
    }
}

/// An operand of an elementwise operator, as far as the operator cares.
enum Shape {
    /// Its type is already an error.
    Poisoned,
    /// Not a scalar or a vector of scalars.
    Bad,
    /// A uniform scalar (`None`) or a vector of scalars of this length.
    Elementwise(Scalar, Option<Len>),
}

enum IndexShape {
    Poisoned,
    Uniform,
    Vector(Len),
}

fn shaped(elem: Scalar, len: Option<Len>) -> Ty {
    match len {
        Some(len) => Ty::vector(Ty::Scalar(elem), len),
        None => Ty::Scalar(elem),
    }
}

fn accepts(op: BinaryOp, s: Scalar) -> bool {
    use BinaryOp::*;
    match op {
        And | Or => s == Scalar::Bool,
        Eq | Ne => true,
        Lt | Le | Gt | Ge | Add | Sub | Mul | Div | Rem => s.is_numeric(),
        BitOr | BitXor | BitAnd | Shl | Shr => s.is_integer(),
    }
}

/// Orders scalars for "which operand to convert": floats above integers, wider above narrower.
fn rank(s: Scalar) -> (bool, u32) {
    (s.is_float(), s.bits())
}

impl FnCtx<'_, '_> {
    /// Checks `e`, records its type, and returns it.
    pub fn expr(&mut self, e: &Expr, expect: Option<&Ty>) -> Ty {
        let ty = self.expr_kind(e, expect);
        let ty = self.tile_of_operands(e, ty);
        self.cx.set_ty(e.id, ty.clone());
        match ty {
            Ty::Scalar(s) if s.is_integer() => self.fold_constant(e, s),
            _ => self.forget_constant(e),
        }
        ty
    }

    /// A block vector computed element by element from tiles is a tile of their shape: an
    /// operator, a cast, a call, a map, a field, a scan, or a gather whose index vectors are
    /// tiles (`t[ROW, i]`). Two tiles of equal length but different shapes are `E0216`.
    fn tile_of_operands(&mut self, e: &Expr, ty: Ty) -> Ty {
        if !matches!(ty, Ty::Vector { cols: None, .. }) {
            return ty;
        }
        let operands: Vec<&Expr> = match &e.kind {
            ExprKind::Unary { operand, .. } => vec![operand],
            ExprKind::Binary { lhs, rhs, .. } => vec![lhs, rhs],
            ExprKind::Call { args, .. } => args.iter().collect(),
            ExprKind::Field { base, .. } => vec![base],
            ExprKind::Index { indices, .. } => indices.iter().collect(),
            ExprKind::Collective { operand, .. } => vec![operand],
            _ => return ty,
        };
        let mut shape: Option<((u64, u64), Span)> = None;
        for operand in operands {
            let Some(s) = self.cx.ty(operand.id).and_then(Ty::tile_shape) else {
                continue;
            };
            // A whole 2-D array passed to a func's array parameter is not an operand.
            if matches!(self.cx.ty(operand.id), Some(Ty::Array { .. }))
                && matches!(e.kind, ExprKind::Call { .. })
                && !matches!(
                    self.cx.callees.get(&e.id),
                    Some(Callee::Cast(_)) | Some(Callee::Builtin(_))
                )
            {
                continue;
            }
            match shape {
                None => shape = Some((s, operand.span)),
                Some((first, first_span)) if first != s && first.0 * first.1 == s.0 * s.1 => {
                    self.error(CheckError::TileShapeMismatch {
                        span: operand.span,
                        found: s,
                        expected: first,
                        other: first_span,
                    });
                    return Ty::Error;
                }
                Some(_) => {}
            }
        }
        ty.with_shape_of(shape.map(|(s, _)| s))
    }

    fn expr_kind(&mut self, e: &Expr, expect: Option<&Ty>) -> Ty {
        match &e.kind {
            ExprKind::Int(v) => self.int_literal(*v, false, e.span, expect),
            ExprKind::Float(v) => self.float_literal(v, e.span, expect),
            ExprKind::Bool(_) => Ty::BOOL,
            ExprKind::Name(id) => self.name(e, id),
            ExprKind::Unary {
                op,
                op_span,
                operand,
            } => self.unary(e, *op, *op_span, operand, expect),
            ExprKind::Binary {
                op,
                op_span,
                lhs,
                rhs,
            } => self.binary(*op, *op_span, lhs, rhs, expect),
            ExprKind::Call { callee, args } => self.call(e, callee, args, expect),
            ExprKind::Index { base, indices, .. } => self.index(e, base, indices),
            ExprKind::Field { base, field } => self.field(base, field),
            ExprKind::Record { fields } => self.record(e, fields, expect),
            ExprKind::VectorLit { elems } => self.vector_lit(e, elems, expect),
            ExprKind::Collective {
                op,
                op_span,
                func,
                operand,
            } => self.collective(e, *op, *op_span, func, operand),
        }
    }

    /// An integer literal takes any numeric type its context asks for, else `Int32`. As a float it
    /// must still be an integer LOOM can hold (`Int64` or `UInt64`): a 128-bit literal is an
    /// error, not an infinity. Code generation rounds it once, from the exact integer.
    fn int_literal(&mut self, value: u128, negative: bool, span: Span, expect: Option<&Ty>) -> Ty {
        let target = match Self::scalar_hint(expect) {
            Some(s) if s.is_numeric() => s,
            _ => Scalar::Int32,
        };
        let signed = i128::try_from(value)
            .ok()
            .map(|v| if negative { -v } else { v });
        let (min, max) = target
            .int_range()
            .unwrap_or((i128::from(i64::MIN), i128::from(u64::MAX)));
        // An integer that fits but rounds to infinity as a 16-bit float (70000 as a `Float16`).
        let infinite = signed.is_some_and(|v| match target {
            Scalar::Float16 => F16.from_integer(v) & 0x7fff == F16.infinity(),
            Scalar::BFloat16 => BF16.from_integer(v) & 0x7fff == BF16.infinity(),
            _ => false,
        });
        if infinite || !signed.is_some_and(|v| (min..=max).contains(&v)) {
            let text = if negative {
                format!("-{value}")
            } else {
                value.to_string()
            };
            self.error(CheckError::LiteralOutOfRange {
                span,
                text,
                ty: target,
            });
        }
        Ty::Scalar(target)
    }

    /// A float literal is of any float type, `Float32` unless its context asks for another.
    /// It is rounded once, from its decimal value, to its type; one that rounds to infinity (at or
    /// beyond the largest finite value plus half an ulp) is an error.
    fn float_literal(&mut self, lit: &FloatLit, span: Span, expect: Option<&Ty>) -> Ty {
        let target = match Self::scalar_hint(expect) {
            Some(s) if s.is_float() => s,
            Some(s) if s.is_integer() => {
                self.error(CheckError::FloatLiteralForInteger { span, expected: s });
                return Ty::Error;
            }
            _ => Scalar::Float32,
        };
        let infinite = match target {
            Scalar::Float16 => lit.f16() == F16.infinity(),
            Scalar::BFloat16 => lit.bf16() == BF16.infinity(),
            Scalar::Float32 => lit.f32().is_infinite(),
            _ => lit.f64().is_infinite(),
        };
        if infinite {
            self.error(CheckError::LiteralOutOfRange {
                span,
                text: lit.text().to_string(),
                ty: target,
            });
        }
        Ty::Scalar(target)
    }

    fn name(&mut self, e: &Expr, id: &Ident) -> Ty {
        let name = id.name.as_str();
        if let Some(var) = self.scopes.lookup(name) {
            if let Some(len) = var.range_len {
                self.cx.range_lens.insert(e.id, len);
            }
            if let Some(bound) = var.range_bound {
                self.cx.range_bounds.insert(e.id, bound);
            }
            return var.ty.clone();
        }
        if BLOCK_CONSTANTS.contains(&name) {
            if self.in_func() {
                self.error(CheckError::BlockConstantInFunc {
                    name: name.to_string(),
                    span: id.span,
                });
                return Ty::Error;
            }
            if PER_BLOCK_CONSTANTS.contains(&name) && self.dims.is_some() {
                self.error(CheckError::BadDim {
                    span: id.span,
                    reason: BadDimReason::BlockIndex(name.to_string()),
                });
                return Ty::Error;
            }
            if name == "ROW" || name == "COL" {
                // The threads' row and column in the block, as tiles of the block's shape.
                let (rows, cols) = self.block_shape().unwrap_or((1, 1));
                return Ty::tile(Ty::INT32, u64::from(rows), u64::from(cols));
            }
            return Ty::INT32;
        }
        if let Some(dims) = &self.dims {
            if let Some((later, decl)) = dims.later.iter().find(|(n, _)| n == name) {
                let reason = BadDimReason::LaterParam {
                    name: later.clone(),
                    decl: *decl,
                };
                self.error(CheckError::BadDim {
                    span: id.span,
                    reason,
                });
                return Ty::Error;
            }
        }
        let out_of_scope = self
            .all_decls
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, s)| (*s, s.start > e.span.start));
        let is_func = self.cx.items.lookup(name, self.from_stdlib).is_some();
        let suggestion = if out_of_scope.is_some() || is_func {
            None
        } else {
            let mut candidates = self.scopes.visible_names();
            if !self.in_func() {
                candidates.extend(BLOCK_CONSTANTS);
            }
            suggest(name, candidates)
        };
        self.error(CheckError::UnknownName {
            name: name.to_string(),
            span: id.span,
            suggestion,
            out_of_scope,
            is_func,
        });
        Ty::Error
    }

    /// Classifies an operand of an elementwise operator. Arrays stand for all their elements,
    /// which funcs cannot do (they are element-level code).
    fn shape(&mut self, ty: &Ty, e: &Expr) -> Shape {
        match ty {
            Ty::Error => Shape::Poisoned,
            Ty::Scalar(s) => Shape::Elementwise(*s, None),
            Ty::Vector { elem, len, .. } => match **elem {
                Ty::Scalar(s) => Shape::Elementwise(s, Some(*len)),
                Ty::Error => Shape::Poisoned,
                _ => Shape::Bad,
            },
            Ty::Array { elem, dims, .. }
                if dims.len() == 1 || ty.tile_shape().is_some() && !self.in_func() =>
            {
                let len = ty.vector_view().map(|(_, l)| l);
                if self.in_func() {
                    self.error(CheckError::VectorInFunc {
                        span: e.span,
                        ty: ty.clone(),
                    });
                    return Shape::Poisoned;
                }
                match **elem {
                    Ty::Scalar(s) => Shape::Elementwise(s, len),
                    _ => Shape::Poisoned,
                }
            }
            _ => Shape::Bad,
        }
    }

    fn unary(
        &mut self,
        e: &Expr,
        op: UnaryOp,
        op_span: Span,
        operand: &Expr,
        expect: Option<&Ty>,
    ) -> Ty {
        // `-2147483648` is one literal as far as its range is concerned.
        if let (UnaryOp::Neg, ExprKind::Int(v)) = (op, &operand.kind) {
            let ty = self.int_literal(*v, true, e.span, expect);
            self.cx.set_ty(operand.id, ty.clone());
            return ty;
        }
        let hint = if op == UnaryOp::Not { None } else { expect };
        let ty = self.expr(operand, hint);
        let (elem, len) = match self.shape(&ty, operand) {
            Shape::Poisoned => return Ty::Error,
            Shape::Bad => (None, None),
            Shape::Elementwise(s, len) => (Some(s), len),
        };
        let ok = elem.is_some_and(|s| match op {
            UnaryOp::Neg => s.is_numeric(),
            UnaryOp::Not => s == Scalar::Bool,
            UnaryOp::BitNot => s.is_integer(),
        });
        match elem {
            Some(s) if ok => shaped(s, len),
            _ => {
                self.error(CheckError::BadOperand {
                    op: op.symbol(),
                    op_span,
                    span: operand.span,
                    ty,
                });
                Ty::Error
            }
        }
    }

    /// The hint an operand's type gives its literal partner.
    fn partner_hint(ty: &Ty) -> Option<Ty> {
        ty.element().scalar().map(Ty::Scalar)
    }

    fn binary(
        &mut self,
        op: BinaryOp,
        op_span: Span,
        lhs: &Expr,
        rhs: &Expr,
        expect: Option<&Ty>,
    ) -> Ty {
        let hint: Option<Ty> = if op.is_comparison() || op.is_logical() {
            None
        } else {
            expect.cloned()
        };
        // A literal operand takes the other operand's type, so the other is checked first.
        let (lt, rt) = match (literal_kind(lhs), literal_kind(rhs)) {
            (Some(a), Some(b)) => {
                let float = a == LitKind::Float || b == LitKind::Float;
                let h = match Self::scalar_hint(hint.as_ref()) {
                    Some(s) if float && !s.is_float() => Some(Ty::Scalar(Scalar::Float32)),
                    None if float => Some(Ty::Scalar(Scalar::Float32)),
                    _ => hint.clone(),
                };
                (self.expr(lhs, h.as_ref()), self.expr(rhs, h.as_ref()))
            }
            (Some(_), None) => {
                let rt = self.expr(rhs, hint.as_ref());
                let h = Self::partner_hint(&rt).or(hint);
                (self.expr(lhs, h.as_ref()), rt)
            }
            _ => {
                let lt = self.expr(lhs, hint.as_ref());
                let h = Self::partner_hint(&lt).or(hint);
                let rt = self.expr(rhs, h.as_ref());
                (lt, rt)
            }
        };
        let (ls, rs) = (self.shape(&lt, lhs), self.shape(&rt, rhs));
        let ((lsc, llen), (rsc, rlen)) = match (ls, rs) {
            (Shape::Poisoned, _) | (_, Shape::Poisoned) => return Ty::Error,
            (Shape::Bad, _) => {
                self.error(CheckError::BadOperand {
                    op: op.symbol(),
                    op_span,
                    span: lhs.span,
                    ty: lt,
                });
                return Ty::Error;
            }
            (_, Shape::Bad) => {
                self.error(CheckError::BadOperand {
                    op: op.symbol(),
                    op_span,
                    span: rhs.span,
                    ty: rt,
                });
                return Ty::Error;
            }
            (Shape::Elementwise(a, al), Shape::Elementwise(b, bl)) => ((a, al), (b, bl)),
        };
        let len = match (llen, rlen) {
            (Some(a), Some(b)) => match a.unify(b) {
                Some(l) => Some(l),
                None => {
                    self.error(CheckError::LengthMismatch {
                        span: rhs.span,
                        found: b,
                        expected: a,
                        other: lhs.span,
                    });
                    return Ty::Error;
                }
            },
            (a, b) => a.or(b),
        };
        if lsc != rsc {
            let (cast_right, target) = if rank(rsc) > rank(lsc) {
                (false, rsc)
            } else {
                (true, lsc)
            };
            let (from, operand) = if cast_right { (rsc, rhs) } else { (lsc, lhs) };
            let cast = super::types::cast_allowed(from, target)
                .then(|| (cast_right, target, super::pretty::render(operand)));
            self.error(CheckError::OperandMismatch {
                op: op.symbol(),
                op_span,
                lhs: (lhs.span, lt),
                rhs: (rhs.span, rt),
                cast,
            });
            // A comparison is a Bool whatever went wrong with its operands.
            return if op.is_comparison() {
                shaped(Scalar::Bool, len)
            } else {
                Ty::Error
            };
        }
        if !accepts(op, lsc) {
            self.error(CheckError::BadOperand {
                op: op.symbol(),
                op_span,
                span: lhs.span,
                ty: lt,
            });
            return if op.is_comparison() {
                shaped(Scalar::Bool, len)
            } else {
                Ty::Error
            };
        }
        let elem = if op.is_comparison() {
            Scalar::Bool
        } else {
            lsc
        };
        shaped(elem, len)
    }

    fn index_shape(&mut self, ty: &Ty, idx: &Expr) -> IndexShape {
        match ty {
            Ty::Error => IndexShape::Poisoned,
            Ty::Scalar(s) if s.is_integer() => IndexShape::Uniform,
            Ty::Range => IndexShape::Vector(
                self.cx
                    .range_lens
                    .get(&idx.id)
                    .copied()
                    .unwrap_or(Len::Dynamic),
            ),
            Ty::Vector { elem, len, .. } if elem.is_integer() => IndexShape::Vector(*len),
            Ty::Array { elem, dims, .. } if elem.is_integer() && dims.len() == 1 => {
                IndexShape::Vector(dims.first().copied().unwrap_or(Len::Dynamic))
            }
            _ => {
                self.error(CheckError::BadIndexType {
                    span: idx.span,
                    ty: ty.clone(),
                });
                IndexShape::Poisoned
            }
        }
    }

    /// `a[i]`, `a[i, j]`, `a[r]` (a slice: a vector), `a[i]` of a 2-D array (a row), `v[[i]]` of
    /// a vector of compile-time length.
    fn index(&mut self, e: &Expr, base: &Expr, indices: &[Expr]) -> Ty {
        let base_ty = self.expr(base, None);
        let mut shapes = Vec::new();
        let mut ranges = 0;
        for idx in indices {
            let t = self.expr(idx, None);
            ranges += usize::from(t == Ty::Range);
            shapes.push((self.index_shape(&t, idx), idx.span));
        }
        let (elem, dims, space) = match &base_ty {
            Ty::Error => return Ty::Error,
            Ty::Array { elem, dims, space } if *space != Space::Local => {
                ((**elem).clone(), dims.clone(), *space)
            }
            // A vector variable of compile-time length (`kir-register-vectors` keeps an indexed
            // one in shared memory, not registers) or a computed vector (code generation
            // stores it into shared memory first): indexed like a `shared` array
            // (docs/language.md, "Indexing a vector").
            _ if indexable_vector(&base_ty).is_some() => {
                let (elem, n) = indexable_vector(&base_ty).unwrap_or((Ty::Error, 0));
                (elem, vec![Len::Static(n)], Space::Shared)
            }
            _ => {
                self.error(CheckError::NotIndexable {
                    span: base.span,
                    ty: base_ty,
                });
                return Ty::Error;
            }
        };
        if shapes
            .iter()
            .any(|(s, _)| matches!(s, IndexShape::Poisoned))
        {
            return Ty::Error;
        }
        if indices.len() == 2 && dims.len() == 2 && ranges == 2 {
            // `a[r, s]`: a two-dimensional slice, the tile of rows `r` and columns `s`.
            let mut lens = Vec::with_capacity(2);
            for (shape, span) in &shapes {
                match shape {
                    IndexShape::Vector(Len::Static(n)) => lens.push(*n),
                    _ => {
                        self.error(CheckError::TileShapeUnknown {
                            span: e.span,
                            range: *span,
                        });
                        return Ty::Error;
                    }
                }
            }
            let ty = Ty::tile(elem, lens[0], lens[1]);
            if self.in_func() {
                self.error(CheckError::VectorInFunc { span: e.span, ty });
                return Ty::Error;
            }
            return ty;
        }
        if indices.len() == dims.len() {
            let mut len: Option<(Len, Span)> = None;
            for (shape, span) in &shapes {
                if let IndexShape::Vector(l) = shape {
                    len = match len {
                        None => Some((*l, *span)),
                        Some((prev, prev_span)) => match prev.unify(*l) {
                            Some(u) => Some((u, prev_span)),
                            None => {
                                self.error(CheckError::LengthMismatch {
                                    span: *span,
                                    found: *l,
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
                None => elem,
                Some((len, _)) => {
                    let ty = Ty::vector(elem, len);
                    if self.in_func() {
                        self.error(CheckError::VectorInFunc { span: e.span, ty });
                        return Ty::Error;
                    }
                    ty
                }
            }
        } else if indices.len() == 1
            && dims.len() == 2
            && matches!(shapes.first(), Some((IndexShape::Uniform, _)))
        {
            Ty::Array {
                elem: Box::new(elem),
                dims: dims.get(1).copied().into_iter().collect(),
                space,
            }
        } else {
            self.error(CheckError::WrongIndexCount {
                span: e.span,
                ty: base_ty,
                found: indices.len(),
            });
            Ty::Error
        }
    }

    fn field(&mut self, base: &Expr, field: &Ident) -> Ty {
        let base_ty = self.expr(base, None);
        match &base_ty {
            Ty::Vector { elem, len, .. } => match self.field_of(elem, field) {
                Ty::Error => Ty::Error,
                t => Ty::vector(t, *len),
            },
            other => self.field_of(other, field),
        }
    }

    fn field_of(&mut self, ty: &Ty, field: &Ident) -> Ty {
        let name = field.name.as_str();
        let names: Vec<String> = match ty {
            Ty::Error => return Ty::Error,
            Ty::Record(id) => {
                if let Some((_, f)) = self.cx.records.field(*id, name) {
                    return f.ty.clone();
                }
                self.cx
                    .records
                    .fields(*id)
                    .iter()
                    .map(|f| f.name.clone())
                    .collect()
            }
            Ty::Range if name == "start" || name == "end" => return Ty::INT32,
            Ty::Range => vec!["start".to_string(), "end".to_string()],
            other => {
                self.error(CheckError::NoFields {
                    span: field.span,
                    field: name.to_string(),
                    ty: other.clone(),
                });
                return Ty::Error;
            }
        };
        let suggestion = suggest(name, names.iter().map(String::as_str));
        self.error(CheckError::UnknownField {
            field: name.to_string(),
            span: field.span,
            ty: ty.clone(),
            suggestion,
        });
        Ty::Error
    }

    fn record(&mut self, e: &Expr, fields: &[FieldInit], expect: Option<&Ty>) -> Ty {
        if let Some(Ty::Record(id)) = expect {
            let expected = self.cx.records.fields(*id).to_vec();
            let same_names = expected.len() == fields.len()
                && expected
                    .iter()
                    .zip(fields)
                    .all(|(a, b)| a.name == b.name.name);
            if same_names {
                for (f, ef) in fields.iter().zip(&expected) {
                    let t = self.expr(&f.value, Some(&ef.ty));
                    self.expect(&t, &ef.ty, &f.value, None, UniformContext::RecordField);
                }
                return Ty::Record(*id);
            }
            for f in fields {
                self.expr(&f.value, None);
            }
            let found_fields = fields.iter().map(|f| f.name.name.clone()).collect();
            self.error(CheckError::RecordLiteralMismatch {
                span: e.span,
                expected: Ty::Record(*id),
                found_fields,
            });
            return Ty::Error;
        }
        let mut resolved: Vec<RecordField> = Vec::new();
        let mut seen: Vec<(&str, Span)> = Vec::new();
        let mut ok = true;
        for f in fields {
            let t = self.expr(&f.value, None);
            if let Some((_, first)) = seen.iter().find(|(n, _)| *n == f.name.name) {
                self.error(CheckError::DuplicateField {
                    name: f.name.name.clone(),
                    span: f.name.span,
                    first: *first,
                });
                ok = false;
                continue;
            }
            seen.push((&f.name.name, f.name.span));
            if !t.is_uniform() {
                self.error(CheckError::VectorWhereUniform {
                    span: f.value.span,
                    ty: t,
                    context: UniformContext::RecordField,
                    expected_span: None,
                });
                ok = false;
                continue;
            }
            ok &= !t.is_error();
            resolved.push(RecordField {
                name: f.name.name.clone(),
                ty: t,
            });
        }
        if ok {
            Ty::Record(self.cx.records.intern(resolved))
        } else {
            Ty::Error
        }
    }

    /// `[1, 2, 3]`: a vector of compile-time length whose elements are uniform scalars.
    fn vector_lit(&mut self, e: &Expr, elems: &[Expr], expect: Option<&Ty>) -> Ty {
        let hint = Self::scalar_hint(expect).map(Ty::Scalar);
        if self.in_func() {
            for el in elems {
                self.expr(el, hint.as_ref());
            }
            let elem = hint.unwrap_or(Ty::INT32);
            self.error(CheckError::VectorInFunc {
                span: e.span,
                ty: Ty::vector(elem, Len::Static(elems.len() as u64)),
            });
            return Ty::Error;
        }
        let n = Len::Static(elems.len() as u64);
        if elems.is_empty() {
            return match hint {
                Some(t) => Ty::vector(t, n),
                None => {
                    self.error(CheckError::CannotInfer { span: e.span });
                    Ty::Error
                }
            };
        }
        // The first element that is not a literal decides the element type.
        let mut types: Vec<Option<Ty>> = vec![None; elems.len()];
        let mut elem: Option<Ty> = None;
        for (slot, el) in types.iter_mut().zip(elems) {
            if literal_kind(el).is_none() {
                let t = self.expr(el, hint.as_ref());
                if elem.is_none() && !t.is_error() {
                    elem = Some(t.element().clone());
                }
                *slot = Some(t);
            }
        }
        let any_float = elems
            .iter()
            .any(|el| literal_kind(el) == Some(LitKind::Float));
        let literal_hint = elem
            .clone()
            .or(hint)
            .or(any_float.then_some(Ty::Scalar(Scalar::Float32)));
        for (slot, el) in types.iter_mut().zip(elems) {
            if slot.is_none() {
                *slot = Some(self.expr(el, literal_hint.as_ref()));
            }
        }
        let elem = match elem.or_else(|| types.iter().flatten().find(|t| !t.is_error()).cloned()) {
            Some(t) => t,
            None => return Ty::Error,
        };
        if elem.scalar().is_none() && !elem.is_error() {
            self.error(CheckError::TypeNotAllowed {
                span: e.span,
                ty: Some(elem),
                context: TypeContext::ArrayElement,
            });
            return Ty::Error;
        }
        let mut ok = true;
        for (t, el) in types.iter().zip(elems) {
            let Some(t) = t else { continue };
            if t.is_error() {
                ok = false;
            } else if *t != elem {
                self.expect(t, &elem, el, None, UniformContext::Element);
                ok = false;
            }
        }
        if ok {
            Ty::vector(elem, n)
        } else {
            Ty::Error
        }
    }
}

/// The elements and length of a vector that may be indexed as it is: a block vector or a vector
/// variable (registers) whose length is known at compile time. Code generation stores it in
/// shared memory, which needs that length.
pub(super) fn indexable_vector(ty: &Ty) -> Option<(Ty, u64)> {
    match ty {
        // A tile (a 2-D block vector) is indexed as what it is stored to, a 2-D `shared` array.
        Ty::Vector {
            elem,
            len: Len::Static(n),
            cols: None,
        } => Some(((**elem).clone(), *n)),
        Ty::Array {
            elem,
            dims,
            space: Space::Local,
        } => match dims.as_slice() {
            [Len::Static(n)] => Some(((**elem).clone(), *n)),
            _ => None,
        },
        _ => None,
    }
}
