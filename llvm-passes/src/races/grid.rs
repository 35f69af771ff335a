//! Two-dimensional addresses: `row · W + column` with `W` a value both threads of a pair share
//! (a kernel parameter, say) and `row` thread-dependent, which the affine form cannot express
//! (a product of a thread-dependent value and a run-time one).
//!
//! A row-major store into a 2-D array of run-time width, `out[(c0 + tid.y) * rows + r0 +
//! tid.x]`, is such an address. When a comparison `column < W` (unsigned, or signed with
//! `column >= 0` too) dominates the access, the map `(row, column) -> row · W + column` is
//! injective: `i1 · W + j1 = i2 · W + j2` with `0 <= j1, j2 < W` gives `(i1 - i2) · W = j2 - j1`,
//! whose right side is smaller than `W` in size, so `i1 = i2` and `j1 = j2`. Two such accesses
//! with one `W` and one element size therefore touch the same element exactly when their rows and
//! their columns are equal, and the pair test decides that on the affine offset `row · M +
//! column` with `M = 2^64`, larger than any difference of two columns below a 64-bit `W`: it is
//! equal for two threads exactly when both parts are. An access of this form paired with one of
//! any other form stays undecided (a warning), as does one without the guard.
//!
//! As everywhere in the analysis, index arithmetic is assumed not to wrap and a uniform value to
//! keep its value through extensions (`sext W` and `zext W` are one variable): `W` is read as a
//! non-negative width.

use super::address::{Failure, Lin, Linearizer, Object, VarKey};
use super::guards::{self, Guard};
use super::solve::{self, Witness};
use crate::ir::{BinOp, CastOp, GepIndex, Op, Pred, Val};
use crate::threads::ThreadValues;

/// How far apart rows lie in the pair test's offsets (`row · SPREAD + column`).
const SPREAD: i128 = 1 << 64;

/// Rows' constants, coefficients and per-thread values stay below this, so that `row · SPREAD`
/// stays far from the saturation of the solver's arithmetic.
const ROW_LIMIT: i128 = 1 << 24;

/// A two-dimensional address: byte offset `element · (row · W + column)` into `base`, with
/// `0 <= column < W` where the access runs.
#[derive(Debug, Clone)]
pub struct Grid {
    pub base: Object,
    /// `W`, a value both threads of a pair share.
    pub width: VarKey,
    /// Bytes per element: the offset is `element · (row · W + column)`.
    pub element: i128,
    pub row: Lin,
    pub column: Lin,
    /// Why the address is not affine (reported when the pair cannot be decided as a grid).
    pub failure: Failure,
}

impl Grid {
    /// The offset the pair test works on, in elements: `row · SPREAD + column`.
    pub fn spread(&self) -> Lin {
        self.row.clone().scale(SPREAD).add(self.column.clone())
    }

    /// Whether two grids index one array alike, so that equal rows and columns are exactly
    /// equal elements, for accesses of `bytes` each.
    pub fn compatible(&self, other: &Grid, bytes: (u64, u64)) -> bool {
        self.base == other.base
            && self.width == other.width
            && self.element == other.element
            && i128::from(bytes.0) <= self.element
            && i128::from(bytes.1) <= other.element
    }
}

/// A byte offset as an affine part plus at most one product `coeff · W · row`.
struct Parts {
    rest: Lin,
    product: Option<(VarKey, Lin, i128)>,
}

impl Parts {
    fn affine(rest: Lin) -> Parts {
        Parts {
            rest,
            product: None,
        }
    }

    fn add(self, other: Parts) -> Option<Parts> {
        let product = match (self.product, other.product) {
            (Some(_), Some(_)) => return None,
            (p, None) | (None, p) => p,
        };
        Some(Parts {
            rest: self.rest.add(other.rest),
            product,
        })
    }

    fn scale(self, factor: i128) -> Parts {
        Parts {
            rest: self.rest.scale(factor),
            product: self
                .product
                .map(|(w, row, c)| (w, row, c.saturating_mul(factor))),
        }
    }
}

/// The address of `pointer` as a grid, if it has the form and a guard `column < W` holds
/// where the access runs (`guards`). `failure` is why the affine form failed.
pub fn grid(
    linearizer: &mut Linearizer<'_>,
    pointer: Val,
    guards: &[Guard],
    failure: &Failure,
) -> Option<Grid> {
    linearizer.steps = 0;
    let (base, parts) = pointer_parts(linearizer, pointer, 0)?;
    let (width, row, element) = parts.product?;
    if element <= 0 {
        return None;
    }
    let column = divide(parts.rest, element)?;
    let threads = linearizer.cx.threads;
    if !small(threads, &row) {
        return None;
    }
    if !bounded_by(threads, guards, &column, width) {
        return None;
    }
    Some(Grid {
        base,
        width,
        element,
        row,
        column,
        failure: failure.clone(),
    })
}

