//! `kir-sweeps`: how each consumer of a block vector walks its positions, and how each
//! reduction combines. Element `k` belongs to thread `k mod BLOCKSIZE`; a consumer (a vector
//! store, a vector variable's initializer, the shared copy of an indexed vector, a reduction, a
//! per-element atomic) visits its positions with one of three sweeps:
//! - `unrolled N`: the length has a compile-time bound of at most `UNROLL_SLOTS` positions per
//!   thread, or a register vector is involved: one straight-line copy per slot `s`
//!   (`k = t + s * BLOCKSIZE`), so register vectors are indexed with constants;
//! - `stride`: a block-stride loop, thread-divergent (the usual CUDA loop);
//! - `tiles`: a loop over tiles of `BLOCKSIZE` positions that every thread runs the same number
//!   of times, for consumers that need the whole block at every tile (scans, order-preserving
//!   reductions), so that their barriers stay in uniform control flow.
//!
//! A reduction combines `per-thread` (each thread folds the elements it owns first: needs a
//! commutative function, or at most one element per thread) or `by tiles` (each tile combined by
//! the whole block, the tiles' results folded in order). A statement holding both a left and a
//! right scan over more than one tile computes its scans ahead, each in its own direction, into
//! private slots (`scans ahead N`); more than `BUFFER_SLOTS` slots is error E0811, reported here.
//! A vector store also says how it would sweep if it had to buffer its values (it reads its own
//! target at other positions, which code generation still decides with its access analysis):
//! `buffer N` slots per thread, or `buffer none` when that would need a run-time number of
//! registers (E0811 then).
//!
//! Lengths are the checker's (`Len::Static`) where it knows them, else the shortest known length
//! of the vector operands: a vector expression is as long as its shortest operand.

use super::{Combine, Consumer, Limit, Module, Stmt, Sweep, SweepPlan};
use crate::check::types::{Len, Ty};
use crate::check::{Builtin, Callee, Checked};
use crate::syntax::ast::{
    Block, CollectiveOp, Expr, ExprId, ExprKind, Item, Stmt as Ast, TypeExpr,
};
use crate::syntax::span::Span;
use crate::syntax::visit::visit_expr;
use std::collections::{BTreeMap, HashMap, HashSet};

/// Up to this many slots per thread, a vector with a compile-time length bound is walked with
/// straight-line code instead of a loop.
const UNROLL_SLOTS: u64 = 4;

/// At most this many elements per thread are computed into registers ahead of a store (a
/// statement that reads its own target, mixed scans).
pub const BUFFER_SLOTS: u64 = 64;

pub fn run(module: &mut Module, checked: &Checked) {
    for kernel in &mut module.kernels {
        let Some(Item::Kernel(decl)) = checked.program.items.get(kernel.item) else {
            continue;
        };
        let mut facts = Facts::default();
        super::walk_stmts(&kernel.body, &mut |stmt| match stmt {
            Stmt::Grid {
                collective, span, ..
            } => {
                facts.grids.insert(*span, collective.id);
            }
            Stmt::Scatter { span, .. } => {
                facts.scatters.insert(*span);
            }
            Stmt::Atomic {
                per_element: Some(_),
                call,
                span,
                ..
            } => {
                facts.vector_atomics.insert(*span, call.id);
            }
            _ => {}
        });
        facts.registers = kernel
            .register_vectors
            .clone()
            .unwrap_or_default()
            .into_iter()
            .collect();
        facts.recomputed = kernel
            .recomputed_vectors
            .clone()
            .unwrap_or_default()
            .into_iter()
            .collect();
        facts.copies = kernel
            .indexed_copies
            .clone()
            .unwrap_or_default()
            .into_iter()
            .collect();
        let mut planner = Planner {
            checked,
            block_size: u64::from(kernel.block_size.max(1)),
            facts,
            scopes: Vec::new(),
            plans: BTreeMap::new(),
            limits: Vec::new(),
        };
        planner.block(&decl.body);
        kernel.sweeps = Some(planner.plans);
        kernel.limits.extend(planner.limits);
    }
}

