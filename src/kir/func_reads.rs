//! An array bound whole to a map's `func` (`f(a[B]) /~ range(lo, hi)`), for `kir-accesses` (does
//! a store read its own target through it?) and `kir-barriers` (who reads which element): the
//! elements the `func` reads of its array parameter, read from its body as polynomials of its
//! scalar parameters, then at the map with the call's arguments substituted (the bound scalars'
//! values, and `lo + k` for the element `k`, which thread `k mod BLOCKSIZE` computes). A `func`
//! that reads element `j` of the row it is given then reads what the thread that computes `j`
//! owns ([`Who::Owner`]), and conflicts only with another thread's write of that row; where the
//! body's reads cannot be put so (a loop, a subscript that is not a polynomial of the
//! parameters, the array passed on or written), the array is read by any thread, as for a
//! `func` given an array anywhere else.

use super::accesses::array_dims;
use super::accesses::Finder;
use super::barriers::shown_name;
use crate::check::types::Ty;
use crate::check::{Callee, Checked};
use crate::kir::access::{Access, AccessKind, Who};
use crate::kir::affine::{Poly, Sym, Symbols};
use crate::kir::consumers::Walk;
use crate::syntax::ast::{Block, Expr, ExprKind, Item, Stmt as Ast, TypeExpr};
use crate::syntax::visit::each_child;
use std::collections::BTreeSet;

impl Finder {
    /// The reads of `arg`, bound whole as argument `param` of map `map`'s `func`, each by the
    /// thread that computes the map's element it belongs to; `None` where the `func`'s reads
    /// cannot be expressed so (the caller takes the array as read by any thread).
    pub(super) fn mapped_array_reads(
        &self,
        walk: &Walk<'_>,
        map: &Expr,
        param: usize,
        arg: &Expr,
    ) -> Option<Vec<Access>> {
        let checked = walk.checked;
        let ExprKind::Collective { func, operand, .. } = &map.kind else {
            return None;
        };
        let Some(Callee::Func(item)) = checked.callees.get(&map.id) else {
            return None;
        };
        let reads = array_param_reads(checked, *item, param, self.block_size)?;
        let (array, row_start) = self.row_start(walk, arg)?;
        let symbols = &self.values.symbols;
        // The element's value: `lo + k` of a `Range` operand, else unknown (a subscript that
        // uses it falls back).
        let element = Sym::new("map.k", 0);
        let element_value = match checked.ty(operand.id) {
            Ty::Range => symbols
                .range(operand, checked, self.block_size)
                .and_then(|(lo, _)| lo.add(&Poly::sym(element.clone()))),
            _ => None,
        };
        let Some(Item::Func(decl)) = checked.program.items.get(*item) else {
            return None;
        };
        let value_of = |sym: &Sym| -> Option<Poly> {
            let at = decl.params.iter().position(|p| p.name.name == sym.name)?;
            if sym.version != 0 {
                return None;
            }
            match func.bound_args.get(at) {
                Some(bound) => symbols.poly(bound, checked, self.block_size),
                None if at == func.bound_args.len() => element_value.clone(),
                None => None,
            }
        };
        reads
            .iter()
            .map(|read| {
                let at = row_start.add(&read.substitute(&value_of)?)?;
                let who = match at.split_linear(&element)? {
                    (0, at) => Who::All(Some(at)),
                    (1, offset) => Who::Owner(offset),
                    _ => Who::Any,
                };
                Some(Access {
                    name: shown_name(&array),
                    array: array.clone(),
                    kind: AccessKind::Read,
                    who,
                    span: arg.span,
                })
            })
            .collect()
    }

    /// The array `arg` names and where its elements start in it: a one-dimensional array at
    /// 0, a row `a[i]` of a two-dimensional one at `i * cols` (as a store's owners are placed,
    /// `Finder::owner_at`).
    fn row_start(&self, walk: &Walk<'_>, arg: &Expr) -> Option<(String, Poly)> {
        match &arg.kind {
            ExprKind::Name(_) => {
                let (array, dims) = array_dims(walk, arg)?;
                (dims.len() == 1).then(|| (array, Poly::default()))
            }
            ExprKind::Index { base, indices, .. } => {
                let (array, dims) = array_dims(walk, base)?;
                let ([row], [_, Some(cols)]) = (indices.as_slice(), dims.as_slice()) else {
                    return None;
                };
                if !matches!(base.kind, ExprKind::Name(_)) {
                    return None;
                }
                let row = self
                    .values
                    .symbols
                    .poly(row, walk.checked, self.block_size)?;
                Some((array, row.mul(cols)?))
            }
            _ => None,
        }
    }
}

