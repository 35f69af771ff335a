//! Unit tests of the parser: the shape of the AST for every syntax form, and the error codes.

use super::*;
use crate::syntax::error::CODES;

const FILE: FileId = FileId(0);

fn parse_ok(source: &str) -> Program {
    match parse(FILE, source, 0) {
        Ok(program) => program,
        Err(diagnostics) => panic!("expected a parse, got {diagnostics:#?}\nsource:\n{source}"),
    }
}

fn parse_err(source: &str) -> Vec<Diagnostic> {
    match parse(FILE, source, 0) {
        Ok(program) => panic!(
            "expected errors, got {:#?}\nsource:\n{source}",
            program.items
        ),
        Err(diagnostics) => diagnostics,
    }
}

fn codes(source: &str) -> Vec<&'static str> {
    parse_err(source).iter().map(|d| d.code).collect()
}

/// The statements of the first item, which must be a kernel or a func.
fn body(program: &Program) -> &[Stmt] {
    match program.items.first() {
        Some(Item::Kernel(k)) => &k.body.stmts,
        Some(Item::Func(f)) => &f.body.stmts,
        other => panic!("no body in {other:?}"),
    }
}

fn kernel_body(source_body: &str) -> Program {
    parse_ok(&format!("kernel k()\n{source_body}"))
}

