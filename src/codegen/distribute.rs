//! `for` loops spread over the block's threads: `kir-distribute` (`kir/distribute.rs`) decides
//! which, with its dependence tests, and makes each a `kir::Stmt::DistributedFor`, which code
//! generation lowers here as a distributed loop (iteration `lo + t` on thread
//! `t mod BLOCKSIZE`, a block-stride loop), with its evidence for `--remarks`; `kir-barriers`
//! orders the body's accesses (the statement holds them) in front of the loop.

use super::body::{Body, Result, Var};
use super::stmt::LowerBody;
use crate::check::types::Ty;
use crate::check::{Builtin, Callee, Checked};
use crate::syntax::ast::{Expr, ExprKind, Ident};
use crate::syntax::span::Span;
use inkwell::values::IntValue;
use inkwell::IntPredicate;

impl<'a, 'ctx> Body<'a, 'ctx> {
    /// Lowers a distributed loop: iteration `lo + t` on thread `t mod BLOCKSIZE`, for `t` in
    /// `[0, hi - lo)` (none when `hi <= lo`). Its body's accesses meet barrier placement in
    /// front of the loop.
    pub fn distributed_for(
        &mut self,
        var: &Ident,
        range: &Expr,
        lower_body: LowerBody<'_, 'a, 'ctx>,
        span: Span,
    ) -> Result<()> {
        let r = self.expr(range)?;
        let (lo, hi) = self.range_bounds(r)?;
        self.touch(span)?;
        let var_ptr = self.alloca(self.cx.context.i32_type().into(), &var.name)?;
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
