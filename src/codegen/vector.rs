//! Block vectors: slices, ranges, maps, elementwise operators, register vectors, and the
//! vector assignment. Reductions are in `reduce.rs`, scans in `scan.rs`.
//!
//! **Fusion.** A vector expression is never built in memory. [`Body::prepare`] evaluates its
//! uniform parts once (slice bounds, broadcast operands, bound arguments: *hoisting*) and
//! returns its [`Shape`];
//! [`Body::elem`] then computes the element at one position inside the consumer's loop. A whole
//! chain of slices, operators and maps thus becomes one loop that ends in a store, a reduction
//! or a scan.
//!
//! **Positions.** Element `k` belongs to thread `k mod BLOCKSIZE` everywhere: thread `t` handles
//! `k = t, t + BLOCKSIZE, ...` (coalesced: a warp touches 32 consecutive elements at a time). A
//! consumer walks the positions with the [`Sweep`] that `kir-sweeps` chose for it
//! (`kir/sweeps.rs` says when each), checked against the shape here ([`Body::check_sweep`]):
//! - `Unrolled`: one straight-line copy per slot `s` (`k = t + s * BLOCKSIZE`), so register
//!   vectors are indexed with constants and stay in registers;
//! - `Stride`: a block-stride loop, thread-divergent (the usual CUDA loop);
//! - `Tiles`: a loop over tiles of `BLOCKSIZE` elements that every thread runs the same number of
//!   times, for consumers that need the whole block at every tile (scans, order-preserving
//!   reductions): their barriers stay in uniform control flow.
//!
//! In `Unrolled` and `Tiles` the body runs in uniform code with a `valid` flag (`k < n`) that
//! guards every per-element computation; in `Stride` it runs only for valid positions.

use super::body::{ArrayRef, Body, RegVector, Result, Var};
use super::error::CodegenError;
use super::memory::Element;
use crate::check::types::{Len, Ty};
use crate::check::Callee;
use crate::syntax::ast::{CollectiveOp, Expr, ExprKind};
use crate::syntax::span::Span;
use inkwell::values::{BasicValueEnum, IntValue};
use inkwell::IntPredicate;

/// Where a vector assignment stores its elements: the kernel IR's statement says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Positions {
    /// `kir::Stmt::VectorStore`: a whole array, a slice, a row or a register vector.
    Contiguous,
    /// `kir::Stmt::Scatter`: each element at the position its subscripts give; a
    /// two-dimensional slice `a[r, s]` is a tile of `tile_cols` columns
    /// (`kir::Subscript::TileRows`).
    Scatter { tile_cols: Option<u64> },
}

/// What [`Body::prepare`] learnt about a vector expression.
#[derive(Debug, Clone, Copy)]
pub struct Shape<'ctx> {
    /// The number of elements (`i32`; a constant when known at compile time).
    pub len: IntValue<'ctx>,
    /// A compile-time upper bound of the length.
    pub bound: Option<u64>,
    /// The expression reads a register vector: its positions must be unrolled slots.
    pub registers: bool,
    pub left_scan: bool,
    pub right_scan: bool,
}

/// One position of a sweep.
#[derive(Debug, Clone, Copy)]
pub struct Pos<'ctx> {
    /// The element index (`i32`).
    pub k: IntValue<'ctx>,
    /// `k < n` (`i1`); the constant true when every position is valid.
    pub valid: IntValue<'ctx>,
    /// The slot (`k / BLOCKSIZE`) when it is a compile-time constant.
    pub slot: Option<u32>,
    /// How many positions of this tile are valid (uniform `i32`): threads `0 .. count`.
    pub count: IntValue<'ctx>,
    /// True for the first tile the sweep visits (uniform `i1`).
    pub first: IntValue<'ctx>,
    /// 0 or 1, alternating from slot to slot of an unrolled sweep (uniform `i32`): which half
    /// of a double-buffered scratch array the slot's collectives use. 0 in a loop over tiles,
    /// where a barrier orders each tile's partials against the next tile's (`kir-barriers`).
    pub parity: IntValue<'ctx>,
    /// The sweep has this one tile only: nothing is carried from tile to tile.
    pub single: bool,
}

/// How a consumer walks the positions of a vector: decided by `kir-sweeps`.
pub use crate::kir::Sweep;
use crate::kir::{Consumer, SweepPlan};

/// Where a vector assignment writes element `k`.
#[derive(Clone)]
enum Dest<'ctx> {
    /// `x <- v` for an array variable `x`: element `k` (row-major for two dimensions).
    Whole,
    /// `a[r] <- v` / `a[[r]] <- v`: element `lo + k`; with a `row`, `a[i, r] <- v` for a
    /// two-dimensional `a`: element `(i, lo + k)`.
    Slice {
        row: Option<IntValue<'ctx>>,
        lo: IntValue<'ctx>,
        checked: bool,
    },
    /// `a[i] <- v` for a two-dimensional `a`: element `(i, k)`.
    Row { row: IntValue<'ctx>, checked: bool },
    /// A scatter (`kir::Stmt::Scatter`): element `k` at the position the subscripts give at
    /// `k`, each computed like a gather's (`elem`): uniform, `start + k` or a vector's element.
    Indexed {
        subscripts: Vec<Expr>,
        checked: bool,
    },
    /// A two-dimensional slice `a[r, s]` (`kir::Subscript::TileRows`/`TileCols`): element `k`
    /// at (`r.start + k / cols`, `s.start + k % cols`).
    Tile {
        // Boxed: two expressions would make this variant several times larger than the others.
        ranges: Box<(Expr, Expr)>,
        cols: u64,
        checked: bool,
    },
}