/// A compact rendering of an expression's shape.
fn sx(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(v) => v.to_string(),
        ExprKind::Float(v) => format!("{:?}f", v.f64()),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::Name(n) => n.name.clone(),
        ExprKind::Unary { op, operand, .. } => format!("({} {})", op.symbol(), sx(operand)),
        ExprKind::Binary { op, lhs, rhs, .. } => {
            format!("({} {} {})", op.symbol(), sx(lhs), sx(rhs))
        }
        ExprKind::Call { callee, args } => {
            format!(
                "{}({})",
                callee.name,
                args.iter().map(sx).collect::<Vec<_>>().join(", ")
            )
        }
        ExprKind::Index {
            base,
            indices,
            checked,
        } => {
            let inner = indices.iter().map(sx).collect::<Vec<_>>().join(", ");
            if *checked {
                format!("{}[[{inner}]]", sx(base))
            } else {
                format!("{}[{inner}]", sx(base))
            }
        }
        ExprKind::Field { base, field } => format!("{}.{}", sx(base), field.name),
        ExprKind::Record { fields } => format!(
            "{{{}}}",
            fields
                .iter()
                .map(|f| format!("{}: {}", f.name.name, sx(&f.value)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        ExprKind::VectorLit { elems } => {
            format!("[{}]", elems.iter().map(sx).collect::<Vec<_>>().join(", "))
        }
        ExprKind::Collective {
            op, func, operand, ..
        } => {
            let args = func
                .bound_args
                .iter()
                .map(sx)
                .collect::<Vec<_>>()
                .join(", ");
            let f = if func.bound_args.is_empty() {
                func.name.name.clone()
            } else {
                format!("{}({args})", func.name.name)
            };
            format!("({} {f} {})", op.symbol(), sx(operand))
        }
    }
}

/// The value of `x <- <expr>` in a kernel.
fn value(expr: &str) -> Expr {
    let program = kernel_body(&format!("  x <- {expr}\n"));
    match body(&program) {
        [Stmt::Assign { value, .. }] => value.clone(),
        other => panic!("expected one assignment, got {other:?}"),
    }
}

fn shape(expr: &str) -> String {
    sx(&value(expr))
}

fn text(source: &str, span: Span) -> &str {
    &source[span.range()]
}

// ------------------------------------------------------------------------------------------------
// Expressions

#[test]
fn arithmetic_precedence_and_associativity() {
    assert_eq!(shape("a + b * c"), "(+ a (* b c))");
    assert_eq!(shape("a * b + c"), "(+ (* a b) c)");
    assert_eq!(shape("a - b - c"), "(- (- a b) c)");
    assert_eq!(shape("a / b % c * d"), "(* (% (/ a b) c) d)");
    assert_eq!(shape("(a + b) * c"), "(* (+ a b) c)");
    assert_eq!(shape("-a * b"), "(* (- a) b)");
    assert_eq!(shape("a * -b"), "(* a (- b))");
    assert_eq!(shape("- -a"), "(- (- a))");
    assert_eq!(shape("~a.f[i]"), "(~ a.f[i])");
}

#[test]
fn bitwise_and_shift_precedence() {
    assert_eq!(
        shape("a | b ^ c & d << 1 + 2"),
        "(| a (^ b (& c (<< d (+ 1 2)))))"
    );
    assert_eq!(shape("a >> 1 << 2"), "(<< (>> a 1) 2)");
    assert_eq!(shape("a & b == c"), "(== (& a b) c)");
}

#[test]
fn logical_precedence() {
    assert_eq!(shape("a or b and c"), "(or a (and b c))");
    assert_eq!(shape("a and b or c"), "(or (and a b) c)");
    assert_eq!(shape("not a == b and c"), "(and (not (== a b)) c)");
    assert_eq!(shape("not not a"), "(not (not a))");
    assert_eq!(shape("a < b and b <= c"), "(and (< a b) (<= b c))");
    assert_eq!(shape("(a < b) == c"), "(== (< a b) c)");
}

#[test]
fn comparisons_do_not_chain() {
    assert_eq!(codes("kernel k()\n  x <- a < b < c\n"), vec!["E0010"]);
    assert_eq!(codes("kernel k()\n  x <- a == b != c\n"), vec!["E0010"]);
    assert_eq!(codes("kernel k()\n  x <- not a < b < c\n"), vec!["E0010"]);
}

#[test]
fn arrow_is_never_less_than_minus() {
    // `x<-1` is an assignment, and `x < -1` a comparison.
    let program = kernel_body("  x<-1\n  y <- x < -1\n");
    match body(&program) {
        [Stmt::Assign { target, value, .. }, Stmt::Assign { value: cmp, .. }] => {
            assert_eq!(sx(target), "x");
            assert_eq!(sx(value), "1");
            assert_eq!(sx(cmp), "(< x (- 1))");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(shape("a <= -1"), "(<= a (- 1))");
}

#[test]
fn postfix_forms() {
    assert_eq!(shape("a[i]"), "a[i]");
    assert_eq!(shape("a[i, j]"), "a[i, j]");
    assert_eq!(shape("a[[r]]"), "a[[r]]");
    assert_eq!(shape("a[[i, j]]"), "a[[i, j]]");
    assert_eq!(shape("a[[b[i]]]"), "a[[b[i]]]");
    assert_eq!(shape("a[b[[i]]]"), "a[b[[i]]]");
    assert_eq!(shape("p.first"), "p.first");
    assert_eq!(shape("ps[i].second"), "ps[i].second");
    assert_eq!(shape("a[B][i]"), "a[B][i]");
    assert_eq!(shape("a[ [1, 2][0] ]"), "a[[1, 2][0]]");
}

#[test]
fn calls_and_casts() {
    assert_eq!(shape("f(a, b)"), "f(a, b)");
    assert_eq!(shape("f()"), "f()");
    assert_eq!(shape("f(a,)"), "f(a)");
    assert_eq!(shape("Float32(x)"), "Float32(x)");
    assert_eq!(shape("select(c, a, b)"), "select(c, a, b)");
    assert_eq!(
        shape("range(B * BLOCKSIZE, (B + 1) * BLOCKSIZE)"),
        "range((* B BLOCKSIZE), (* (+ B 1) BLOCKSIZE))"
    );
    assert_eq!(shape("block(B)[[0]]"), "block(B)[[0]]");
}

#[test]
fn literals() {
    assert_eq!(shape("42"), "42");
    assert_eq!(shape("0xff"), "255");
    assert_eq!(shape("0XFF"), "255");
    assert_eq!(shape("0b101"), "5");
    assert_eq!(shape("1_000"), "1000");
    assert_eq!(shape("1.5"), "1.5f");
    assert_eq!(shape("1e-3"), "0.001f");
    assert_eq!(shape("2.0e10"), "20000000000.0f");
    assert_eq!(shape("2E+2"), "200.0f");
    assert_eq!(shape("true"), "true");
    assert_eq!(shape("false"), "false");
    assert_eq!(shape("{first: 1, second: x}"), "{first: 1, second: x}");
    assert_eq!(shape("[1, 2, 3]"), "[1, 2, 3]");
    assert_eq!(shape("[]"), "[]");
    assert_eq!(
        shape("340282366920938463463374607431768211455"),
        u128::MAX.to_string()
    );
}

#[test]
fn malformed_numbers() {
    assert_eq!(codes("kernel k()\n  x <- 0x\n"), vec!["E0011"]);
    assert_eq!(codes("kernel k()\n  x <- 1e\n"), vec!["E0011"]);
    assert_eq!(codes("kernel k()\n  x <- 1e+\n"), vec!["E0011"]);
    assert_eq!(codes("kernel k()\n  x <- 0b102\n"), vec!["E0011"]);
    assert_eq!(codes("kernel k()\n  x <- 12ab\n"), vec!["E0011"]);
    assert_eq!(codes("kernel k()\n  x <- 1.5.2\n"), vec!["E0011"]);
    assert_eq!(
        codes("kernel k()\n  x <- 340282366920938463463374607431768211456\n"),
        vec!["E0012"]
    );
    assert_eq!(
        codes("kernel k()\n  x <- 0xfffffffffffffffffffffffffffffffff\n"),
        vec!["E0012"]
    );
    assert_eq!(codes("kernel k()\n  x <- 1e999\n"), vec!["E0012"]);
    // Independent errors are all reported.
    assert_eq!(
        codes("kernel k()\n  x <- 0x + 1e\n"),
        vec!["E0011", "E0011"]
    );
}

#[test]
fn collectives() {
    assert_eq!(shape("sum /. sqr /~ t"), "(/. sum (/~ sqr t))");
    assert_eq!(shape("sum /. (sqr /~ t)"), "(/. sum (/~ sqr t))");
    assert_eq!(shape("max /. a[B]"), "(/. max a[B])");
    assert_eq!(shape("sum /: v"), "(/: sum v)");
    assert_eq!(shape("sum :/ v"), "(:/ sum v)");
    assert_eq!(shape("f(x, 2) /~ v"), "(/~ f(x, 2) v)");
    assert_eq!(shape("f /~ v + 1"), "(/~ f (+ v 1))");
    assert_eq!(shape("1 + (sum /. v)"), "(+ 1 (/. sum v))");
    assert_eq!(shape("g(sum /. v)"), "g((/. sum v))");
    assert_eq!(shape("a[f /~ v]"), "a[(/~ f v)]");
    // The left operand must be a function.
    assert_eq!(codes("kernel k()\n  x <- a + sum /. v\n"), vec!["E0015"]);
    assert_eq!(codes("kernel k()\n  x <- a[0] /~ v\n"), vec!["E0015"]);
    assert_eq!(codes("kernel k()\n  x <- -f /~ v\n"), vec!["E0015"]);
}

#[test]
fn collective_func_ref_spans() {
    let source = "kernel k()\n  x <- f(1) /~ v\n";
    let program = parse_ok(source);
    let Stmt::Assign { value, .. } = &body(&program)[0] else {
        panic!()
    };
    let ExprKind::Collective { func, op_span, .. } = &value.kind else {
        panic!()
    };
    assert_eq!(text(source, func.span), "f(1)");
    assert_eq!(text(source, *op_span), "/~");
    assert_eq!(text(source, value.span), "f(1) /~ v");
}

#[test]
fn expression_spans_include_parentheses() {
    let source = "kernel k()\n  x <- ((a + b)) * c -- note\n";
    let program = parse_ok(source);
    let Stmt::Assign {
        value,
        span,
        target,
    } = &body(&program)[0]
    else {
        panic!()
    };
    assert_eq!(text(source, *span), "x <- ((a + b)) * c");
    assert_eq!(text(source, target.span), "x");
    assert_eq!(text(source, value.span), "((a + b)) * c");
    let ExprKind::Binary { lhs, op_span, .. } = &value.kind else {
        panic!()
    };
    assert_eq!(text(source, lhs.span), "((a + b))");
    assert_eq!(text(source, *op_span), "*");
}

#[test]
fn node_spans() {
    let source =
        "kernel k(a: Float32[THREADS], n: Int32)\n  current: Range <- block(B)\n  out[[current]] <- a[[current]]\n";
    let program = parse_ok(source);
    let Item::Kernel(k) = &program.items[0] else {
        panic!()
    };
    assert_eq!(text(source, k.name.span), "k");
    assert_eq!(text(source, k.params[0].span), "a: Float32[THREADS]");
    assert_eq!(text(source, k.params[0].ty.span()), "Float32[THREADS]");
    assert_eq!(text(source, k.span), source.trim_end());
    assert_eq!(
        text(source, k.body.span),
        "current: Range <- block(B)\n  out[[current]] <- a[[current]]"
    );
    let Stmt::Assign { target, .. } = &k.body.stmts[1] else {
        panic!()
    };
    assert_eq!(text(source, target.span), "out[[current]]");
}

#[test]
fn expr_ids_are_dense_from_the_first_id() {
    let source = "kernel k()\n  x <- a + b * c\n  y <- f(1, 2)\n";
    let program = parse(FILE, source, 100).unwrap_or_else(|d| panic!("{d:?}"));
    let mut ids = Vec::new();
    fn collect(e: &Expr, ids: &mut Vec<u32>) {
        ids.push(e.id.0);
        match &e.kind {
            ExprKind::Binary { lhs, rhs, .. } => {
                collect(lhs, ids);
                collect(rhs, ids);
            }
            ExprKind::Call { args, .. } => args.iter().for_each(|a| collect(a, ids)),
            _ => {}
        }
    }
    for stmt in body(&program) {
        if let Stmt::Assign { target, value, .. } = stmt {
            collect(target, &mut ids);
            collect(value, &mut ids);
        }
    }
    ids.sort();
    assert_eq!(ids, (100..110).collect::<Vec<_>>());
    assert_eq!(program.expr_count, 110);
    assert_eq!(parse_ok("type T = Int32\n").expr_count, 0);
}

// ------------------------------------------------------------------------------------------------
// Items and types

#[test]
fn items_and_types() {
    let source = "\
type Pair = {first: Int32, second: Int32}
type Grid = Float32[rows, cols]

func sqr(x: Float32): Float32
  return x * x
func noResult(x: Int32,)
  return
@blocksize(128)
kernel sumOfSquares(in: Float32[THREADS], out: Float32[BLOCKS], ps: {a: Int32}[n * 2], e: Int32[])
  return
";
    let program = parse_ok(source);
    assert_eq!(program.items.len(), 5);
    let Item::TypeAlias(pair) = &program.items[0] else {
        panic!()
    };
    assert_eq!(pair.name.name, "Pair");
    let TypeExpr::Record { fields, .. } = &pair.ty else {
        panic!()
    };
    assert_eq!(
        fields
            .iter()
            .map(|f| f.name.name.as_str())
            .collect::<Vec<_>>(),
        ["first", "second"]
    );
    let Item::TypeAlias(grid) = &program.items[1] else {
        panic!()
    };
    let TypeExpr::Array { elem, dims, .. } = &grid.ty else {
        panic!()
    };
    assert!(matches!(&**elem, TypeExpr::Named { name } if name.name == "Float32"));
    assert_eq!(dims.iter().map(sx).collect::<Vec<_>>(), ["rows", "cols"]);
    let Item::Func(sqr) = &program.items[2] else {
        panic!()
    };
    assert!(matches!(&sqr.ret, Some(TypeExpr::Named { name }) if name.name == "Float32"));
    let Item::Func(no_result) = &program.items[3] else {
        panic!()
    };
    assert!(no_result.ret.is_none());
    assert_eq!(no_result.params.len(), 1);
    assert!(matches!(
        &no_result.body.stmts[..],
        [Stmt::Return { value: None, .. }]
    ));
    let Item::Kernel(kernel) = &program.items[4] else {
        panic!()
    };
    let block_size = kernel
        .block_size
        .as_ref()
        .map(|b| (b.value, text(source, b.span)));
    assert_eq!(block_size, Some((128, "@blocksize(128)")));
    let TypeExpr::Array { elem, dims, .. } = &kernel.params[2].ty else {
        panic!()
    };
    assert!(matches!(&**elem, TypeExpr::Record { .. }));
    assert_eq!(sx(&dims[0]), "(* n 2)");
    assert!(matches!(&kernel.params[3].ty, TypeExpr::Array { dims, .. } if dims.is_empty()));
}

#[test]
fn empty_files() {
    assert!(parse_ok("").items.is_empty());
    assert!(parse_ok("\n\n-- only a comment\n   \n").items.is_empty());
    assert!(parse_ok("-- no newline").items.is_empty());
}

// ------------------------------------------------------------------------------------------------
// Statements

#[test]
fn let_and_shared() {
    let program = kernel_body(
        "  x: Int32 <- 1\n  shared t: Float32[] <- in[current]\n  shared s: Float32[BLOCKSIZE]\n",
    );
    match body(&program) {
        [Stmt::Let {
            shared: false,
            init: Some(_),
            ..
        }, Stmt::Let {
            shared: true,
            init: Some(_),
            ..
        }, Stmt::Let {
            name,
            shared: true,
            init: None,
            ..
        }] => {
            assert_eq!(name.name, "s")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn assignment_targets() {
    let program =
        kernel_body("  out[[current]] <- in[[previous]]\n  a[i, j] <- 1\n  p.first <- 2\n");
    let targets: Vec<String> = body(&program)
        .iter()
        .map(|s| match s {
            Stmt::Assign { target, .. } => sx(target),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(targets, ["out[[current]]", "a[i, j]", "p.first"]);
}

#[test]
fn loops_and_return() {
    let program = kernel_body(
        "  for i: Int32 <- range(0, 10)\n    x <- i\n    while x > 0\n      x <- x - 1\n  return\n",
    );
    match body(&program) {
        [Stmt::For {
            var, range, body, ..
        }, Stmt::Return { value: None, .. }] => {
            assert_eq!(var.name, "i");
            assert_eq!(sx(range), "range(0, 10)");
            assert!(matches!(
                &body.stmts[..],
                [Stmt::Assign { .. }, Stmt::While { .. }]
            ));
        }
        other => panic!("{other:?}"),
    }
    let func = parse_ok("func f(x: Int32): Int32\n  return x + 1\n");
    assert!(matches!(body(&func), [Stmt::Return { value: Some(_), .. }]));
}

/// The then and else blocks of an `if`, as lists of statement kinds.
fn if_shape(stmt: &Stmt) -> (String, Vec<&'static str>, Option<Vec<&'static str>>) {
    fn kinds(block: &Block) -> Vec<&'static str> {
        block
            .stmts
            .iter()
            .map(|s| match s {
                Stmt::Let { .. } => "let",
                Stmt::Assign { .. } => "assign",
                Stmt::If { .. } => "if",
                Stmt::For { .. } => "for",
                Stmt::While { .. } => "while",
                Stmt::Return { .. } => "return",
                Stmt::Call { .. } => "call",
            })
            .collect()
    }
    match stmt {
        Stmt::If {
            cond,
            then_branch,
            else_branch,
            ..
        } => (
            sx(cond),
            kinds(then_branch),
            else_branch.as_ref().map(kinds),
        ),
        other => panic!("not an if: {other:?}"),
    }
}

#[test]
fn one_line_if() {
    let program =
        kernel_body("  if a then x <- 1\n  if a then x <- 1 else return\n  if a then if b then x <- 1 else y <- 2\n");
    let stmts = body(&program);
    assert_eq!(stmts.len(), 3);
    assert_eq!(if_shape(&stmts[0]), ("a".to_string(), vec!["assign"], None));
    assert_eq!(
        if_shape(&stmts[1]),
        ("a".to_string(), vec!["assign"], Some(vec!["return"]))
    );
    // A dangling `else` on one line belongs to the innermost `if`.
    assert_eq!(if_shape(&stmts[2]), ("a".to_string(), vec!["if"], None));
    let Stmt::If { then_branch, .. } = &stmts[2] else {
        panic!()
    };
    assert_eq!(
        if_shape(&then_branch.stmts[0]),
        ("b".to_string(), vec!["assign"], Some(vec!["assign"]))
    );
}

#[test]
fn shift_left1_nested_then_for() {
    let source = "\
kernel shiftLeft1(in: Float32[THREADS], out: Float32[THREADS])
  if B > 0
    then for i: Int32 <- range(B * BLOCKSIZE, (B + 1) * BLOCKSIZE)
           out[i] <- in[i - BLOCKSIZE]
    else for i: Int32 <- range(B * BLOCKSIZE, (B + 1) * BLOCKSIZE)
           out[i] <- 0
";
    let program = parse_ok(source);
    let stmts = body(&program);
    assert_eq!(stmts.len(), 1);
    assert_eq!(
        if_shape(&stmts[0]),
        ("(> B 0)".to_string(), vec!["for"], Some(vec!["for"]))
    );
    let Stmt::If {
        then_branch,
        else_branch: Some(else_branch),
        span,
        ..
    } = &stmts[0]
    else {
        panic!()
    };
    let Stmt::For {
        body: then_body, ..
    } = &then_branch.stmts[0]
    else {
        panic!()
    };
    let Stmt::Assign { value, .. } = &then_body.stmts[0] else {
        panic!()
    };
    assert_eq!(sx(value), "in[(- i BLOCKSIZE)]");
    let Stmt::For {
        body: else_body, ..
    } = &else_branch.stmts[0]
    else {
        panic!()
    };
    let Stmt::Assign { value, .. } = &else_body.stmts[0] else {
        panic!()
    };
    assert_eq!(sx(value), "0");
    assert!(text(source, *span).starts_with("if B > 0"));
    assert!(text(source, *span).ends_with("out[i] <- 0"));
}

#[test]
fn clause_form_with_blocks() {
    let program = kernel_body(
        "  if c\n    then\n      x <- 1\n      y <- 2\n    else\n      z <- 3\n  w <- 4\n",
    );
    let stmts = body(&program);
    assert_eq!(stmts.len(), 2);
    assert_eq!(
        if_shape(&stmts[0]),
        (
            "c".to_string(),
            vec!["assign", "assign"],
            Some(vec!["assign"])
        )
    );
    // A `then` clause without an `else`.
    let program = kernel_body("  if c\n    then x <- 1\n  w <- 4\n");
    assert_eq!(
        if_shape(&body(&program)[0]),
        ("c".to_string(), vec!["assign"], None)
    );
}

#[test]
fn block_form_with_else_at_if_column() {
    let program = kernel_body("  if c\n    x <- 1\n  else\n    y <- 2\n    z <- 3\n");
    let stmts = body(&program);
    assert_eq!(stmts.len(), 1);
    assert_eq!(
        if_shape(&stmts[0]),
        (
            "c".to_string(),
            vec!["assign"],
            Some(vec!["assign", "assign"])
        )
    );
    // `if c then` with an indented block.
    let program = kernel_body("  if c then\n    x <- 1\n  else y <- 2\n");
    assert_eq!(
        if_shape(&body(&program)[0]),
        ("c".to_string(), vec!["assign"], Some(vec!["assign"]))
    );
}

#[test]
fn else_if_chains() {
    let program =
        kernel_body("  if a\n    x <- 1\n  else if b\n    x <- 2\n  else if c\n    x <- 3\n  else\n    x <- 4\n");
    let stmts = body(&program);
    assert_eq!(stmts.len(), 1);
    assert_eq!(
        if_shape(&stmts[0]),
        ("a".to_string(), vec!["assign"], Some(vec!["if"]))
    );
    let Stmt::If {
        else_branch: Some(e1),
        ..
    } = &stmts[0]
    else {
        panic!()
    };
    assert_eq!(
        if_shape(&e1.stmts[0]),
        ("b".to_string(), vec!["assign"], Some(vec!["if"]))
    );
    let Stmt::If {
        else_branch: Some(e2),
        ..
    } = &e1.stmts[0]
    else {
        panic!()
    };
    assert_eq!(
        if_shape(&e2.stmts[0]),
        ("c".to_string(), vec!["assign"], Some(vec!["assign"]))
    );

    // In the clause form, too.
    let program = kernel_body(
        "  if a\n    then x <- 1\n    else if b\n      then x <- 2\n      else x <- 3\n",
    );
    let stmts = body(&program);
    assert_eq!(
        if_shape(&stmts[0]),
        ("a".to_string(), vec!["assign"], Some(vec!["if"]))
    );
    // One line.
    let program = kernel_body("  if a then x <- 1 else if b then x <- 2 else x <- 3\n");
    assert_eq!(
        if_shape(&body(&program)[0]),
        ("a".to_string(), vec!["assign"], Some(vec!["if"]))
    );
}

#[test]
fn else_lines_up_with_then_not_with_an_inner_if() {
    // The `else` belongs to the outer `if`: it lines up with the outer `then`.
    let program = kernel_body("  if a\n    then if b\n           x <- 1\n    else y <- 2\n");
    let stmts = body(&program);
    assert_eq!(
        if_shape(&stmts[0]),
        ("a".to_string(), vec!["if"], Some(vec!["assign"]))
    );
    let Stmt::If { then_branch, .. } = &stmts[0] else {
        panic!()
    };
    assert_eq!(
        if_shape(&then_branch.stmts[0]),
        ("b".to_string(), vec!["assign"], None)
    );
    let program = kernel_body("  if a\n    then if b then x <- 1\n    else y <- 2\n");
    assert_eq!(
        if_shape(&body(&program)[0]),
        ("a".to_string(), vec!["if"], Some(vec!["assign"]))
    );
}

#[test]
fn comments_blank_lines_crlf_and_no_trailing_newline() {
    let source = "-- header\n\nkernel k() -- trailing\n\n  -- inside\n  x <- 1 -- note\n\n     -- odd indent comment\n  if x > 0 -- c\n\n    -- c\n    then y <- 2 -- c\n    -- c\n    else y <- 3\n-- between\n\nfunc f(): Int32\n  return 1";
    let program = parse_ok(source);
    assert_eq!(program.items.len(), 2);
    assert_eq!(body(&program).len(), 2);
    let crlf = source.replace('\n', "\r\n");
    let program = parse_ok(&crlf);
    assert_eq!(program.items.len(), 2);
    let Item::Func(f) = &program.items[1] else {
        panic!()
    };
    assert_eq!(text(&crlf, f.span), "func f(): Int32\r\n  return 1");
    let Stmt::Assign { span, .. } = &body(&program)[0] else {
        panic!()
    };
    assert_eq!(text(&crlf, *span), "x <- 1");
    // Trailing spaces and a final comment without a newline.
    parse_ok("kernel k()\n  x <- 1   \n  \n-- end");
    parse_ok("kernel k()\n  x <- 1\n  -- end");
}

#[test]
fn any_consistent_indentation() {
    let program = parse_ok(
        "kernel k()\n      x <- 1\n      for i: Int32 <- r\n       y <- 2\n      z <- 3\n",
    );
    assert_eq!(body(&program).len(), 3);
}

// ------------------------------------------------------------------------------------------------
// Errors

#[test]
fn layout_errors() {
    assert_eq!(codes("kernel k()\n\tx <- 1\n"), vec!["E0002"]);
    assert_eq!(codes("kernel k()\n  x <- 1\t+ 2\n"), vec!["E0002"]);
    assert_eq!(codes("kernel k()\n  x <- 1 $ 2;\n"), vec!["E0003", "E0003"]);
    assert_eq!(codes("kernel k()\n  x <- @foo\n"), vec!["E0003"]);
    assert_eq!(codes("kernel k()\n  x <- \"s\"\n"), vec!["E0003", "E0003"]);
    assert_eq!(codes("kernel k()\n  x <- é\n"), vec!["E0003"]);
}

#[test]
fn comments_may_hold_any_character() {
    parse_ok("kernel k()\n  x <- 1 -- $ é \t @ ; \" fine in a comment\n");
}

#[test]
fn delimiter_errors() {
    let diagnostics = parse_err("kernel k()\n  x <- f(1, (2 + 3)\n  y <- a[[1\n  z <- {a: 1\n");
    assert_eq!(
        diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(),
        vec!["E0004", "E0004", "E0004"]
    );
    assert!(diagnostics
        .iter()
        .all(|d| d.message.starts_with("unclosed")));
    assert_eq!(diagnostics[1].message, "unclosed `[[`");
    assert_eq!(codes("kernel k()\n  x <- (a))\n"), vec!["E0005"]);
    assert_eq!(codes("kernel k()\n  x <- (a]\n"), vec!["E0005"]);
}

#[test]
fn indentation_errors() {
    assert_eq!(codes("kernel k()\n  x <- 1\n    y <- 2\n"), vec!["E0006"]);
    assert_eq!(codes("  kernel k()\n    y <- 2\n"), vec!["E0006"]);
    assert_eq!(
        codes("kernel k()\n  if c\n      x <- 1\n    y <- 2\n"),
        vec!["E0007"]
    );
    assert_eq!(codes("kernel k()\nkernel j()\n  return\n"), vec!["E0008"]);
    assert_eq!(codes("kernel k()\n  for i: Int32 <- r\n"), vec!["E0008"]);
    assert_eq!(codes("kernel k()\n  if c\n  x <- 1\n"), vec!["E0008"]);
    assert_eq!(codes("kernel k()\n  if c then\n"), vec!["E0008"]);
    assert_eq!(codes("kernel k()"), vec!["E0008"]);
}

#[test]
fn misplaced_then_else() {
    assert_eq!(
        codes("kernel k()\n  x <- 1\n  else x <- 2\n"),
        vec!["E0009"]
    );
    assert_eq!(codes("kernel k()\n  x <- 1 else x <- 2\n"), vec!["E0009"]);
    assert_eq!(codes("kernel k()\n  then x <- 2\n"), vec!["E0009"]);
    // An `else` under the `if` after `then` clauses must line up with the `then`.
    assert_eq!(
        codes("kernel k()\n  if c\n    then x <- 1\n  else x <- 2\n"),
        vec!["E0009"]
    );
}

#[test]
fn unexpected_tokens_read_well() {
    let d = parse_err("kernel k()\n  x: Int32 5\n");
    assert_eq!(d[0].code, "E0001");
    assert!(d[0].message.contains("expected `<-`"), "{}", d[0].message);
    let d = parse_err("kernel k()\n  x = 1\n");
    assert!(d[0].help.as_deref().unwrap_or("").contains("<-"));
    let d = parse_err("kernel k()\n  x <- \n  y <- 1\n");
    assert_eq!(d[0].message, "expected an expression, found end of line");
    let d = parse_err("kernel k()\n  x: 5 <- 1\n");
    assert_eq!(d[0].message, "expected a type, found `5`");
    let d = parse_err("kernel k(a Int32)\n  return\n");
    assert!(d[0].message.contains("expected `:`"), "{}", d[0].message);
    let d = parse_err("kernel k()\n  return\nx <- 1\n");
    assert!(
        d[0].message.contains("`kernel`, `func` or `type`"),
        "{}",
        d[0].message
    );
    for source in [
        "kernel k()\n  x <- if\n",
        "kernel k()\n  x <- a +\n",
        "kernel k(\n",
    ] {
        for d in parse_err(source) {
            assert!(!d.message.contains('_'), "rule name leaked: {}", d.message);
        }
    }
}

#[test]
fn reserved_words() {
    assert_eq!(codes("kernel for(a: Int32)\n  return\n"), vec!["E0014"]);
    assert_eq!(codes("kernel k(then: Int32)\n  return\n"), vec!["E0014"]);
    assert_eq!(codes("kernel k()\n  x: Int32 <- if\n"), vec!["E0014"]);
    assert_eq!(
        codes("func f(x: Int32, return: Int32)\n  return\n"),
        vec!["E0014"]
    );
}

#[test]
fn block_size_attribute() {
    assert_eq!(
        codes("@blocksize(1.5)\nkernel k()\n  return\n"),
        vec!["E0016"]
    );
    assert_eq!(
        codes("@blocksize(0)\nkernel k()\n  return\n"),
        vec!["E0016"]
    );
    assert_eq!(
        codes("@blocksize(128)\nfunc f()\n  return\n"),
        vec!["E0001"]
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let within = format!(
        "kernel k()\n  x <- {}1{}\n",
        "(".repeat(100),
        ")".repeat(100)
    );
    parse_ok(&within);
    let deep = format!(
        "kernel k()\n  x <- {}1{}\n",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    assert_eq!(codes(&deep), vec!["E0013"]);
    let negations = format!("kernel k()\n  x <- {}1\n", "- ".repeat(5000));
    assert_eq!(codes(&negations), vec!["E0013"]);
    let nots = format!("kernel k()\n  x <- {}a\n", "not ".repeat(5000));
    assert_eq!(codes(&nots), vec!["E0013"]);
    let maps = format!("kernel k()\n  x <- {}v\n", "f /~ ".repeat(5000));
    assert_eq!(codes(&maps), vec!["E0013"]);
    let ifs = format!("kernel k()\n  {}x <- 1\n", "if a then ".repeat(5000));
    assert_eq!(codes(&ifs), vec!["E0013"]);
    let mut blocks = String::from("kernel k()\n");
    for depth in 1..200 {
        blocks.push_str(&" ".repeat(depth));
        blocks.push_str("while a\n");
    }
    blocks.push_str(&" ".repeat(200));
    blocks.push_str("x <- 1\n");
    assert!(codes(&blocks).contains(&"E0013"));
    // Long flat expressions are fine.
    let flat = format!("kernel k()\n  x <- 1{}\n", " + 1".repeat(5000));
    parse_ok(&flat);
}

#[test]
fn every_code_has_a_unit_test_case() {
    // Each code in CODES is produced by at least one of these inputs.
    let cases = [
        "kernel k()\n  x: Int32 5\n",
        "kernel k()\n\tx <- 1\n",
        "kernel k()\n  x <- $\n",
        "kernel k()\n  x <- (1\n",
        "kernel k()\n  x <- 1)\n",
        "kernel k()\n  x <- 1\n    y <- 2\n",
        "kernel k()\n  if c\n      x <- 1\n    y <- 2\n",
        "kernel k()\n",
        "kernel k()\n  else x <- 1\n",
        "kernel k()\n  x <- a < b < c\n",
        "kernel k()\n  x <- 0x\n",
        "kernel k()\n  x <- 999999999999999999999999999999999999999999\n",
        &format!("kernel k()\n  x <- {}1\n", "(".repeat(1000)),
        "kernel for()\n  return\n",
        "kernel k()\n  x <- a + f /~ v\n",
        "@blocksize(0)\nkernel k()\n  return\n",
    ];
    let seen: Vec<&str> = cases.iter().flat_map(|c| codes(c)).collect();
    for code in CODES {
        assert!(seen.contains(code), "no case produces {code}");
    }
}

#[test]
fn nesting_up_to_the_limit_fits_on_a_test_thread_stack() {
    // Test threads have 2 MiB of stack, less than a CLI's main thread.
    let n = layout::MAX_EXPR_DEPTH - 1;
    for (open, close) in [
        ("(", ")"),
        ("f(", ")"),
        ("a[", "]"),
        ("a[[", "]]"),
        ("{x: ", "}"),
        ("[1, ", "]"),
        ("g(1) /~ ", ""),
    ] {
        let source = format!(
            "kernel k()\n  x <- {}1{}\n",
            open.repeat(n),
            close.repeat(n)
        );
        assert!(parse(FILE, &source, 0).is_ok(), "{open}");
    }
    let mixed = format!(
        "kernel k()\n  x <- {}1{}\n",
        "-f(not a[[~".repeat(n / 5),
        "]])".repeat(n / 5)
    );
    assert!(parse(FILE, &mixed, 0).is_ok());
}

/// A call on its own line is a statement (the atomics); a line that starts with a call and goes
/// on with `<-` stays an assignment; a call after `then` or `else` is a statement too.
#[test]
fn call_statements() {
    let program = kernel_body(
        "  atomic_add(hist[[v]], 1)\n  f(x)[0] <- 2\n  if c then atomic_max(m[0], x) else atomic_min(m[0], x)",
    );
    let stmts = body(&program);
    let [Stmt::Call { call, .. }, Stmt::Assign { .. }, if_stmt] = stmts else {
        panic!("{stmts:?}")
    };
    assert_eq!(sx(call), "atomic_add(hist[[v]], 1)");
    let (_, then_kinds, else_kinds) = if_shape(if_stmt);
    assert_eq!(then_kinds, ["call"]);
    assert_eq!(else_kinds, Some(vec!["call"]));
    // Anything after the call on its line is an error, not a statement of its own.
    assert_eq!(codes("kernel k()\n  atomic_add(h[0], 1) + 2\n"), ["E0001"]);
}
