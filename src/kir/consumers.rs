//! The consumers of block vectors in a kernel, found once for the passes that decide about them
//! (`kir-sweeps`: how each walks its positions; `kir-guards`: which checked reads share a
//! guard): the vector stores (assignments, scatters, vector variables' initializers, the shared
//! copies of indexed vectors, a grid-wide scan's statement over its chunk), the reductions
//! (a grid-wide statement's: its chunk's aggregate) and the per-element atomics, each with what
//! code generation will know of the names it reads at that point.
//!
//! The walk follows the kernel's statements with their scopes, as code generation will: a name
//! is looked up where it is used.

use super::access::Access;
use super::affine::{Poly, Symbols};
use super::{Consumer, Kernel, Stmt};
use crate::check::types::{Len, Ty};
use crate::check::{Callee, Checked};
use crate::syntax::ast::{
    Block, CollectiveOp, Expr, ExprId, ExprKind, Item, Stmt as Ast, TypeExpr,
};
use crate::syntax::span::Span;
use crate::syntax::visit::visit_expr;
use std::collections::{HashMap, HashSet};

/// What a name stands for where it is used.
#[derive(Debug, Clone)]
pub(super) enum Name<'a> {
    /// A vector variable that lives in registers.
    Registers,
    /// A vector variable evaluated again at each use: its initializer.
    Recomputed(&'a Expr),
    /// An array in memory (a parameter, a `shared` or local array), with each dimension's length
    /// as a polynomial where it has one (a parameter's in the scalar parameters).
    Array(Vec<Option<Poly>>),
    /// Anything else: a scalar, a loop counter.
    Other,
}

/// Where a store puts its elements.
#[derive(Debug, Clone, Copy)]
pub(super) enum Dest<'a> {
    /// A vector variable's initializer: the variable (by the span of its name), in registers or
    /// not.
    Variable { name: Span, registers: bool },
    /// A vector assignment's target (`scatter`: its positions computed element by element).
    Target { target: &'a Expr, scatter: bool },
    /// The `shared` copy of an indexed computed vector, as long as the vector.
    Copy,
}

/// What a pass does with each consumer; the walk calls it in program order. Each method does
/// nothing unless the pass says otherwise.
pub(super) trait Visitor<'a> {
    /// Every statement, nested ones included, before its consumers, with the names in scope
    /// where it stands.
    fn statement(&mut self, _walk: &Walk<'a>, _stmt: &'a Ast) {}
    /// A store of `value` (a vector, or a uniform value broadcast) into `dest`; `grid`: over a
    /// grid-wide statement's chunk.
    fn store(
        &mut self,
        _walk: &Walk<'a>,
        _consumer: Consumer,
        _dest: Dest<'a>,
        _value: &'a Expr,
        _grid: bool,
    ) {
    }
    /// Reduction `reduce` of `operand` (for a grid-wide statement, `v` of `grid(v, scratch)`).
    fn reduce(&mut self, _walk: &Walk<'a>, _reduce: &'a Expr, _operand: &'a Expr, _grid: bool) {}
    /// A per-element atomic `call`, the statement at `span`.
    fn atomic(&mut self, _walk: &Walk<'a>, _call: &'a Expr, _span: Span) {}
    /// The end of a loop's body (`kir-barriers`: the edge to the next iteration).
    fn loop_end(&mut self, _walk: &Walk<'a>, _stmt: &'a Ast) {}
    /// The end of an `if`'s then branch, where its else branch (if any) starts.
    fn else_branch(&mut self, _walk: &Walk<'a>, _stmt: &'a Ast) {}
    /// The end of an `if`, where its branches join.
    fn if_end(&mut self, _walk: &Walk<'a>, _stmt: &'a Ast) {}
}

