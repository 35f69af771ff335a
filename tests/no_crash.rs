//! No input in the repository makes loomc crash: for every `.loom` file under `tests/`,
//! `examples/` and `stdlib/`, loomc exits with 0 (compiled) or 1 (diagnostics), never with a
//! panic or an internal error, and a run that fails leaves no output file behind.

#[path = "support/mod.rs"]
mod support;

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::Path;
use std::process::Command;

fn main() {
    let args = Arguments::from_args();
    let files = ["tests", "examples", "stdlib"]
        .into_iter()
        .flat_map(|dir| support::files_with_extension(dir, "loom"));
    let trials = files
        .map(|path| {
            Trial::test(path.display().to_string(), move || {
                compile_without_crash(&path)
            })
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}

fn compile_without_crash(path: &Path) -> Result<(), Failed> {
    let out = tempfile::tempdir()?;
    let output = Command::new(env!("CARGO_BIN_EXE_loomc"))
        .arg(support::repo_root().join(path))
        .args(["--emit=ast,llvm,ptx", "-o"])
        .arg(out.path().join("out"))
        .output()?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    let written: Vec<_> = std::fs::read_dir(out.path())?
        .flatten()
        .map(|e| e.file_name())
        .collect();
    match output.status.code() {
        Some(0) if written.len() == 3 => Ok(()),
        Some(0) => Err(format!(
            "exit 0 but wrote {written:?}, expected out.ast.json, out.ll, out.ptx"
        )
        .into()),
        Some(1) if written.is_empty() && !stderr.contains("internal compiler error") => Ok(()),
        Some(1) if !written.is_empty() => Err(format!("exit 1 but left {written:?} behind").into()),
        status => Err(format!("exit status {status:?} (want 0 or 1):\n{stderr}").into()),
    }
}
