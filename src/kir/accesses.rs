//! `kir-accesses`: which vector stores read their own target at other positions, and so must
//! compute every element before they store any (`buffered`); reports `E0811` where that would
//! need a run-time number of registers (`kir-sweeps` prints `buffer none`).
//!
//! A vector store writes element `offset + k` of its target from the thread that owns `k`
//! ([`Who::Owner`]); a scatter or a tile store may write any element from any thread
//! ([`Who::Any`]). Its right side (and a scatter's vector subscripts) reads arrays element by
//! element, each read with its own [`Who`], computed as barrier placement (`kir-barriers`) and
//! code generation's check of this decision (`codegen/vector.rs`) compute it: from the subscripts' polynomials (`kir/affine.rs`), with
//! what each integer and `Range` variable holds where the statement stands. A store is in place
//! when every read of its target is by the owner of the element at the write's own offset: each
//! thread then reads only what it is about to overwrite itself. Any other read of the target
//! (another offset, any thread, an offset without a polynomial) makes the store buffered.
//!
//! Code generation takes the decision from here (`codegen::Body::store_vector`); it builds no
//! accesses of its own. `kir-barriers` shares the access model (`kir/access.rs`).

use super::access::Who;
use super::affine::{Poly, Symbols};
use super::consumers::{self, is_vector, Dest, Name, Visitor, Walk};
use super::{Consumer, Limit, Module, StoreOrder};
use crate::check::types::Ty;
use crate::check::{Builtin, Callee, Checked};
use crate::syntax::ast::{Block, CollectiveOp, Expr, ExprKind, Item, Stmt as Ast, TypeExpr};
use crate::syntax::span::Span;
use std::collections::{BTreeMap, BTreeSet};

pub fn run(module: &mut Module, checked: &Checked) {
    for kernel in &mut module.kernels {
        let values = Values::new(kernel, checked);
        let mut finder = Finder {
            values,
            block_size: kernel.block_size,
            orders: BTreeMap::new(),
            needs_buffer: Vec::new(),
        };
        consumers::walk(kernel, checked, &mut finder);
        for span in finder.needs_buffer {
            let plan = kernel
                .sweeps
                .as_ref()
                .and_then(|s| s.get(&Consumer::Store(span)));
            match plan.and_then(|p| p.buffer) {
                Some(Some(_)) => {}
                Some(None) => kernel.limits.push(Limit::NeedsStaticLength {
                    what: "a vector assignment that reads its own target",
                    why: "it computes every element into registers before it writes any, and each thread's number of registers is fixed when the kernel is compiled (at most 64 elements per thread)",
                    span,
                }),
                None => kernel.limits.push(Limit::Internal {
                    why: "kir-sweeps planned no buffer for a store that reads its own target",
                    span,
                }),
            }
        }
        kernel.store_orders = Some(finder.orders);
    }
}

/// One element-by-element read of an array by a store's right side or subscripts.
pub(super) struct Read {
    /// The array's name where the statement stands, or an indexed vector's `shared` copy's key
    /// ([`indexed_copy_key`], which no store targets); `None`: an array or tile the pass does
    /// not name (a computed one passed whole).
    pub array: Option<String>,
    /// `Some(Owner(offset))` or `Some(Any)`; `None`: the owner of each element at an offset
    /// without a polynomial, which equals no other.
    pub who: Option<Who>,
    pub span: Span,
}

/// What every integer and `Range` variable of a kernel holds, statement by statement: a
/// variable's value at its declaration and at each assignment of the whole variable (a field
/// assignment makes it unknown); every name a loop assigns (and its variable) unknown from the
/// loop's start. Not scoped, and not joined after an `if`: the value is the last one assigned
/// in program order (as code generation kept it when it followed the same rule, until
/// 2026-12-07; `kir-barriers` shares it).
pub(super) struct Values {
    pub symbols: Symbols,
    block_size: u32,
}

pub(super) struct Finder {
    pub values: Values,
    pub(super) block_size: u32,
    orders: BTreeMap<Span, StoreOrder>,
    /// The buffered stores, in program order.
    needs_buffer: Vec<Span>,
}

impl<'a> Visitor<'a> for Finder {
    fn statement(&mut self, walk: &Walk<'a>, stmt: &'a Ast) {
        self.values.statement(walk, stmt);
    }

