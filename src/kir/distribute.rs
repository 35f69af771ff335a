//! `kir-distribute`: which `for` loops are spread over the block's threads.
//!
//! A kernel's `for` is a sequential, block-uniform loop. When its iterations are independent and
//! its body needs no collective, loomc runs iteration `lo + t` on thread `t mod BLOCKSIZE`
//! instead (a block-stride loop), as a CUDA programmer would by hand: the proposal's
//! `shiftLeft1` becomes one coalesced copy per thread, with no barrier.
//!
//! **Eligible bodies** contain only: declarations of scalar variables (private to an iteration),
//! assignments to those and to array elements, and `if`s. A loop inside, a `return`, an
//! assignment to a variable declared outside the loop (a dependence carried by a scalar), a
//! block vector or a collective keep the loop sequential.
//!
//! **Dependence tests** (seed 002: Banerjee's tests on affine subscripts). For every pair of
//! accesses to one array, at least one a write (a write with itself included: two iterations
//! writing one element), each subscript is put in the form `a * i + c` (`c` a polynomial over
//! uniform symbols; `distribute` fails on anything else). A dependence between iterations
//! `i1 != i2` needs `a1 * i1 - a2 * i2 == c2 - c1` in every dimension, so one dimension without
//! a solution proves independence:
//! - *GCD test*: the equation has no integer solution when the gcd of `a1`, `a2` and the
//!   coefficients of the symbolic terms of `c2 - c1` does not divide its constant term;
//! - *Banerjee test*: with `i = lo + t`, `t` in `[0, N)`, and each direction (`t1 < t2`,
//!   `t1 > t2`), the extreme values of `a1 * t1 - a2 * t2` over the iteration space (`N`
//!   unbounded when not a constant) must enclose the right-hand side.
//!
//! `--remarks` reports each loop's decision with the test that decided it, or the pair of
//! accesses (or the construct) that keeps it sequential.

//!
//! The pass decides for every `for` of a kernel, on the kernel IR, with what each integer and
//! `Range` variable holds at the loop (`kir/accesses.rs` follows them as code generation does),
//! and rewrites each loop it distributes into a statement of its own, [`KirStmt::DistributedFor`]
//! (`distributed-for` in the printed IR, with its stride, summary and evidence); a loop that
//! stays a [`KirStmt::For`] keeps its reason (a `loop ... sequential` line). The passes after it
//! (`kir-barriers`, `kir-shared-memory`) and code generation (`codegen/translate.rs`,
//! `codegen/distribute.rs`) take the statement's kind as the decision, and a distributed loop's
//! accesses (barrier placement) and a loop's evidence or blocker (the remarks) from it: the
//! analysis runs once, here.

use super::access::{Access, AccessKind, Who};
use super::accesses::Values;
use super::affine::{gcd, Known, Poly, Sym, Symbols};
use super::consumers::{self, Name, Visitor, Walk};
use super::{Module, Stmt as KirStmt};
use crate::check::types::Ty;
use crate::check::Checked;
use crate::syntax::ast::{Block, Expr, ExprKind, Ident, Stmt};
use crate::syntax::span::Span;
use std::collections::{BTreeMap, HashSet};

pub fn run(module: &mut Module, checked: &Checked) {
    // Code generation sees the program with the recomputed vector variables substituted by
    // their initializers (`kir-recomputed-vectors`): a loop body that declares one declares
    // nothing there, and uses the initializer's collectives instead.
    let substituted = super::recomputed_vectors::substitute(checked, module)
        .ok()
        .flatten();
    let program = substituted.as_ref().unwrap_or(checked);
    for kernel in &mut module.kernels {
        let mut decider = Decider {
            values: Values::new(kernel, program),
            block_size: kernel.block_size,
            plans: BTreeMap::new(),
        };
        consumers::walk(kernel, program, &mut decider);
        rewrite(&mut kernel.body, &mut decider.plans, kernel.block_size);
    }
}

/// The decision for one `for` loop.
enum Decision {
    /// Iteration `lo + t` runs on thread `t mod BLOCKSIZE`.
    Distributed(Plan),
    /// The loop stays sequential: the reason, and what it names.
    Sequential(Blocker),
}

/// The decisions for one kernel.
struct Decider {
    values: Values,
    block_size: u32,
    plans: BTreeMap<Span, Decision>,
}

