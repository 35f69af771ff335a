//! Codegen tests: one named test per `tests/codegen/*.loom` file, checked with LLVM's FileCheck.
//!
//! The file's directives, in the shared header syntax (`tests/support/header.rs`): one
//! `-- RUN: --emit=llvm -O0` says how to compile it (the arguments given to loomc; the output goes
//! to standard output; with `--remarks` or `--print-*`, what they write to standard error follows
//! it), by convention on the first line. Its `-- CHECK:`, `-- CHECK-NEXT:`, `-- CHECK-NOT:`,
//! `-- CHECK-LABEL:` (any FileCheck directive) lines are matched against that output; any other
//! `-- KEY:` is an error.
//!
//! Every PTX that loomc produces for these files, for the examples and for the programs under
//! every UI case that expects no diagnostic must also be accepted by ptxas for each of
//! `PTXAS_ARCHS`: one more test each.

#[path = "support/header.rs"]
mod header;
#[path = "support/mod.rs"]
mod support;

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::Path;
use std::process::{Command, Output};

fn main() {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    for path in support::files_with_extension("tests/codegen", "loom") {
        let name = format!(
            "filecheck/{}",
            path.file_stem().unwrap_or_default().to_string_lossy()
        );
        trials.push(Trial::test(name, move || run_filecheck_case(&path)));
    }
    let assembled = [
        support::files_with_extension("tests/codegen", "loom"),
        support::files_with_extension("examples", "loom"),
        support::files_with_extension("tests/ui", "loom")
            .into_iter()
            .filter(|p| expects_success(p))
            .collect(),
    ];
    for path in assembled.into_iter().flatten() {
        for arch in support::PTXAS_ARCHS {
            let name = format!("ptxas/{arch}/{}", path.with_extension("").display());
            let path = path.clone();
            trials.push(Trial::test(name, move || run_ptxas_case(&path, arch)));
        }
    }
    libtest_mimic::run(&args, trials).exit();
}

/// A UI case without `--~` annotations compiles cleanly, so its PTX must assemble too.
fn expects_success(path: &Path) -> bool {
    std::fs::read_to_string(support::repo_root().join(path)).is_ok_and(|s| !s.contains("--~"))
}

fn loomc(args: &[String], file: &Path) -> Result<Output, Failed> {
    Command::new(env!("CARGO_BIN_EXE_loomc"))
        .args(args)
        .arg(file)
        .args(["-o", "-", "--color=never"])
        .current_dir(support::repo_root())
        .output()
        .map_err(|e| format!("cannot run loomc: {e}").into())
}

fn expect_success(output: &Output, file: &Path) -> Result<String, Failed> {
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(format!(
            "loomc failed on {} ({}):\n{}",
            file.display(),
            output.status,
            String::from_utf8_lossy(&output.stderr)
        )
        .into())
    }
}

fn run_filecheck_case(path: &Path) -> Result<(), Failed> {
    let root = support::repo_root();
    let source =
        std::fs::read_to_string(root.join(path)).map_err(|e| format!("{}: {e}", path.display()))?;
    let file = path.display().to_string();
    let directives = header::parse(&file, &source, &["RUN", "CHECK*"])?;
    let Some(run_line) = header::single(&file, &directives, "RUN")? else {
        return Err(format!("{file}: no `-- RUN: <loomc arguments>` line").into());
    };
    let args: Vec<String> = run_line
        .value
        .split_whitespace()
        .map(String::from)
        .collect();
    // FileCheck reads its own directives: give it every `CHECK*` line as written.
    let checks: String = directives
        .iter()
        .filter(|d| d.key.starts_with("CHECK"))
        .map(|d| format!("{}: {}\n", d.key, d.value))
        .collect();
    if checks.is_empty() {
        return Err(format!("{file}: no `-- CHECK` lines: the test would assert nothing").into());
    }
    let run = loomc(&args, path)?;
    let mut output = expect_success(&run, path)?;
    if args
        .iter()
        .any(|a| a == "--remarks" || a.starts_with("--print-"))
    {
        // Remarks and IR dumps go to standard error: check them after the output.
        output.push_str(&String::from_utf8_lossy(&run.stderr));
    }
    let dir = tempfile::tempdir()?;
    let check_file = dir.path().join("checks.txt");
    let input_file = dir.path().join("output.txt");
    std::fs::write(&check_file, checks)?;
    std::fs::write(&input_file, &output)?;
    let result = Command::new(support::filecheck()?)
        .arg(&check_file)
        .arg("--input-file")
        .arg(&input_file)
        .arg("--dump-input=fail")
        .output()?;
    if result.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}: FileCheck failed:\n{}",
            path.display(),
            String::from_utf8_lossy(&result.stderr)
        )
        .into())
    }
}

fn run_ptxas_case(path: &Path, arch: &str) -> Result<(), Failed> {
    let args = vec!["--emit=ptx".to_string(), format!("--arch={arch}")];
    let ptx = expect_success(&loomc(&args, path)?, path)?;
    support::assemble(&ptx, arch).map_err(|e| format!("{}: {e}", path.display()))?;
    no_spills(&ptx, arch).map_err(|e| format!("{}: {e}", path.display()).into())
}

/// `ptxas -v` must report no spill stores or loads for any kernel or function.
fn no_spills(ptx: &str, arch: &str) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let input = dir.path().join("kernel.ptx");
    std::fs::write(&input, ptx).map_err(|e| e.to_string())?;
    let output = Command::new(support::ptxas()?)
        .arg(format!("-arch={arch}"))
        .arg("-v")
        .arg(&input)
        .arg("-o")
        .arg(dir.path().join("kernel.cubin"))
        .output()
        .map_err(|e| format!("cannot run ptxas: {e}"))?;
    let report = String::from_utf8_lossy(&output.stderr);
    let spilling: Vec<&str> = report
        .lines()
        .filter(|l| {
            l.contains("spill") && !l.contains(" 0 bytes spill stores, 0 bytes spill loads")
        })
        .collect();
    if spilling.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "ptxas -arch={arch} -v reports spills:\n{}",
            spilling.join("\n")
        ))
    }
}
