//! The kernel verifier on loomc's own output: a mutation test, one named test per program and
//! optimisation level (`examples/`, the canonical programs of `tests/ui/ok/`, and
//! `tests/codegen/`, at -O0 and -O3).
//!
//! 1. The program compiles (one that no longer does fails) and the verifier finds nothing (no
//!    false alarm).
//! 2. Each barrier that ships, removed from the optimised IR, makes the verifier report a race
//!    (E0851): the race that barrier was guarding against, since the program had none before.
//!    A barrier whose removal goes unnoticed is one loomc keeps although it orders nothing (a
//!    finding for code generation's barrier removal, which should have removed it) or one that
//!    guards something the verifier cannot see; either way it must be listed, with the reason,
//!    in `tests/verify/unnecessary_barriers.txt`, and a listed barrier that is now needed or gone
//!    fails the test too.
//! 3. Each barrier, put under `if (tid.x == 0)`, makes the verifier report a divergent barrier
//!    (E0850).
//!
//! The barriers LOOM's barrier-removal pass removes never reach the IR: that the final IR
//! verifies clean (1) is what checks each of those removals.
//!
//! `--nocapture` prints, per program, the barriers, races and divergences found (the figures of
//! docs/verifier.md).

#[path = "support/mutation.rs"]
mod mutation;
#[path = "support/mod.rs"]
mod support;

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use libtest_mimic::{Arguments, Failed, Trial};
use loomc::diagnostics::{Diagnostic, SourceFiles};
use loomc::driver::{Emit, Options};
use loomc::target::OptLevel;
use loomc::verify::{DATA_RACE, DIVERGENT_BARRIER};
use mutation::Mutation;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const LISTED: &str = "tests/verify/unnecessary_barriers.txt";
const KNOWN: &str = "tests/verify/known_findings.txt";

/// The findings `KNOWN` allows in one program's unmutated output: `(code, count)`.
fn known_findings(path: &Path, opt: u8) -> Result<Vec<(String, usize)>, String> {
    let text = std::fs::read_to_string(support::repo_root().join(KNOWN))
        .map_err(|e| format!("cannot read {KNOWN}: {e}"))?;
    let mut found = Vec::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let [file, level, code, count] = words.as_slice() else {
            return Err(format!("{KNOWN}: bad line `{line}`"));
        };
        if Path::new(file) == path.with_extension("") && *level == format!("-O{opt}") {
            let count = count
                .parse()
                .map_err(|_| format!("{KNOWN}: bad count in `{line}`"))?;
            found.push((code.to_string(), count));
        }
    }
    Ok(found)
}

fn main() {
    let args = Arguments::from_args();
    let mut programs = Vec::new();
    for dir in ["examples", "tests/ui/ok", "tests/codegen"] {
        programs.extend(
            support::files_with_extension(dir, "loom")
                .into_iter()
                .filter(|p| !p.starts_with("examples/host")),
        );
    }
    let mut trials = Vec::new();
    for program in programs {
        for opt in [0u8, 3] {
            let path = program.clone();
            let name = format!("{}/O{opt}", program.with_extension("").display());
            trials.push(Trial::test(name, move || run_case(&path, opt)));
        }
    }
    libtest_mimic::run(&args, trials).exit();
}

fn options(opt: u8) -> Options {
    Options {
        emit: vec![Emit::Llvm],
        opt: if opt == 0 { OptLevel::O0 } else { OptLevel::O3 },
        ..Options::default()
    }
}

/// Compiles at `-O{opt}` with `mutations` seeded before the verifier.
fn compile(
    path: &Path,
    source: &str,
    opt: u8,
    mutations: &[Mutation],
) -> (Option<String>, Vec<Diagnostic>) {
    let mut files = SourceFiles::default();
    let name = path.display().to_string();
    let compilation =
        mutation::compile_mutated(&mut files, &name, source, &options(opt), mutations);
    let ir = compilation.outputs.and_then(|outputs| {
        outputs
            .into_iter()
            .find(|(e, _)| *e == Emit::Llvm)
            .map(|(_, text)| text)
    });
    (ir, compilation.diagnostics)
}

fn codes(diagnostics: &[Diagnostic]) -> BTreeSet<&'static str> {
    diagnostics
        .iter()
        .filter(|d| d.is_error() || d.code.starts_with("E085"))
        .map(|d| d.code)
        .collect()
}

/// The errors other than the verifier's (E085x): a mutant with one did not reach the verifier.
fn not_the_verifiers(diagnostics: &[Diagnostic]) -> Vec<&'static str> {
    diagnostics
        .iter()
        .filter(|d| d.is_error() && !d.code.starts_with("E085"))
        .map(|d| d.code)
        .collect()
}