/// Every `for` of `stmts` (by its span) as decided: a distributed one rewritten into a
/// [`KirStmt::DistributedFor`] of stride `stride`, a sequential one given its reason.
fn rewrite(stmts: &mut [KirStmt], plans: &mut BTreeMap<Span, Decision>, stride: u32) {
    for stmt in stmts.iter_mut() {
        match stmt {
            KirStmt::If {
                then_body,
                else_body,
                ..
            } => {
                rewrite(then_body, plans, stride);
                rewrite(else_body, plans, stride);
            }
            KirStmt::For { body, .. }
            | KirStmt::DistributedFor { body, .. }
            | KirStmt::While { body, .. } => rewrite(body, plans, stride),
            KirStmt::Grid { stmt, .. } => rewrite(std::slice::from_mut(&mut **stmt), plans, stride),
            _ => {}
        }
        let KirStmt::For { span, .. } = stmt else {
            continue;
        };
        let span = *span;
        match plans.remove(&span) {
            Some(Decision::Sequential(blocker)) => {
                if let KirStmt::For { sequential, .. } = stmt {
                    *sequential = Some(blocker);
                }
            }
            Some(Decision::Distributed(plan)) => {
                let taken = std::mem::replace(stmt, KirStmt::Return { span });
                if let KirStmt::For {
                    var, range, body, ..
                } = taken
                {
                    *stmt = KirStmt::DistributedFor {
                        var,
                        range,
                        stride,
                        body,
                        summary: plan.summary,
                        evidence: plan.evidence,
                        accesses: plan.accesses,
                        span,
                    };
                }
            }
            None => {}
        }
    }
}

impl<'a> Visitor<'a> for Decider {
    fn statement(&mut self, walk: &Walk<'a>, stmt: &'a Stmt) {
        // At the loop head, before the loop makes the names it assigns unknown.
        if let Stmt::For {
            var,
            range,
            body,
            span,
            ..
        } = stmt
        {
            let analysis = Analysis::new(
                walk.checked,
                &self.values.symbols,
                var,
                range,
                self.block_size,
            );
            // As code generation's scope has the names at the loop (a recomputed vector is
            // substituted away there: no name).
            let plan = match analysis.run(body, |name| match walk.lookup(name) {
                Some(Name::Array(_)) => Some(true),
                Some(Name::Recomputed(_)) | None => None,
                Some(_) => Some(false),
            }) {
                Ok(plan) => Decision::Distributed(plan),
                Err(blocker) => Decision::Sequential(blocker),
            };
            self.plans.insert(*span, plan);
        }
        self.values.statement(walk, stmt);
    }
}

/// A distributed loop: who touches what, how many iterations, and the dependence test that
/// proved each pair of accesses independent.
struct Plan {
    accesses: Vec<Access>,
    summary: String,
    evidence: Vec<String>,
}

/// One array access in the loop body.
#[derive(Clone)]
struct Ref<'e> {
    array: String,
    kind: AccessKind,
    subscripts: &'e [Expr],
    span: Span,
    text: String,
}

/// Why a loop stays sequential: the reason, and the accesses or construct responsible, with a
/// label each (remark R0805).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blocker {
    pub reason: String,
    pub labels: Vec<(Span, String)>,
    pub notes: Vec<String>,
}

impl Blocker {
    fn at(span: Span, reason: impl Into<String>, label: impl Into<String>) -> Blocker {
        Blocker {
            reason: reason.into(),
            labels: vec![(span, label.into())],
            notes: Vec::new(),
        }
    }
}

/// A pair's verdict.
enum Verdict {
    Independent(String),
    Dependent { reason: String, note: String },
}

struct Analysis<'c> {
    checked: &'c Checked,
    /// The symbols at the loop, with the loop variable and the body's private variables added.
    symbols: Symbols,
    var: Sym,
    var_name: String,
    /// The range's bounds as polynomials, when they have them.
    lo: Option<Poly>,
    hi: Option<Poly>,
    block_size: u32,
}

