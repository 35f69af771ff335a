//! `kir-register-vectors`: the vector variables of each kernel that live in registers. Thread
//! `t` holds elements `t + s * BLOCKSIZE` in slot `s` of a private array that the optimiser
//! turns into registers; that needs every slot index to be a compile-time constant, so the
//! variable must never be indexed (each element is only ever used by the thread that owns it).

use super::{Kernel, Module};
use crate::check::types::{Len, Space, Ty};
use crate::check::Checked;
use crate::syntax::ast::{Expr, ExprKind, Item};
use crate::syntax::span::Span;

/// At most this many elements per thread live in registers; a longer vector variable goes to
/// shared memory.
const REGISTER_SLOTS: u64 = 8;

pub fn run(module: &mut Module, checked: &Checked) {
    for kernel in &mut module.kernels {
        kernel.register_vectors = Some(of(kernel, checked));
    }
}

fn of(kernel: &Kernel, checked: &Checked) -> std::collections::BTreeSet<Span> {
    match checked.program.items.get(kernel.item) {
        Some(Item::Kernel(decl)) => register_vectors(checked, &decl.body, kernel.block_size)
            .into_iter()
            .collect(),
        _ => Default::default(),
    }
}

/// The vector variables of a kernel body that live in registers (by the span of their name):
/// not `shared`, of a compile-time length of at most `REGISTER_SLOTS * BLOCKSIZE`, and never
/// indexed, so that each element is only ever used by the thread that owns it (whole-vector
/// operands, maps, reductions, scans, assignments of the whole variable).
fn register_vectors(
    checked: &crate::check::Checked,
    body: &crate::syntax::ast::Block,
    block_size: u32,
) -> std::collections::HashSet<Span> {
    use crate::syntax::ast::Stmt;
    let mut candidates: Vec<(String, Span)> = Vec::new();
    let mut indexed: std::collections::HashSet<String> = std::collections::HashSet::new();
    fn walk(
        block: &crate::syntax::ast::Block,
        checked: &crate::check::Checked,
        block_size: u32,
        candidates: &mut Vec<(String, Span)>,
        indexed: &mut std::collections::HashSet<String>,
    ) {
        for stmt in &block.stmts {
            if let Stmt::Let {
                name,
                shared: false,
                ..
            } = stmt
            {
                if let Some(Ty::Array {
                    dims,
                    space: Space::Local,
                    ..
                }) = checked.locals.get(&name.span)
                {
                    // A tile (`acc: Float32[16, 16] <- 0`) is a vector of its elements,
                    // row-major: element (i, j) is slot `(i * cols + j) / BLOCKSIZE` of thread
                    // `(i * cols + j) mod BLOCKSIZE`.
                    let total = match dims.as_slice() {
                        [Len::Static(n)] => Some(*n),
                        [Len::Static(r), Len::Static(c)] => r.checked_mul(*c),
                        _ => None,
                    };
                    if let Some(n) = total.as_ref() {
                        if *n > 0 && *n <= REGISTER_SLOTS * u64::from(block_size) {
                            candidates.push((name.name.clone(), name.span));
                        }
                    }
                }
            }
            let mut note = |e: &Expr| {
                if let ExprKind::Index { base, .. } = &e.kind {
                    if let ExprKind::Name(name) = &base.kind {
                        indexed.insert(name.name.clone());
                    }
                }
            };
            match stmt {
                Stmt::If {
                    cond,
                    then_branch,
                    else_branch,
                    ..
                } => {
                    crate::syntax::visit::visit_expr(cond, &mut note);
                    walk(then_branch, checked, block_size, candidates, indexed);
                    if let Some(e) = else_branch {
                        walk(e, checked, block_size, candidates, indexed);
                    }
                }
                Stmt::For { range, body, .. } => {
                    crate::syntax::visit::visit_expr(range, &mut note);
                    walk(body, checked, block_size, candidates, indexed);
                }
                Stmt::While { cond, body, .. } => {
                    crate::syntax::visit::visit_expr(cond, &mut note);
                    walk(body, checked, block_size, candidates, indexed);
                }
                Stmt::Let { init, .. } => {
                    if let Some(init) = init {
                        crate::syntax::visit::visit_expr(init, &mut note);
                    }
                }
                Stmt::Assign { target, value, .. } => {
                    crate::syntax::visit::visit_expr(target, &mut note);
                    crate::syntax::visit::visit_expr(value, &mut note);
                }
                Stmt::Return { value, .. } => {
                    if let Some(v) = value {
                        crate::syntax::visit::visit_expr(v, &mut note);
                    }
                }
                Stmt::Call { call, .. } => crate::syntax::visit::visit_expr(call, &mut note),
            }
        }
    }
    walk(body, checked, block_size, &mut candidates, &mut indexed);
    candidates
        .into_iter()
        .filter(|(name, _)| !indexed.contains(name))
        .map(|(_, span)| span)
        .collect()
}
