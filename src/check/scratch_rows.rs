//! Scratch rows: where a vector variable of run-time length lives when recomputing it at each
//! use would be wrong (`check/recompute.rs` says why: it is assigned again, something it reads
//! changes, it is a uniform fill, or it is too large).
//!
//! Such a variable is stored instead in its block's row of a scratch array, `BLOCKS` rows of
//! the variable's length, which loomc adds to the kernel as a last, hidden array parameter
//! (`Param::scratch`) and which the host allocates at launch (metadata kind `scratch`,
//! docs/abi.md). That is what a CUDA programmer does for a per-block temporary too long for
//! shared memory: allocate `rows x cols` of global memory beside the arguments. It needs the
//! length when the kernel is launched, so the variable's length must be an expression over
//! literals, `BLOCKS`, `BLOCKSIZE`, `THREADS` and integer scalar parameters, or a linear one in
//! which every other name cancels ([`LaunchLengths`]); otherwise `E0307` stands, saying so.
//!
//! The checker records each such variable ([`ScratchRow`]) without an error; the driver then
//! rewrites the program ([`store_in_scratch_rows`]): the declaration `e: T[] <- v` becomes the
//! store `e'[B] <- v` and every use of `e` in its scope the row `e'[B]`; and checks it again.
//! From there on the variable is an ordinary row of an array parameter, which every later stage
//! (the kernel IR, barrier placement, code generation, the verifier, the CPU backend) already
//! handles.

use super::error::NotRecomputed;
use super::types::{Scalar, Ty};
use crate::syntax::ast::{
    BinaryOp, Block, Expr, ExprId, ExprKind, Ident, Item, Param, Program, Stmt, TypeExpr, UnaryOp,
};
use crate::syntax::span::Span;
use crate::syntax::visit::{each_child_mut, visit_expr};
use std::collections::{HashMap, HashSet};

/// A vector variable stored in its block's row of a scratch array.
#[derive(Debug, Clone)]
pub struct ScratchRow {
    /// The kernel's index in the program's items.
    pub kernel: usize,
    pub name: String,
    /// The variable's name where it is declared.
    pub name_span: Span,
    /// The element type, as written in the declaration.
    pub elem: TypeExpr,
    /// The variable's length, over what the host knows at launch.
    pub length: Expr,
    /// Why it is not recomputed at each use.
    pub reason: NotRecomputed,
}

/// Why a variable that cannot be recomputed cannot have a scratch row either.
#[derive(Debug, Clone, PartialEq)]
pub enum NoScratchRow {
    /// Its length depends on something the host does not know at launch.
    LengthAfterLaunch,
    /// Its elements are not scalars (kernel arrays hold scalars).
    NotScalarElements,
    /// It is declared in a `func` (which cannot have vector variables at all).
    InFunc,
}

/// The lengths of vector expressions in one kernel, as expressions over what the host knows
/// at launch, where they are: an array parameter's dimension, `hi - lo` of a `range(lo, hi)`
/// over such values, or the length of a vector variable declared before.
pub struct LaunchLengths<'a> {
    params: &'a [Param],
    types: &'a [Ty],
    /// The checker's folded constants, for linear forms (`fold.rs`).
    consts: &'a HashMap<ExprId, i128>,
    /// Names declared anywhere in the kernel: a parameter name among them may be hidden.
    locals: HashSet<&'a str>,
    /// The vector variables of run-time length declared so far, and their lengths.
    vars: HashMap<String, Option<Expr>>,
}

impl<'a> LaunchLengths<'a> {
    pub fn new(
        params: &'a [Param],
        types: &'a [Ty],
        consts: &'a HashMap<ExprId, i128>,
        locals: HashSet<&'a str>,
    ) -> Self {
        LaunchLengths {
            params,
            types,
            consts,
            locals,
            vars: HashMap::new(),
        }
    }

    /// Notes the declaration `name: ty <- init` of a vector variable of run-time length.
    pub fn declare(&mut self, name: &str, ty: &TypeExpr, init: Option<&Expr>) {
        let length = match ty {
            TypeExpr::Array { dims, .. } if dims.len() == 1 => Some(dims[0].clone()),
            _ => init.and_then(|i| self.of(i)),
        }
        .and_then(|l| {
            if self.known_at_launch(&l) {
                Some(l)
            } else {
                self.linear_at_launch(&l)
            }
        });
        self.vars.insert(name.to_string(), length);
    }