impl<'c> Analysis<'c> {
    fn new(
        checked: &'c Checked,
        symbols: &Symbols,
        var: &Ident,
        range: &Expr,
        block_size: u32,
    ) -> Analysis<'c> {
        let mut symbols = symbols.clone();
        let (lo, hi) = symbols
            .range(range, checked, block_size)
            .map_or((None, None), |(lo, hi)| (Some(lo), Some(hi)));
        let sym = symbols.fresh(&var.name);
        symbols.set(&var.name, Some(Known::Int(Poly::sym(sym.clone()))), false);
        Analysis {
            checked,
            symbols,
            var: sym,
            var_name: var.name.clone(),
            lo,
            hi,
            block_size,
        }
    }

    pub fn run<'e>(
        mut self,
        body: &'e Block,
        is_array: impl Fn(&str) -> Option<bool>,
    ) -> std::result::Result<Plan, Blocker> {
        let mut refs: Vec<(Ref<'e>, Option<Vec<Poly>>)> = Vec::new();
        let mut private = HashSet::new();
        self.collect(body, &mut private, &mut refs, &is_array)?;

        let mut evidence = Vec::new();
        for (x, (a, pa)) in refs.iter().enumerate() {
            for (b, pb) in refs.iter().skip(x) {
                if a.array != b.array || (a.kind == AccessKind::Read && b.kind == AccessKind::Read)
                {
                    continue;
                }
                match self.test_pair(a, pa.as_deref(), b, pb.as_deref()) {
                    Verdict::Independent(why) => evidence.push(why),
                    Verdict::Dependent { reason, note } => {
                        let mut labels = vec![(a.span, format!("{} `{}`", verb(a.kind), a.text))];
                        if b.span != a.span {
                            labels.push((b.span, format!("{} `{}`", verb(b.kind), b.text)));
                        }
                        return Err(Blocker {
                            reason,
                            labels,
                            notes: vec![note],
                        });
                    }
                }
            }
        }
        if evidence.is_empty() {
            evidence.push("no array is both written and accessed twice in the body".to_string());
        }
        // An empty range (`range(5, 3)`) has no iteration, not a negative number of them.
        let trips = match (&self.lo, &self.hi) {
            (Some(lo), Some(hi)) => hi.sub(lo).and_then(|d| d.as_constant()).map(|n| n.max(0)),
            _ => None,
        };
        let summary = match trips {
            Some(n) => format!(
                "{n} independent iterations: iteration `lo + t` runs on thread `t mod {}`",
                self.block_size
            ),
            None => format!(
                "independent iterations: iteration `lo + t` runs on thread `t mod {}`",
                self.block_size
            ),
        };
        let accesses = refs
            .iter()
            .map(|(r, polys)| Access {
                array: r.array.clone(),
                name: r.array.clone(),
                kind: r.kind,
                who: self.owner(r, polys.as_deref()),
                span: r.span,
            })
            .collect();
        Ok(Plan {
            accesses,
            summary,
            evidence,
        })
    }

    /// Who touches the element of `r` in iteration `lo + t`: its owner `t mod BLOCKSIZE` when the
    /// (row-major) linear subscript is `i + c`.
    fn owner(&self, r: &Ref<'_>, polys: Option<&[Poly]>) -> Who {
        let (Some(polys), Some(lo)) = (polys, &self.lo) else {
            return Who::Any;
        };
        // The linear index: only one-dimensional accesses are followed.
        let [sub] = polys else { return Who::Any };
        let _ = r;
        match sub.split_linear(&self.var) {
            Some((1, rest)) => rest.add(lo).map_or(Who::Any, Who::Owner),
            _ => Who::Any,
        }
    }

    /// Walks the body: checks it is eligible, gives its private variables their values, and
    /// collects every array access with its subscripts' polynomials.
    fn collect<'e>(
        &mut self,
        block: &'e Block,
        private: &mut HashSet<String>,
        refs: &mut Vec<(Ref<'e>, Option<Vec<Poly>>)>,
        is_array: &impl Fn(&str) -> Option<bool>,
    ) -> std::result::Result<(), Blocker> {
        for stmt in &block.stmts {
            if let Some(span) = binds_atomic(self.checked, stmt) {
                return Err(Blocker::at(
                    span,
                    "the body makes an atomic read-modify-write",
                    "an atomic here (its old value is the block's, made once per iteration)",
                ));
            }
            match stmt {
                Stmt::Let {
                    name,
                    init,
                    shared,
                    span,
                    ..
                } => {
                    let ty = self.checked.locals.get(&name.span);
                    if *shared || !ty.is_some_and(Ty::is_uniform) {
                        return Err(Blocker::at(
                            *span,
                            "the body declares an array",
                            "a block-level array, declared once per iteration",
                        ));
                    }
                    if let Some(init) = init {
                        self.expr_refs(init, refs)?;
                        let known = self.symbols.known(init, self.checked, self.block_size);
                        let is_range = ty.is_some_and(|t| *t == Ty::Range);
                        self.symbols.set(&name.name, known, is_range);
                    }
                    private.insert(name.name.clone());
                }
                Stmt::Assign {
                    target,
                    value,
                    span,
                } => {
                    self.expr_refs(value, refs)?;
                    match &target.kind {
                        ExprKind::Index { base, indices, .. } => {
                            let ExprKind::Name(array) = &base.kind else {
                                return Err(Blocker::at(
                                    target.span,
                                    "an unusual assignment",
                                    "not analysed",
                                ));
                            };
                            if is_array(&array.name) != Some(true) {
                                return Err(Blocker::at(
                                    target.span,
                                    "the body assigns to an element of a vector variable",
                                    "not analysed",
                                ));
                            }
                            for index in indices {
                                self.expr_refs(index, refs)?;
                            }
                            let r = self.make_ref(
                                &array.name,
                                AccessKind::Write,
                                indices,
                                *span,
                                target,
                            );
                            refs.push(r);
                        }
                        _ => {
                            let root = root_name(target);
                            match root {
                                Some(name) if private.contains(name) => {
                                    let is_range = matches!(self.symbols.get(name), Some(Known::Range(..)));
                                    self.symbols.set(name, None, is_range);
                                }
                                Some(name) if name == self.var_name => {
                                    return Err(Blocker::at(
                                        target.span,
                                        format!("the body assigns to the loop variable `{name}`"),
                                        "assigned here",
                                    ));
                                }
                                Some(name) => {
                                    return Err(Blocker {
                                        reason: format!(
                                            "the body assigns to `{name}`, declared outside the loop"
                                        ),
                                        labels: vec![(target.span, format!("`{name}` is carried from one iteration to the next"))],
                                        notes: vec![format!("each iteration reads or overwrites the `{name}` the previous one left: declare it inside the loop, or use a reduction")],
                                    })
                                }
                                None => {
                                    return Err(Blocker::at(target.span, "an unusual assignment", "not analysed"))
                                }
                            }
                        }
                    }
                }
                Stmt::If {
                    cond,
                    then_branch,
                    else_branch,
                    ..
                } => {
                    self.expr_refs(cond, refs)?;
                    self.collect(then_branch, private, refs, is_array)?;
                    if let Some(e) = else_branch {
                        self.collect(e, private, refs, is_array)?;
                    }
                }
                Stmt::For { span, .. } | Stmt::While { span, .. } => {
                    return Err(Blocker::at(
                        *span,
                        "the body contains a loop",
                        "a loop inside the loop",
                    ));
                }
                Stmt::Return { span, .. } => {
                    return Err(Blocker::at(
                        *span,
                        "the body returns from the kernel",
                        "`return` here",
                    ));
                }
                Stmt::Call { span, .. } => {
                    return Err(Blocker::at(
                        *span,
                        "the body makes an atomic read-modify-write",
                        "an atomic here (a vector atomic makes one per element in parallel)",
                    ));
                }
            }
        }
        Ok(())
    }

    /// Collects the array reads in `e`; rejects block vectors and collectives.
    fn expr_refs<'e>(
        &mut self,
        e: &'e Expr,
        refs: &mut Vec<(Ref<'e>, Option<Vec<Poly>>)>,
    ) -> std::result::Result<(), Blocker> {
        if !self.checked.ty(e.id).is_uniform() {
            return Err(Blocker::at(
                e.span,
                "the body uses a block vector",
                "a block vector needs the whole block at once",
            ));
        }
        match &e.kind {
            ExprKind::Collective { op, .. } => Err(Blocker::at(
                e.span,
                format!("the body contains a collective (`{}`)", op.symbol()),
                "a collective needs the whole block at once",
            )),
            ExprKind::Index { base, indices, .. } => {
                if let ExprKind::Name(array) = &base.kind {
                    for index in indices {
                        self.expr_refs(index, refs)?;
                    }
                    let r = self.make_ref(&array.name, AccessKind::Read, indices, e.span, e);
                    refs.push(r);
                    Ok(())
                } else {
                    Err(Blocker::at(
                        e.span,
                        "an unusual array access",
                        "not analysed",
                    ))
                }
            }
            ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_) | ExprKind::Name(_) => Ok(()),
            ExprKind::Unary { operand, .. } => self.expr_refs(operand, refs),
            ExprKind::Binary { lhs, rhs, .. } => {
                self.expr_refs(lhs, refs)?;
                self.expr_refs(rhs, refs)
            }
            ExprKind::Call { args, .. } => {
                for a in args {
                    self.expr_refs(a, refs)?;
                }
                Ok(())
            }
            ExprKind::Field { base, .. } => self.expr_refs(base, refs),
            ExprKind::Record { fields } => {
                for f in fields {
                    self.expr_refs(&f.value, refs)?;
                }
                Ok(())
            }
            ExprKind::VectorLit { .. } => Err(Blocker::at(
                e.span,
                "the body uses a block vector",
                "a block vector needs the whole block at once",
            )),
        }
    }

    fn make_ref<'e>(
        &self,
        array: &str,
        kind: AccessKind,
        subscripts: &'e [Expr],
        span: Span,
        whole: &Expr,
    ) -> (Ref<'e>, Option<Vec<Poly>>) {
        let polys: Option<Vec<Poly>> = subscripts
            .iter()
            .map(|s| self.symbols.poly(s, self.checked, self.block_size))
            .collect();
        let text = polys
            .as_ref()
            .map(|p| {
                let subs: Vec<String> = p.iter().map(|x| x.to_string()).collect();
                format!("{array}[{}]", subs.join(", "))
            })
            .unwrap_or_else(|| format!("{array}[…] at {}..{}", whole.span.start, whole.span.end));
        (
            Ref {
                array: array.to_string(),
                kind,
                subscripts,
                span,
                text,
            },
            polys,
        )
    }

    /// Can `a` in one iteration and `b` in another touch the same element?
    fn test_pair(
        &self,
        a: &Ref<'_>,
        pa: Option<&[Poly]>,
        b: &Ref<'_>,
        pb: Option<&[Poly]>,
    ) -> Verdict {
        let pair = format!(
            "`{}` ({}) and `{}` ({})",
            a.text,
            verb(a.kind),
            b.text,
            verb(b.kind)
        );
        let (Some(pa), Some(pb)) = (pa, pb) else {
            let _ = (a.subscripts, b.subscripts);
            return Verdict::Dependent {
                reason: format!("a subscript of {pair} is not a polynomial of uniform values"),
                note: "only subscripts made of +, -, * over integers, parameters, B, BLOCKSIZE and the loop variable are analysed".to_string(),
            };
        };
        if pa.len() != pb.len() {
            return Verdict::Dependent {
                reason: format!("{pair} index different numbers of dimensions"),
                note: "not analysed".to_string(),
            };
        }
        let mut reasons = Vec::new();
        for (fa, fb) in pa.iter().zip(pb) {
            match self.test_dimension(fa, fb) {
                Ok(why) => {
                    return Verdict::Independent(format!("{pair}: {why}"));
                }
                Err(why) => reasons.push(why),
            }
        }
        let why = reasons.join("; ");
        Verdict::Dependent {
            reason: format!("{pair} may touch the same element in two different iterations"),
            note: format!("{why} (with `{}` the loop variable)", self.var_name),
        }
    }

    /// `Ok(why)` when no two different iterations give equal subscripts `fa(i1) == fb(i2)`.
    fn test_dimension(&self, fa: &Poly, fb: &Poly) -> std::result::Result<String, String> {
        let (Some((a1, c1)), Some((a2, c2))) =
            (fa.split_linear(&self.var), fb.split_linear(&self.var))
        else {
            return Err("a subscript is not affine in the loop variable".to_string());
        };
        let Some(d) = c2.sub(&c1) else {
            return Err("subscripts too large to compare".to_string());
        };
        // GCD test over the integer unknowns i1, i2 and the symbols of d.
        let g = d.terms().fold(gcd(a1, a2), |g, (_, k)| gcd(g, k));
        let constant = d.constant_part();
        if g == 0 {
            return if constant != 0 {
                Ok(format!(
                    "the subscripts differ by {} in every iteration",
                    -constant
                ))
            } else {
                Err("every iteration touches the same element".to_string())
            };
        }
        if constant % g != 0 {
            return Ok(format!(
                "GCD test: gcd {g} of the coefficients does not divide {constant}, no integer solution"
            ));
        }
        // Banerjee test on i = lo + t, t in [0, N).
        let rhs = if a1 == a2 {
            d.as_constant()
        } else {
            let lo = self.lo.as_ref().and_then(Poly::as_constant);
            match (d.as_constant(), lo) {
                (Some(d), Some(lo)) => d.checked_sub((a1 - a2).checked_mul(lo).unwrap_or(i64::MAX)),
                _ => None,
            }
        };
        let Some(rhs) = rhs else {
            return Err(format!(
                "`{}` and `{}` differ by a value not known at compile time",
                fa, fb
            ));
        };
        let trips = match (&self.lo, &self.hi) {
            (Some(lo), Some(hi)) => hi.sub(lo).and_then(|x| x.as_constant()),
            _ => None,
        };
        if trips.is_some_and(|n| n <= 1) {
            return Ok("the loop has at most one iteration".to_string());
        }
        let last = trips.map(|n| n - 1);
        let forward = banerjee(a1, a2, last, true);
        let backward = banerjee(a1, a2, last, false);
        let inside = |(min, max): (Option<i64>, Option<i64>)| {
            min.is_none_or(|m| m <= rhs) && max.is_none_or(|m| rhs <= m)
        };
        if !inside(forward) && !inside(backward) {
            let range = |(min, max): (Option<i64>, Option<i64>)| {
                format!(
                    "[{}, {}]",
                    min.map_or("-inf".to_string(), |m| m.to_string()),
                    max.map_or("+inf".to_string(), |m| m.to_string())
                )
            };
            let distance = if a1 == a2 && rhs == 0 {
                " (the same element only in the same iteration: distance 0)".to_string()
            } else {
                String::new()
            };
            return Ok(format!(
                "Banerjee test: {a1}*t1 - {a2}*t2 = {rhs} has no solution with t1 < t2 (bounds {}) or t1 > t2 (bounds {}){distance}",
                range(forward),
                range(backward)
            ));
        }
        if a1 == a2 && a1 != 0 && rhs % a1 == 0 {
            let distance = (rhs / a1).abs();
            return Err(format!(
                "the element one touches in iteration `{v}` the other touches in iteration `{v} {sign} {distance}` (dependence distance {distance})",
                v = self.var_name,
                sign = if rhs / a1 > 0 { "-" } else { "+" },
            ));
        }
        Err(format!(
            "{a1}*t1 - {a2}*t2 = {rhs} may have a solution with t1 != t2"
        ))
    }
}