/// The state of the walk: what the earlier passes decided, and the names in scope.
pub(super) struct Walk<'a> {
    pub checked: &'a Checked,
    /// `BLOCKSIZE` (at least 1).
    pub block_size: u64,
    facts: Facts,
    /// The names in scope, each with the key of the array it names (`array_key`).
    scopes: Vec<HashMap<&'a str, (Name<'a>, String)>>,
    /// How many arrays of each name were declared so far (parameters included): code
    /// generation makes each declaration an array of its own, so a name declared again (in
    /// another branch or loop) names another array, keyed `name#N`.
    arrays_declared: HashMap<String, usize>,
}

/// What the earlier passes decided, by span.
#[derive(Default)]
struct Facts {
    /// Grid-wide statements and their collective.
    grids: HashMap<Span, ExprId>,
    scatters: HashSet<Span>,
    /// Per-element atomics.
    vector_atomics: HashSet<Span>,
    /// Once-per-block atomics whose old value goes to a variable.
    kept_atomics: HashSet<Span>,
    registers: HashSet<Span>,
    recomputed: HashSet<Span>,
    copies: HashSet<Span>,
    /// `kir-distribute`'s `for` loops: a [`Stmt::DistributedFor`]'s accesses, or `None` for a
    /// [`Stmt::For`] it kept sequential.
    loops: HashMap<Span, Option<Vec<Access>>>,
}

/// Calls `visitor` on every consumer of block vectors in `kernel`, in program order.
pub(super) fn walk<'a>(kernel: &Kernel, checked: &'a Checked, visitor: &mut dyn Visitor<'a>) {
    let Some(Item::Kernel(decl)) = checked.program.items.get(kernel.item) else {
        return;
    };
    let mut walk = Walk {
        checked,
        block_size: u64::from(kernel.block_size.max(1)),
        facts: facts(kernel),
        scopes: vec![HashMap::new()],
        arrays_declared: HashMap::new(),
    };
    // Scalars first: array dimensions may use any scalar parameter.
    let mut symbols = Symbols::default();
    for param in &decl.params {
        if !matches!(param.ty, TypeExpr::Array { .. }) {
            symbols.bind_parameter(&param.name.name);
        }
    }
    let block_size = kernel.block_size;
    for param in &decl.params {
        let name = match &param.ty {
            TypeExpr::Array { dims, .. } => Name::Array(
                dims.iter()
                    .enumerate()
                    .map(|(i, d)| {
                        Some(symbols.param_dim(&param.name.name, i, d, checked, block_size))
                    })
                    .collect(),
            ),
            _ => Name::Other,
        };
        walk.declare(&param.name.name, name);
    }
    walk.block(&decl.body, visitor);
}

fn facts(kernel: &Kernel) -> Facts {
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
        Stmt::DistributedFor { span, accesses, .. } => {
            facts.loops.insert(*span, Some(accesses.clone()));
        }
        Stmt::For {
            sequential: Some(_),
            span,
            ..
        } => {
            facts.loops.insert(*span, None);
        }
        Stmt::Atomic {
            per_element: Some(_),
            span,
            ..
        } => {
            facts.vector_atomics.insert(*span);
        }
        Stmt::Atomic {
            old: Some(_),
            per_element: None,
            span,
            ..
        } => {
            facts.kept_atomics.insert(*span);
        }
        _ => {}
    });
    let set = |s: &Option<std::collections::BTreeSet<Span>>| -> HashSet<Span> {
        s.iter().flatten().copied().collect()
    };
    facts.registers = set(&kernel.register_vectors);
    facts.recomputed = set(&kernel.recomputed_vectors);
    facts.copies = set(&kernel.indexed_copies);
    facts
}

