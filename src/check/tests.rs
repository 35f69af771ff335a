//! The checker on its own: every UI case under `tests/ui/check` and `tests/ui/ok` must produce
//! exactly its annotated check diagnostics (the UI suite runs the whole pipeline; this runs only
//! parse and check, so it holds while later stages change), plus direct tests of the facts that
//! code generation reads.

use super::types::{Len, Scalar, Space, Ty};
use super::{check, Builtin, Callee, CheckOptions, Checked, STDLIB};
use crate::diagnostics::{Diagnostic, Severity};
use crate::syntax::ast::{ExprKind, Item, Stmt};
use crate::syntax::parse;
use crate::syntax::span::FileId;
use std::path::Path;

/// Parses `source` and the standard library as the driver does, and checks them.
fn check_source(source: &str, block_size: u32) -> (Checked, Vec<Diagnostic>) {
    let mut program = match parse(FileId(0), source, 0) {
        Ok(p) => p,
        Err(d) => panic!("does not parse: {d:#?}"),
    };
    for (i, (path, lib)) in STDLIB.iter().enumerate() {
        let library = match parse(FileId(1 + i as u32), lib, program.expr_count) {
            Ok(p) => p,
            Err(d) => panic!("{path} does not parse: {d:#?}"),
        };
        program.append_library(library);
    }
    check(program, &CheckOptions { block_size })
}

fn line_of(source: &str, offset: u32) -> usize {
    source
        .get(..offset as usize)
        .map_or(0, |s| s.matches('\n').count())
        + 1
}

/// `(line, severity, code, substring)` from `--~` annotations, as `tests/ui.rs` reads them.
fn expectations(source: &str) -> Vec<(usize, Severity, Option<String>, String)> {
    let mut out = Vec::new();
    for (index, text) in source.lines().enumerate() {
        let Some(at) = text.find("--~") else { continue };
        let rest = &text[at + 3..];
        let carets = rest.chars().take_while(|c| *c == '^').count();
        let rest = rest[carets..].trim();
        let (severity, rest) = match rest.strip_prefix("ERROR") {
            Some(r) => (Severity::Error, r.trim()),
            None => (
                Severity::Warning,
                rest.strip_prefix("WARNING").unwrap_or(rest).trim(),
            ),
        };
        let (first, tail) = rest.split_once(' ').unwrap_or((rest, ""));
        let is_code = first.len() == 5 && (first.starts_with('E') || first.starts_with('W'));
        let (code, substring) = if is_code {
            (Some(first.to_string()), tail.trim())
        } else {
            (None, rest)
        };
        out.push((index + 1 - carets, severity, code, substring.to_string()));
    }
    out
}

/// The `-- BLOCK-SIZE: N` directive of a UI case (docs/testing.md, "File tests"; the UI runner,
/// tests/ui.rs, reads the same header through tests/support/header.rs).
fn block_size_directive(source: &str) -> u32 {
    source
        .lines()
        .find_map(|l| {
            l.strip_prefix("-- BLOCK-SIZE:")
                .and_then(|v| v.trim().parse().ok())
        })
        .unwrap_or(256)
}

fn run_dir(dir: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut failures = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(&root)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    paths.sort();
    for path in paths
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "loom"))
    {
        let source = std::fs::read_to_string(path).unwrap_or_default();
        let parsed =
            std::panic::catch_unwind(|| check_source(&source, block_size_directive(&source)));
        let Ok((_, diagnostics)) = parsed else {
            failures.push(format!("{}: does not parse", path.display()));
            continue;
        };
        let mut expected = expectations(&source);
        let mut problems = Vec::new();
        for d in &diagnostics {
            let Some(span) = d.primary_span() else {
                problems.push(format!("no primary label: [{}] {}", d.code, d.message));
                continue;
            };
            if span.file != FileId(0) {
                problems.push(format!("outside the file: [{}] {}", d.code, d.message));
                continue;
            }
            let line = line_of(&source, span.start);
            let hit = expected.iter().position(|(l, sev, code, sub)| {
                *l == line
                    && *sev == d.severity
                    && code.as_deref().is_none_or(|c| c == d.code)
                    && d.message.contains(sub.as_str())
            });
            match hit {
                Some(i) => {
                    expected.remove(i);
                }
                None => problems.push(format!(
                    "unexpected on line {line}: [{}] {}",
                    d.code, d.message
                )),
            }
        }
        for (line, _, code, sub) in expected {
            problems.push(format!("expected on line {line}: {code:?} {sub}"));
        }
        if !problems.is_empty() {
            failures.push(format!(
                "{}:\n    {}",
                path.display(),
                problems.join("\n    ")
            ));
        }
    }
    failures
}

