//! `for` loops spread over the block's threads: `kir-distribute` (`kir/distribute.rs`) decides
//! which, with its dependence tests, and makes each a `kir::Stmt::DistributedFor`; code
//! generation lowers that statement as a distributed loop (iteration `lo + t` on thread
//! `t mod BLOCKSIZE`, a block-stride loop) and a `kir::Stmt::For` as a sequential one. It runs
//! the same analysis on its own symbols for the accesses barrier placement needs, and checks
//! that it finds what the statement says (an internal error otherwise); `--remarks` reports
//! each loop's decision.

use super::body::{Body, Result, Var};
use super::error::CodegenError;
use super::remarks::Remark;
use super::stmt::LowerBody;
use crate::check::types::Ty;
use crate::check::{Builtin, Callee, Checked};
use crate::kir::affine::{Known, Poly};
use crate::kir::distribute::{Analysis, Plan};
use crate::kir::Stmt as KirStmt;
use crate::syntax::ast::{Block, Expr, ExprKind, Ident};
use crate::syntax::span::Span;
use inkwell::values::IntValue;
use inkwell::IntPredicate;

impl<'a, 'ctx> Body<'a, 'ctx> {
    /// Runs the dependence analysis on `for var <- range` with code generation's symbols, for
    /// the accesses barrier placement reaches, and checks that it finds what the kernel IR's
    /// loop (`decided`: its kind is the decision) says; records the remark either way. The plan
    /// when the IR distributes the loop.
    pub fn distribution(
        &mut self,
        var: &Ident,
        range: &Expr,
        body: &Block,
        decided: &KirStmt,
        span: Span,
    ) -> Result<Option<Plan>> {
        let block_size = self.block_size(span)?;
        let analysis = Analysis::new(self.cx.checked, &self.symbols, var, range, block_size);
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
                match decided {
                    KirStmt::DistributedFor {
                        summary,
                        evidence,
                        stride,
                        ..
                    } if *summary == plan.summary
                        && *evidence == plan.evidence
                        && *stride == block_size => {}
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
                match decided {
                    KirStmt::For {
                        sequential: Some(reason),
                        ..
                    } if *reason == blocker.reason => {}
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

    /// Lowers a distributed loop: iteration `lo + t` on thread `t mod BLOCKSIZE`, for `t` in
    /// `[0, hi - lo)` (none when `hi <= lo`).
    pub fn distributed_for(
        &mut self,
        var: &Ident,
        range: &Expr,
        lower_body: LowerBody<'_, 'a, 'ctx>,
        plan: Plan,
        span: Span,
    ) -> Result<()> {
        let r = self.expr(range)?;
        let (lo, hi) = self.range_bounds(r)?;
        self.touch(plan.accesses)?;
        let var_ptr = self.alloca(self.cx.context.i32_type().into(), &var.name)?;
        let symbol = self.symbols.fresh(&var.name);
        self.symbols
            .set(&var.name, Some(Known::Int(Poly::sym(symbol))), false);
        let mut iteration = |this: &mut Self, t: IntValue<'ctx>| -> Result<()> {
            // `lo + t` is at most `hi - 1`: the 32-bit sum, wrapping or not, is the iteration.
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
            let result = lower_body(this);
            this.pop_scope();
            result
        };
        if let Some(start) = literal_start(range, self.cx.checked) {
            // `hi - c` for a literal `c >= 0` cannot pass `i32::MAX`, but below `i32::MIN` it
            // wraps to a positive count (`range(1, i32::MIN)`): `max(hi, c) - c` cannot, and is
            // the count. For `c = 0` (`range(0, n)`, the usual case) `hi - 0` cannot wrap at all.
            let hi = if start == 0 { hi } else { self.smax(hi, lo)? };
            let n = self.b.build_int_sub(hi, lo, "trips")?;
            let n = self.smax(n, self.i32(0))?;
            self.block_stride_loop(n, span, &mut iteration)?;
        } else {
            // Where `hi > lo`, the wrapping 32-bit `hi - lo` is the true difference modulo
            // `2^32`, which lies in `[1, 2^32)`: read unsigned, it is the count.
            let nonempty = self
                .b
                .build_int_compare(IntPredicate::SGT, hi, lo, "nonempty")?;
            let n = self.b.build_int_sub(hi, lo, "trips")?;
            self.unsigned_block_stride_loop(nonempty, n, span, &mut iteration)?;
        }
        Ok(())
    }
}

/// `c` when `range` is `range(c, hi)` with `c` an integer literal (`>= 0`: LOOM writes a negative
/// number as a negation). Then `hi - c` is at most `i32::MAX`, and the 32-bit block-stride loop
/// counts the trips (it keeps `range(0, n)`, the usual case, tuned). Otherwise `hi - lo` may
/// pass `i32::MAX` (`range(-10, i32::MAX)`, where the wrapped difference ran the loop not at
/// all) or wrap to a positive count for an empty range (`range(lo, i32::MIN)`), and the count is
/// taken unsigned.
fn literal_start(range: &Expr, checked: &Checked) -> Option<u128> {
    match (&range.kind, checked.callees.get(&range.id)) {
        (ExprKind::Call { args, .. }, Some(Callee::Builtin(Builtin::Range))) => {
            match args.first().map(|lo| &lo.kind) {
                Some(ExprKind::Int(c)) => Some(*c),
                _ => None,
            }
        }
        _ => None,
    }
}