/// What the earlier passes decided, by span.
#[derive(Default)]
struct Facts {
    /// Grid-wide statements and their collective.
    grids: HashMap<Span, ExprId>,
    scatters: HashSet<Span>,
    /// Per-element atomics and their call.
    vector_atomics: HashMap<Span, ExprId>,
    registers: HashSet<Span>,
    recomputed: HashSet<Span>,
    copies: HashSet<Span>,
}

/// What a name stands for, where code generation would look it up.
#[derive(Clone, Copy)]
enum Name<'a> {
    /// A vector variable that lives in registers.
    Registers,
    /// A vector variable evaluated again at each use: its initializer.
    Recomputed(&'a Expr),
    /// Anything else: a scalar, an array in memory, a loop counter.
    Other,
}

/// What the kernel IR knows of a vector expression's positions.
#[derive(Debug, Clone, Copy, Default)]
struct Shape {
    /// A compile-time upper bound of the length.
    bound: Option<u64>,
    /// It reads a register vector (or is stored into one): its positions must be unrolled.
    registers: bool,
    left_scan: bool,
    right_scan: bool,
}

impl Shape {
    /// Both operands' shapes: the length is the shorter one's.
    fn meet(self, other: Shape) -> Shape {
        Shape {
            bound: match (self.bound, other.bound) {
                (Some(x), Some(y)) => Some(x.min(y)),
                (x, y) => x.or(y),
            },
            registers: self.registers || other.registers,
            left_scan: self.left_scan || other.left_scan,
            right_scan: self.right_scan || other.right_scan,
        }
    }

    fn mixed_scans(&self) -> bool {
        self.left_scan && self.right_scan
    }
}

struct Planner<'a> {
    checked: &'a Checked,
    block_size: u64,
    facts: Facts,
    scopes: Vec<HashMap<&'a str, Name<'a>>>,
    plans: BTreeMap<Consumer, SweepPlan>,
    limits: Vec<Limit>,
}

impl<'a> Planner<'a> {
    fn block(&mut self, block: &'a Block) {
        self.scopes.push(HashMap::new());
        for stmt in &block.stmts {
            self.stmt(stmt);
        }
        self.scopes.pop();
    }