#[test]
fn ui_cases_check_as_annotated() {
    let mut failures = run_dir("tests/ui/check");
    failures.extend(run_dir("tests/ui/ok"));
    assert!(
        failures.is_empty(),
        "{} files failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_check_code_has_a_case() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui/check");
    let mut all = String::new();
    for entry in std::fs::read_dir(root).into_iter().flatten().flatten() {
        all.push_str(&std::fs::read_to_string(entry.path()).unwrap_or_default());
    }
    let missing: Vec<&&str> = super::CODES
        .iter()
        .filter(|c| !all.contains(&format!(" {c}")))
        .collect();
    assert!(missing.is_empty(), "codes without a case: {missing:?}");
}

/// A compile checks only the library funcs the program calls; this checks every body of it,
/// so that a mistake in one no program calls is still found.
#[test]
fn the_whole_standard_library_checks() {
    let mut program = match parse(FileId(0), "", 0) {
        Ok(p) => p,
        Err(d) => panic!("does not parse: {d:#?}"),
    };
    for (i, (path, lib)) in STDLIB.iter().enumerate() {
        match parse(FileId(1 + i as u32), lib, program.expr_count) {
            Ok(library) => program.append_library(library),
            Err(d) => panic!("{path} does not parse: {d:#?}"),
        }
    }
    let (checked, diagnostics) =
        super::check_library(program, &CheckOptions { block_size: 256 }, false);
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
    assert!(checked.program.items.len() >= 24);
    // Every library body was checked: its expressions have types.
    assert!(
        checked.expr_types.iter().all(|t| *t != Ty::Error),
        "some library expression was never checked"
    );
}

/// A compile checks the library funcs the program calls, through collectives and other library
/// funcs too, and no others.
#[test]
fn only_the_library_funcs_a_program_calls_are_checked() {
    let source = "kernel k(x: Float32[THREADS], o: Float32[BLOCKS])\n  o[B] <- sum /. (sqrt /~ x[block(B)])\n";
    let (checked, diagnostics) = check_source(source, 256);
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
    let library_start = checked.program.library_start;
    let checked_funcs: Vec<&str> = checked.program.items[library_start..]
        .iter()
        .filter_map(|item| match item {
            Item::Func(f) => {
                let first = f.body.stmts.first()?;
                let checked = match first {
                    Stmt::Return { value: Some(v), .. } => *checked.ty(v.id) != Ty::Error,
                    _ => true,
                };
                checked.then_some(f.name.name.as_str())
            }
            _ => None,
        })
        .collect();
    assert!(checked_funcs.contains(&"sum"), "{checked_funcs:?}");
    assert!(checked_funcs.contains(&"sqrt"), "{checked_funcs:?}");
    assert!(!checked_funcs.contains(&"cos"), "{checked_funcs:?}");
}

#[test]
fn sum_of_squares_facts() {
    let source = "func sqr(x: Float32): Float32\n  return x * x\n\nkernel sumOfSquares(in: Float32[THREADS], out: Float32[BLOCKS])\n  current: Range <- block(B)\n  shared t: Float32[] <- in[current]\n  out[B] <- sum /. (sqr /~ t)\n";
    let (checked, diagnostics) = check_source(source, 128);
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
    assert_eq!(checked.kernels.len(), 1);
    assert_eq!(checked.kernels[0].block_size, 128);
    let Some(Item::Kernel(kernel)) = checked.program.items.get(1) else {
        panic!("no kernel")
    };
    // `shared t: Float32[] <- in[current]`: the slice is a vector of BLOCKSIZE elements.
    let Stmt::Let {
        init: Some(init), ..
    } = &kernel.body.stmts[1]
    else {
        panic!("not a let")
    };
    assert_eq!(
        *checked.ty(init.id),
        Ty::vector(Ty::Scalar(Scalar::Float32), Len::Static(128))
    );
    let Stmt::Assign { value, .. } = &kernel.body.stmts[2] else {
        panic!("not an assign")
    };
    assert_eq!(*checked.ty(value.id), Ty::Scalar(Scalar::Float32));
    let ExprKind::Collective { operand, .. } = &value.kind else {
        panic!("not a collective")
    };
    // The reduce resolves to the stdlib's Float32 `sum`, the map to the user's `sqr`.
    let Some(Callee::Func(sum)) = checked.callees.get(&value.id) else {
        panic!("no callee")
    };
    assert_eq!(checked.program.items[*sum].name().name, "sum");
    assert_eq!(checked.callees.get(&operand.id), Some(&Callee::Func(0)));
    let ExprKind::Collective { operand: t, .. } = &operand.kind else {
        panic!("not a map")
    };
    assert_eq!(
        *checked.ty(t.id),
        Ty::Array {
            elem: Box::new(Ty::Scalar(Scalar::Float32)),
            dims: vec![Len::Static(128)],
            space: Space::Shared
        }
    );
    let Stmt::Let {
        init: Some(block), ..
    } = &kernel.body.stmts[0]
    else {
        panic!("not a let")
    };
    assert_eq!(
        checked.callees.get(&block.id),
        Some(&Callee::Builtin(Builtin::Block))
    );
}