    fn store(
        &mut self,
        walk: &Walk<'a>,
        consumer: Consumer,
        dest: Dest<'a>,
        value: &'a Expr,
        grid: bool,
    ) {
        // A vector variable's initializer or an indexed vector's copy writes an array that
        // nothing has read yet.
        let Dest::Target { target, scatter } = dest else {
            return;
        };
        let Some((array, write)) = self.write(walk, target, scatter) else {
            return;
        };
        let mut reads = Vec::new();
        if is_vector(walk.checked.ty(value.id)) {
            self.reads(walk, value, &mut reads);
            self.bound_array_reads(walk, value, grid, &mut reads);
        }
        if scatter {
            if let ExprKind::Index { indices, .. } = &target.kind {
                for index in indices {
                    if matches!(
                        walk.checked.ty(index.id),
                        Ty::Range | Ty::Vector { .. } | Ty::Array { .. }
                    ) {
                        self.reads(walk, index, &mut reads);
                        self.bound_array_reads(walk, index, grid, &mut reads);
                    }
                }
            }
        }
        let own: Vec<&Read> = reads
            .iter()
            .filter(|r| r.array.as_deref() == Some(array.as_str()))
            .collect();
        if own.is_empty() {
            return;
        }
        let span = consumer.span();
        let elsewhere = own.iter().find(|r| match (&r.who, &write) {
            (Some(Who::Owner(a)), Some(Who::Owner(b))) => a != b,
            _ => true,
        });
        let order = match elsewhere {
            Some(read) => {
                self.needs_buffer.push(span);
                StoreOrder::Buffered {
                    array,
                    read: read.span,
                }
            }
            None => StoreOrder::InPlace {
                array,
                reads: own.iter().map(|r| r.span).collect(),
            },
        };
        self.orders.insert(span, order);
    }
}

impl Values {
    pub fn new(kernel: &super::Kernel, checked: &Checked) -> Values {
        let mut symbols = Symbols::default();
        if let Some(Item::Kernel(decl)) = checked.program.items.get(kernel.item) {
            for param in &decl.params {
                if !matches!(param.ty, TypeExpr::Array { .. }) {
                    symbols.bind_parameter(&param.name.name);
                }
            }
        }
        Values {
            symbols,
            block_size: kernel.block_size,
        }
    }

    /// Follows `stmt`, before its consumers (a statement's own stores and reductions do not
    /// depend on the value it gives a variable).
    pub fn statement(&mut self, walk: &Walk<'_>, stmt: &Ast) {
        let checked = walk.checked;
        match stmt {
            Ast::Let {
                name, init, shared, ..
            } => {
                let Some(ty) = checked.locals.get(&name.span) else {
                    return;
                };
                let vector = init.as_ref().is_some_and(|i| {
                    matches!(checked.ty(i.id), Ty::Vector { .. } | Ty::Array { .. })
                });
                if *shared || vector || matches!(ty, Ty::Array { .. }) {
                    return;
                }
                self.note_value(checked, &name.name, ty, init.as_ref());
            }
            Ast::Assign {
                target,
                value,
                span,
            } => {
                if walk.grid_collective(*span).is_some() {
                    return;
                }
                let ty = checked.ty(target.id);
                if matches!(ty, Ty::Vector { .. } | Ty::Array { .. }) {
                    return;
                }
                match &target.kind {
                    ExprKind::Name(name) => {
                        let ty = ty.clone();
                        self.note_value(checked, &name.name, &ty, Some(value));
                    }
                    ExprKind::Field { .. } if !is_element_field(target) => {
                        if let Some(root) = root_name(target) {
                            if let ExprKind::Name(name) = &root.kind {
                                let ty = checked.ty(root.id).clone();
                                self.note_value(checked, &name.name, &ty, None);
                            }
                        }
                    }
                    _ => {}
                }
            }
            Ast::For { var, body, .. } => {
                let mut assigned = BTreeSet::new();
                assigned_names(body, &mut assigned);
                assigned.insert(var.name.clone());
                self.enter_loop(assigned);
            }
            Ast::While { body, .. } => {
                let mut assigned = BTreeSet::new();
                assigned_names(body, &mut assigned);
                self.enter_loop(assigned);
            }
            _ => {}
        }
    }

    fn note_value(&mut self, checked: &Checked, name: &str, ty: &Ty, value: Option<&Expr>) {
        let tracked = *ty == Ty::Range || ty.scalar().is_some_and(|s| s.is_integer());
        if !tracked {
            return;
        }
        let known = value.and_then(|v| self.symbols.known(v, checked, self.block_size));
        self.symbols.set(name, known, *ty == Ty::Range);
    }

