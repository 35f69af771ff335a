//! The `loomc` command line: exit statuses, outputs, standard input, diagnostic formats.

#[path = "support/mod.rs"]
mod support;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const SAXPY: &str = "\
kernel saxpy(n: Int32, a: Float32, x: Float32[n], y: Float32[n])
  i: Int32 <- B * BLOCKSIZE
  if i < n then y[i] <- a * x[i] + y[i]
";

/// Two independent errors: an unknown name and a mismatched type.
const TWO_ERRORS: &str = "\
kernel k(x: Float32[THREADS])
  a: Int32 <- undefined_name
  b: Int32 <- 1.5
";

fn loomc(args: &[&str], dir: &Path, stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_loomc"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("loomc starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    input
        .write_all(stdin.unwrap_or("").as_bytes())
        .expect("stdin takes the source");
    drop(input);
    child.wait_with_output().expect("loomc finishes")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn writes_ptx_beside_the_input_name_by_default() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("saxpy.loom"), SAXPY).unwrap();
    let output = loomc(&["saxpy.loom"], dir.path(), None);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let ptx = std::fs::read_to_string(dir.path().join("saxpy.ptx")).unwrap();
    assert!(ptx.contains(".entry saxpy"), "{ptx}");
    assert!(
        ptx.contains(".target sm_80"),
        "the default --arch is sm_80: {ptx}"
    );
    support::assemble(&ptx, "sm_80").unwrap();
}

#[test]
fn reads_standard_input_and_writes_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let output = loomc(
        &["-", "--emit=llvm", "--arch=sm_90"],
        dir.path(),
        Some(SAXPY),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let ir = String::from_utf8_lossy(&output.stdout);
    assert!(ir.contains("define") && ir.contains("@saxpy"), "{ir}");
    assert!(
        files_in(dir.path()).is_empty(),
        "nothing is written to disk"
    );
}

#[test]
fn several_emit_kinds_are_written_beside_the_output_path() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("k.loom"), SAXPY).unwrap();
    let output = loomc(
        &["k.loom", "--emit=llvm,ptx,ast", "-o", "build.ptx"],
        dir.path(),
        None,
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        files_in(dir.path()),
        ["build.ast.json", "build.ll", "build.ptx", "k.loom"]
    );
    let ll = std::fs::read_to_string(dir.path().join("build.ll")).unwrap();
    assert!(ll.contains("nvptx64-nvidia-cuda"), "{ll}");
}

#[test]
fn program_errors_exit_1_report_every_error_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.loom"), TWO_ERRORS).unwrap();
    let output = loomc(
        &["bad.loom", "-o", "bad.ptx", "--color=never"],
        dir.path(),
        None,
    );
    assert_eq!(output.status.code(), Some(1));
    let text = stderr(&output);
    assert!(text.contains("undefined_name"), "{text}");
    assert!(
        text.contains("bad.loom:2:"),
        "diagnostics name file and line: {text}"
    );
    assert!(
        text.contains("bad.loom:3:"),
        "the second, independent error is reported too: {text}"
    );
    assert!(text.contains("(2 errors)"), "{text}");
    assert_eq!(files_in(dir.path()), ["bad.loom"], "no partial output");
}

#[test]
fn json_diagnostics_carry_code_span_and_labels() {
    let dir = tempfile::tempdir().unwrap();
    let output = loomc(&["-", "--error-format=json"], dir.path(), Some(TWO_ERRORS));
    assert_eq!(output.status.code(), Some(1));
    let text = stderr(&output);
    let diagnostics: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(diagnostics.len(), 2, "{text}");
    for d in &diagnostics {
        assert!(
            d["code"].as_str().is_some_and(|c| c.starts_with('E')),
            "{d}"
        );
        assert_eq!(d["severity"], "error");
        let label = &d["labels"][0];
        assert_eq!(label["file"], "<stdin>");
        assert!(label["line"].as_u64().unwrap() >= 2, "{d}");
        assert!(label["start"].as_u64() < label["end"].as_u64(), "{d}");
    }
}

#[test]
fn usage_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["--emit=binary", "-"][..],
        &["-O7", "-"],
        &["--block-size=2048", "-"],
        &["--block-size=0", "-"],
        &[],
    ] {
        let output = loomc(args, dir.path(), Some(SAXPY));
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
    }
    let missing = loomc(&["does-not-exist.loom"], dir.path(), None);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("does-not-exist.loom"));
}

#[test]
fn an_unknown_arch_is_a_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    let output = loomc(&["-", "--arch=sm_1"], dir.path(), Some(SAXPY));
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(stderr(&output).contains("sm_1"), "{}", stderr(&output));
}

#[test]
fn every_optimisation_level_and_arch_gives_ptx_that_ptxas_accepts() {
    let dir = tempfile::tempdir().unwrap();
    for level in ["-O0", "-O1", "-O2", "-O3"] {
        for arch in support::PTXAS_ARCHS {
            let arch_flag = format!("--arch={arch}");
            let output = loomc(
                &["-", level, &arch_flag, "--emit=ptx"],
                dir.path(),
                Some(SAXPY),
            );
            assert_eq!(
                output.status.code(),
                Some(0),
                "{level} {arch}: {}",
                stderr(&output)
            );
            let ptx = String::from_utf8_lossy(&output.stdout);
            assert!(ptx.contains(".entry saxpy"), "{ptx}");
            support::assemble(&ptx, arch).unwrap_or_else(|e| panic!("{level}: {e}"));
        }
    }
}

#[test]
fn explain_prints_the_long_explanation_of_a_code() {
    let dir = tempfile::tempdir().unwrap();
    let output = loomc(&["explain", "E0300"], dir.path(), None);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.starts_with("# E0300"), "{text}");
    let unknown = loomc(&["explain", "E4242"], dir.path(), None);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        stderr(&unknown).contains("E0300"),
        "lists the codes that have explanations"
    );
}

#[test]
fn every_explanation_is_of_a_code_the_compiler_defines() {
    let defined: Vec<&str> = [
        loomc::syntax::CODES,
        loomc::check::CODES,
        loomc::codegen::CODES,
        loomc::target::CODES,
    ]
    .into_iter()
    .flatten()
    .copied()
    .collect();
    for code in loomc::diagnostics::explained_codes() {
        assert!(
            defined.contains(&code),
            "docs/errors/{code}.md explains no defined code"
        );
    }
}

#[test]
fn a_failed_compile_points_at_the_explanation() {
    let dir = tempfile::tempdir().unwrap();
    let source = "kernel k(x: Float32[THREADS])\n  if x[block(B)] > 0.0 then x[0] <- 1.0\n";
    let output = loomc(&["-", "--color=never"], dir.path(), Some(source));
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("try `loomc explain E0300`"),
        "{}",
        stderr(&output)
    );
}