/// The elements `func` item `item` reads of its parameter `param`, a one-dimensional array:
/// each subscript as a polynomial of the `func`'s scalar parameters (symbols of version 0
/// named as they are; any other symbol is a value the body computes, which the caller cannot
/// substitute). `None` where the body does what this does not follow: a loop, a statement
/// call, the parameter used other than as `a[i]` (passed on, written, its length), or declared
/// again.
fn array_param_reads(
    checked: &Checked,
    item: usize,
    param: usize,
    block_size: u32,
) -> Option<Vec<Poly>> {
    let Some(Item::Func(decl)) = checked.program.items.get(item) else {
        return None;
    };
    let array = decl.params.get(param)?;
    if !matches!(&array.ty, TypeExpr::Array { dims, .. } if dims.len() <= 1) {
        return None;
    }
    let mut symbols = Symbols::default();
    for p in &decl.params {
        if let TypeExpr::Named { name } = &p.ty {
            if name.name == "Range" {
                symbols.set(&p.name.name, None, true);
            } else {
                symbols.bind_parameter(&p.name.name);
            }
        }
    }
    let mut body = BodyReads {
        checked,
        block_size,
        array: &array.name.name,
        symbols,
        reads: Vec::new(),
    };
    body.block(&decl.body)?;
    Some(body.reads)
}

/// A walk of a `func`'s body collecting the subscripts of its reads of one array parameter.
struct BodyReads<'a> {
    checked: &'a Checked,
    block_size: u32,
    array: &'a str,
    symbols: Symbols,
    reads: Vec<Poly>,
}

impl BodyReads<'_> {
    fn block(&mut self, block: &Block) -> Option<()> {
        block.stmts.iter().try_for_each(|stmt| self.statement(stmt))
    }

    fn statement(&mut self, stmt: &Ast) -> Option<()> {
        match stmt {
            Ast::Let { name, init, .. } => {
                if name.name == self.array {
                    return None;
                }
                if let Some(init) = init {
                    self.expr(init)?;
                }
                self.note(&name.name, init.as_ref());
                Some(())
            }
            Ast::Assign { target, value, .. } => {
                self.expr(value)?;
                match &target.kind {
                    ExprKind::Name(name) => {
                        if name.name == self.array {
                            return None;
                        }
                        self.note(&name.name, Some(value));
                        Some(())
                    }
                    // A field or element store: the subscripts are read; the root must not be
                    // the array (a write of it), and a variable at the root is unknown after.
                    _ => {
                        let mut root = target;
                        while let ExprKind::Field { base, .. } | ExprKind::Index { base, .. } =
                            &root.kind
                        {
                            root = base;
                        }
                        let ExprKind::Name(root) = &root.kind else {
                            return None;
                        };
                        if root.name == self.array {
                            return None;
                        }
                        self.expr(target)?;
                        self.forget(&BTreeSet::from([root.name.clone()]));
                        Some(())
                    }
                }
            }
            Ast::If {
                cond,
                then_branch,
                else_branch,
                ..
            } => {
                self.expr(cond)?;
                // Each branch from the state before the `if`; after it, every name either
                // branch assigns is unknown.
                let before = self.symbols.clone();
                self.block(then_branch)?;
                self.symbols = before.clone();
                if let Some(else_branch) = else_branch {
                    self.block(else_branch)?;
                }
                self.symbols = before;
                let mut assigned = BTreeSet::new();
                crate::kir::assigned_names(then_branch, &mut assigned);
                if let Some(else_branch) = else_branch {
                    crate::kir::assigned_names(else_branch, &mut assigned);
                }
                self.forget(&assigned);
                Some(())
            }
            Ast::Return { value, .. } => value.as_ref().map_or(Some(()), |v| self.expr(v)),
            Ast::For { .. } | Ast::While { .. } | Ast::Call { .. } => None,
        }
    }

    /// `name` holds `value` from here (unknown where it has no polynomial).
    fn note(&mut self, name: &str, value: Option<&Expr>) {
        let is_range = value.is_some_and(|v| *self.checked.ty(v.id) == Ty::Range);
        let known = value.and_then(|v| self.symbols.known(v, self.checked, self.block_size));
        self.symbols.set(name, known, is_range);
    }

    fn forget(&mut self, names: &BTreeSet<String>) {
        for name in names {
            let is_range = matches!(
                self.symbols.get(name),
                Some(crate::kir::affine::Known::Range(..))
            );
            self.symbols.set(name, None, is_range);
        }
    }

    /// The reads of the array in `e`: `a[i]` with one scalar subscript, its polynomial;
    /// `None` for another use of the array or a subscript without one.
    fn expr(&mut self, e: &Expr) -> Option<()> {
        match &e.kind {
            ExprKind::Name(name) if name.name == self.array => return None,
            ExprKind::Index { base, indices, .. } if matches!(&base.kind, ExprKind::Name(n) if n.name == self.array) =>
            {
                let [index] = indices.as_slice() else {
                    return None;
                };
                if !matches!(self.checked.ty(index.id), Ty::Scalar(_)) {
                    return None;
                }
                let at = self.symbols.poly(index, self.checked, self.block_size)?;
                self.reads.push(at);
                return self.expr(index);
            }
            _ => {}
        }
        let mut result = Some(());
        each_child(e, &mut |child| {
            if result.is_some() {
                result = self.expr(child);
            }
        });
        result
    }
}
