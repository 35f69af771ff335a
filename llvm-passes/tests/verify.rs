//! One named test per `tests/verify/*.ll`: the module is read, `verify_module` and
//! `verify_kernels` run, and their findings must be exactly the file's expectations:
//!
//! - `; ERROR: <substring>`, `; WARNING: <substring>`: one finding of that severity whose
//!   one-line summary contains the substring (`; FINDING:` accepts either severity). Every
//!   finding must be expected; a file without expectations must verify cleanly.
//! - `; OPTIONS: block-size=X[,Y,Z] kernel-block-size=NAME=X[,Y,Z] tolerate-same-value-writes
//!   single-block grid-size=X[,Y,Z]`: verifier options (`single-block`: launched with one block,
//!   no races between blocks looked for; `grid-size`: blocks per grid).
//! - `; CHECK: ...` (any FileCheck directive): matched by LLVM's FileCheck against
//!   `print_analysis`, the analysis facts.
//!
//! Each file starts with a comment saying why a finding is or is not expected.

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use libtest_mimic::{Arguments, Failed, Trial};
use llvm_passes::{Severity, VerifyOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn main() {
    let args = Arguments::from_args();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/verify");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "ll"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    if files.is_empty() {
        eprintln!("no .ll files in {}: nothing to verify", dir.display());
        std::process::exit(1);
    }
    let trials = files
        .into_iter()
        .map(|path| {
            let name = path
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            Trial::test(name, move || run_case(&path))
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}

#[derive(Debug)]
struct Expected {
    severity: Option<Severity>,
    substring: String,
}

fn expectations(text: &str) -> Vec<Expected> {
    let mut out = Vec::new();
    for line in text.lines() {
        let (severity, rest) = if let Some(r) = line.strip_prefix("; ERROR:") {
            (Some(Severity::Error), r)
        } else if let Some(r) = line.strip_prefix("; WARNING:") {
            (Some(Severity::Warning), r)
        } else if let Some(r) = line.strip_prefix("; FINDING:") {
            (None, r)
        } else {
            continue;
        };
        out.push(Expected {
            severity,
            substring: rest.trim().to_string(),
        });
    }
    out
}

fn options(text: &str) -> Result<VerifyOptions, String> {
    let mut options = VerifyOptions::default();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("; OPTIONS:") else {
            continue;
        };
        for word in rest.split_whitespace() {
            if let Some(size) = word.strip_prefix("block-size=") {
                let dims: Vec<u32> = size
                    .split(',')
                    .map(|d| d.parse().map_err(|_| format!("bad block size `{size}`")))
                    .collect::<Result<_, _>>()?;
                options.block_size = Some([
                    dims.first().copied().unwrap_or(1),
                    dims.get(1).copied().unwrap_or(1),
                    dims.get(2).copied().unwrap_or(1),
                ]);
            } else if let Some(spec) = word.strip_prefix("kernel-block-size=") {
                let (kernel, size) = spec
                    .split_once('=')
                    .ok_or(format!("bad kernel block size `{spec}`"))?;
                let dims: Vec<u32> = size
                    .split(',')
                    .map(|d| d.parse().map_err(|_| format!("bad block size `{size}`")))
                    .collect::<Result<_, _>>()?;
                options.kernel_block_sizes.push((
                    kernel.to_string(),
                    [
                        dims.first().copied().unwrap_or(1),
                        dims.get(1).copied().unwrap_or(1),
                        dims.get(2).copied().unwrap_or(1),
                    ],
                ));
            } else if word == "tolerate-same-value-writes" {
                options.tolerate_same_value_writes = true;
            } else if word == "single-block" {
                options.single_block = true;
            } else if let Some(size) = word.strip_prefix("grid-size=") {
                let dims: Vec<u32> = size
                    .split(',')
                    .map(|d| d.parse().map_err(|_| format!("bad grid size `{size}`")))
                    .collect::<Result<_, _>>()?;
                options.grid_size = Some([
                    dims.first().copied().unwrap_or(1),
                    dims.get(1).copied().unwrap_or(1),
                    dims.get(2).copied().unwrap_or(1),
                ]);
            } else {
                return Err(format!("unknown option `{word}`"));
            }
        }
    }
    Ok(options)
}

fn run_case(path: &Path) -> Result<(), Failed> {
    let text = std::fs::read_to_string(path)?;
    let expected = expectations(&text);
    let options = options(&text)?;
    let context = Context::create();
    let buffer =
        MemoryBuffer::create_from_memory_range_copy(text.as_bytes(), &path.display().to_string());
    let module = context
        .create_module_from_ir(buffer)
        .map_err(|e| format!("{}: cannot read IR: {e}", path.display()))?;
    let mut findings = llvm_passes::verify_module(&module);
    findings.extend(llvm_passes::verify_kernels(&module, &options));
    let mut problems = Vec::new();
    let mut matched = vec![false; findings.len()];
    for e in &expected {
        let hit = findings.iter().enumerate().position(|(i, f)| {
            !matched[i]
                && e.severity.is_none_or(|s| s == f.severity())
                && f.to_string().contains(&e.substring)
        });
        match hit {
            Some(i) => matched[i] = true,
            None => problems.push(format!("expected, not found: {e:?}")),
        }
    }
    for (f, _) in findings.iter().zip(&matched).filter(|(_, m)| !**m) {
        problems.push(format!("unexpected {:?}: {f}", f.severity()));
    }
    if text.lines().any(|l| l.starts_with("; CHECK")) {
        let dump = llvm_passes::print_analysis(&module, &options);
        if let Err(e) = file_check(path, &dump) {
            problems.push(e);
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{}:\n  {}", path.display(), problems.join("\n  ")).into())
    }
}

/// FileCheck from LLVM 19 (`scripts/setup` installs it with llvm-19-dev).
fn file_check(path: &Path, input: &str) -> Result<(), String> {
    let tool = PathBuf::from("/usr/lib/llvm-19/bin/FileCheck");
    let mut child = Command::new(&tool)
        .arg(path)
        .arg("--check-prefix=CHECK")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e} (run scripts/setup)", tool.display()))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(input.as_bytes())
            .map_err(|e| e.to_string())?;
    }
    let output = child.wait_with_output().map_err(|e| e.to_string())?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "FileCheck failed:\n{}\nanalysis:\n{input}",
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}