fn pointer_parts(
    linearizer: &mut Linearizer<'_>,
    pointer: Val,
    depth: usize,
) -> Option<(Object, Parts)> {
    if depth > 16 {
        return None;
    }
    if let Ok(address) = linearizer.address(pointer) {
        return Some((address.base, Parts::affine(address.offset)));
    }
    let Val::Inst(id) = pointer else { return None };
    let inst = linearizer.cx.function.inst(id);
    match &inst.op {
        Op::Cast(CastOp::AddrSpaceCast | CastOp::BitCast) => {
            pointer_parts(linearizer, inst.args[0], depth + 1)
        }
        Op::Gep(steps) => {
            let (base, mut parts) = pointer_parts(linearizer, inst.args[0], depth + 1)?;
            for (step, index) in steps.iter().zip(&inst.args[1..]) {
                let part = match step {
                    GepIndex::Field(offset) => Parts::affine(Lin::constant(i128::from(*offset))),
                    GepIndex::Scaled(scale) => integer_parts(linearizer, *index, true, depth + 1)?
                        .scale(i128::from(*scale)),
                };
                parts = parts.add(part)?;
            }
            Some((base, parts))
        }
        _ => None,
    }
}

fn integer_parts(
    linearizer: &mut Linearizer<'_>,
    value: Val,
    signed: bool,
    depth: usize,
) -> Option<Parts> {
    if depth > 32 {
        return None;
    }
    if let Ok(lin) = linearizer.integer(value, signed) {
        return Some(Parts::affine(lin));
    }
    let Val::Inst(id) = value else { return None };
    let inst = linearizer.cx.function.inst(id);
    let args = &inst.args;
    let constant = |v: &Val| match v {
        Val::Int { value, .. } => Some(*value),
        _ => None,
    };
    match &inst.op {
        Op::Bin(BinOp::Add | BinOp::Or { disjoint: true }) => {
            let a = integer_parts(linearizer, args[0], signed, depth + 1)?;
            let b = integer_parts(linearizer, args[1], signed, depth + 1)?;
            a.add(b)
        }
        Op::Bin(BinOp::Sub) => {
            let a = integer_parts(linearizer, args[0], signed, depth + 1)?;
            let b = integer_parts(linearizer, args[1], signed, depth + 1)?;
            a.add(b.scale(-1))
        }
        Op::Bin(BinOp::Mul) if constant(&args[1]).is_some() => {
            let c = constant(&args[1])?;
            Some(integer_parts(linearizer, args[0], signed, depth + 1)?.scale(c))
        }
        Op::Bin(BinOp::Mul) if constant(&args[0]).is_some() => {
            let c = constant(&args[0])?;
            Some(integer_parts(linearizer, args[1], signed, depth + 1)?.scale(c))
        }
        Op::Bin(BinOp::Shl) if constant(&args[1]).is_some_and(|c| (0..64).contains(&c)) => {
            let c = constant(&args[1])?;
            Some(integer_parts(linearizer, args[0], signed, depth + 1)?.scale(1i128 << c))
        }
        Op::Bin(BinOp::Mul) => {
            // `row · W`: one operand a single shared variable, the other affine.
            for (w, r) in [(args[0], args[1]), (args[1], args[0])] {
                let Ok(width) = linearizer.integer(w, signed) else {
                    continue;
                };
                let Some(key) = single_shared(&width) else {
                    continue;
                };
                let Ok(row) = linearizer.integer(r, signed) else {
                    continue;
                };
                return Some(Parts {
                    rest: Lin::constant(0),
                    product: Some((key, row, 1)),
                });
            }
            None
        }
        Op::Cast(CastOp::SExt) => integer_parts(linearizer, args[0], true, depth + 1),
        Op::Cast(CastOp::ZExt { .. }) => integer_parts(linearizer, args[0], false, depth + 1),
        _ => None,
    }
}

/// The variable `lin` is, if it is exactly one variable both threads of a pair share.
fn single_shared(lin: &Lin) -> Option<VarKey> {
    match (lin.konst, lin.thread.is_empty(), lin.vars.as_slice()) {
        (0, true, [(key @ VarKey::Shared { .. }, 1)]) => Some(*key),
        _ => None,
    }
}

/// `lin / d`, when every coefficient and the constant are multiples of `d`.
fn divide(mut lin: Lin, d: i128) -> Option<Lin> {
    if lin.konst % d != 0
        || lin.thread.iter().any(|t| t.coeff % d != 0)
        || lin.vars.iter().any(|(_, c)| c % d != 0)
    {
        return None;
    }
    lin.konst /= d;
    for t in &mut lin.thread {
        t.coeff /= d;
    }
    for (_, c) in &mut lin.vars {
        *c /= d;
    }
    Some(lin)
}

/// Whether a row's constant, coefficients and per-thread values are small (see [`ROW_LIMIT`]).
fn small(threads: &ThreadValues<'_>, row: &Lin) -> bool {
    let Some(part) = solve::thread_part(threads, row) else {
        return false;
    };
    row.konst.abs() < ROW_LIMIT
        && row.vars.iter().all(|(_, c)| c.abs() < ROW_LIMIT)
        && row.thread.iter().all(|t| t.coeff.abs() < ROW_LIMIT)
        && part.iter().all(|v| v.abs() < ROW_LIMIT)
}

