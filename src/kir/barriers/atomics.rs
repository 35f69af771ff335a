//! `kir-barriers` on atomics, as code generation makes them (`codegen/atomic.rs`): a uniform
//! one (a statement, or the whole right side of a variable's declaration or assignment, which
//! keeps its old value) by thread 0 for the block; a vector one by each element's owner, in a
//! sweep of its own.

use super::{shown_name, Placer, Step};
use crate::check::{AtomicOp, Builtin, Callee, Checked};
use crate::kir::access::{Access, AccessKind, Who};
use crate::kir::accesses::array_dims;
use crate::kir::affine::Poly;
use crate::kir::consumers::{is_vector, Walk};
use crate::kir::Consumer;
use crate::syntax::ast::{Expr, ExprKind};
use crate::syntax::span::Span;

/// `atomic_op(base[indices], operands)`'s parts.
struct AtomicCall<'e> {
    op: AtomicOp,
    base: &'e Expr,
    indices: &'e [Expr],
    operands: &'e [Expr],
}

/// Whether `e` calls an atomic builtin.
pub(super) fn is_atomic(checked: &Checked, e: &Expr) -> bool {
    matches!(
        checked.callees.get(&e.id),
        Some(Callee::Builtin(Builtin::Atomic(_)))
    )
}

fn parts<'e>(checked: &Checked, call: &'e Expr) -> Result<AtomicCall<'e>, &'static str> {
    let (Some(Callee::Builtin(Builtin::Atomic(op))), ExprKind::Call { args, .. }) =
        (checked.callees.get(&call.id), &call.kind)
    else {
        return Err("an atomic");
    };
    let Some((place, operands)) = args.split_first() else {
        return Err("an atomic");
    };
    let ExprKind::Index { base, indices, .. } = &place.kind else {
        return Err("an atomic");
    };
    Ok(AtomicCall {
        op: *op,
        base,
        indices,
        operands,
    })
}

impl Placer {
    /// One atomic for the block (`codegen::Body::atomic_uniform`): the array found (a row's
    /// subscript computed), the operands, then the subscripts; the update by thread 0, with
    /// (`keep`) the write of its old value into a `shared` slot by thread 0, announced together,
    /// and the slot's read by every thread after them.
    pub(super) fn uniform_atomic_steps(
        &self,
        walk: &Walk<'_>,
        call: &Expr,
        keep: bool,
        span: Span,
        out: &mut Vec<Step>,
    ) -> Result<(), &'static str> {
        let checked = walk.checked;
        if !checked.ty(call.id).is_uniform() {
            return Err("an atomic");
        }
        let atomic = parts(checked, call)?;
        self.row_steps(walk, atomic.base, out)?;
        let Some((array, dims)) = array_dims(walk, atomic.base) else {
            return Err("an atomic on a computed vector");
        };
        for e in atomic.operands.iter().chain(atomic.indices) {
            self.element_reads(walk, e, out)?;
        }
        let location = self.location(walk, &dims, atomic.indices);
        // The barrier the rule asks for after the update.
        let candidate = Step::Candidate {
            after: span,
            arrays: vec![(array.clone(), shown_name(&array))],
            atomic: true,
        };
        let mut accesses = vec![Access {
            name: shown_name(&array),
            array,
            kind: AccessKind::Atomic(atomic.op, keep),
            who: Who::Leader(location),
            span,
        }];
        if keep {
            let slot = |kind, who| Access {
                array: format!("atomic.old#{}:{}", span.start, span.end),
                name: "atomic.old".to_string(),
                kind,
                who,
                span,
            };
            let first = || Some(Poly::constant(0));
            accesses.push(slot(AccessKind::Write, Who::Leader(first())));
            out.push(Step::Touch(accesses));
            out.push(candidate);
            out.push(Step::Touch(vec![slot(AccessKind::Read, Who::All(first()))]));
        } else {
            out.push(Step::Touch(accesses));
            out.push(candidate);
        }
        Ok(())
    }

    /// One atomic per element (`codegen::Body::atomic_vector`): the array found, each subscript
    /// and operand prepared (a vector) or computed (a uniform one) in order; their element reads
    /// and the update (by every thread at one element for uniform subscripts, else by any
    /// thread) announced together; then the scans inside it, over its sweep.
    pub(super) fn vector_atomic_steps(
        &self,
        walk: &Walk<'_>,
        call: &Expr,
        span: Span,
    ) -> Result<Vec<Step>, &'static str> {
        let checked = walk.checked;
        let atomic = parts(checked, call)?;
        let mut steps = Vec::new();
        self.row_steps(walk, atomic.base, &mut steps)?;
        let Some((array, dims)) = array_dims(walk, atomic.base) else {
            return Err("an atomic on a computed vector");
        };
        let all: Vec<&Expr> = atomic.indices.iter().chain(atomic.operands).collect();
        let vectors: Vec<&Expr> = all
            .iter()
            .copied()
            .filter(|e| is_vector(checked.ty(e.id)))
            .collect();
        for e in &all {
            self.vector_steps(walk, e, &mut steps)?;
        }
        let mut accesses = Vec::new();
        for e in &vectors {
            accesses.extend(self.vector_reads(walk, e)?);
        }
        let uniform_place = atomic.indices.iter().all(|i| !is_vector(checked.ty(i.id)));
        let who = if uniform_place {
            Who::All(self.location(walk, &dims, atomic.indices))
        } else {
            Who::Any
        };
        let candidate = Step::Candidate {
            after: span,
            arrays: vec![(array.clone(), shown_name(&array))],
            atomic: true,
        };
        accesses.push(Access {
            name: shown_name(&array),
            array,
            kind: AccessKind::Atomic(atomic.op, false),
            who,
            span,
        });
        // The sweep's length: the shortest vector's, when each has one at compile time.
        let len = walk.shortest_len(&vectors);
        let consumer = Consumer::Atomic(span);
        steps.extend(self.store_steps(walk, consumer, accesses, None, len, &[call])?);
        steps.push(candidate);
        Ok(steps)
    }
}