impl Dest<'_> {
    /// The subscripts that are block vectors: computed element by element in the store's
    /// sweep, scans included.
    fn vector_subscripts(&self, is_vector: impl Fn(&Expr) -> bool) -> Vec<Expr> {
        match self {
            Dest::Indexed { subscripts, .. } => subscripts
                .iter()
                .filter(|s| is_vector(s))
                .cloned()
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// A checked read `base[[range]]` found by [`Body::checked_range_reads`].
struct CheckedRead<'e> {
    expr: &'e Expr,
    base: &'e Expr,
    index: &'e Expr,
    range: &'e str,
}

/// What a vector assignment writes to.
#[derive(Clone)]
enum Target<'ctx> {
    Memory {
        array: ArrayRef<'ctx>,
        dest: Dest<'ctx>,
    },
    Registers(RegVector<'ctx>),
}

impl<'a, 'ctx> Body<'a, 'ctx> {
    /// True for an operand that is a block vector in an elementwise position.
    pub fn is_vector_operand(&self, e: &Expr) -> bool {
        matches!(
            self.ty_of(e),
            Ty::Vector { .. } | Ty::Array { .. } | Ty::Range
        )
    }

    pub fn hoist(&mut self, e: &Expr) -> Result<()> {
        if self.hoisted.contains_key(&e.id) {
            return Ok(());
        }
        let v = self.arg_value(e)?;
        self.hoisted.insert(e.id, v);
        Ok(())
    }

    fn range_len(&self, lo: IntValue<'ctx>, hi: IntValue<'ctx>) -> Result<IntValue<'ctx>> {
        let len = self.b.build_int_sub(hi, lo, "len")?;
        self.smax(len, self.i32(0))
    }

    /// `v` of `grid(v, scratch)`.
    pub fn grid_operand<'e>(&self, e: &'e Expr) -> Option<&'e Expr> {
        match &e.kind {
            ExprKind::Call { args, .. } if crate::check::grid::is_grid_call(self.cx.checked, e) => {
                args.first()
            }
            _ => None,
        }
    }

    /// The length of vector expression `e` when the checker knows it at compile time.
    pub fn static_len(&self, e: &Expr) -> Option<u64> {
        match self.ty_of(e) {
            Ty::Vector {
                len: Len::Static(n),
                ..
            } => Some(*n),
            Ty::Array { dims, .. } => dims.iter().try_fold(1u64, |acc, d| match d {
                Len::Static(n) => acc.checked_mul(*n),
                Len::Dynamic => None,
            }),
            Ty::Range => match self.cx.checked.range_lens.get(&e.id) {
                Some(Len::Static(n)) => Some(*n),
                _ => None,
            },
            _ => None,
        }
    }

    fn shape(&self, len: IntValue<'ctx>) -> Shape<'ctx> {
        Shape {
            len,
            bound: len
                .get_sign_extended_constant()
                .map(|n| u64::try_from(n).unwrap_or(0)),
            registers: false,
            left_scan: false,
            right_scan: false,
        }
    }

    /// Both operands' shapes: the length is the shorter one (the checker makes them equal when
    /// it can), the bound the smaller one.
    pub fn meet(&self, a: Shape<'ctx>, b: Shape<'ctx>) -> Result<Shape<'ctx>> {
        let len = match (a.bound, b.bound) {
            (Some(x), Some(y)) if a.len.is_const() && b.len.is_const() => self.i32(x.min(y) as i64),
            _ => self.smin(a.len, b.len)?,
        };
        Ok(Shape {
            len,
            bound: match (a.bound, b.bound) {
                (Some(x), Some(y)) => Some(x.min(y)),
                (x, y) => x.or(y),
            },
            registers: a.registers || b.registers,
            left_scan: a.left_scan || b.left_scan,
            right_scan: a.right_scan || b.right_scan,
        })
    }

    /// Evaluates the uniform parts of vector expression `e` and returns its shape. Runs in
    /// block-uniform code.
    pub fn prepare(&mut self, e: &Expr) -> Result<Shape<'ctx>> {
        // Block vectors are built in uniform code only: the checker rejects them in a func
        // (E0310), and a vector statement prepares its nested vectors (the operands of its
        // reductions included) before its sweep starts.
        if self.lane_depth > 0 {
            return Err(CodegenError::internal(
                "a block vector inside per-element code",
                e.span,
            ));
        }
        let mut shape = self.prepare_kind(e)?;
        if let Some(n) = self.static_len(e) {
            // The checker's length is exact: use it, so that the sweep knows it.
            shape.len = self.i32(n as i64);
            shape.bound = Some(n);
        }
        Ok(shape)
    }

    fn prepare_kind(&mut self, e: &Expr) -> Result<Shape<'ctx>> {
        // `grid(v, scratch)` is `v`, walked over the block's chunk (`grid.rs`).
        if let Some(v) = self.grid_operand(e) {
            return self.prepare(v);
        }
        if *self.ty_of(e) == Ty::Range {
            self.hoist(e)?;
            let (lo, hi) = self.range_bounds(self.hoisted[&e.id])?;
            let len = self.range_len(lo, hi)?;
            return Ok(self.shape(len));
        }
        match &e.kind {
            // The threads' rows and columns: one element per thread of the block.
            ExprKind::Name(name)
                if (name.name == "ROW" || name.name == "COL")
                    && self.lookup(&name.name).is_none() =>
            {
                let n = self.block_size_or_default();
                Ok(self.shape(self.i32(i64::from(n))))
            }
            ExprKind::Call { args, .. } if self.is_transpose(e) => {
                let [arg] = args.as_slice() else {
                    return Err(CodegenError::internal(
                        "`transpose` without one argument",
                        e.span,
                    ));
                };
                // Element `k` reads element `(k % r) * c + k / r` of the array: any thread's.
                let (r, c) = self.tile_dims(arg)?;
                Ok(self.shape(self.i32((r * c) as i64)))
            }
            ExprKind::Name(name) => match self.lookup(&name.name).cloned() {
                Some(Var::Registers(r)) => Ok(Shape {
                    registers: true,
                    ..self.shape(self.i32(r.len as i64))
                }),
                Some(Var::Array(array)) => {
                    let len = match array.dims.as_slice() {
                        [n] => *n,
                        [r, c] => self.b.build_int_mul(*r, *c, "len")?,
                        _ => {
                            return Err(CodegenError::internal(
                                "an array without dimensions",
                                e.span,
                            ))
                        }
                    };
                    Ok(self.shape(len))
                }
                _ => Err(CodegenError::internal(
                    format!("`{}` is not a block vector", name.name),
                    e.span,
                )),
            },
            ExprKind::Index { base, indices, .. } => self.prepare_index(e, base, indices),
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
                op, func, operand, ..
            } => {
                for arg in &func.bound_args {
                    self.hoist(arg)?;
                }
                let mut shape = self.prepare(operand)?;
                match op {
                    CollectiveOp::ScanLeft => shape.left_scan = true,
                    CollectiveOp::ScanRight => shape.right_scan = true,
                    CollectiveOp::Map => {}
                    CollectiveOp::Reduce => {
                        return Err(CodegenError::internal(
                            "a reduction where a block vector was expected",
                            e.span,
                        ))
                    }
                }
                Ok(shape)
            }
            ExprKind::VectorLit { elems } => {
                // `[]` has no positions: every sweep over it is empty, and a reduction of it
                // is zero.
                for elem in elems {
                    self.hoist(elem)?;
                }
                Ok(self.shape(self.i32(elems.len() as i64)))
            }
            _ => Err(CodegenError::internal(
                "a uniform value where a block vector was expected",
                e.span,
            )),
        }
    }

    /// `a[r]`, `a[[r]]`, a row `a[i]` of a 2-D array, `a[i, r]`, and gathers `a[v]`.
    fn prepare_index(&mut self, e: &Expr, base: &Expr, indices: &[Expr]) -> Result<Shape<'ctx>> {
        self.copy_indexed_vector(base)?;
        let array = self.array(base)?;
        if let Some((r, c)) = self.slice_2d_shape(e, indices) {
            // A two-dimensional slice: element `k` at (`r.start + k / c`, `s.start + k % c`),
            // which no affine owner describes (another thread's row): any thread.
            for index in indices {
                self.hoist(index)?;
            }
            return Ok(self.shape(self.i32((r * c) as i64)));
        }
        if let [index] = indices {
            if array.dims.len() == 2 && matches!(self.ty_of(index), Ty::Scalar(_)) {
                // A row of a two-dimensional array: elements (i, 0..cols).
                self.hoist(index)?;
                return Ok(self.shape(array.dims[1]));
            }
        }
        let mut shape: Option<Shape> = None;
        for index in indices {
            let s = match self.ty_of(index) {
                Ty::Range => {
                    self.hoist(index)?;
                    let (lo, hi) = self.range_bounds(self.hoisted[&index.id])?;
                    let mut s = self.shape(self.range_len(lo, hi)?);
                    if let Some(n) = self.static_len(index) {
                        s.len = self.i32(n as i64);
                        s.bound = Some(n);
                    }
                    Some(s)
                }
                Ty::Vector { .. } | Ty::Array { .. } => Some(self.prepare(index)?),
                _ => {
                    self.hoist(index)?;
                    None
                }
            };
            if let Some(s) = s {
                shape = Some(match shape {
                    Some(m) => self.meet(m, s)?,
                    None => s,
                });
            }
        }
        let shape = shape.ok_or_else(|| {
            CodegenError::internal("a subscript that makes no block vector", e.span)
        })?;
        Ok(shape)
    }

    pub fn block_size_or_default(&self) -> u32 {
        match &self.mode {
            super::body::Mode::Kernel { block_size, .. } => *block_size,
            super::body::Mode::Func { .. } => 1,
        }
    }

    /// Which arguments of call `e` a `func` takes whole (its `Range` and array parameters);
    /// the others are elementwise (an elementwise call) or uniform. All false for other callees.
    fn passed_whole(&self, e: &Expr, args: usize) -> Result<Vec<bool>> {
        let Some(Callee::Func(item)) = self.cx.checked.callees.get(&e.id) else {
            return Ok(vec![false; args]);
        };
        let Some(crate::syntax::ast::Item::Func(decl)) = self.cx.checked.program.items.get(*item)
        else {
            return Err(CodegenError::internal(
                "a call of a `func` that is not one",
                e.span,
            ));
        };
        let mut whole = Vec::with_capacity(args);
        for param in &decl.params {
            let ty = self
                .cx
                .resolver
                .borrow_mut()
                .resolve(&param.ty, crate::check::types::Space::Global)?;
            whole.push(matches!(ty, Ty::Range | Ty::Array { .. }));
        }
        Ok(whole)
    }

    /// Elementwise operands: vectors are prepared, uniform ones evaluated once (broadcast).
    /// A `func`'s array and `Range` arguments are passed whole, like uniform values; its
    /// vector arguments for scalar or record parameters make it an elementwise call.
    fn prepare_operands(&mut self, e: &Expr, operands: &[&Expr]) -> Result<Shape<'ctx>> {
        let mut shape: Option<Shape> = None;
        let whole = self.passed_whole(e, operands.len())?;
        for (operand, whole) in operands.iter().zip(whole) {
            if whole && matches!(self.ty_of(operand), Ty::Array { .. }) {
                let array = self.array(operand)?;
                let packed = self.pack_array_arg(&array, operand.span)?;
                self.hoisted.insert(operand.id, packed);
            } else if whole {
                self.hoist(operand)?;
            } else if self.is_vector_operand(operand) {
                let s = self.prepare(operand)?;
                shape = Some(match shape {
                    Some(m) => self.meet(m, s)?,
                    None => s,
                });
            } else {
                self.hoist(operand)?;
            }
        }
        shape.ok_or_else(|| {
            CodegenError::internal("an elementwise operation without a vector operand", e.span)
        })
    }

    /// Element `pos.k` of prepared vector expression `e` (or `e` itself when it is uniform).
    pub fn elem(&mut self, e: &Expr, pos: &Pos<'ctx>) -> Result<BasicValueEnum<'ctx>> {
        // Each node's instructions (a read's bounds test, load and zero, an operator) carry
        // its own line and column, not only the statement's.
        self.located(e.point(), |this| this.elem_here(e, pos))
    }

    fn elem_here(&mut self, e: &Expr, pos: &Pos<'ctx>) -> Result<BasicValueEnum<'ctx>> {
        let k = pos.k;
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
        if let Some(v) = self.tile_vals.get(&e.id) {
            return Ok(*v);
        }
        if let Some(v) = self.grid_operand(e) {
            return self.elem(v, pos);
        }
        match &e.kind {
            ExprKind::Name(name)
                if (name.name == "ROW" || name.name == "COL")
                    && self.lookup(&name.name).is_none() =>
            {
                let cols = self.i32(i64::from(self.block_shape().1));
                Ok(if name.name == "ROW" {
                    self.b.build_int_unsigned_div(k, cols, "row")?
                } else {
                    self.b.build_int_unsigned_rem(k, cols, "col")?
                }
                .into())
            }
            ExprKind::Call { args, .. } if self.is_transpose(e) => {
                let [arg] = args.as_slice() else {
                    return Err(CodegenError::internal(
                        "`transpose` without one argument",
                        e.span,
                    ));
                };
                let array = self.array(arg)?;
                let (r, c) = self.tile_dims(arg)?;
                // Element (i, j) = (k / r, k % r) of the `c x r` result is t[j, i].
                let rows = self.i32(r as i64);
                let i = self.b.build_int_unsigned_div(k, rows, "t.i")?;
                let j = self.b.build_int_unsigned_rem(k, rows, "t.j")?;
                let j_row = self.b.build_int_nuw_mul(j, self.i32(c as i64), "t.row")?;
                let flat = self.b.build_int_nuw_add(j_row, i, "t.k")?;
                let k64 = self.index64(flat, true)?;
                let at = Element {
                    index: k64,
                    in_bounds: None,
                };
                self.load_element(&array, &at, e.span)
            }
            ExprKind::Index {
                base,
                indices,
                checked,
            } if self.slice_2d_shape(e, indices).is_some() => {
                let array = self.array(base)?;
                let subscripts = self.tile_subscripts(e, indices, k)?;
                let at = self.element(&array, &subscripts, *checked, e.span)?;
                self.load_element(&array, &at, e.span)
            }
            ExprKind::Name(name) => match self.lookup(&name.name).cloned() {
                Some(Var::Registers(r)) => {
                    let slot = pos.slot.ok_or_else(|| {
                        CodegenError::internal(
                            "a register vector read at a run-time position",
                            e.span,
                        )
                    })?;
                    let ty = self.reg_type(&r.elem, e.span)?;
                    let ptr = self.slot_ptr(r.ptr, ty, r.slots, slot)?;
                    Ok(self.b.build_load(ty, ptr, &name.name)?)
                }
                _ => {
                    let array = self.array(e)?;
                    let k64 = self.index64(k, true)?;
                    let at = Element {
                        index: k64,
                        in_bounds: None,
                    };
                    self.load_element(&array, &at, e.span)
                }
            },
            ExprKind::Index {
                base,
                indices,
                checked,
            } => {
                let array = self.array(base)?;
                let row_of_2d = indices.len() == 1
                    && array.dims.len() == 2
                    && matches!(self.ty_of(&indices[0]), Ty::Scalar(_));
                let mut subscripts = Vec::with_capacity(2);
                for index in indices {
                    let i = self.elem(index, pos)?.into_int_value();
                    subscripts.push(self.index64(i, self.scalar_of(index)?.is_signed())?);
                }
                if row_of_2d {
                    subscripts.push(self.index64(k, true)?);
                }
                let at = self.element(&array, &subscripts, *checked, e.span)?;
                self.load_element(&array, &at, e.span)
            }
            ExprKind::Unary { op, operand, .. } => {
                let v = self.elem(operand, pos)?;
                let scalar = self.scalar_of(operand)?;
                self.unary(*op, v, scalar)
            }
            ExprKind::Binary { op, lhs, rhs, .. } => {
                if let Some(v) = self.contracted(*op, lhs, rhs, &mut |this, e| this.elem(e, pos))? {
                    return Ok(v);
                }
                let l = self.elem(lhs, pos)?;
                let r = self.elem(rhs, pos)?;
                let (ls, rs) = (self.scalar_of(lhs)?, self.scalar_of(rhs)?);
                self.binary(*op, l, r, ls, rs)
            }
            ExprKind::Field { base, field } => {
                let v = self.elem(base, pos)?;
                self.field(base, v, field)
            }
            ExprKind::Call { args, .. } => {
                let target = self.callee(e)?;
                let whole = self.passed_whole(e, args.len())?;
                let mut values = Vec::with_capacity(args.len());
                for (arg, whole) in args.iter().zip(whole) {
                    // A `Range` passed whole is the Range, not the vector of its indices.
                    let hoisted = self.hoisted.get(&arg.id).copied().filter(|_| whole);
                    values.push(match hoisted {
                        Some(v) => v,
                        None => self.elem(arg, pos)?,
                    });
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
                    values.push(self.elem(arg, pos)?);
                }
                values.push(self.elem(operand, pos)?);
                let mut args = func.bound_args.clone();
                args.push(operand.as_ref().clone());
                self.apply(target, e, &values, &args)
            }
            ExprKind::VectorLit { elems } => {
                let Some(first) = elems.first() else {
                    // `[]`: no valid position, so this value is never used.
                    return self.zero_of(self.ty_of(e).element(), e.span);
                };
                let mut v = self.elem(first, pos)?;
                for (i, elem) in elems.iter().enumerate().skip(1) {
                    let x = self.elem(elem, pos)?;
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

    /// Element `pos.k` of `value`, like [`Body::elem`], but with one bounds test for all of its
    /// checked reads when they share one: `x[[r]] * y[[r]]` with `x` and `y` of one length is
    /// `inside ? x[k] * y[k] : 0.0 * 0.0` (the second computed with every such read replaced by
    /// its zero, as each read alone gives outside), instead of a guard and a zero per read
    /// (LLVM does not merge those on NVPTX: its jump threading is off for targets with divergent
    /// branches). Exact: both sides compute what the separately guarded reads would. Which reads
    /// share a test is `kir-guards`' decision; the others keep their own guards (plain `elem`).
    pub fn elem_merged(&mut self, value: &Expr, pos: &Pos<'ctx>) -> Result<BasicValueEnum<'ctx>> {
        let Some(guard) = self.merged_guards.get(&value.span).cloned() else {
            return self.elem(value, pos);
        };
        let mut reads: Vec<CheckedRead> = Vec::new();
        self.checked_range_reads(value, &mut reads);
        let found: Vec<Span> = reads.iter().map(|r| r.expr.span).collect();
        if found != guard.reads || reads.iter().any(|r| r.range != guard.range) {
            return Err(CodegenError::internal(
                "kir-guards merged other reads than this vector's",
                value.span,
            ));
        }
        let mut arrays = Vec::with_capacity(reads.len());
        for read in &reads {
            arrays.push(self.array(read.base)?);
        }
        // The one test, on the (common) element index.
        let i = self.elem(reads[0].index, pos)?.into_int_value();
        let i64v = self.index64(i, true)?;
        let at = self.element(&arrays[0], &[i64v], true, value.span)?;
        let Some(inside) = at.in_bounds else {
            return self.elem(value, pos);
        };
        for read in &reads {
            let zero = self.zero_of(self.ty_of(read.expr).element(), read.expr.span)?;
            self.tile_vals.insert(read.expr.id, zero);
        }
        let merged = self.elem(value, pos).and_then(|outside| {
            self.value_when(inside, outside, &mut |this| {
                let unchecked = Element {
                    index: at.index,
                    in_bounds: None,
                };
                for (read, array) in reads.iter().zip(&arrays) {
                    let span = read.expr.span;
                    let v =
                        this.located(span, |this| this.load_element(array, &unchecked, span))?;
                    this.tile_vals.insert(read.expr.id, v);
                }
                this.elem(value, pos)
            })
        });
        for read in &reads {
            self.tile_vals.remove(&read.expr.id);
        }
        merged
    }

    /// The checked reads `a[[r]]` (one range subscript named by a variable) that `e` computes
    /// per element, through operators, calls, fields and maps (not through scans: their values
    /// come from `tile_vals`).
    fn checked_range_reads<'e>(&self, e: &'e Expr, out: &mut Vec<CheckedRead<'e>>) {
        if self.hoisted.contains_key(&e.id) || self.tile_vals.contains_key(&e.id) {
            return;
        }
        match &e.kind {
            ExprKind::Index {
                base,
                indices,
                checked: true,
            } => {
                if let [index] = indices.as_slice() {
                    if let (ExprKind::Name(range), Ty::Range) = (&index.kind, self.ty_of(index)) {
                        out.push(CheckedRead {
                            expr: e,
                            base,
                            index,
                            range: &range.name,
                        });
                    }
                }
            }
            ExprKind::Unary { operand, .. } => self.checked_range_reads(operand, out),
            ExprKind::Binary { lhs, rhs, .. } => {
                self.checked_range_reads(lhs, out);
                self.checked_range_reads(rhs, out);
            }
            ExprKind::Call { args, .. } => {
                for arg in args {
                    self.checked_range_reads(arg, out);
                }
            }
            ExprKind::Field { base, .. } => self.checked_range_reads(base, out),
            ExprKind::Collective {
                op: CollectiveOp::Map,
                operand,
                ..
            } => self.checked_range_reads(operand, out),
            _ => {}
        }
    }

    pub fn callee(&self, e: &Expr) -> Result<Callee> {
        self.cx.checked.callees.get(&e.id).copied().ok_or_else(|| {
            CodegenError::internal("the checker did not resolve this function", e.span)
        })
    }

    /// The vector operands of `e` that are computed per element (its block-vector children).
    fn vector_children<'e>(&self, e: &'e Expr) -> Vec<&'e Expr> {
        let children: Vec<&Expr> = match &e.kind {
            ExprKind::Unary { operand, .. } => vec![operand],
            ExprKind::Binary { lhs, rhs, .. } => vec![lhs, rhs],
            ExprKind::Call { args, .. } if self.grid_operand(e).is_some() => {
                args.iter().take(1).collect()
            }
            ExprKind::Call { args, .. } => args.iter().collect(),
            ExprKind::Field { base, .. } => vec![base],
            ExprKind::Index { indices, .. } => indices.iter().collect(),
            ExprKind::Collective { operand, .. } => vec![operand],
            _ => Vec::new(),
        };
        children
            .into_iter()
            .filter(|c| !self.hoisted.contains_key(&c.id) && self.is_vector_operand(c))
            .collect()
    }

    /// Computes, at `pos`, the values inside `e` that need the whole block (scans, innermost
    /// first). Runs in block-uniform code, once per position of a `Tiles` or `Unrolled` sweep.
    pub fn tile_prepare(&mut self, e: &Expr, pos: &Pos<'ctx>) -> Result<()> {
        if let Some(&(buffer, ty, slots)) = self.materialised.get(&e.id) {
            let slot = pos.slot.ok_or_else(|| {
                CodegenError::internal("a computed scan read at a run-time position", e.span)
            })?;
            let ptr = self.slot_ptr(buffer, ty, slots, slot)?;
            let v = self.b.build_load(ty, ptr, "scan.value")?;
            self.tile_vals.insert(e.id, v);
            return Ok(());
        }
        for child in self.vector_children(e) {
            self.tile_prepare(child, pos)?;
        }
        if let ExprKind::Collective {
            op: op @ (CollectiveOp::ScanLeft | CollectiveOp::ScanRight),
            operand,
            ..
        } = &e.kind
        {
            let zero = self.zero_of(self.ty_of(operand).element(), operand.span)?;
            let x = self.value_when(pos.valid, zero, &mut |this| this.elem(operand, pos))?;
            let y = self.located(e.span, |this| this.block_scan(e, *op, x, pos))?;
            self.tile_vals.insert(e.id, y);
        }
        Ok(())
    }

    // ---- sweeps ----

    /// What `kir-sweeps` decided for `consumer`. Each use checks it against what code
    /// generation knows of the vector's shape ([`Body::check_sweep`]): a disagreement is a
    /// loomc bug.
    pub fn planned(&self, consumer: Consumer) -> Result<SweepPlan> {
        self.sweeps.get(&consumer).copied().ok_or_else(|| {
            CodegenError::internal(
                "kir-sweeps planned no sweep for this consumer",
                consumer.span(),
            )
        })
    }

    /// `sweep` visits every position of `shape` as the consumer needs: unrolled slots cover
    /// its compile-time length, and registers and mixed scans are only ever unrolled.
    pub fn check_sweep(&self, sweep: Sweep, shape: &Shape<'ctx>, span: Span) -> Result<()> {
        let block_size = u64::from(self.block_size(span)?);
        match sweep {
            Sweep::Unrolled { slots } => {
                let known = shape
                    .len
                    .get_sign_extended_constant()
                    .filter(|_| self.grid_window.is_none());
                if self.grid_window.is_some()
                    || known.is_some_and(|n| n.max(0) as u64 > u64::from(slots) * block_size)
                    || (shape.left_scan && shape.right_scan && slots > 1)
                {
                    return Err(CodegenError::internal(
                        format!("kir-sweeps unrolled {slots} slots for a vector it does not cover"),
                        span,
                    ));
                }
                Ok(())
            }
            Sweep::Stride | Sweep::Tiles if shape.registers => Err(CodegenError::internal(
                "kir-sweeps loops over a register vector",
                span,
            )),
            Sweep::Stride | Sweep::Tiles if shape.left_scan && shape.right_scan => Err(
                CodegenError::internal("kir-sweeps left mixed scans in a loop", span),
            ),
            Sweep::Stride if shape.left_scan || shape.right_scan => Err(CodegenError::internal(
                "kir-sweeps walks a scan with a block-stride loop",
                span,
            )),
            _ => Ok(()),
        }
    }

    /// How many positions a sweep over `shape` walks, and from where: a grid-wide statement
    /// walks its block's chunk `[lo, hi)` (positions `lo + k`), anything else `0 .. shape.len`.
    pub fn walked(&self, shape: &Shape<'ctx>) -> Result<(IntValue<'ctx>, Option<IntValue<'ctx>>)> {
        Ok(match self.grid_window {
            Some((lo, hi)) => (self.range_len(lo, hi)?, Some(lo)),
            None => (shape.len, None),
        })
    }

    /// Position `k` of a sweep that starts at `offset` ([`Self::walked`]).
    pub fn at_offset(
        &self,
        offset: Option<IntValue<'ctx>>,
        k: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>> {
        Ok(match offset {
            Some(lo) => self.b.build_int_add(lo, k, "grid.k")?,
            None => k,
        })
    }

    /// Walks the positions `0 .. shape.len` the way `sweep` says, calling `body` at each;
    /// `reverse` visits the tiles from the last to the first (right scans).
    pub fn sweep(
        &mut self,
        shape: &Shape<'ctx>,
        sweep: Sweep,
        reverse: bool,
        span: Span,
        body: &mut dyn FnMut(&mut Self, &Pos<'ctx>) -> Result<()>,
    ) -> Result<()> {
        let block_size = self.block_size(span)?;
        let size = self.i32(block_size as i64);
        let (n, offset) = self.walked(shape)?;
        let mut body = |this: &mut Self, pos: &Pos<'ctx>| -> Result<()> {
            let k = this.at_offset(offset, pos.k)?;
            body(this, &Pos { k, ..*pos })
        };
        let body: &mut dyn FnMut(&mut Self, &Pos<'ctx>) -> Result<()> = &mut body;
        match sweep {
            Sweep::Unrolled { slots } => {
                let tid = self.tid()?;
                let order: Vec<u32> = if reverse {
                    (0..slots).rev().collect()
                } else {
                    (0..slots).collect()
                };
                for (visit, s) in order.into_iter().enumerate() {
                    let base = self.i32(i64::from(s) * i64::from(block_size));
                    let count = self.tile_count(n, base, size)?;
                    let k = self.b.build_int_add(tid, base, "k")?;
                    let valid = match count.get_sign_extended_constant() {
                        Some(c) if c >= i64::from(block_size) => self.bool_const(true),
                        Some(c) if c <= 0 => continue,
                        _ => self
                            .b
                            .build_int_compare(IntPredicate::ULT, tid, count, "valid")?,
                    };
                    let pos = Pos {
                        k,
                        valid,
                        slot: Some(s),
                        count,
                        first: self.bool_const(visit == 0),
                        parity: self.i32((visit % 2) as i64),
                        single: slots == 1,
                    };
                    if count.is_const() {
                        body(self, &pos)?;
                    } else {
                        // A uniform condition (n is uniform): every thread takes the branch.
                        let any = self.b.build_int_compare(
                            IntPredicate::SGT,
                            count,
                            self.i32(0),
                            "tile.any",
                        )?;
                        self.build_if(any, &mut |this| body(this, &pos))?;
                    }
                }
                Ok(())
            }
            Sweep::Stride => self.block_stride_loop(n, span, &mut |this, k| {
                let pos = Pos {
                    k,
                    valid: this.bool_const(true),
                    slot: None,
                    count: n,
                    first: this.bool_const(true),
                    parity: this.i32(0),
                    single: false,
                };
                body(this, &pos)
            }),
            Sweep::Tiles => {
                // One tile per trip, and a barrier after it where `kir-barriers` lists one: the
                // next tile's collectives write the partials this tile's read, as a CUDA block
                // scan in a loop does. None where no collective has partials (one warp), nor
                // where another collective's barrier orders each one's partials. (Double-buffered
                // partials, half by the tile's parity, would need no barrier, but two tiles per
                // trip for a constant parity: examples/exclusive_scan made 75 more SASS
                // instructions and 37 M more instructions to compile that way.)
                let tiles = self.ceil_div(n, size)?;
                self.build_counted_loop(self.i32(0), tiles, self.i32(1), &mut |this, visit| {
                    this.tile(n, tiles, visit, reverse, &mut *body)?;
                    match this.sync.plans_tile_barrier(span) {
                        true => this.collective_barrier(span, crate::kir::TILE_BARRIER),
                        false => Ok(()),
                    }
                })
            }
        }
    }

    /// One tile of a `Tiles` sweep: the `visit`-th visited.
    fn tile(
        &mut self,
        n: IntValue<'ctx>,
        tiles: IntValue<'ctx>,
        visit: IntValue<'ctx>,
        reverse: bool,
        body: &mut dyn FnMut(&mut Self, &Pos<'ctx>) -> Result<()>,
    ) -> Result<()> {
        let size = self.i32(i64::from(self.block_size_or_default()));
        let j = if reverse {
            let last = self.b.build_int_sub(tiles, self.i32(1), "")?;
            self.b.build_int_sub(last, visit, "tile")?
        } else {
            visit
        };
        let base = self.b.build_int_mul(j, size, "base")?;
        let count = self.tile_count(n, base, size)?;
        let tid = self.tid()?;
        let k = self.b.build_int_add(base, tid, "k")?;
        let valid = self
            .b
            .build_int_compare(IntPredicate::ULT, tid, count, "valid")?;
        let first = self
            .b
            .build_int_compare(IntPredicate::EQ, visit, self.i32(0), "first")?;
        let pos = Pos {
            k,
            valid,
            slot: None,
            count,
            first,
            parity: self.i32(0),
            single: false,
        };
        body(self, &pos)
    }

    /// `clamp(n - base, 0, size)`: the valid positions of the tile that starts at `base`.
    fn tile_count(
        &self,
        n: IntValue<'ctx>,
        base: IntValue<'ctx>,
        size: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>> {
        if let (Some(n), Some(base), Some(size)) = (
            n.get_sign_extended_constant(),
            base.get_sign_extended_constant(),
            size.get_sign_extended_constant(),
        ) {
            return Ok(self.i32((n - base).clamp(0, size)));
        }
        let left = self.b.build_int_sub(n, base, "left")?;
        let left = self.smax(left, self.i32(0))?;
        self.smin(left, size)
    }

    // ---- vector assignment ----

    /// `target <- value` where `target` is an array, a slice, a row or a register vector: every
    /// element of `value` is read before any element of `target` is written, and the writes are
    /// visible to every thread at the next statement.
    pub fn assign_vector(
        &mut self,
        target: &Expr,
        value: &Expr,
        positions: Positions,
        span: Span,
    ) -> Result<()> {
        // Statements run in uniform code: a func cannot make a block vector (E0310), and
        // loop distribution keeps a loop that holds one sequential.
        if self.lane_depth > 0 || !self.is_kernel() {
            return Err(CodegenError::internal(
                "a block vector assignment inside per-element code",
                span,
            ));
        }
        let (target_kind, dest_shape) = match positions {
            Positions::Scatter { tile_cols } => self.scatter_destination(target, tile_cols)?,
            Positions::Contiguous => {
                let (target_kind, n_dest, bound) = self.destination(target)?;
                (target_kind, self.dest_shape(n_dest, bound))
            }
        };
        self.store_vector(Consumer::Store(span), target_kind, dest_shape, value, span)
    }

    /// The shape of a contiguous destination of `n` elements.
    fn dest_shape(&self, n: IntValue<'ctx>, bound: Option<u64>) -> Shape<'ctx> {
        Shape {
            len: n,
            bound,
            registers: false,
            left_scan: false,
            right_scan: false,
        }
    }

    /// A scatter's target, `a[[v]]`, `a[[i, v]]`, `a[[r, j]]` ...: its subscripts prepared like
    /// a gather's (uniform ones hoisted, vectors fused into the store's sweep), and the shape
    /// they give. Any thread may write any element.
    fn scatter_destination(
        &mut self,
        target: &Expr,
        tile_cols: Option<u64>,
    ) -> Result<(Target<'ctx>, Shape<'ctx>)> {
        let ExprKind::Index {
            base,
            indices,
            checked,
        } = &target.kind
        else {
            return Err(CodegenError::internal(
                "a scatter whose target is not indexed",
                target.span,
            ));
        };
        let array = self.array(base)?;
        if let (Some(cols), [rows, columns]) = (tile_cols, indices.as_slice()) {
            self.hoist(rows)?;
            self.hoist(columns)?;
            let n = self.static_len(target).ok_or_else(|| {
                CodegenError::internal("a tile store without a compile-time length", target.span)
            })?;
            let shape = self.shape(self.i32(n as i64));
            let dest = Dest::Tile {
                ranges: Box::new((rows.clone(), columns.clone())),
                cols,
                checked: *checked,
            };
            return Ok((Target::Memory { array, dest }, shape));
        }
        // The checker gives every element access one subscript per dimension (E0207).
        if indices.len() != array.dims.len() {
            return Err(CodegenError::internal(
                "a scatter with a subscript count other than the array's dimensions",
                target.span,
            ));
        }
        let mut shape: Option<Shape> = None;
        for index in indices {
            let s = match self.ty_of(index) {
                Ty::Range | Ty::Vector { .. } | Ty::Array { .. } => Some(self.prepare(index)?),
                _ => {
                    self.hoist(index)?;
                    None
                }
            };
            if let Some(s) = s {
                shape = Some(match shape {
                    Some(m) => self.meet(m, s)?,
                    None => s,
                });
            }
        }
        let shape = shape.ok_or_else(|| {
            CodegenError::internal("a scatter without a vector subscript", target.span)
        })?;
        let dest = Dest::Indexed {
            subscripts: indices.clone(),
            checked: *checked,
        };
        Ok((Target::Memory { array, dest }, shape))
    }

    /// The initializer of a freshly declared array variable.
    /// A two-dimensional array is filled in row-major order: element `k` is `(k / cols, k % cols)`.
    /// `consumer`: the declaration's statement, or the indexed vector a copy is for.
    pub fn init_array(
        &mut self,
        consumer: Consumer,
        array: ArrayRef<'ctx>,
        value: &Expr,
        span: Span,
    ) -> Result<()> {
        let n = match array.dims.as_slice() {
            [rows, cols] => self.b.build_int_mul(*rows, *cols, "len")?,
            _ => self.length(&array),
        };
        let bound = n.get_sign_extended_constant().map(|n| n.max(0) as u64);
        let target = Target::Memory {
            array,
            dest: Dest::Whole,
        };
        let shape = self.dest_shape(n, bound);
        self.store_vector(consumer, target, shape, value, span)
    }

    /// The initializer of a freshly declared register vector.
    pub fn init_registers(&mut self, r: RegVector<'ctx>, value: &Expr, span: Span) -> Result<()> {
        let shape = self.dest_shape(self.i32(r.len as i64), Some(r.len));
        self.store_vector(
            Consumer::Store(span),
            Target::Registers(r),
            shape,
            value,
            span,
        )
    }

    /// `dest_shape`: the destination's (for a scatter, its vector subscripts').
    fn store_vector(
        &mut self,
        consumer: Consumer,
        target: Target<'ctx>,
        dest_shape: Shape<'ctx>,
        value: &Expr,
        span: Span,
    ) -> Result<()> {
        let dest_shape = Shape {
            registers: dest_shape.registers || matches!(target, Target::Registers(_)),
            ..dest_shape
        };
        let shape = if self.is_vector_operand(value) {
            let src = self.prepare(value)?;
            self.meet(dest_shape, src)?
        } else {
            self.hoist(value)?;
            dest_shape
        };
        let plan = self.planned(consumer)?;
        match target {
            Target::Registers(r) => {
                // Private to each thread: no memory, no barrier. Every slot is read before it
                // is written, and no slot reads another's element.
                self.touch(span)?;
                self.before_scans(value)?;
                let shape = self.materialise_mixed_scans(&[value], shape, &plan, span)?;
                let sweep = plan.sweep;
                self.check_sweep(sweep, &shape, span)?;
                let elem_ty = self.reg_type(&r.elem, span)?;
                self.sweep(&shape, sweep, shape.right_scan, span, &mut |this, pos| {
                    this.tile_prepare(value, pos)?;
                    let slot = pos.slot.ok_or_else(|| {
                        CodegenError::internal(
                            "a register vector written at a run-time position",
                            span,
                        )
                    })?;
                    let ptr = this.slot_ptr(r.ptr, elem_ty, r.slots, slot)?;
                    this.when(pos.valid, &mut |this| {
                        let v = this.elem_merged(value, pos)?;
                        this.b.build_store(ptr, v)?;
                        Ok(())
                    })
                })?;
                Ok(())
            }
            Target::Memory { array, dest } => {
                // Reading an element the statement writes at another position would see the
                // new value: such statements read everything first (into registers), then
                // write. kir-accesses decides it (`StoreOrder`); a vector variable's
                // initializer and an indexed vector's copy read nothing of their destination.
                let buffered = matches!(
                    consumer,
                    Consumer::Store(at)
                        if matches!(self.store_orders.get(&at), Some(crate::kir::StoreOrder::Buffered { .. }))
                );
                // A scatter's vector subscripts are computed in the same sweep as the value.
                let subscripts = dest.vector_subscripts(|e| self.is_vector_operand(e));
                if !buffered {
                    self.touch(span)?;
                    self.before_scans(value)?;
                    for subscript in &subscripts {
                        self.before_scans(subscript)?;
                    }
                    let all: Vec<&Expr> = std::iter::once(value).chain(&subscripts).collect();
                    let shape = self.materialise_mixed_scans(&all, shape, &plan, span)?;
                    let sweep = plan.sweep;
                    self.check_sweep(sweep, &shape, span)?;
                    self.sweep(&shape, sweep, shape.right_scan, span, &mut |this, pos| {
                        this.tile_prepare(value, pos)?;
                        for subscript in &subscripts {
                            this.tile_prepare(subscript, pos)?;
                        }
                        this.when(pos.valid, &mut |this| {
                            let at = this.dest_element(&array, &dest, pos, span)?;
                            this.store_computed(&array, &at, value, pos, span)
                        })
                    })?;
                } else {
                    self.touch(span)?;
                    self.before_scans(value)?;
                    for subscript in &subscripts {
                        self.before_scans(subscript)?;
                    }
                    let all: Vec<&Expr> = std::iter::once(value).chain(&subscripts).collect();
                    let shape = self.materialise_mixed_scans(&all, shape, &plan, span)?;
                    let buffer = plan.buffer.ok_or_else(|| {
                        CodegenError::internal(
                            "kir-sweeps planned a store without its buffer",
                            span,
                        )
                    })?;
                    // kir-accesses reported E0811 for a buffered store without its slots.
                    let Some(slots) = buffer else {
                        return Err(CodegenError::internal(
                            "a buffered store without a compile-time number of slots (kir-accesses reports E0811 for it)",
                            span,
                        ));
                    };
                    let buffered = Shape {
                        registers: true,
                        ..shape
                    };
                    self.check_sweep(Sweep::Unrolled { slots }, &buffered, span)?;
                    let sweep = Sweep::Unrolled { slots };
                    self.store_buffered(&array, &dest, &subscripts, &shape, sweep, value, span)?;
                }
                Ok(())
            }
        }
    }

    /// Computes element `pos.k` of `value` and stores it at `at`. A checked store's guard is
    /// taken first and encloses the computation (one guard per element, exiting early): an
    /// element outside the destination is never stored, so its value is not needed, and the
    /// element computations are pure. The checked reads inside keep their own guards, so a read
    /// outside *its* array still gives zero where the ranges differ; where a read's check is the
    /// store's (`c[[r]] <- a[[r]] + b[[r]]` with arrays of one length), LLVM sees the same
    /// compare dominated by the store's branch and folds it away.
    fn store_computed(
        &mut self,
        array: &ArrayRef<'ctx>,
        at: &Element<'ctx>,
        value: &Expr,
        pos: &Pos<'ctx>,
        span: Span,
    ) -> Result<()> {
        let unguarded = Element {
            index: at.index,
            in_bounds: None,
        };
        let mut compute_and_store = |this: &mut Self| -> Result<()> {
            let v = this.elem_merged(value, pos)?;
            this.store_element(array, &unguarded, v, span)
        };
        match at.in_bounds {
            Some(in_bounds) => self.when(in_bounds, &mut compute_and_store),
            None => compute_and_store(self),
        }
    }

    /// A vector assignment whose right side reads its destination at other positions: each
    /// thread first computes its elements into registers, then (after a barrier, when another
    /// thread may have read what it overwrites) stores them.
    #[allow(clippy::too_many_arguments)]
    fn store_buffered(
        &mut self,
        array: &ArrayRef<'ctx>,
        dest: &Dest<'ctx>,
        subscripts: &[Expr],
        shape: &Shape<'ctx>,
        sweep: Sweep,
        value: &Expr,
        span: Span,
    ) -> Result<()> {
        // Every element is computed before any is stored, into slots of the thread's own: a
        // compile-time length gives their number (kir-sweeps' `buffer`).
        let Sweep::Unrolled { slots } = sweep else {
            return Err(CodegenError::internal(
                "a buffered store that is not unrolled",
                span,
            ));
        };
        let elem_ty = self.reg_type(&array.elem, span)?;
        let buffer = self.alloca_array(elem_ty, slots, "buffer")?;
        // A scatter's positions may read the destination too: each is computed with its value
        // and kept as a linear index, -1 for a checked position outside the array.
        let index_ty = self.cx.context.i64_type();
        let scattered = matches!(dest, Dest::Indexed { .. });
        let positions = if scattered {
            Some(self.alloca_array(index_ty.into(), slots, "positions")?)
        } else {
            None
        };
        self.sweep(shape, sweep, shape.right_scan, span, &mut |this, pos| {
            this.tile_prepare(value, pos)?;
            for subscript in subscripts {
                this.tile_prepare(subscript, pos)?;
            }
            let slot = pos.slot.unwrap_or(0);
            let ptr = this.slot_ptr(buffer, elem_ty, slots, slot)?;
            this.when(pos.valid, &mut |this| {
                let v = this.elem_merged(value, pos)?;
                this.b.build_store(ptr, v)?;
                if let Some(positions) = positions {
                    let at = this.dest_element(array, dest, pos, span)?;
                    let index = match at.in_bounds {
                        Some(inside) => this
                            .b
                            .build_select(inside, at.index, index_ty.const_all_ones(), "at")?
                            .into_int_value(),
                        None => at.index,
                    };
                    let at_ptr = this.slot_ptr(positions, index_ty.into(), slots, slot)?;
                    this.b.build_store(at_ptr, index)?;
                }
                Ok(())
            })
        })?;
        self.touch(span)?;
        let plain = Shape {
            left_scan: false,
            right_scan: false,
            ..*shape
        };
        self.sweep(&plain, sweep, false, span, &mut |this, pos| {
            let slot = pos.slot.unwrap_or(0);
            let ptr = this.slot_ptr(buffer, elem_ty, slots, slot)?;
            this.when(pos.valid, &mut |this| {
                let v = this.b.build_load(elem_ty, ptr, "buffered")?;
                let at = match positions {
                    Some(positions) => {
                        let at_ptr = this.slot_ptr(positions, index_ty.into(), slots, slot)?;
                        let index = this.b.build_load(index_ty, at_ptr, "at")?.into_int_value();
                        let inside = matches!(dest, Dest::Indexed { checked: true, .. })
                            .then(|| {
                                this.b.build_int_compare(
                                    IntPredicate::SGE,
                                    index,
                                    index_ty.const_zero(),
                                    "inside",
                                )
                            })
                            .transpose()?;
                        Element {
                            index,
                            in_bounds: inside,
                        }
                    }
                    None => this.dest_element(array, dest, pos, span)?,
                };
                this.store_element(array, &at, v, span)
            })
        })
    }

    /// What `target` names, its length and its compile-time length bound.
    fn destination(
        &mut self,
        target: &Expr,
    ) -> Result<(Target<'ctx>, IntValue<'ctx>, Option<u64>)> {
        let bound_of = |n: IntValue<'ctx>| n.get_sign_extended_constant().map(|n| n.max(0) as u64);
        match &target.kind {
            ExprKind::Name(name) => match self.lookup(&name.name).cloned() {
                Some(Var::Array(array)) if array.dims.len() <= 2 => {
                    // A two-dimensional array is written whole in row-major order (a tile).
                    let n = match array.dims.as_slice() {
                        [rows, cols] => self.b.build_int_mul(*rows, *cols, "len")?,
                        _ => self.length(&array),
                    };
                    Ok((
                        Target::Memory {
                            array,
                            dest: Dest::Whole,
                        },
                        n,
                        bound_of(n),
                    ))
                }
                Some(Var::Registers(r)) => {
                    let n = self.i32(r.len as i64);
                    let bound = Some(r.len);
                    Ok((Target::Registers(r), n, bound))
                }
                // A name of vector type is an array or a register vector: the checker gives
                // scalar variables scalar types (E0306 for a vector stored in one).
                _ => Err(CodegenError::internal(
                    "assigning a block vector to a variable that is not a vector",
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
                match self.ty_of(index).clone() {
                    Ty::Range => {
                        let (lo, n, bound) = self.slice_extent(index)?;
                        let dest = Dest::Slice {
                            row: None,
                            lo,
                            checked: *checked,
                        };
                        Ok((Target::Memory { array, dest }, n, bound))
                    }
                    Ty::Scalar(s) if array.dims.len() == 2 => {
                        let row = self.row_index(index, s.is_signed())?;
                        let n = array.dims[1];
                        let dest = Dest::Row {
                            row,
                            checked: *checked,
                        };
                        Ok((Target::Memory { array, dest }, n, bound_of(n)))
                    }
                    // kir-lower makes every other indexed target a scatter.
                    _ => Err(CodegenError::internal(
                        "a scatter target taken for a contiguous one",
                        target.span,
                    )),
                }
            }
            ExprKind::Index {
                base,
                indices,
                checked,
            } if indices.len() == 2 => {
                let array = self.array(base)?;
                let (row_index, columns) = (&indices[0], &indices[1]);
                let (Ty::Scalar(s), Ty::Range) =
                    (self.ty_of(row_index).clone(), self.ty_of(columns))
                else {
                    // kir-lower makes every other indexed target a scatter.
                    return Err(CodegenError::internal(
                        "a scatter target taken for a contiguous one",
                        target.span,
                    ));
                };
                let row = self.row_index(row_index, s.is_signed())?;
                let (lo, n, bound) = self.slice_extent(columns)?;
                let dest = Dest::Slice {
                    row: Some(row),
                    lo,
                    checked: *checked,
                };
                Ok((Target::Memory { array, dest }, n, bound))
            }
            // The checker allows at most two dimensions (E0207), and kir-lower makes every
            // other indexed target a scatter.
            _ => Err(CodegenError::internal(
                "a vector assignment target that is neither contiguous nor a scatter",
                target.span,
            )),
        }
    }

    /// A range index's start, its length and the length's compile-time bound.
    fn slice_extent(
        &mut self,
        index: &Expr,
    ) -> Result<(IntValue<'ctx>, IntValue<'ctx>, Option<u64>)> {
        let range = self.expr(index)?;
        let (lo, hi) = self.range_bounds(range)?;
        let (n, bound) = match self.static_len(index) {
            Some(n) => (self.i32(n as i64), Some(n)),
            None => (self.range_len(lo, hi)?, None),
        };
        Ok((lo, n, bound))
    }

    /// A row subscript as a 64-bit index.
    fn row_index(&mut self, index: &Expr, signed: bool) -> Result<IntValue<'ctx>> {
        let row = self.expr(index)?.into_int_value();
        self.index64(row, signed)
    }

    fn dest_element(
        &mut self,
        array: &ArrayRef<'ctx>,
        dest: &Dest<'ctx>,
        pos: &Pos<'ctx>,
        span: Span,
    ) -> Result<Element<'ctx>> {
        let k = pos.k;
        match dest {
            Dest::Whole => {
                let k64 = self.index64(k, true)?;
                Ok(Element {
                    index: k64,
                    in_bounds: None,
                })
            }
            Dest::Slice { row, lo, checked } => {
                let i = self.b.build_int_add(*lo, k, "i")?;
                let i64v = self.index64(i, true)?;
                let indices: Vec<IntValue<'ctx>> = row.iter().copied().chain([i64v]).collect();
                self.element(array, &indices, *checked, span)
            }
            Dest::Row { row, checked } => {
                let k64 = self.index64(k, true)?;
                self.element(array, &[*row, k64], *checked, span)
            }
            Dest::Indexed {
                subscripts,
                checked,
            } => {
                let mut indices = Vec::with_capacity(subscripts.len());
                for subscript in subscripts {
                    let i = self.elem(subscript, pos)?.into_int_value();
                    let signed = self.scalar_of(subscript)?.is_signed();
                    indices.push(self.index64(i, signed)?);
                }
                self.element(array, &indices, *checked, span)
            }
            Dest::Tile {
                ranges,
                cols,
                checked,
            } => {
                let (rows, columns) = ranges.as_ref();
                let indices = self.tile_position(rows, columns, *cols, k)?;
                self.element(array, &indices, *checked, span)
            }
        }
    }
}

impl<'ctx> Body<'_, 'ctx> {
    /// Whether `e` is a call of `transpose`.
    fn is_transpose(&self, e: &Expr) -> bool {
        matches!(
            self.cx.checked.callees.get(&e.id),
            Some(Callee::Builtin(crate::check::Builtin::Transpose))
        )
    }

    /// The compile-time shape of a two-dimensional array (the checker requires one for
    /// `transpose`, E0218).
    fn tile_dims(&self, array: &Expr) -> Result<(u64, u64)> {
        self.ty_of(array).tile_shape().ok_or_else(|| {
            CodegenError::internal("a tile without a compile-time shape", array.span)
        })
    }

    /// The shape of a two-dimensional slice `a[r, s]` (two ranges, the checker's tile), or
    /// `None` for any other indexing.
    fn slice_2d_shape(&self, e: &Expr, indices: &[Expr]) -> Option<(u64, u64)> {
        match indices {
            [r, s] if *self.ty_of(r) == Ty::Range && *self.ty_of(s) == Ty::Range => {
                self.ty_of(e).tile_shape()
            }
            _ => None,
        }
    }

    /// The 64-bit subscripts of element `k` of the two-dimensional slice `e` = `a[r, s]`:
    /// (`r.start + k / cols`, `s.start + k % cols`). The ranges are hoisted.
    fn tile_subscripts(
        &mut self,
        e: &Expr,
        indices: &[Expr],
        k: IntValue<'ctx>,
    ) -> Result<Vec<IntValue<'ctx>>> {
        let (_, cols) = self.slice_2d_shape(e, indices).ok_or_else(|| {
            CodegenError::internal("a two-dimensional slice without a tile shape", e.span)
        })?;
        self.tile_position(&indices[0], &indices[1], cols, k)
    }

    /// (`rows.start + k / cols`, `columns.start + k % cols`) as 64-bit subscripts; both ranges
    /// hoisted.
    fn tile_position(
        &mut self,
        rows: &Expr,
        columns: &Expr,
        cols: u64,
        k: IntValue<'ctx>,
    ) -> Result<Vec<IntValue<'ctx>>> {
        let c = self.i32(cols as i64);
        let i = self.b.build_int_unsigned_div(k, c, "tile.i")?;
        let j = self.b.build_int_unsigned_rem(k, c, "tile.j")?;
        let mut out = Vec::with_capacity(2);
        for (range, offset) in [(rows, i), (columns, j)] {
            let v = *self
                .hoisted
                .get(&range.id)
                .ok_or_else(|| CodegenError::internal("a tile's range not prepared", range.span))?;
            let (lo, _) = self.range_bounds(v)?;
            let at = self.b.build_int_add(lo, offset, "tile.at")?;
            out.push(self.index64(at, true)?);
        }
        Ok(out)
    }
}
