//! Expressions back to source text, for the fixes that diagnostics suggest (`Float32(in[current])`).

use crate::syntax::ast::{BinaryOp, Expr, ExprKind};

/// Binding strength: higher binds tighter. Parentheses are added where a child binds less tightly
/// than its place needs, so the text parses back to the same tree.
fn precedence(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Collective { .. } => 0,
        ExprKind::Binary { op, .. } => binary_precedence(*op),
        ExprKind::Unary { .. } => 10,
        _ => 11,
    }
}

fn binary_precedence(op: BinaryOp) -> u8 {
    use BinaryOp::*;
    match op {
        Or => 1,
        And => 2,
        Eq | Ne | Lt | Le | Gt | Ge => 3,
        BitOr => 4,
        BitXor => 5,
        BitAnd => 6,
        Shl | Shr => 7,
        Add | Sub => 8,
        Mul | Div | Rem => 9,
    }
}

fn child(e: &Expr, min: u8) -> String {
    let text = render(e);
    if precedence(e) < min {
        format!("({text})")
    } else {
        text
    }
}

fn list(exprs: &[Expr]) -> String {
    exprs.iter().map(render).collect::<Vec<_>>().join(", ")
}

pub(super) fn render(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(v) => v.to_string(),
        ExprKind::Float(v) => {
            let s = v.f64().to_string();
            if s.contains(['.', 'e', 'E', 'i', 'N']) {
                s
            } else {
                format!("{s}.0")
            }
        }
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::Name(id) => id.name.clone(),
        ExprKind::Unary { op, operand, .. } => {
            let sep = if op.symbol().chars().all(char::is_alphabetic) {
                " "
            } else {
                ""
            };
            // `-(-x)` keeps its parentheses: `--` would start a comment.
            let min = if matches!(operand.kind, ExprKind::Unary { .. }) {
                11
            } else {
                10
            };
            format!("{}{sep}{}", op.symbol(), child(operand, min))
        }
        ExprKind::Binary { op, lhs, rhs, .. } => {
            let p = binary_precedence(*op);
            format!("{} {} {}", child(lhs, p), op.symbol(), child(rhs, p + 1))
        }
        ExprKind::Call { callee, args } => format!("{}({})", callee.name, list(args)),
        ExprKind::Index {
            base,
            indices,
            checked,
        } => {
            let (open, close) = if *checked { ("[[", "]]") } else { ("[", "]") };
            format!("{}{open}{}{close}", child(base, 11), list(indices))
        }
        ExprKind::Field { base, field } => format!("{}.{}", child(base, 11), field.name),
        ExprKind::Record { fields } => {
            let f: Vec<String> = fields
                .iter()
                .map(|f| format!("{}: {}", f.name.name, render(&f.value)))
                .collect();
            format!("{{{}}}", f.join(", "))
        }
        ExprKind::VectorLit { elems } => format!("[{}]", list(elems)),
        ExprKind::Collective {
            op, func, operand, ..
        } => {
            let f = if func.bound_args.is_empty() {
                func.name.name.clone()
            } else {
                format!("{}({})", func.name.name, list(&func.bound_args))
            };
            format!("{f} {} {}", op.symbol(), child(operand, 10))
        }
    }
}