/// The barriers of `LISTED` for one program and level: `path -O3 index  # reason` lines.
fn listed(path: &Path, opt: u8) -> Result<BTreeSet<usize>, String> {
    let text = std::fs::read_to_string(support::repo_root().join(LISTED))
        .map_err(|e| format!("cannot read {LISTED}: {e}"))?;
    let mut found = BTreeSet::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let [file, level, index] = words.as_slice() else {
            return Err(format!("{LISTED}: bad line `{line}`"));
        };
        if Path::new(file) == path && *level == format!("-O{opt}") {
            found.insert(
                index
                    .parse()
                    .map_err(|_| format!("{LISTED}: bad index in `{line}`"))?,
            );
        }
    }
    Ok(found)
}

fn barrier_count(ir: &str) -> Result<usize, String> {
    let context = Context::create();
    let buffer = MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "ir");
    let module = context
        .create_module_from_ir(buffer)
        .map_err(|e| format!("cannot read loomc's IR back: {e}"))?;
    Ok(llvm_passes::mutate::count_barriers(&module))
}

fn run_case(path: &PathBuf, opt: u8) -> Result<(), Failed> {
    let source = std::fs::read_to_string(support::repo_root().join(path))?;
    let (ir, diagnostics) = compile(path, &source, opt, &[]);
    let verifier: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|d| d.code.starts_with("E085"))
        .collect();
    let known = known_findings(path, opt)?;
    let mut counts: Vec<(String, usize)> = Vec::new();
    for d in &verifier {
        match counts.iter_mut().find(|(c, _)| c == d.code) {
            Some((_, n)) => *n += 1,
            None => counts.push((d.code.to_string(), 1)),
        }
    }
    counts.sort();
    let mut expected = known.clone();
    expected.sort();
    if !known.is_empty() && counts != expected {
        return Err(format!(
            "{} -O{opt}: {KNOWN} lists {expected:?}, the verifier reports {counts:?}: {:?}",
            path.display(),
            verifier.iter().map(|d| &d.message).collect::<Vec<_>>()
        )
        .into());
    }
    if !verifier.is_empty() && known.is_empty() {
        return Err(format!(
            "{}: the verifier reports loomc's own output: {:?}",
            path.display(),
            verifier.iter().map(|d| &d.message).collect::<Vec<_>>()
        )
        .into());
    }
    let Some(ir) = ir else {
        // Every program here is one loomc must compile: one that no longer does has lost what
        // this test checks, and is a failure, not a pass.
        return Err(format!(
            "{} -O{opt} no longer compiles: {:?}",
            path.display(),
            diagnostics
                .iter()
                .map(|d| format!("{}: {}", d.code, d.message))
                .collect::<Vec<_>>()
        )
        .into());
    };
    let barriers = barrier_count(&ir)?;
    let mut problems = Vec::new();
    let mut unnecessary = BTreeSet::new();
    let mut races = 0;
    let mut divergences = 0;
    for index in 0..barriers {
        let (_, removed) = compile(path, &source, opt, &[Mutation::RemoveBarrier(index)]);
        let broken = not_the_verifiers(&removed);
        if !broken.is_empty() {
            problems.push(format!(
                "barrier {index} removed: the program no longer compiles ({broken:?})"
            ));
        } else if codes(&removed).contains(DATA_RACE) {
            races += 1;
        } else {
            unnecessary.insert(index);
        }
        let (_, guarded) = compile(path, &source, opt, &[Mutation::GuardBarrier(index)]);
        if codes(&guarded).contains(DIVERGENT_BARRIER) {
            divergences += 1;
        } else {
            problems.push(format!(
                "barrier {index} under `if (tid.x == 0)`: no divergent barrier reported ({:?})",
                codes(&guarded)
            ));
        }
    }
    let expected = listed(path, opt)?;
    for index in unnecessary.difference(&expected) {
        problems.push(format!(
            "barrier {index} removed from the IR, and the verifier finds no race: either loomc \
             keeps a barrier that orders nothing, or the verifier misses what it guards; list it \
             in {LISTED} with the reason once you know which"
        ));
    }
    for index in expected.difference(&unnecessary) {
        problems.push(format!(
            "{LISTED} lists barrier {index} as unnecessary, but removing it now gives a race (or \
             the program has fewer barriers): update the list"
        ));
    }
    println!(
        "{} -O{opt}: {barriers} barriers; removing each: {races} races reported, {} unnecessary; \
         guarding each: {divergences} divergent barriers reported",
        path.display(),
        unnecessary.len()
    );
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{} -O{opt}:\n  {}", path.display(), problems.join("\n  ")).into())
    }
}