    fn enter_loop(&mut self, assigned: BTreeSet<String>) {
        for name in assigned {
            let is_range = matches!(
                self.symbols.get(&name),
                Some(super::affine::Known::Range(..))
            );
            self.symbols.set(&name, None, is_range);
        }
    }
}

impl Finder {
    /// A finder for `kernel` with nothing found yet (`kir-barriers` asks it for accesses).
    pub(super) fn new(kernel: &super::Kernel, checked: &Checked) -> Finder {
        Finder {
            values: Values::new(kernel, checked),
            block_size: kernel.block_size,
            orders: BTreeMap::new(),
            needs_buffer: Vec::new(),
        }
    }

    /// The array a store's target writes and who writes each element (`None`: the owner of
    /// each element at an offset without a polynomial); `None` for a register vector.
    pub(super) fn write(
        &self,
        walk: &Walk<'_>,
        target: &Expr,
        scatter: bool,
    ) -> Option<(String, Option<Who>)> {
        let checked = walk.checked;
        match &target.kind {
            ExprKind::Name(name) => match walk.lookup(&name.name) {
                Some(Name::Array(_)) => Some((
                    walk.array_key(&name.name),
                    Some(Who::Owner(Poly::default())),
                )),
                _ => None,
            },
            ExprKind::Index { base, indices, .. } => {
                let (name, dims) = array_dims(walk, base)?;
                if scatter {
                    return Some((name, Some(Who::Any)));
                }
                let who = match indices.as_slice() {
                    [index] if *checked.ty(index.id) == Ty::Range => {
                        self.owner_at(walk, &dims, &[], Some(index))
                    }
                    [index] => self.owner_at(walk, &dims, &[index], None),
                    [row, columns] => self.owner_at(walk, &dims, &[row], Some(columns)),
                    _ => None,
                };
                Some((name, who))
            }
            _ => None,
        }
    }

    /// Who touches `array[leading..., (range start) + k]` (row-major): the owner of `k`, at an
    /// offset that is a polynomial when every subscript has one.
    fn owner_at(
        &self,
        walk: &Walk<'_>,
        dims: &[Option<Poly>],
        leading: &[&Expr],
        range: Option<&Expr>,
    ) -> Option<Who> {
        let checked = walk.checked;
        let mut offset = Some(Poly::default());
        for (d, index) in leading.iter().enumerate() {
            let stride = dims
                .iter()
                .skip(d + 1)
                .try_fold(Poly::constant(1), |acc, d| acc.mul(d.as_ref()?));
            let sub = self.values.symbols.poly(index, checked, self.block_size);
            offset = match (offset, sub, stride) {
                (Some(o), Some(s), Some(st)) => s.mul(&st).and_then(|t| o.add(&t)),
                _ => None,
            };
        }
        if let Some(r) = range {
            let lo = self
                .values
                .symbols
                .range(r, checked, self.block_size)
                .map(|(lo, _)| lo);
            offset = offset.zip(lo).and_then(|(o, lo)| o.add(&lo));
        }
        offset.map(Who::Owner)
    }

    /// The element-by-element reads of vector expression `e`, as code generation prepares it
    /// (`codegen::Body::prepare`): uniform operands (reductions included) are computed before
    /// the sweep and are not among them.
    pub(super) fn reads(&self, walk: &Walk<'_>, e: &Expr, out: &mut Vec<Read>) {
        let checked = walk.checked;
        if let ExprKind::Call { args, .. } = &e.kind {
            if crate::check::grid::is_grid_call(checked, e) {
                if let Some(v) = args.first() {
                    self.reads(walk, v, out);
                }
                return;
            }
        }
        if *checked.ty(e.id) == Ty::Range {
            return;
        }
        let array_of = |e: &Expr| array_dims(walk, e).map(|(name, _)| name);
        match &e.kind {
            ExprKind::Name(name)
                if (name.name == "ROW" || name.name == "COL")
                    && walk.lookup(&name.name).is_none() => {}
            ExprKind::Call { args, .. }
                if matches!(
                    checked.callees.get(&e.id),
                    Some(Callee::Builtin(Builtin::Transpose))
                ) =>
            {
                if let [arg] = args.as_slice() {
                    out.push(Read {
                        array: array_of(arg),
                        who: Some(Who::Any),
                        span: e.span,
                    });
                }
            }
            ExprKind::Name(name) => match walk.lookup(&name.name) {
                Some(Name::Array(_)) => out.push(Read {
                    array: Some(walk.array_key(&name.name)),
                    who: Some(Who::Owner(Poly::default())),
                    span: e.span,
                }),
                Some(Name::Recomputed(init)) => {
                    let init: &Expr = init;
                    self.reads(walk, init, out);
                }
                _ => {}
            },
            ExprKind::Index { base, indices, .. } => self.index_reads(walk, e, base, indices, out),
            ExprKind::Unary { operand, .. } => self.reads(walk, operand, out),
            ExprKind::Field { base, .. } => self.reads(walk, base, out),
            ExprKind::Binary { lhs, rhs, .. } => {
                self.operand_reads(walk, e, &[lhs.as_ref(), rhs.as_ref()], out)
            }
            ExprKind::Call { args, .. } => {
                let args: Vec<&Expr> = args.iter().collect();
                self.operand_reads(walk, e, &args, out)
            }
            ExprKind::Collective { op, operand, .. } if *op != CollectiveOp::Reduce => {
                self.reads(walk, operand, out)
            }
            _ => {}
        }
    }