    /// `length` as a linear form whose names the host knows at launch, where it has one:
    /// `range(B * BLOCKSIZE + lo, B * BLOCKSIZE + hi)` and `range(i, i + n)` in a loop over
    /// `i` have `hi - lo` and `n` elements, whatever `B` and `i` are.
    fn linear_at_launch(&self, length: &Expr) -> Option<Expr> {
        let form = super::fold::linear(length, self.consts)?;
        let launch_name = |name: &str| {
            matches!(name, "BLOCKS" | "THREADS")
                || self.param(name).is_some_and(|p| match &p.ty {
                    TypeExpr::Named { name } => is_integer_type_name(&name.name),
                    _ => false,
                })
        };
        if !form.terms.iter().all(|(name, _)| launch_name(name)) {
            return None;
        }
        let span = length.span;
        let node = |kind| Expr {
            id: length.id,
            kind,
            span,
        };
        let int = |v: i128| node(ExprKind::Int(v.unsigned_abs()));
        let name = |n: &str| {
            node(ExprKind::Name(Ident {
                name: n.to_string(),
                span,
            }))
        };
        let combine = |sum: Option<Expr>, term: Expr, negative: bool| match sum {
            None if negative => node(ExprKind::Binary {
                op: BinaryOp::Sub,
                op_span: span,
                lhs: Box::new(int(0)),
                rhs: Box::new(term),
            }),
            None => term,
            Some(sum) => node(ExprKind::Binary {
                op: if negative {
                    BinaryOp::Sub
                } else {
                    BinaryOp::Add
                },
                op_span: span,
                lhs: Box::new(sum),
                rhs: Box::new(term),
            }),
        };
        let mut sum = None;
        for (n, c) in form.terms.iter() {
            let term = match c.unsigned_abs() {
                1 => name(n),
                _ => node(ExprKind::Binary {
                    op: BinaryOp::Mul,
                    op_span: span,
                    lhs: Box::new(int(c)),
                    rhs: Box::new(name(n)),
                }),
            };
            sum = Some(combine(sum, term, c < 0));
        }
        if form.constant != 0 || sum.is_none() {
            sum = Some(combine(sum, int(form.constant), form.constant < 0));
        }
        sum
    }

    /// The scratch row of the variable `name: ty <- init`, declared in kernel `kernel`.
    pub fn scratch_row(
        &self,
        kernel: usize,
        name: &Ident,
        ty: &TypeExpr,
        reason: NotRecomputed,
    ) -> Result<ScratchRow, NoScratchRow> {
        let TypeExpr::Array { elem, .. } = ty else {
            return Err(NoScratchRow::NotScalarElements);
        };
        if !is_scalar_name(elem) {
            return Err(NoScratchRow::NotScalarElements);
        }
        let length = self
            .vars
            .get(&name.name)
            .cloned()
            .flatten()
            .ok_or(NoScratchRow::LengthAfterLaunch)?;
        Ok(ScratchRow {
            kernel,
            name: name.name.clone(),
            name_span: name.span,
            elem: (**elem).clone(),
            length,
            reason,
        })
    }

    fn is_vector(&self, e: &Expr) -> bool {
        matches!(
            self.types.get(e.id.0 as usize),
            Some(Ty::Vector { .. } | Ty::Array { .. } | Ty::Range)
        )
    }