/// The extreme values of `a1 * t1 - a2 * t2` for `0 <= t1 < t2 <= last` (`forward`) or
/// `0 <= t2 < t1 <= last`; `None` for an unbounded side (`last` unknown: unbounded loop).
fn banerjee(a1: i64, a2: i64, last: Option<i64>, forward: bool) -> (Option<i64>, Option<i64>) {
    // forward: t2 = t1 + 1 + s, h = (a1 - a2) t1 - a2 - a2 s; backward: t1 = t2 + 1 + s,
    // h = (a1 - a2) t2 + a1 + a1 s; t, s >= 0 and t + 1 + s <= last.
    let (base, slope_s) = if forward { (-a2, -a2) } else { (a1, a1) };
    let slope_t = a1 - a2;
    match last {
        Some(u) => {
            let m = u - 1;
            let vertices = [base, base + slope_t * m, base + slope_s * m];
            let min = vertices.iter().copied().min();
            let max = vertices.iter().copied().max();
            (min, max)
        }
        None => {
            let min = if slope_t < 0 || slope_s < 0 {
                None
            } else {
                Some(base)
            };
            let max = if slope_t > 0 || slope_s > 0 {
                None
            } else {
                Some(base)
            };
            (min, max)
        }
    }
}

/// The span of the atomic whose old value `stmt` binds (`x: T <- atomic_add(a[i], v)`).
fn binds_atomic(checked: &crate::check::Checked, stmt: &Stmt) -> Option<Span> {
    let value = match stmt {
        Stmt::Let { init: Some(v), .. } | Stmt::Assign { value: v, .. } => v,
        _ => return None,
    };
    matches!(
        checked.callees.get(&value.id),
        Some(crate::check::Callee::Builtin(
            crate::check::Builtin::Atomic(_)
        ))
    )
    .then_some(value.span)
}

fn verb(kind: AccessKind) -> &'static str {
    match kind {
        AccessKind::Read => "read",
        AccessKind::Write => "write",
        AccessKind::Atomic(..) => "atomic update",
    }
}

fn root_name(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Name(n) => Some(&n.name),
        ExprKind::Field { base, .. } => root_name(base),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::banerjee;

    #[test]
    fn banerjee_bounds_of_a_unit_stride_pair() {
        // a[i] and a[i - 1] over 256 iterations: t1 - t2 ranges over [-255, -1] forward.
        assert_eq!(banerjee(1, 1, Some(255), true), (Some(-255), Some(-1)));
        assert_eq!(banerjee(1, 1, Some(255), false), (Some(1), Some(255)));
        // Unbounded: still one-signed.
        assert_eq!(banerjee(1, 1, None, true), (None, Some(-1)));
        assert_eq!(banerjee(2, 1, None, false), (Some(2), None));
    }
}
