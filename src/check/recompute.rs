//! Vector variables of run-time length (`e: Float32[] <- exp /~ (x[B] - m)` with a run-time
//! row length): they cannot live in registers (a thread holds a fixed number of elements), so
//! each use evaluates the initializer again (`kir-recomputed-vectors` records them; code
//! generation substitutes the initializer). That is only correct when every use sees what the
//! definition saw, so the variable is not recomputed when:
//! - it is assigned again;
//! - a statement after the definition, in its scope, writes an array or variable that the
//!   initializer reads (an atomic statement included), or declares a variable of the same name
//!   (a use would see another value);
//! - its initializer is a uniform value (`w: Float32[n] <- 0`: nothing to recompute);
//! - recomputing it would make an expression of more than [`MAX_RECOMPUTED_NODES`] nodes
//!   (each variable defined from earlier ones is their initializers, substituted: a chain of
//!   variables each used twice in the next doubles at each step).
//!
//! Such a variable is stored in a scratch row instead (`check/scratch_rows.rs`), or, where its
//! length is not known at launch, rejected (`E0307`, with the reason).
//!
//! Indexing it is already `E0205` (no register vector can be indexed), and an atomic cannot
//! stand inside an initializer (`E0602`), so neither needs a rule here.
//!
//! The rule looks at the statements after the definition, not at the uses: a write with no use
//! after it moves the variable too. That keeps the rule one sentence long.

use super::ctx::FnCtx;
use super::error::{CheckError, NotRecomputed, MAX_RECOMPUTED_NODES};
use super::scratch_rows::{LaunchLengths, NoScratchRow, ScratchRow};
use crate::syntax::ast::{Block, Expr, ExprKind, Item, Stmt};
use crate::syntax::span::Span;
use crate::syntax::visit::visit_expr;
use std::collections::{HashMap, HashSet};

impl<'c, 'p> FnCtx<'c, 'p> {
    /// Decides, after the body was checked, where each vector variable of run-time length
    /// lives: recomputed at each use, else in a scratch row (`check/scratch_rows.rs`), else
    /// rejected.
    pub(super) fn check_recomputed_vectors(&mut self, body: &Block) {
        let pending: HashMap<Span, bool> = self.run_time_vectors.drain(..).collect();
        if pending.is_empty() {
            return;
        }
        let program = self.cx.program;
        let Some(Item::Kernel(kernel)) = program.items.get(self.item) else {
            return;
        };
        let locals = self.all_decls.iter().map(|(n, _)| n.as_str()).collect();
        let mut found = Vec::new();
        {
            let mut lengths =
                LaunchLengths::new(&kernel.params, &self.cx.expr_types, &self.cx.consts, locals);
            let mut walk = Walk {
                kernel: self.item,
                pending: &pending,
                sizes: HashMap::new(),
                lengths: &mut lengths,
                found: &mut found,
            };
            walk.block(body);
        }
        for (span, name, ty_span, reason, stored) in found {
            let no_scratch = match stored {
                Ok(row) => {
                    self.cx.scratch_rows.push(row);
                    continue;
                }
                Err(why) => why,
            };
            let ty = self
                .cx
                .locals
                .get(&span)
                .cloned()
                .unwrap_or(crate::check::types::Ty::Error);
            self.error(CheckError::DynamicRegisterVector {
                span: ty_span,
                name,
                ty,
                reason,
                no_scratch,
            });
        }
    }
}

/// A variable that cannot be recomputed: its name's span, its name, the span to report, why,
/// and its scratch row or why it has none.
type Finding = (
    Span,
    String,
    Span,
    NotRecomputed,
    Result<ScratchRow, NoScratchRow>,
);

struct Walk<'w, 'a> {
    kernel: usize,
    /// The variables to decide (by the span of their name), and whether each is a uniform
    /// fill.
    pending: &'w HashMap<Span, bool>,
    /// The recomputed variables met so far and the nodes each stands for.
    sizes: HashMap<String, u64>,
    lengths: &'w mut LaunchLengths<'a>,
    found: &'w mut Vec<Finding>,
}