    fn declare(&mut self, name: &'a str, what: Name<'a>) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name, what);
        }
    }

    fn lookup(&self, name: &str) -> Option<Name<'a>> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }

    fn stmt(&mut self, stmt: &'a Ast) {
        match stmt {
            Ast::Let {
                name, init, span, ..
            } => {
                let vector = matches!(self.checked.locals.get(&name.span), Some(Ty::Array { .. }));
                let what = if !vector {
                    Name::Other
                } else if self.facts.registers.contains(&name.span) {
                    Name::Registers
                } else if let (true, Some(init)) =
                    (self.facts.recomputed.contains(&name.span), init)
                {
                    Name::Recomputed(init)
                } else {
                    Name::Other
                };
                if let Some(init) = init {
                    self.visit(init, None);
                    if self.facts.vector_atomics.contains_key(span) {
                        self.atomic(init, *span);
                    } else if vector && !matches!(what, Name::Recomputed(_)) {
                        let dest = Shape {
                            bound: self.static_len_of_local(name.span),
                            registers: matches!(what, Name::Registers),
                            ..Shape::default()
                        };
                        self.store(Consumer::Store(*span), dest, init, false);
                    }
                }
                self.declare(&name.name, what);
            }
            Ast::Assign {
                target,
                value,
                span,
            } => {
                let grid = self.facts.grids.get(span).copied();
                self.visit(target, grid);
                self.visit(value, grid);
                if let Some(collective) = grid {
                    self.grid(collective, target, value, *span);
                } else if self.facts.vector_atomics.contains_key(span) {
                    self.atomic(value, *span);
                } else if is_vector(self.checked.ty(target.id)) {
                    let dest = self.destination(target, *span);
                    self.store(Consumer::Store(*span), dest, value, false);
                }
            }
            Ast::If {
                cond,
                then_branch,
                else_branch,
                ..
            } => {
                self.visit(cond, None);
                self.block(then_branch);
                if let Some(b) = else_branch {
                    self.block(b);
                }
            }
            Ast::For {
                var, range, body, ..
            } => {
                self.visit(range, None);
                self.scopes.push(HashMap::new());
                self.declare(&var.name, Name::Other);
                self.block(body);
                self.scopes.pop();
            }
            Ast::While { cond, body, .. } => {
                self.visit(cond, None);
                self.block(body);
            }
            Ast::Return { value, .. } => {
                if let Some(v) = value {
                    self.visit(v, None);
                }
            }
            Ast::Call { call, span } => {
                self.visit(call, None);
                if self.facts.vector_atomics.contains_key(span) {
                    self.atomic(call, *span);
                }
            }
        }
    }

    /// Plans the reductions and indexed copies inside `e` (`grid`: the grid-wide statement's
    /// collective, planned with the statement).
    fn visit(&mut self, e: &'a Expr, grid: Option<ExprId>) {
        let mut reductions: Vec<&'a Expr> = Vec::new();
        let mut copies: Vec<&'a Expr> = Vec::new();
        visit_expr(e, &mut |x| match &x.kind {
            ExprKind::Collective {
                op: CollectiveOp::Reduce,
                ..
            } if Some(x.id) != grid => reductions.push(x),
            ExprKind::Index { base, .. } if self.facts.copies.contains(&base.span) => {
                copies.push(base)
            }
            _ => {}
        });
        for r in reductions {
            if let ExprKind::Collective { operand, .. } = &r.kind {
                let shape = self.shape(operand);
                self.reduce(r, shape, false);
            }
        }
        for base in copies {
            let dest = Shape {
                bound: self.static_len(base),
                ..Shape::default()
            };
            self.store(Consumer::Copy(base.span), dest, base, false);
        }
    }

    /// A grid-wide statement: its chunk's aggregate (a reduction by tiles over the chunk) and,
    /// for a scan, the statement itself over the chunk.
    fn grid(&mut self, collective: ExprId, target: &'a Expr, value: &'a Expr, span: Span) {
        let Some((collective, operand)) = find_grid(self.checked, value, collective)
            .or_else(|| find_grid(self.checked, target, collective))
        else {
            return;
        };
        // The chunk has a run-time length.
        let shape = Shape {
            bound: None,
            ..self.shape(operand)
        };
        self.reduce(collective, shape, true);
        if let ExprKind::Collective {
            op: CollectiveOp::Reduce,
            ..
        } = collective.kind
        {
            return;
        }
        let dest = self.destination(target, span);
        self.store(Consumer::Store(span), dest, value, true);
    }

    fn destination(&self, target: &'a Expr, span: Span) -> Shape {
        if self.facts.scatters.contains(&span) {
            return self.scatter_destination(target);
        }
        let registers = matches!(&target.kind, ExprKind::Name(n)
            if matches!(self.lookup(&n.name), Some(Name::Registers)));
        Shape {
            bound: self.static_len(target),
            registers,
            ..Shape::default()
        }
    }

    /// A scatter's positions: its vector and range subscripts', or a tile's.
    fn scatter_destination(&self, target: &'a Expr) -> Shape {
        let ExprKind::Index { indices, .. } = &target.kind else {
            return Shape::default();
        };
        if let (Some(_), [r, c]) = (self.checked.ty(target.id).tile_shape(), indices.as_slice()) {
            if *self.checked.ty(r.id) == Ty::Range && *self.checked.ty(c.id) == Ty::Range {
                return Shape {
                    bound: self.static_len(target),
                    ..Shape::default()
                };
            }
        }
        indices
            .iter()
            .filter(|i| is_vector(self.checked.ty(i.id)))
            .map(|i| self.shape(i))
            .reduce(Shape::meet)
            .unwrap_or_default()
    }

    /// A store of `value` into a destination of shape `dest`.
    fn store(&mut self, consumer: Consumer, dest: Shape, value: &'a Expr, grid: bool) {
        let shape = if is_vector(self.checked.ty(value.id)) {
            dest.meet(self.shape(value))
        } else {
            dest
        };
        let Some((shape, scans_ahead)) = self.scans_ahead(shape, consumer.span()) else {
            return;
        };
        let Some((sweep, why)) = self.sweep(&shape, false, grid, consumer.span()) else {
            return;
        };
        // Buffered: every element computed into registers before any is stored.
        let buffered = match shape.bound {
            Some(bound) if bound.div_ceil(self.block_size) <= BUFFER_SLOTS => Shape {
                registers: true,
                ..shape
            },
            _ => shape,
        };
        let buffer = match self.decide(&buffered, false, grid) {
            Ok((Sweep::Unrolled { slots }, _)) => Some(slots),
            _ => None,
        };
        self.plans.insert(
            consumer,
            SweepPlan {
                sweep,
                why,
                combine: None,
                scans_ahead,
                buffer: Some(buffer),
            },
        );
    }

    /// Reduction `e` of an operand of shape `shape`; `grid`: over a grid-wide chunk.
    fn reduce(&mut self, e: &'a Expr, shape: Shape, grid: bool) {
        let ExprKind::Collective { func, .. } = &e.kind else {
            return;
        };
        let commutative = match self.checked.callees.get(&e.id) {
            Some(f) => super::commute::is_commutative(self.checked, *f, func.bound_args.len()),
            None => false,
        };
        let combine = if !grid && (shape.bound.is_some_and(|n| n <= self.block_size) || commutative)
        {
            Combine::PerThread
        } else {
            Combine::ByTiles
        };
        let Some((shape, scans_ahead)) = self.scans_ahead(shape, e.span) else {
            return;
        };
        let Some((sweep, why)) = self.sweep(&shape, combine == Combine::ByTiles, grid, e.span)
        else {
            return;
        };
        self.plans.insert(
            Consumer::Reduce(e.span),
            SweepPlan {
                sweep,
                why,
                combine: Some(combine),
                scans_ahead,
                buffer: None,
            },
        );
    }

    /// A per-element atomic (`call`): its subscripts' and operands' positions.
    fn atomic(&mut self, call: &'a Expr, span: Span) {
        let ExprKind::Call { args, .. } = &call.kind else {
            return;
        };
        let Some((place, operands)) = args.split_first() else {
            return;
        };
        let ExprKind::Index { indices, .. } = &place.kind else {
            return;
        };
        let shape = indices
            .iter()
            .chain(operands)
            .filter(|e| is_vector(self.checked.ty(e.id)))
            .map(|e| self.shape(e))
            .reduce(Shape::meet)
            .unwrap_or_default();
        let Some((shape, scans_ahead)) = self.scans_ahead(shape, span) else {
            return;
        };
        let Some((sweep, why)) = self.sweep(&shape, false, false, span) else {
            return;
        };
        self.plans.insert(
            Consumer::Atomic(span),
            SweepPlan {
                sweep,
                why,
                combine: None,
                scans_ahead,
                buffer: None,
            },
        );
    }

    fn one_tile(&self, shape: &Shape) -> bool {
        shape
            .bound
            .is_some_and(|b| b.div_ceil(self.block_size) <= 1)
    }

    /// A left and a right scan over more than one tile are computed ahead into private slots,
    /// each in its own direction: the consumer then reads them like register vectors. `None`
    /// (and a limit) when that needs more than `BUFFER_SLOTS` slots or a run-time number.
    fn scans_ahead(&mut self, shape: Shape, span: Span) -> Option<(Shape, Option<u32>)> {
        if !shape.mixed_scans() || self.one_tile(&shape) {
            return Some((shape, None));
        }
        let slots = shape
            .bound
            .map(|b| b.div_ceil(self.block_size))
            .filter(|s| *s <= BUFFER_SLOTS)
            .and_then(|s| u32::try_from(s).ok());
        let Some(slots) = slots else {
            self.limits.push(Limit {
                what: "a statement with both a left and a right scan over more than one block's worth of elements",
                why: "it computes each scan into registers first, in the scan's own direction, and each thread's number of registers is fixed when the kernel is compiled (at most 64 elements per thread)",
                span,
            });
            return None;
        };
        let ahead = Shape {
            registers: true,
            left_scan: false,
            right_scan: false,
            ..shape
        };
        Some((ahead, Some(slots)))
    }

    /// [`Planner::decide`], an impossible shape recorded as an internal limit: the passes
    /// before it (register vectors have a compile-time length; mixed scans are computed ahead)
    /// rule one out.
    fn sweep(
        &mut self,
        shape: &Shape,
        whole_block: bool,
        grid: bool,
        span: Span,
    ) -> Option<(Sweep, &'static str)> {
        match self.decide(shape, whole_block, grid) {
            Ok(decided) => Some(decided),
            Err(why) => {
                self.limits.push(Limit {
                    what: "internal",
                    why,
                    span,
                });
                None
            }
        }
    }

    /// How a consumer walks a vector of `shape`; `whole_block`: it needs every thread at every
    /// position (an order-preserving reduction combines each tile across the block); `grid`:
    /// over a grid-wide chunk, whose length is a run-time value.
    fn decide(
        &self,
        shape: &Shape,
        whole_block: bool,
        grid: bool,
    ) -> Result<(Sweep, &'static str), &'static str> {
        let bound = shape.bound.filter(|_| !grid);
        if let Some(bound) = bound {
            let slots = bound.div_ceil(self.block_size);
            if shape.registers || slots <= UNROLL_SLOTS {
                if shape.mixed_scans() && slots > 1 {
                    return Err(
                        "a left and a right scan left in one sweep over more than one tile",
                    );
                }
                let slots =
                    u32::try_from(slots).map_err(|_| "too many slots for a register vector")?;
                let why = if shape.registers && u64::from(slots) > UNROLL_SLOTS {
                    "registers are indexed with constants"
                } else {
                    "compile-time length"
                };
                return Ok((Sweep::Unrolled { slots }, why));
            }
        }
        if shape.registers {
            return Err("a register vector without a compile-time length");
        }
        if shape.mixed_scans() {
            return Err("a left and a right scan left in one sweep over more than one tile");
        }
        Ok(if whole_block && grid {
            (
                Sweep::Tiles,
                "a grid-wide chunk, each tile combined by the whole block",
            )
        } else if whole_block {
            (
                Sweep::Tiles,
                "each tile combined by the whole block, in order",
            )
        } else if shape.left_scan || shape.right_scan {
            (Sweep::Tiles, "a scan's carry passes from tile to tile")
        } else if grid {
            (Sweep::Stride, "a grid-wide chunk's run-time length")
        } else if bound.is_some() {
            (Sweep::Stride, "more than 4 positions per thread")
        } else {
            (Sweep::Stride, "run-time length")
        })
    }

    /// What code generation's `prepare` learns of vector expression `e`.
    fn shape(&self, e: &'a Expr) -> Shape {
        let mut shape = self.shape_of_kind(e);
        if let Some(n) = self.static_len(e) {
            shape.bound = Some(n);
        }
        shape
    }

    fn shape_of_kind(&self, e: &'a Expr) -> Shape {
        if let (ExprKind::Call { args, .. }, true) =
            (&e.kind, crate::check::grid::is_grid_call(self.checked, e))
        {
            return args.first().map(|v| self.shape(v)).unwrap_or_default();
        }
        if *self.checked.ty(e.id) == Ty::Range {
            return Shape::default();
        }
        match &e.kind {
            ExprKind::Name(name) => match self.lookup(&name.name) {
                Some(Name::Registers) => Shape {
                    registers: true,
                    ..Shape::default()
                },
                Some(Name::Recomputed(init)) => self.shape(init),
                // The threads' rows and columns: one element per thread.
                None if name.name == "ROW" || name.name == "COL" => Shape {
                    bound: Some(self.block_size),
                    ..Shape::default()
                },
                _ => Shape::default(),
            },
            ExprKind::Index { indices, .. } => self.index_shape(e, indices),
            ExprKind::Unary { operand, .. } => self.shape(operand),
            ExprKind::Field { base, .. } => self.shape(base),
            ExprKind::Binary { lhs, rhs, .. } => self.operands_shape(&[lhs, rhs], None),
            ExprKind::Call { args, .. } => {
                if self.checked.callees.get(&e.id) == Some(&Callee::Builtin(Builtin::Transpose)) {
                    return Shape::default();
                }
                let args: Vec<&'a Expr> = args.iter().collect();
                self.operands_shape(&args, self.whole_params(e))
            }
            ExprKind::Collective { op, operand, .. } => {
                let mut shape = self.shape(operand);
                match op {
                    CollectiveOp::ScanLeft => shape.left_scan = true,
                    CollectiveOp::ScanRight => shape.right_scan = true,
                    CollectiveOp::Map | CollectiveOp::Reduce => {}
                }
                shape
            }
            ExprKind::VectorLit { elems } => Shape {
                bound: Some(elems.len() as u64),
                ..Shape::default()
            },
            _ => Shape::default(),
        }
    }

    /// `a[r]`, `a[[r]]`, `a[i, r]`, gathers `a[v]`: the ranges' and index vectors' positions;
    /// a row `a[i]` and a two-dimensional slice have their type's length.
    fn index_shape(&self, e: &'a Expr, indices: &'a [Expr]) -> Shape {
        if let ([r, c], Some(_)) = (indices, self.checked.ty(e.id).tile_shape()) {
            if *self.checked.ty(r.id) == Ty::Range && *self.checked.ty(c.id) == Ty::Range {
                return Shape::default();
            }
        }
        indices
            .iter()
            .filter(|i| is_vector(self.checked.ty(i.id)))
            .map(|i| self.shape(i))
            .reduce(Shape::meet)
            .unwrap_or_default()
    }

    /// The elementwise operands' shapes; `whole[i]`: argument `i` goes to a `func`'s array or
    /// `Range` parameter whole, like a uniform value.
    fn operands_shape(&self, operands: &[&'a Expr], whole: Option<Vec<bool>>) -> Shape {
        let passed_whole = |i: usize| whole.as_ref().is_some_and(|w| w.get(i) == Some(&true));
        let mut shape: Option<Shape> = None;
        for (i, e) in operands.iter().enumerate() {
            if passed_whole(i) || !is_vector(self.checked.ty(e.id)) {
                continue;
            }
            let s = self.shape(e);
            shape = Some(shape.map_or(s, |m| m.meet(s)));
        }
        shape.unwrap_or_default()
    }

    /// For a call of a `func`: which parameters take their argument whole (arrays, `Range`).
    fn whole_params(&self, call: &Expr) -> Option<Vec<bool>> {
        let Some(Callee::Func(item)) = self.checked.callees.get(&call.id) else {
            return None;
        };
        let Some(Item::Func(decl)) = self.checked.program.items.get(*item) else {
            return None;
        };
        Some(
            decl.params
                .iter()
                .map(|p| match &p.ty {
                    TypeExpr::Array { .. } => true,
                    TypeExpr::Named { name } => name.name == "Range",
                    TypeExpr::Record { .. } => false,
                })
                .collect(),
        )
    }

    /// The length of vector expression `e` when the checker knows it.
    fn static_len(&self, e: &Expr) -> Option<u64> {
        match self.checked.ty(e.id) {
            Ty::Vector {
                len: Len::Static(n),
                ..
            } => Some(*n),
            Ty::Array { dims, .. } => static_total(dims),
            Ty::Range => match self.checked.range_lens.get(&e.id) {
                Some(Len::Static(n)) => Some(*n),
                _ => None,
            },
            _ => None,
        }
    }

    fn static_len_of_local(&self, name: Span) -> Option<u64> {
        match self.checked.locals.get(&name) {
            Some(Ty::Array { dims, .. }) => static_total(dims),
            _ => None,
        }
    }
}

fn static_total(dims: &[Len]) -> Option<u64> {
    dims.iter().try_fold(1u64, |acc, d| match d {
        Len::Static(n) => acc.checked_mul(*n),
        Len::Dynamic => None,
    })
}

fn is_vector(ty: &Ty) -> bool {
    matches!(ty, Ty::Vector { .. } | Ty::Array { .. } | Ty::Range)
}

/// The grid-wide collective `id` inside `e` and the operand `v` of its `grid(v, scratch)`.
fn find_grid<'e>(checked: &Checked, e: &'e Expr, id: ExprId) -> Option<(&'e Expr, &'e Expr)> {
    let mut found = None;
    visit_expr(e, &mut |x| {
        if x.id != id {
            return;
        }
        if let ExprKind::Collective { operand, .. } = &x.kind {
            if let ExprKind::Call { args, .. } = &operand.kind {
                if crate::check::grid::is_grid_call(checked, operand) {
                    found = args.first().map(|v| (x, v));
                }
            }
        }
    });
    found
}