/// Whether `a` and `b` are the same value in every thread for every value of the variables.
fn same(threads: &ThreadValues<'_>, a: &Lin, b: &Lin) -> bool {
    if a.konst != b.konst || a.vars.len() != b.vars.len() {
        return false;
    }
    if !a.vars.iter().all(|v| b.vars.contains(v)) {
        return false;
    }
    match (
        solve::thread_part(threads, a),
        solve::thread_part(threads, b),
    ) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

fn is_width(lin: &Lin, width: VarKey) -> bool {
    single_shared(lin) == Some(width)
}

/// `(lhs, rhs, signed)` of a guard that means `lhs < rhs`.
fn less(g: &Guard) -> Option<(&Lin, &Lin, bool)> {
    match (g.pred, g.holds) {
        (Pred::Ult, true) | (Pred::Uge, false) => Some((&g.lhs, &g.rhs, false)),
        (Pred::Ugt, true) | (Pred::Ule, false) => Some((&g.rhs, &g.lhs, false)),
        (Pred::Slt, true) | (Pred::Sge, false) => Some((&g.lhs, &g.rhs, true)),
        (Pred::Sgt, true) | (Pred::Sle, false) => Some((&g.rhs, &g.lhs, true)),
        _ => None,
    }
}

/// Whether the guards give `0 <= column < W`: `column <u W` (an index below the width, as
/// unsigned), or `column <s W` with `column >= 0`; in any of their spellings.
fn bounded_by(threads: &ThreadValues<'_>, guards: &[Guard], column: &Lin, width: VarKey) -> bool {
    let at_most_64 = |g: &Guard| g.bits <= 64;
    let below = |signed_wanted: bool| {
        guards.iter().filter(|g| at_most_64(g)).any(|g| {
            less(g).is_some_and(|(l, r, signed)| {
                signed == signed_wanted && is_width(r, width) && same(threads, l, column)
            })
        })
    };
    if below(false) {
        return true;
    }
    // Signed: `column >= 0` too, as `column >=s 0`, `column >s -1` or `!(column <s 0)`.
    let non_negative = guards.iter().filter(|g| at_most_64(g)).any(|g| {
        let zero =
            |lin: &Lin, k: i128| lin.vars.is_empty() && lin.thread.is_empty() && lin.konst == k;
        match (g.pred, g.holds) {
            (Pred::Sge, true) | (Pred::Slt, false) => {
                same(threads, &g.lhs, column) && zero(&g.rhs, 0)
            }
            (Pred::Sgt, true) | (Pred::Sle, false) => {
                same(threads, &g.lhs, column) && zero(&g.rhs, -1)
            }
            (Pred::Sle, true) | (Pred::Sgt, false) => {
                zero(&g.lhs, 0) && same(threads, &g.rhs, column)
            }
            (Pred::Slt, true) | (Pred::Sge, false) => {
                zero(&g.lhs, -1) && same(threads, &g.rhs, column)
            }
            _ => false,
        }
    });
    non_negative && below(true)
}

/// A conflict the pair test found on the spread offsets, in bytes of the real array: the two
/// threads touch one element (equal rows and columns); a width `W` above the column that the
/// guards of both sides allow makes it concrete. `None` if no width tried is allowed.
pub fn real_witness(
    threads: &ThreadValues<'_>,
    first: (&Grid, &[Guard]),
    second: (&Grid, &[Guard]),
    witness: &Witness,
) -> Option<Witness> {
    let (a, b) = (first.0, second.0);
    let values = &witness.values;
    let at = |lin: &Lin, t: usize| guards::evaluate(threads, lin, t, values);
    let (row_a, column_a) = (
        at(&a.row, witness.first_thread)?,
        at(&a.column, witness.first_thread)?,
    );
    let (row_b, column_b) = (
        at(&b.row, witness.second_thread)?,
        at(&b.column, witness.second_thread)?,
    );
    let least = column_a.max(column_b).max(0) + 1;
    let fixed = values.iter().find(|(k, _)| *k == a.width).map(|(_, v)| *v);
    let tries: Vec<i128> = match fixed {
        Some(w) => vec![w],
        None => [least, least + 1, 2 * least]
            .into_iter()
            .chain((4..31).map(|k| 1i128 << k).filter(|w| *w >= least))
            .collect(),
    };
    for w in tries {
        if column_a >= w || column_b >= w || column_a < 0 || column_b < 0 {
            continue;
        }
        let mut with = values.clone();
        with.retain(|(k, _)| *k != a.width);
        with.push((a.width, w));
        if !guards::all_hold(threads, first.1, witness.first_thread, &with)
            || !guards::all_hold(threads, second.1, witness.second_thread, &with)
        {
            continue;
        }
        return Some(Witness {
            first_thread: witness.first_thread,
            second_thread: witness.second_thread,
            first_offset: a.element * (row_a * w + column_a),
            second_offset: b.element * (row_b * w + column_b),
            values: with,
        });
    }
    None
}