impl Walk<'_, '_> {
    fn block(&mut self, block: &Block) {
        for (i, stmt) in block.stmts.iter().enumerate() {
            match stmt {
                Stmt::Let { name, ty, init, .. } => {
                    let Some(&uniform_fill) = self.pending.get(&name.span) else {
                        continue;
                    };
                    self.lengths.declare(&name.name, ty, init.as_ref());
                    let (reason, nodes) = match init {
                        _ if uniform_fill => (Some(NotRecomputed::UniformFill), 1),
                        Some(init) => {
                            let nodes = substituted_nodes(init, &self.sizes);
                            let reason = if nodes > MAX_RECOMPUTED_NODES {
                                Some(NotRecomputed::TooLarge { nodes })
                            } else {
                                why_not(&name.name, init, &block.stmts[i + 1..])
                            };
                            (reason, nodes)
                        }
                        None => (Some(NotRecomputed::UniformFill), 1),
                    };
                    match reason {
                        Some(reason) => {
                            let stored =
                                self.lengths
                                    .scratch_row(self.kernel, name, ty, reason.clone());
                            let at = init.as_ref().map_or(ty.span(), |i| i.span);
                            self.found
                                .push((name.span, name.name.clone(), at, reason, stored));
                        }
                        None => {
                            self.sizes.insert(name.name.clone(), nodes);
                        }
                    }
                }
                Stmt::If {
                    then_branch,
                    else_branch,
                    ..
                } => {
                    self.block(then_branch);
                    if let Some(e) = else_branch {
                        self.block(e);
                    }
                }
                Stmt::For { body, .. } | Stmt::While { body, .. } => self.block(body),
                _ => {}
            }
        }
    }
}

/// The expression nodes of `init` once the recomputed variables in it are substituted
/// (saturating: only the comparison with the limit matters).
fn substituted_nodes(init: &Expr, sizes: &HashMap<String, u64>) -> u64 {
    let mut nodes: u64 = 0;
    visit_expr(init, &mut |e| {
        let n = match &e.kind {
            ExprKind::Name(id) => sizes.get(&id.name).copied().unwrap_or(1),
            _ => 1,
        };
        nodes = nodes.saturating_add(n);
    });
    nodes
}

/// Why `name <- init`, followed by `rest` in its scope, cannot be recomputed at each use.
fn why_not(name: &str, init: &Expr, rest: &[Stmt]) -> Option<NotRecomputed> {
    let mut reads = HashSet::new();
    visit_expr(init, &mut |e| {
        if let ExprKind::Name(id) = &e.kind {
            reads.insert(id.name.clone());
        }
    });
    let mut reason = None;
    for stmt in rest {
        after(stmt, name, &reads, &mut reason);
        if reason.is_some() {
            break;
        }
    }
    reason
}

/// The first reason in `stmt` (nested statements included), if `reason` has none yet.
fn after(stmt: &Stmt, name: &str, reads: &HashSet<String>, reason: &mut Option<NotRecomputed>) {
    if reason.is_some() {
        return;
    }
    let changed = |written: &str, at: Span| {
        if written == name {
            Some(NotRecomputed::Assigned { at })
        } else if reads.contains(written) {
            Some(NotRecomputed::Changed {
                name: written.to_string(),
                at,
            })
        } else {
            None
        }
    };
    let nested: Vec<&Stmt> = match stmt {
        // A declaration of the recomputed variable's own name cannot follow it in its scope.
        Stmt::Let { name: declared, .. } if declared.name != name => {
            *reason = changed(&declared.name, declared.span);
            Vec::new()
        }
        Stmt::Assign { target, .. } => {
            *reason = changed(&root(target), target.span);
            Vec::new()
        }
        // An atomic statement writes its place, the first argument.
        Stmt::Call { call, .. } => {
            if let ExprKind::Call { args, .. } = &call.kind {
                if let Some(place) = args.first() {
                    *reason = changed(&root(place), place.span);
                }
            }
            Vec::new()
        }
        Stmt::If {
            then_branch,
            else_branch,
            ..
        } => then_branch
            .stmts
            .iter()
            .chain(else_branch.iter().flat_map(|b| &b.stmts))
            .collect(),
        Stmt::For { var, body, .. } => {
            if var.name != name {
                *reason = changed(&var.name, var.span);
            }
            body.stmts.iter().collect()
        }
        Stmt::While { body, .. } => body.stmts.iter().collect(),
        Stmt::Let { .. } | Stmt::Return { .. } => Vec::new(),
    };
    for s in nested {
        after(s, name, reads, reason);
    }
}

/// The variable an assignment target belongs to: `a` in `a[i].f`.
fn root(target: &Expr) -> String {
    let mut e = target;
    while let ExprKind::Index { base, .. } | ExprKind::Field { base, .. } = &e.kind {
        e = base;
    }
    match &e.kind {
        ExprKind::Name(id) => id.name.clone(),
        _ => String::new(),
    }
}