    /// The reads of arrays bound whole to the `func` of a map or a scan that vector expression
    /// `e` computes in its sweep (`f(ca[[B]]) /~ r`): a store into such an array reads its own
    /// target. A map's are read where the `func`'s body reads them ([`Self::mapped_array_reads`],
    /// outside a grid-wide statement, whose chunk's element is not the block's); the others by
    /// any thread. Not among [`Self::reads`]: barrier placement counts them where the collective
    /// is prepared (`kir-barriers`' `bound_args_of`), and code generation does not read a
    /// `func`'s body (`codegen/vector.rs` takes these from the store's order).
    fn bound_array_reads(&self, walk: &Walk<'_>, e: &Expr, grid: bool, out: &mut Vec<Read>) {
        let checked = walk.checked;
        match &e.kind {
            // Computed before the sweep, before the store writes anything.
            ExprKind::Collective {
                op: CollectiveOp::Reduce,
                ..
            } => return,
            ExprKind::Collective { op, func, .. } => {
                for (param, arg) in func.bound_args.iter().enumerate() {
                    if !matches!(checked.ty(arg.id), Ty::Array { .. }) {
                        continue;
                    }
                    let mapped = (*op == CollectiveOp::Map && !grid)
                        .then(|| self.mapped_array_reads(walk, e, param, arg))
                        .flatten();
                    match mapped {
                        Some(reads) => out.extend(reads.into_iter().map(|read| Read {
                            array: Some(read.array),
                            who: Some(read.who),
                            span: arg.span,
                        })),
                        None => out.push(Read {
                            array: array_dims(walk, arg).map(|(name, _)| name),
                            who: Some(Who::Any),
                            span: arg.span,
                        }),
                    }
                }
            }
            ExprKind::Name(name) => {
                if let Some(Name::Recomputed(init)) = walk.lookup(&name.name) {
                    let init: &Expr = init;
                    self.bound_array_reads(walk, init, grid, out);
                }
                return;
            }
            _ => {}
        }
        crate::syntax::visit::each_child(e, &mut |child| {
            self.bound_array_reads(walk, child, grid, out)
        });
    }

    fn operand_reads(&self, walk: &Walk<'_>, call: &Expr, operands: &[&Expr], out: &mut Vec<Read>) {
        let checked = walk.checked;
        for (i, operand) in operands.iter().enumerate() {
            let whole = walk.passed_whole(call, i);
            if whole && matches!(checked.ty(operand.id), Ty::Array { .. }) {
                let array = array_dims(walk, operand).map(|(name, _)| name);
                out.push(Read {
                    array,
                    who: Some(Who::Any),
                    span: operand.span,
                });
            } else if !whole && is_vector(checked.ty(operand.id)) {
                self.reads(walk, operand, out);
            }
        }
    }