impl<'a> Walk<'a> {
    /// What `name` stands for here; `None` for a builtin name (`ROW`, `B`, ...).
    pub fn lookup(&self, name: &str) -> Option<&Name<'a>> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.get(name))
            .map(|(what, _)| what)
    }

    /// The key of the array `name` names here, which tells two declarations of one name apart
    /// (the name itself for the first, a parameter's included); the name for anything else.
    pub fn array_key(&self, name: &str) -> String {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.get(name))
            .map_or_else(|| name.to_string(), |(_, key)| key.clone())
    }

    /// The key the next declaration of an array named `name` gets ([`Self::array_key`]).
    pub fn next_array_key(&self, name: &str) -> String {
        match self.arrays_declared.get(name).copied().unwrap_or(0) {
            0 => name.to_string(),
            n => format!("{name}#{n}"),
        }
    }

    fn declare(&mut self, name: &'a str, what: Name<'a>) {
        let key = if matches!(what, Name::Array(_)) {
            let key = self.next_array_key(name);
            *self.arrays_declared.entry(name.to_string()).or_default() += 1;
            key
        } else {
            name.to_string()
        };
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name, (what, key));
        }
    }

    /// Whether the vector variable declared at `name` lives in registers.
    pub fn is_register_vector(&self, name: Span) -> bool {
        self.facts.registers.contains(&name)
    }

    /// Whether the vector variable declared at `name` is evaluated again at each use.
    pub fn is_recomputed(&self, name: Span) -> bool {
        self.facts.recomputed.contains(&name)
    }

    /// How `kir-distribute` decided the `for` loop at `span`: `Some(Some(accesses))` where it
    /// made it a [`Stmt::DistributedFor`] (the body's accesses, arrays by their names),
    /// `Some(None)` where it kept it sequential, `None` before the pass ran.
    pub fn distribution(&self, span: Span) -> Option<Option<&[Access]>> {
        self.facts.loops.get(&span).map(Option::as_deref)
    }

    /// The collective of the grid-wide statement at `span`, if it is one.
    pub fn grid_collective(&self, span: Span) -> Option<ExprId> {
        self.facts.grids.get(&span).copied()
    }

    /// Whether the statement at `span` is a once-per-block atomic whose old value goes to a
    /// variable (thread 0 broadcasts it).
    pub fn keeps_atomic_old(&self, span: Span) -> bool {
        self.facts.kept_atomics.contains(&span)
    }

    /// Whether the computed vector at `span` is indexed through a `shared` copy.
    pub fn is_indexed_copy(&self, span: Span) -> bool {
        self.facts.copies.contains(&span)
    }

    /// Whether the scatter statement at `span` computes its positions element by element.
    pub(super) fn is_scatter(&self, span: Span) -> bool {
        self.facts.scatters.contains(&span)
    }

    fn block(&mut self, block: &'a Block, visitor: &mut dyn Visitor<'a>) {
        self.scopes.push(HashMap::new());
        for stmt in &block.stmts {
            self.stmt(stmt, visitor);
        }
        self.scopes.pop();
    }

    fn stmt(&mut self, stmt: &'a Ast, visitor: &mut dyn Visitor<'a>) {
        visitor.statement(self, stmt);
        match stmt {
            Ast::Let {
                name, init, span, ..
            } => {
                let local = self.checked.locals.get(&name.span);
                let what = match local {
                    Some(Ty::Array { .. }) if self.facts.registers.contains(&name.span) => {
                        Name::Registers
                    }
                    Some(Ty::Array { .. }) if self.facts.recomputed.contains(&name.span) => {
                        match init {
                            Some(init) => Name::Recomputed(init),
                            None => Name::Other,
                        }
                    }
                    Some(Ty::Array { dims, .. }) => Name::Array(
                        dims.iter()
                            .map(|d| match d {
                                Len::Static(n) => i64::try_from(*n).ok().map(Poly::constant),
                                Len::Dynamic => None,
                            })
                            .collect(),
                    ),
                    _ => Name::Other,
                };
                if let Some(init) = init {
                    self.consumers_in(init, None, visitor);
                    if self.facts.vector_atomics.contains(span) {
                        visitor.atomic(self, init, *span);
                    } else if matches!(what, Name::Registers | Name::Array(_)) {
                        let dest = Dest::Variable {
                            name: name.span,
                            registers: matches!(what, Name::Registers),
                        };
                        visitor.store(self, Consumer::Store(*span), dest, init, false);
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
                self.consumers_in(target, grid, visitor);
                self.consumers_in(value, grid, visitor);
                if let Some(collective) = grid {
                    self.grid(collective, target, value, *span, visitor);
                } else if self.facts.vector_atomics.contains(span) {
                    visitor.atomic(self, value, *span);
                } else if is_vector(self.checked.ty(target.id)) {
                    let dest = Dest::Target {
                        target,
                        scatter: self.is_scatter(*span),
                    };
                    visitor.store(self, Consumer::Store(*span), dest, value, false);
                }
            }
            Ast::If {
                cond,
                then_branch,
                else_branch,
                ..
            } => {
                self.consumers_in(cond, None, visitor);
                self.block(then_branch, visitor);
                visitor.else_branch(self, stmt);
                if let Some(b) = else_branch {
                    self.block(b, visitor);
                }
                visitor.if_end(self, stmt);
            }
            Ast::For {
                var, range, body, ..
            } => {
                self.consumers_in(range, None, visitor);
                self.scopes.push(HashMap::new());
                self.declare(&var.name, Name::Other);
                self.block(body, visitor);
                visitor.loop_end(self, stmt);
                self.scopes.pop();
            }
            Ast::While { cond, body, .. } => {
                self.consumers_in(cond, None, visitor);
                self.block(body, visitor);
                visitor.loop_end(self, stmt);
            }
            Ast::Return { value, .. } => {
                if let Some(v) = value {
                    self.consumers_in(v, None, visitor);
                }
            }
            Ast::Call { call, span } => {
                self.consumers_in(call, None, visitor);
                if self.facts.vector_atomics.contains(span) {
                    visitor.atomic(self, call, *span);
                }
            }
        }
    }

    /// The reductions and indexed copies inside `e` (`grid`: the grid-wide statement's
    /// collective, which its statement consumes).
    fn consumers_in(&self, e: &'a Expr, grid: Option<ExprId>, visitor: &mut dyn Visitor<'a>) {
        let mut reductions: Vec<(&'a Expr, &'a Expr)> = Vec::new();
        let mut copies: Vec<&'a Expr> = Vec::new();
        visit_expr(e, &mut |x| match &x.kind {
            ExprKind::Collective {
                op: CollectiveOp::Reduce,
                operand,
                ..
            } if Some(x.id) != grid => reductions.push((x, operand)),
            ExprKind::Index { base, .. } if self.facts.copies.contains(&base.span) => {
                copies.push(base)
            }
            _ => {}
        });
        for (reduce, operand) in reductions {
            visitor.reduce(self, reduce, operand, false);
        }
        for base in copies {
            visitor.store(self, Consumer::Copy(base.span), Dest::Copy, base, false);
        }
    }

    /// A grid-wide statement: its chunk's aggregate (a reduction over the chunk) and, for a
    /// scan, the statement itself over the chunk.
    fn grid(
        &self,
        collective: ExprId,
        target: &'a Expr,
        value: &'a Expr,
        span: Span,
        visitor: &mut dyn Visitor<'a>,
    ) {
        let Some((collective, operand)) = find_grid(self.checked, value, collective)
            .or_else(|| find_grid(self.checked, target, collective))
        else {
            return;
        };
        visitor.reduce(self, collective, operand, true);
        if let ExprKind::Collective {
            op: CollectiveOp::Reduce,
            ..
        } = collective.kind
        {
            return;
        }
        let dest = Dest::Target {
            target,
            scatter: self.is_scatter(span),
        };
        visitor.store(self, Consumer::Store(span), dest, value, true);
    }

    /// Whether argument `arg` of `call` goes to a `func`'s array or `Range` parameter whole,
    /// like a uniform value, rather than element by element.
    pub fn passed_whole(&self, call: &Expr, arg: usize) -> bool {
        let Some(Callee::Func(item)) = self.checked.callees.get(&call.id) else {
            return false;
        };
        let Some(Item::Func(decl)) = self.checked.program.items.get(*item) else {
            return false;
        };
        decl.params.get(arg).is_some_and(|p| match &p.ty {
            TypeExpr::Array { .. } => true,
            TypeExpr::Named { name } => name.name == "Range",
            TypeExpr::Record { .. } => false,
        })
    }

    /// The length of vector expression `e` when the checker knows it.
    pub fn static_len(&self, e: &Expr) -> Option<u64> {
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

    /// The most elements Range-typed `e` can have, where that is a constant and its number is
    /// not (`Checked::range_bounds`: a block's slice cut at the array's end).
    pub fn range_bound(&self, e: &Expr) -> Option<u64> {
        match self.checked.ty(e.id) {
            Ty::Range => self.checked.range_bounds.get(&e.id).copied(),
            _ => None,
        }
    }

    /// The length of the local vector variable whose name is at `name`.
    pub fn static_len_of_local(&self, name: Span) -> Option<u64> {
        match self.checked.locals.get(&name) {
            Some(Ty::Array { dims, .. }) => static_total(dims),
            _ => None,
        }
    }

    /// The positions the sweep of a store of `value` into `dest` walks, when compiled: the
    /// destination's and the value's, the shorter, where both are known (code generation walks
    /// the shorter); a uniform value is stored at every position of the destination. Not a
    /// grid-wide statement's: it walks its block's chunk, a run-time length (its callers know).
    /// `kir-collectives` counts a scan's threads by it, `kir-barriers` the copies of a sweep's
    /// body.
    pub fn store_len(&self, dest: Dest<'_>, value: &Expr) -> Option<u64> {
        let dest_len = match dest {
            Dest::Variable { name, .. } => self.static_len_of_local(name)?,
            Dest::Target {
                target,
                scatter: false,
            } => self.static_len(target)?,
            // A tile store's positions are the tile's.
            Dest::Target {
                target,
                scatter: true,
            } if self.is_tile_store(target) => self.static_len(target)?,
            // A scatter's positions are its vector subscripts'.
            Dest::Target {
                target,
                scatter: true,
            } => {
                let ExprKind::Index { indices, .. } = &target.kind else {
                    return None;
                };
                let vectors: Vec<&Expr> = indices
                    .iter()
                    .filter(|e| is_vector(self.checked.ty(e.id)))
                    .collect();
                self.shortest_len(&vectors)?
            }
            Dest::Copy => return self.static_len(value),
        };
        if !is_vector(self.checked.ty(value.id)) {
            return Some(dest_len);
        }
        Some(dest_len.min(self.static_len(value)?))
    }

    /// The shortest of `vectors`' lengths, where every one is known when compiled (none where
    /// there are none).
    pub fn shortest_len(&self, vectors: &[&Expr]) -> Option<u64> {
        vectors
            .iter()
            .map(|e| self.static_len(e))
            .collect::<Option<Vec<u64>>>()?
            .into_iter()
            .min()
    }

    /// Whether scatter target `target` stores a two-dimensional slice `a[r, s]` (a tile of `r`
    /// rows and `s` columns, as `kir-lower`'s `TileRows`/`TileCols`): its positions are the
    /// tile's, and its ranges only give them.
    pub fn is_tile_store(&self, target: &Expr) -> bool {
        let ExprKind::Index { indices, .. } = &target.kind else {
            return false;
        };
        match (self.checked.ty(target.id).tile_shape(), indices.as_slice()) {
            (Some(_), [r, c]) => {
                *self.checked.ty(r.id) == Ty::Range && *self.checked.ty(c.id) == Ty::Range
            }
            _ => false,
        }
    }
}

fn static_total(dims: &[Len]) -> Option<u64> {
    dims.iter().try_fold(1u64, |acc, d| match d {
        Len::Static(n) => acc.checked_mul(*n),
        Len::Dynamic => None,
    })
}

/// A block vector in an elementwise position: a vector, an array or a range.
pub(super) fn is_vector(ty: &Ty) -> bool {
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