    fn param(&self, name: &str) -> Option<&'a Param> {
        if self.locals.contains(name) {
            return None;
        }
        self.params.iter().find(|p| p.name.name == name)
    }

    /// The length of the vector `e`, if it is an expression (not necessarily known at launch).
    fn of(&self, e: &Expr) -> Option<Expr> {
        match &e.kind {
            ExprKind::Name(id) => match self.vars.get(&id.name) {
                Some(length) => length.clone(),
                None => match &self.param(&id.name)?.ty {
                    TypeExpr::Array { dims, .. } if dims.len() == 1 => Some(dims[0].clone()),
                    _ => None,
                },
            },
            ExprKind::Index { base, indices, .. } => self.of_index(base, indices),
            ExprKind::Call { callee, args } if callee.name == "range" => range_length(e, args),
            ExprKind::Call { args, .. } => args
                .iter()
                .find(|a| self.is_vector(a))
                .and_then(|a| self.of(a)),
            ExprKind::Unary { operand, .. } => self.of(operand),
            ExprKind::Binary { lhs, rhs, .. } => [lhs, rhs]
                .into_iter()
                .find(|x| self.is_vector(x))
                .and_then(|x| self.of(x)),
            ExprKind::Collective { operand, .. } => self.of(operand),
            _ => None,
        }
    }

    /// `a[i]` (a row of a 2-D array parameter), `x[r]` (a slice), `x[v]` (a gather),
    /// `a[i, r]` and `a[r, j]`.
    fn of_index(&self, base: &Expr, indices: &[Expr]) -> Option<Expr> {
        let vector_indices: Vec<&Expr> = indices.iter().filter(|i| self.is_vector(i)).collect();
        match vector_indices.as_slice() {
            [] => match (&base.kind, indices.len()) {
                (ExprKind::Name(id), 1) => match &self.param(&id.name)?.ty {
                    TypeExpr::Array { dims, .. } if dims.len() == 2 => Some(dims[1].clone()),
                    _ => None,
                },
                _ => None,
            },
            [index] => self.of(index),
            _ => None,
        }
    }

    /// Whether the host can evaluate `length` at launch, as it evaluates an array parameter's
    /// dimensions (docs/abi.md): literals, `BLOCKS`, `BLOCKSIZE`, `THREADS`, integer scalar
    /// parameters, integer arithmetic and casts between integer types (what the metadata's
    /// dimension expressions can say).
    fn known_at_launch(&self, length: &Expr) -> bool {
        let mut known = true;
        visit_expr(length, &mut |e| match &e.kind {
            ExprKind::Int(_) => {}
            ExprKind::Unary { op, .. } => known &= *op == UnaryOp::Neg,
            ExprKind::Binary { op, .. } => {
                known &= matches!(
                    op,
                    BinaryOp::Add
                        | BinaryOp::Sub
                        | BinaryOp::Mul
                        | BinaryOp::Div
                        | BinaryOp::Rem
                        | BinaryOp::Shl
                        | BinaryOp::Shr
                        | BinaryOp::BitAnd
                        | BinaryOp::BitOr
                        | BinaryOp::BitXor
                )
            }
            ExprKind::Name(id)
                if matches!(id.name.as_str(), "BLOCKS" | "BLOCKSIZE" | "THREADS") => {}
            ExprKind::Name(id) => {
                known &= self
                    .param(&id.name)
                    .is_some_and(|p| matches!(&p.ty, TypeExpr::Named { .. }))
                    && matches!(
                        self.types.get(e.id.0 as usize),
                        Some(Ty::Scalar(s)) if s.is_integer()
                    );
            }
            ExprKind::Call { callee, args } => {
                known &= args.len() == 1 && is_integer_type_name(&callee.name);
            }
            _ => known = false,
        });
        known
    }
}

/// `hi - lo` of `range(lo, hi)`.
fn range_length(range: &Expr, args: &[Expr]) -> Option<Expr> {
    let [lo, hi] = args else {
        return None;
    };
    Some(Expr {
        id: range.id,
        kind: ExprKind::Binary {
            op: BinaryOp::Sub,
            op_span: range.span,
            lhs: Box::new(hi.clone()),
            rhs: Box::new(lo.clone()),
        },
        span: range.span,
    })
}

fn is_integer_type_name(name: &str) -> bool {
    Scalar::from_name(name).is_some_and(Scalar::is_integer)
}

fn is_scalar_name(ty: &TypeExpr) -> bool {
    matches!(ty, TypeExpr::Named { name } if Scalar::from_name(&name.name).is_some())
}

/// Rewrites `program` so that every variable of `rows` lives in its scratch row (module
/// comment): one hidden array parameter per variable, after the kernel's own.
pub fn store_in_scratch_rows(program: &mut Program, rows: &[ScratchRow]) {
    let mut ids = FreshIds(program.expr_count);
    for (item, decl) in program.items.iter_mut().enumerate() {
        let Item::Kernel(kernel) = decl else {
            continue;
        };
        let mine: Vec<&ScratchRow> = rows.iter().filter(|r| r.kernel == item).collect();
        if mine.is_empty() {
            continue;
        }
        let mut params = HashMap::new();
        for row in mine {
            let name = hidden_name(&row.name, &kernel.params);
            params.insert(row.name_span, name.clone());
            kernel.params.push(scratch_param(row, name, &mut ids));
        }
        rename_block(&mut kernel.body, &params, &mut HashMap::new(), &mut ids);
    }
    program.expr_count = ids.0;
}

/// `e.scratch`, or `e.scratch2`, ... where a kernel has two variables `e`: a name no user
/// identifier can be (the metadata and the IR show it; no host passes it).
fn hidden_name(name: &str, params: &[Param]) -> String {
    let taken = |n: &str| params.iter().any(|p| p.name.name == n);
    let mut candidate = format!("{name}.scratch");
    let mut k = 2;
    while taken(&candidate) {
        candidate = format!("{name}.scratch{k}");
        k += 1;
    }
    candidate
}

/// `name: T[BLOCKS, length]`, hidden.
fn scratch_param(row: &ScratchRow, name: String, ids: &mut FreshIds) -> Param {
    let span = row.name_span;
    let mut length = row.length.clone();
    ids.renumber(&mut length);
    Param {
        name: Ident { name, span },
        ty: TypeExpr::Array {
            elem: Box::new(row.elem.clone()),
            dims: vec![ids.name("BLOCKS", span), length],
            span,
        },
        span,
        scratch: true,
    }
}