#[test]
fn literals_take_their_type_from_context() {
    let source =
        "kernel k(out: Float32[THREADS], n: Int64[BLOCKS])\n  out[B] <- 0\n  n[B] <- 1 + 2\n";
    let (checked, diagnostics) = check_source(source, 256);
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
    let Some(Item::Kernel(kernel)) = checked.program.items.first() else {
        panic!("no kernel")
    };
    let Stmt::Assign { value, .. } = &kernel.body.stmts[0] else {
        panic!()
    };
    assert_eq!(*checked.ty(value.id), Ty::Scalar(Scalar::Float32));
    let Stmt::Assign { value, .. } = &kernel.body.stmts[1] else {
        panic!()
    };
    assert_eq!(*checked.ty(value.id), Ty::Scalar(Scalar::Int64));
}

#[test]
fn every_expression_has_a_type_slot() {
    let (checked, _) = check_source("kernel k(out: Int32[BLOCKS])\n  out[B] <- nope + 1\n", 256);
    assert_eq!(
        checked.expr_types.len(),
        checked.program.expr_count as usize
    );
}

/// The checker never panics: every UI case with one line dropped, or with two adjacent lines
/// swapped, is checked (when it still parses) without a panic.
#[test]
fn no_panic_on_mutated_cases() {
    let mut sources = Vec::new();
    for dir in ["tests/ui/check", "tests/ui/ok"] {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        for entry in std::fs::read_dir(root).into_iter().flatten().flatten() {
            sources.push(std::fs::read_to_string(entry.path()).unwrap_or_default());
        }
    }
    sources.push(
        STDLIB
            .iter()
            .map(|(_, s)| *s)
            .collect::<Vec<_>>()
            .join("\n"),
    );
    let mut checked = 0;
    for source in &sources {
        let lines: Vec<&str> = source.lines().collect();
        for k in 0..lines.len() {
            let mut dropped = lines.clone();
            dropped.remove(k);
            let mut swapped = lines.clone();
            if k + 1 < lines.len() {
                swapped.swap(k, k + 1);
            }
            for variant in [dropped.join("\n") + "\n", swapped.join("\n") + "\n"] {
                if let Ok(mut program) = parse(FileId(0), &variant, 0) {
                    for (i, (_, lib)) in STDLIB.iter().enumerate() {
                        if let Ok(library) = parse(FileId(1 + i as u32), lib, program.expr_count) {
                            program.items.extend(library.items);
                            program.expr_count = library.expr_count;
                        }
                    }
                    for block_size in [256, 100] {
                        let result = std::panic::catch_unwind(|| {
                            check(program.clone(), &CheckOptions { block_size })
                        });
                        assert!(result.is_ok(), "the checker panicked on:\n{variant}");
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} variants parsed");
}

#[test]
fn record_parameters_have_the_c_layout() {
    use super::types::{c_layout, RecordField, RecordTable, Scalar, Ty};
    let mut records = RecordTable::default();
    let field = |name: &str, ty: Ty| RecordField {
        name: name.to_string(),
        ty,
    };
    let inner = records.intern(vec![
        field("v", Ty::Scalar(Scalar::Float64)),
        field("c", Ty::Scalar(Scalar::Int8)),
    ]);
    let outer = records.intern(vec![
        field("a", Ty::Scalar(Scalar::Bool)),
        field("inner", Ty::Record(inner)),
        field("h", Ty::Scalar(Scalar::Float16)),
        field("r", Ty::Range),
    ]);
    let layout = c_layout(&Ty::Record(outer), &records).unwrap();
    assert_eq!((layout.size, layout.align), (40, 8));
    let offsets: Vec<(&str, u64)> = layout
        .fields
        .iter()
        .map(|(name, _, offset)| (name.as_str(), *offset))
        .collect();
    assert_eq!(
        offsets,
        [
            ("a", 0),
            ("inner.v", 8),
            ("inner.c", 16),
            ("h", 24),
            ("r.start", 28),
            ("r.end", 32)
        ]
    );
    let range = c_layout(&Ty::Range, &records).unwrap();
    assert_eq!((range.size, range.align, range.fields.len()), (8, 4, 2));
    assert!(c_layout(&Ty::Unit, &records).is_none());
}
