//! `kir-guards`: which checked reads of a consumer's vector share one bounds test. A checked
//! read `a[[r]]` gives zero outside `a`; `c[[r]] <- a[[r]] + b[[r]]` reads two arrays at the same
//! positions, and when both have the same length one test of the element index decides for
//! both: the element is computed in full inside the arrays, and as zeros outside. Exact: both
//! sides compute what the separately guarded reads would. (LLVM does not merge the tests on
//! NVPTX: its jump threading is off for targets with divergent branches.)
//!
//! Merged: at least two checked reads, each `a[[r]]` with one subscript, the same `Range`
//! variable `r`, of one-dimensional arrays whose lengths are the same polynomial in the kernel's
//! scalar parameters (or the same array, or rows of one array's), found through operators,
//! calls (not arguments passed whole), fields and maps; not through scans or reductions, whose
//! values are computed before the element. Code generation (`codegen/vector.rs`,
//! `elem_merged`) builds exactly the groups listed here.

use super::affine::Poly;
use super::consumers::{self, Dest, Name, Visitor, Walk};
use super::{Consumer, MergedGuard, Module};
use crate::check::types::Ty;
use crate::syntax::ast::{CollectiveOp, Expr, ExprKind};
use crate::syntax::span::Span;
use std::collections::BTreeMap;

pub fn run(module: &mut Module, checked: &crate::check::Checked) {
    for kernel in &mut module.kernels {
        let mut guards = Guards::default();
        consumers::walk(kernel, checked, &mut guards);
        kernel.merged_guards = Some(guards.merged);
    }
}

#[derive(Default)]
struct Guards {
    merged: BTreeMap<Span, MergedGuard>,
}

impl<'a> Visitor<'a> for Guards {
    fn store(&mut self, walk: &Walk<'a>, _: Consumer, _: Dest<'a>, value: &'a Expr, _: bool) {
        self.consumer(walk, value);
    }

    fn reduce(&mut self, walk: &Walk<'a>, _: &'a Expr, operand: &'a Expr, _: bool) {
        self.consumer(walk, operand);
    }

    // An atomic's operands keep their own guards.
    fn atomic(&mut self, _: &Walk<'a>, _: &'a Expr, _: Span) {}
}

/// One checked read `a[[r]]` of a consumer's vector.
struct Read<'e> {
    expr: &'e Expr,
    base: &'e Expr,
    range: &'e str,
}

/// The length of a one-dimensional array as far as the kernel IR can compare it.
#[derive(PartialEq)]
enum Length {
    /// A polynomial in the scalar parameters (a constant for `shared` arrays).
    Poly(Poly),
    /// The length of this array (a parameter's of a form with no polynomial), or of the rows of
    /// this two-dimensional array: equal only to itself.
    Of(String),
}

impl Guards {
    /// The vector `value` a consumer computes element by element.
    fn consumer(&mut self, walk: &Walk<'_>, value: &Expr) {
        // A recomputed vector variable is its initializer there (`kir-recomputed-vectors`).
        let value = recomputed(walk, value);
        let mut reads = Vec::new();
        checked_range_reads(walk, value, &mut reads);
        if reads.len() < 2 || reads.iter().any(|r| r.range != reads[0].range) {
            return;
        }
        let lengths: Vec<Option<Length>> = reads.iter().map(|r| length(walk, r.base)).collect();
        let same = lengths.iter().all(|l| l.is_some() && *l == lengths[0]);
        if !same {
            return;
        }
        self.merged.insert(
            value.span,
            MergedGuard {
                range: reads[0].range.to_string(),
                reads: reads.iter().map(|r| r.expr.span).collect(),
            },
        );
    }
}

fn recomputed<'e>(walk: &Walk<'e>, value: &'e Expr) -> &'e Expr {
    match &value.kind {
        ExprKind::Name(name) => match walk.lookup(&name.name) {
            Some(Name::Recomputed(init)) => recomputed(walk, init),
            _ => value,
        },
        _ => value,
    }
}

/// The checked reads `a[[r]]` (one `Range` variable as the subscript) that `e` computes per
/// element, in the order code generation finds them.
fn checked_range_reads<'e>(walk: &Walk<'e>, e: &'e Expr, out: &mut Vec<Read<'e>>) {
    match &e.kind {
        ExprKind::Name(_) => {
            let inner = recomputed(walk, e);
            if !std::ptr::eq(inner, e) {
                checked_range_reads(walk, inner, out);
            }
        }
        ExprKind::Index {
            base,
            indices,
            checked: true,
        } => {
            if let [index] = indices.as_slice() {
                if let (ExprKind::Name(range), Ty::Range) = (&index.kind, walk.checked.ty(index.id))
                {
                    out.push(Read {
                        expr: e,
                        base,
                        range: &range.name,
                    });
                }
            }
        }
        ExprKind::Unary { operand, .. } => checked_range_reads(walk, operand, out),
        ExprKind::Binary { lhs, rhs, .. } => {
            checked_range_reads(walk, lhs, out);
            checked_range_reads(walk, rhs, out);
        }
        ExprKind::Call { args, .. } => {
            for (i, arg) in args.iter().enumerate() {
                // An argument passed whole is evaluated before the element, like a uniform one.
                if !walk.passed_whole(e, i) {
                    checked_range_reads(walk, arg, out);
                }
            }
        }
        ExprKind::Field { base, .. } => checked_range_reads(walk, base, out),
        ExprKind::Collective {
            op: CollectiveOp::Map,
            operand,
            ..
        } => checked_range_reads(walk, operand, out),
        _ => {}
    }
}

/// The length of the one-dimensional array `base` names, if it has one the IR can compare.
fn length(walk: &Walk<'_>, base: &Expr) -> Option<Length> {
    match &base.kind {
        ExprKind::Name(name) => match walk.lookup(&name.name)? {
            Name::Array(dims) => match dims.as_slice() {
                [Some(p)] => Some(Length::Poly(p.clone())),
                [None] => Some(Length::Of(name.name.clone())),
                _ => None,
            },
            _ => None,
        },
        // An unchecked row `m[i]` of a two-dimensional array: as long as `m`'s rows. (A checked
        // row's length is zero outside `m`: its own.)
        ExprKind::Index {
            base: array,
            indices,
            checked: false,
        } => {
            let ExprKind::Name(name) = &array.kind else {
                return None;
            };
            let [_] = indices.as_slice() else {
                return None;
            };
            match walk.lookup(&name.name)? {
                Name::Array(dims) => match dims.as_slice() {
                    [_, Some(cols)] => Some(Length::Poly(cols.clone())),
                    [_, None] => Some(Length::Of(format!("{}[_]", name.name))),
                    _ => None,
                },
                _ => None,
            }
        }
        // A computed vector indexed through its `shared` copy: as long as the vector.
        _ => walk
            .static_len(base)
            .and_then(|n| i64::try_from(n).ok())
            .map(|n| Length::Poly(Poly::constant(n))),
    }
}