struct FreshIds(u32);

impl FreshIds {
    fn next(&mut self) -> ExprId {
        let id = ExprId(self.0);
        self.0 = self.0.saturating_add(1);
        id
    }

    fn name(&mut self, name: &str, span: Span) -> Expr {
        Expr {
            id: self.next(),
            kind: ExprKind::Name(Ident {
                name: name.to_string(),
                span,
            }),
            span,
        }
    }

    /// Gives every node of `e` a fresh id: a copy must not share the original's entries in the
    /// per-expression tables.
    fn renumber(&mut self, e: &mut Expr) {
        e.id = self.next();
        each_child_mut(e, &mut |c| self.renumber(c));
    }
}

/// Rewrites `block`: the declarations of `params`' variables become stores into their rows,
/// and, from there to the end of their scope, uses become rows (`active`: variable to
/// parameter).
fn rename_block(
    block: &mut Block,
    params: &HashMap<Span, String>,
    active: &mut HashMap<String, String>,
    ids: &mut FreshIds,
) {
    let stmts = std::mem::take(&mut block.stmts);
    for mut stmt in stmts {
        if let Stmt::Let {
            name,
            init: Some(init),
            span,
            ..
        } = &mut stmt
        {
            if let Some(param) = params.get(&name.span) {
                let mut value = init.clone();
                rename_expr(&mut value, active, ids);
                let target = row(param, name.span, ids.next(), ids);
                active.insert(name.name.clone(), param.clone());
                block.stmts.push(Stmt::Assign {
                    target,
                    value,
                    span: *span,
                });
                continue;
            }
        }
        rename_stmt(&mut stmt, params, active, ids);
        if let Stmt::Let { name, .. } = &stmt {
            active.remove(&name.name);
        }
        block.stmts.push(stmt);
    }
}

fn rename_stmt(
    stmt: &mut Stmt,
    params: &HashMap<Span, String>,
    active: &HashMap<String, String>,
    ids: &mut FreshIds,
) {
    let nested = |block: &mut Block, hidden: Option<&str>, ids: &mut FreshIds| {
        let mut inner = active.clone();
        if let Some(h) = hidden {
            inner.remove(h);
        }
        rename_block(block, params, &mut inner, ids);
    };
    match stmt {
        Stmt::Let { ty, init, .. } => {
            rename_type(ty, active, ids);
            if let Some(init) = init {
                rename_expr(init, active, ids);
            }
        }
        Stmt::Assign { target, value, .. } => {
            rename_expr(target, active, ids);
            rename_expr(value, active, ids);
        }
        Stmt::If {
            cond,
            then_branch,
            else_branch,
            ..
        } => {
            rename_expr(cond, active, ids);
            nested(then_branch, None, ids);
            if let Some(e) = else_branch {
                nested(e, None, ids);
            }
        }
        Stmt::For {
            var, range, body, ..
        } => {
            rename_expr(range, active, ids);
            let var = var.name.clone();
            nested(body, Some(&var), ids);
        }
        Stmt::While { cond, body, .. } => {
            rename_expr(cond, active, ids);
            nested(body, None, ids);
        }
        Stmt::Return { value, .. } => {
            if let Some(v) = value {
                rename_expr(v, active, ids);
            }
        }
        Stmt::Call { call, .. } => rename_expr(call, active, ids),
    }
}

fn rename_type(ty: &mut TypeExpr, active: &HashMap<String, String>, ids: &mut FreshIds) {
    match ty {
        TypeExpr::Named { .. } => {}
        TypeExpr::Record { fields, .. } => fields
            .iter_mut()
            .for_each(|f| rename_type(&mut f.ty, active, ids)),
        TypeExpr::Array { elem, dims, .. } => {
            rename_type(elem, active, ids);
            dims.iter_mut().for_each(|d| rename_expr(d, active, ids));
        }
    }
}

fn rename_expr(e: &mut Expr, active: &HashMap<String, String>, ids: &mut FreshIds) {
    if active.is_empty() {
        return;
    }
    if let ExprKind::Name(id) = &e.kind {
        if let Some(param) = active.get(&id.name) {
            *e = row(param, e.span, e.id, ids);
        }
        return;
    }
    each_child_mut(e, &mut |c| rename_expr(c, active, ids));
}

/// `param[B]`, at `span`, with `id` for the whole.
fn row(param: &str, span: Span, id: ExprId, ids: &mut FreshIds) -> Expr {
    Expr {
        id,
        kind: ExprKind::Index {
            base: Box::new(ids.name(param, span)),
            indices: vec![ids.name("B", span)],
            checked: false,
        },
        span,
    }
}