    /// `a[r]`, `a[[r]]`, a row `a[i]` of a 2-D array, `a[i, r]`, a 2-D slice and gathers `a[v]`
    /// (`codegen::Body::prepare_index`).
    fn index_reads(
        &self,
        walk: &Walk<'_>,
        e: &Expr,
        base: &Expr,
        indices: &[Expr],
        out: &mut Vec<Read>,
    ) {
        let checked = walk.checked;
        let named = array_dims(walk, base);
        let array = match &named {
            Some((n, _)) => Some(n.clone()),
            None => walk
                .is_indexed_copy(base.span)
                .then(|| indexed_copy_key(base)),
        };
        let no_dims: Vec<Option<Poly>> = Vec::new();
        let dims = named.as_ref().map_or(&no_dims, |(_, d)| d);
        let ty = |x: &Expr| checked.ty(x.id).clone();
        if let [r, s] = indices {
            if ty(r) == Ty::Range && ty(s) == Ty::Range && ty(e).tile_shape().is_some() {
                out.push(Read {
                    array,
                    who: Some(Who::Any),
                    span: e.span,
                });
                return;
            }
        }
        if let [index] = indices {
            if dims.len() == 2 && matches!(ty(index), Ty::Scalar(_)) {
                let who = self.owner_at(walk, dims, &[index], None);
                out.push(Read {
                    array,
                    who,
                    span: e.span,
                });
                return;
            }
        }
        let mut range_index: Option<&Expr> = None;
        let mut gathers = false;
        for index in indices {
            match ty(index) {
                Ty::Range => range_index = Some(index),
                Ty::Vector { .. } | Ty::Array { .. } => {
                    gathers = true;
                    self.reads(walk, index, out);
                }
                _ => {}
            }
        }
        let last_is_range = indices.last().is_some_and(|i| ty(i) == Ty::Range);
        let who = match range_index {
            Some(r) if !gathers && last_is_range => {
                let leading: Vec<&Expr> = indices[..indices.len() - 1].iter().collect();
                self.owner_at(walk, dims, &leading, Some(r))
            }
            _ => Some(Who::Any),
        };
        out.push(Read {
            array,
            who,
            span: e.span,
        });
    }
}

/// The key of the `shared` copy of the indexed computed vector `base`: one array per copied
/// expression, as code generation makes one (`codegen::Body::copy_indexed_vector`; each use of
/// a recomputed vector copies its own, under fresh ids). The part before `#` is the name
/// barrier placement shows (as for a collective's partials).
pub(super) fn indexed_copy_key(base: &Expr) -> String {
    format!("indexed#{}", base.id.0)
}

/// Every variable a block assigns (`x <- ...`, `x.f <- ...`), nested blocks included.
pub fn assigned_names(block: &Block, out: &mut BTreeSet<String>) {
    for stmt in &block.stmts {
        match stmt {
            Ast::Assign { target, .. } => {
                if let Some(ExprKind::Name(name)) = root_name(target).map(|e| &e.kind) {
                    out.insert(name.name.clone());
                }
            }
            Ast::If {
                then_branch,
                else_branch,
                ..
            } => {
                assigned_names(then_branch, out);
                if let Some(e) = else_branch {
                    assigned_names(e, out);
                }
            }
            Ast::For { var, body, .. } => {
                out.insert(var.name.clone());
                assigned_names(body, out);
            }
            Ast::While { body, .. } => assigned_names(body, out),
            Ast::Let { .. } | Ast::Return { .. } | Ast::Call { .. } => {}
        }
    }
}

/// The array that `base` names and its dimensions' polynomials, as code generation's
/// `Body::array` makes it: a variable, or a row `a[i]` of a two-dimensional array, which is
/// `a`'s elements seen as a one-dimensional array of one row (its length a polynomial only when
/// unchecked). `None` for an indexed computed vector, read from its `shared` copy.
pub(super) fn array_dims(walk: &Walk<'_>, base: &Expr) -> Option<(String, Vec<Option<Poly>>)> {
    if walk.is_indexed_copy(base.span) {
        return None;
    }
    match &base.kind {
        ExprKind::Name(name) => match walk.lookup(&name.name) {
            Some(Name::Array(dims)) => Some((walk.array_key(&name.name), dims.clone())),
            _ => None,
        },
        ExprKind::Index {
            base: inner,
            indices,
            checked,
        } if indices.len() == 1 && matches!(walk.checked.ty(indices[0].id), Ty::Scalar(_)) => {
            let (name, dims) = array_dims(walk, inner)?;
            let [_, cols] = dims.as_slice() else {
                return None;
            };
            let cols = if *checked { None } else { cols.clone() };
            Some((name, vec![cols]))
        }
        _ => None,
    }
}

/// The variable at the root of `a.f.g` (`codegen/stmt.rs`'s `root_name`).
fn root_name(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Name(_) => Some(e),
        ExprKind::Field { base, .. } => root_name(base),
        _ => None,
    }
}

/// `a[i].f`: a field of an element of an array (stored as an element, `codegen/stmt.rs`).
fn is_element_field(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Field { base, .. } => {
            matches!(base.kind, ExprKind::Index { .. }) || is_element_field(base)
        }
        _ => false,
    }
}
