//! Is the combining function of a reduction commutative? Then each thread may fold the elements
//! it owns (`k = t, t + BLOCKSIZE, ...`, not a contiguous run) before the threads' results are
//! combined in order: the fastest reduction, and the one hand-written CUDA uses.
//!
//! The proof is syntactic: a `func` whose body is a single `return e`, where swapping its last
//! two parameters in `e` gives the same expression up to the order of the operands of
//! commutative operations: `+` and `*` (integer ones wrap, IEEE ones round the same either way),
//! `&`, `|`, `^`, `and`, `or`, `==`, `!=`, the library's `__min`/`__max` (for floats, `-0.0` and
//! `+0.0` tie and either may come out: documented), and calls of functions that are themselves
//! commutative in those arguments. Anything else is treated as non-commutative, which is always
//! correct, only slower.

use crate::check::{Builtin, Callee, Checked, MathFn};
use crate::syntax::ast::{BinaryOp, Expr, ExprKind, Item, Stmt, UnaryOp};

/// True when `f(bound..., a, b) == f(bound..., b, a)` is proven for every `a`, `b`.
pub fn is_commutative(checked: &Checked, f: Callee, bound: usize) -> bool {
    let Callee::Func(item) = f else { return false };
    commutative_func(checked, item, bound, 0)
}

/// The operation `f` is, when it is one whose identity is known: `func f(a, b)` (no bound
/// arguments) whose body is `return a + b`, `return a * b` or `return __min(a, b)` /
/// `__max(a, b)` (either operand order), as the library's `sum`, `prod`, `min` and `max` are.
/// A reduction may then start every thread from the identity (`reduce.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Combining {
    Add,
    Mul,
    Min,
    Max,
}

pub fn combining(checked: &Checked, f: Callee, bound: usize) -> Option<Combining> {
    let Callee::Func(item) = f else { return None };
    let Some(Item::Func(decl)) = checked.program.items.get(item) else {
        return None;
    };
    let ([a, b], 0) = (decl.params.as_slice(), bound) else {
        return None;
    };
    let [Stmt::Return {
        value: Some(body), ..
    }] = decl.body.stmts.as_slice()
    else {
        return None;
    };
    let (op, l, r) = match &body.kind {
        ExprKind::Binary { op, lhs, rhs, .. } => {
            let op = match op {
                BinaryOp::Add => Combining::Add,
                BinaryOp::Mul => Combining::Mul,
                _ => return None,
            };
            (op, lhs.as_ref(), rhs.as_ref())
        }
        ExprKind::Call { args, .. } => {
            let op = match checked.callees.get(&body.id) {
                Some(Callee::Builtin(Builtin::Math(MathFn::Min))) => Combining::Min,
                Some(Callee::Builtin(Builtin::Math(MathFn::Max))) => Combining::Max,
                _ => return None,
            };
            let [l, r] = args.as_slice() else { return None };
            (op, l, r)
        }
        _ => return None,
    };
    let name = |e: &Expr| match &e.kind {
        ExprKind::Name(n) => Some(n.name.clone()),
        _ => None,
    };
    let (l, r) = (name(l), name(r));
    let (a, b) = (Some(a.name.name.clone()), Some(b.name.name.clone()));
    ((l == a && r == b) || (l == b && r == a)).then_some(op)
}

fn commutative_func(checked: &Checked, item: usize, bound: usize, depth: u32) -> bool {
    let Some(Item::Func(decl)) = checked.program.items.get(item) else {
        return false;
    };
    if depth > 8 || decl.params.len() != bound + 2 {
        return false;
    }
    let [Stmt::Return {
        value: Some(body), ..
    }] = decl.body.stmts.as_slice()
    else {
        return false;
    };
    let a = &decl.params[bound].name.name;
    let b = &decl.params[bound + 1].name.name;
    let cx = Canon {
        checked,
        a,
        b,
        depth,
    };
    cx.canon(body, false) == cx.canon(body, true)
}

struct Canon<'c> {
    checked: &'c Checked,
    a: &'c str,
    b: &'c str,
    depth: u32,
}

impl Canon<'_> {
    /// A canonical spelling of `e` (with the two parameters swapped when `swap`): operands of
    /// commutative operations sorted.
    fn canon(&self, e: &Expr, swap: bool) -> String {
        match &e.kind {
            ExprKind::Int(v) => format!("{v}"),
            ExprKind::Float(v) => v.text().to_string(),
            ExprKind::Bool(v) => format!("{v}"),
            ExprKind::Name(id) => {
                let name = id.name.as_str();
                match (name == self.a, name == self.b, swap) {
                    (true, _, false) | (_, true, true) => "$0".to_string(),
                    (true, _, true) | (_, true, false) => "$1".to_string(),
                    _ => format!("n:{name}"),
                }
            }
            ExprKind::Unary { op, operand, .. } => {
                let op = match op {
                    UnaryOp::Neg => "neg",
                    UnaryOp::Not => "not",
                    UnaryOp::BitNot => "bnot",
                };
                format!("({op} {})", self.canon(operand, swap))
            }
            ExprKind::Binary { op, lhs, rhs, .. } => {
                let (l, r) = (self.canon(lhs, swap), self.canon(rhs, swap));
                let commutative = matches!(
                    op,
                    BinaryOp::Add
                        | BinaryOp::Mul
                        | BinaryOp::BitAnd
                        | BinaryOp::BitOr
                        | BinaryOp::BitXor
                        | BinaryOp::And
                        | BinaryOp::Or
                        | BinaryOp::Eq
                        | BinaryOp::Ne
                );
                let (l, r) = if commutative && r < l { (r, l) } else { (l, r) };
                format!("({op:?} {l} {r})")
            }
            ExprKind::Call { callee, args } => {
                let mut parts: Vec<String> = args.iter().map(|x| self.canon(x, swap)).collect();
                let target = self.checked.callees.get(&e.id).copied();
                let sortable = match target {
                    Some(Callee::Builtin(Builtin::Math(MathFn::Min | MathFn::Max))) => {
                        parts.len() == 2
                    }
                    Some(Callee::Func(item)) if parts.len() >= 2 => {
                        commutative_func(self.checked, item, parts.len() - 2, self.depth + 1)
                    }
                    _ => false,
                };
                if sortable {
                    let n = parts.len();
                    if parts[n - 1] < parts[n - 2] {
                        parts.swap(n - 1, n - 2);
                    }
                }
                format!("(call {:?}:{} {})", target, callee.name, parts.join(" "))
            }
            ExprKind::Field { base, field } => {
                format!("{}.{}", self.canon(base, swap), field.name)
            }
            ExprKind::Record { fields } => {
                let parts: Vec<String> = fields
                    .iter()
                    .map(|f| format!("{}={}", f.name.name, self.canon(&f.value, swap)))
                    .collect();
                format!("{{{}}}", parts.join(","))
            }
            // Indexing, vectors and collectives: not analysed. The spelling differs between the
            // two sides, so a function containing one is never called commutative.
            _ => format!("?{}:{swap}", e.id.0),
        }
    }
}
