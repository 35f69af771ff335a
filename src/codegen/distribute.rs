//! `for` loops spread over the block's threads: `kir-distribute` (`kir/distribute.rs`) decides
//! which, with its dependence tests; code generation lowers each loop as decided (iteration
//! `lo + t` on thread `t mod BLOCKSIZE`, a block-stride loop). It runs the same analysis on its
//! own symbols for the accesses barrier placement needs, and checks that it decides as the pass
//! did (an internal error otherwise); `--remarks` reports each loop's decision.

use super::body::{Body, Result, Var};
use super::error::CodegenError;
use super::remarks::Remark;
use crate::check::types::Ty;
use crate::kir::affine::{Known, Poly};
use crate::kir::distribute::{Analysis, Plan};
use crate::kir::LoopPlan;
use crate::syntax::ast::{Block, Expr, Ident};
use crate::syntax::span::Span;

impl<'a, 'ctx> Body<'a, 'ctx> {
    /// Decides whether `for var <- range` can be distributed; records the remark either way.
    pub fn distribution(
        &mut self,
        var: &Ident,
        range: &Expr,
        body: &Block,
        span: Span,
    ) -> Result<Option<Plan>> {
        let block_size = self.block_size(span)?;
        let analysis = Analysis::new(self.cx.checked, &self.symbols, var, range, block_size);
        let decided = self.loops.get(&span).cloned().ok_or_else(|| {
            CodegenError::internal("a `for` loop that kir-distribute did not decide", span)
        })?;
        let disagree = |what: &str| {
            CodegenError::internal(
                format!("kir-distribute and code generation's dependence analysis disagree on this loop: {what}"),
                span,
            )
        };
        match analysis.run(body, |name| {
            self.lookup(name).map(|v| matches!(v, Var::Array(_)))
        }) {
            Ok(mut plan) => {
                match &decided {
                    LoopPlan::Distributed {
                        summary, evidence, ..
                    } if *summary == plan.summary && *evidence == plan.evidence => {}
                    _ => return Err(disagree("code generation distributes it")),
                }
                // The analysis names arrays as the source does; barrier placement knows them by
                // key, which differs for a shared array (a `t10` read in the loop must meet the
                // `shared t10 <- ...` write before it).
                let key_of = |name: &str| match self.lookup(name) {
                    Some(Var::Array(array)) => array.key.clone(),
                    _ => name.to_string(),
                };
                for access in &mut plan.accesses {
                    access.array = key_of(&access.name);
                }
                for (key, name) in &mut plan.written {
                    *key = key_of(name);
                }
                self.sync.remarks.push(Remark::LoopDistributed {
                    at: span,
                    summary: plan.summary.clone(),
                    evidence: plan.evidence.clone(),
                });
                Ok(Some(plan))
            }
            Err(blocker) => {
                match &decided {
                    LoopPlan::Sequential { reason, .. } if *reason == blocker.reason => {}
                    _ => return Err(disagree("code generation keeps it sequential")),
                }
                self.sync.remarks.push(Remark::LoopSequential {
                    at: span,
                    reason: blocker.reason,
                    labels: blocker.labels,
                    notes: blocker.notes,
                });
                Ok(None)
            }
        }
    }

    /// Lowers a distributed loop: iteration `lo + t` on thread `t mod BLOCKSIZE`.
    pub fn distributed_for(
        &mut self,
        var: &Ident,
        range: &Expr,
        body: &Block,
        plan: Plan,
        span: Span,
    ) -> Result<()> {
        let r = self.expr(range)?;
        let (lo, hi) = self.range_bounds(r)?;
        self.touch(plan.accesses)?;
        let n = self.b.build_int_sub(hi, lo, "trips")?;
        let n = self.smax(n, self.i32(0))?;
        let var_ptr = self.alloca(self.cx.context.i32_type().into(), &var.name)?;
        let symbol = self.symbols.fresh(&var.name);
        self.symbols
            .set(&var.name, Some(Known::Int(Poly::sym(symbol))), false);
        self.block_stride_loop(n, span, &mut |this, t| {
            let i = this.b.build_int_add(lo, t, &var.name)?;
            this.b.build_store(var_ptr, i)?;
            this.push_scope();
            this.bind(
                &var.name,
                Var::Local {
                    ptr: var_ptr,
                    ty: Ty::INT32,
                },
            );
            let result = this.block(body);
            this.pop_scope();
            result
        })?;
        Ok(())
    }
}
