//! A kernel's statements, translated from the kernel IR: code generation walks the kernel's
//! `kir::Stmt`s and takes each statement's kind as the decision the passes made (a scalar or a
//! vector variable, a uniform store, a contiguous store or a scatter, a grid-wide statement, a
//! distributed or a sequential loop, an atomic). The checked program's statement at the same
//! place gives the expressions, which the kernel IR names by id (element computations stay the
//! checked AST's): the two are walked side by side, and a statement that one has and the other
//! does not is an internal error. A vector variable `kir-recomputed-vectors` recomputes has no
//! statement in the program code generation lowers (each use holds its initializer,
//! `kir::substitute_recomputed_vectors`), and is passed over.

use super::body::{Body, Result};
use super::error::CodegenError;
use super::remarks::Remark;
use super::vector::Positions;
use crate::kir::{Stmt as Kir, Subscript};
use crate::syntax::ast::{Block, Expr, Ident, Stmt as Ast, TypeExpr};
use crate::syntax::span::Span;

impl<'a, 'ctx> Body<'a, 'ctx> {
    /// The statements `ir` of a kernel's block, written in the program as `written`.
    pub fn kernel_block(&mut self, ir: &[Kir], written: &Block) -> Result<()> {
        self.push_scope();
        let result = self.kernel_stmts(ir, written);
        self.pop_scope();
        result
    }

    fn kernel_stmts(&mut self, ir: &[Kir], written: &Block) -> Result<()> {
        let mut source = written.stmts.iter();
        for stmt in ir {
            if self.is_recomputed(stmt) {
                continue;
            }
            let Some(ast) = source.next() else {
                return Err(CodegenError::internal(
                    "a kernel-IR statement that the program does not have",
                    stmt.span(),
                ));
            };
            if ast.span() != stmt.span() {
                return Err(differ(stmt.span()));
            }
            self.kernel_stmt(stmt, ast)?;
        }
        match source.next() {
            Some(ast) => Err(CodegenError::internal(
                "a statement that the kernel IR does not have",
                ast.span(),
            )),
            None => Ok(()),
        }
    }

    /// A recomputed vector variable's declaration (`kir-recomputed-vectors`).
    fn is_recomputed(&self, stmt: &Kir) -> bool {
        matches!(stmt, Kir::Vector { name_span, .. } if self.recomputed.contains(name_span))
    }

    fn kernel_stmt(&mut self, ir: &Kir, ast: &Ast) -> Result<()> {
        self.start_stmt(ast.span());
        match (ir, ast) {
            (
                Kir::Scalar { .. } | Kir::Vector { .. } | Kir::Atomic { .. },
                Ast::Let {
                    name,
                    ty,
                    init,
                    shared,
                    span,
                },
            ) => self.let_stmt(name, ty, init.as_ref(), *shared, *span),
            (
                Kir::Grid { stmt, .. },
                Ast::Assign {
                    target,
                    value,
                    span,
                },
            ) => self.grid_stmt(stmt, target, value, *span),
            (
                _,
                Ast::Assign {
                    target,
                    value,
                    span,
                },
            ) => self.store_stmt(ir, target, value, *span),
            (Kir::Atomic { .. }, Ast::Call { call, span }) => self.atomic_stmt(call, *span),
            (
                Kir::If {
                    then_body,
                    else_body,
                    ..
                },
                Ast::If {
                    cond,
                    then_branch,
                    else_branch,
                    span,
                },
            ) => self.if_stmt(
                cond,
                &mut |this| this.kernel_block(then_body, then_branch),
                &mut |this| match else_branch {
                    Some(written) => this.kernel_block(else_body, written),
                    None if else_body.is_empty() => Ok(()),
                    None => Err(differ(*span)),
                },
            ),
            (
                Kir::For { .. } | Kir::DistributedFor { .. },
                Ast::For {
                    var,
                    ty,
                    range,
                    body,
                    span,
                },
            ) => self.kernel_for(ir, (var, ty, range, body), *span),
            (Kir::While { body: ir_body, .. }, Ast::While { cond, body, span }) => {
                self.while_stmt(cond, &mut |this| this.kernel_block(ir_body, body), *span)
            }
            (Kir::Return { .. }, Ast::Return { value, span }) => {
                self.return_stmt(value.as_ref(), *span)
            }
            _ => Err(differ(ast.span())),
        }
    }

    /// A `for` loop as `kir-distribute` left it (`ir`): spread over the block's threads (a
    /// `DistributedFor`, whose accesses `kir-barriers` placed in front of it) or run by every
    /// thread (a `For`), each with its remark (R0804, R0805).
    fn kernel_for(
        &mut self,
        ir: &Kir,
        (var, ty, range, body): (&Ident, &TypeExpr, &Expr, &Block),
        span: Span,
    ) -> Result<()> {
        match ir {
            Kir::For {
                body: ir_body,
                sequential,
                ..
            } => {
                // Inside a distributed loop's body (none has a loop) no remark is made.
                if self.lane_depth == 0 {
                    let blocker = sequential.clone().ok_or_else(|| {
                        CodegenError::internal(
                            "a loop that kir-distribute did not decide (it did not run)",
                            span,
                        )
                    })?;
                    self.sync.remarks.push(Remark::LoopSequential {
                        at: span,
                        reason: blocker.reason,
                        labels: blocker.labels,
                        notes: blocker.notes,
                    });
                }
                self.sequential_for(
                    var,
                    ty,
                    range,
                    &mut |this| this.kernel_block(ir_body, body),
                    span,
                )
            }
            Kir::DistributedFor {
                body: ir_body,
                stride,
                summary,
                evidence,
                ..
            } => {
                self.check_loop_variable(ty, span)?;
                // `kir-distribute` spreads only loops that every thread runs, over the block.
                if self.lane_depth > 0 || *stride != self.block_size(span)? {
                    return Err(differ(span));
                }
                self.sync.remarks.push(Remark::LoopDistributed {
                    at: span,
                    summary: summary.clone(),
                    evidence: evidence.clone(),
                });
                self.distributed_for(
                    var,
                    range,
                    &mut |this| this.kernel_block(ir_body, body),
                    span,
                )
            }
            _ => Err(differ(span)),
        }
    }

    /// An assignment `target <- value`, as the kernel IR's statement `ir` stores it: a uniform
    /// value or one element (an atomic's old value among them), every element of a vector at
    /// contiguous positions, or at the positions its subscripts give (a scatter).
    pub(super) fn store_stmt(
        &mut self,
        ir: &Kir,
        target: &Expr,
        value: &Expr,
        span: Span,
    ) -> Result<()> {
        match ir {
            Kir::Uniform { .. } | Kir::Atomic { .. } => self.assign_uniform(target, value, span),
            Kir::VectorStore { .. } => {
                self.assign_vector(target, value, Positions::Contiguous, span)
            }
            Kir::Scatter { subscripts, .. } => {
                let tile_cols = match subscripts.first() {
                    Some(Subscript::TileRows { cols, .. }) => Some(*cols),
                    _ => None,
                };
                self.assign_vector(target, value, Positions::Scatter { tile_cols }, span)
            }
            _ => Err(differ(span)),
        }
    }
}

fn differ(span: Span) -> CodegenError {
    CodegenError::internal(
        "the kernel IR's statement and the program's differ here",
        span,
    )
}
