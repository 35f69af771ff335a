//! Shared by the file-driven test harnesses: finding test files and the tools they run.
#![allow(dead_code)] // each harness uses a different part

use std::path::{Path, PathBuf};

pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file under `dir` (relative to the repository root) whose name ends with `.{ext}`,
/// sorted, as paths relative to the repository root.
///
/// Panics (failing the harness before it runs) when `dir` is missing or holds no such file: a
/// suite of zero trials would pass while testing nothing.
pub fn files_with_extension(dir: &str, ext: &str) -> Vec<PathBuf> {
    let root = repo_root();
    let mut found = Vec::new();
    assert!(
        root.join(dir).is_dir(),
        "test directory {dir} is missing (under {})",
        root.display()
    );
    collect(&root.join(dir), ext, &mut found);
    assert!(
        !found.is_empty(),
        "no .{ext} files under {dir}: nothing to test"
    );
    found.sort();
    found
        .into_iter()
        .map(|p| p.strip_prefix(&root).map(Path::to_path_buf).unwrap_or(p))
        .collect()
}

fn collect(dir: &Path, ext: &str, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, ext, found);
        } else if path.extension().is_some_and(|e| e == ext) {
            found.push(path);
        }
    }
}

/// ptxas from the pinned wheel that `scripts/setup` installs (or `$LOOM_PTXAS`).
pub fn ptxas() -> Result<PathBuf, String> {
    let path = std::env::var_os("LOOM_PTXAS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join(".tools/cu12/nvidia/cuda_nvcc/bin/ptxas"));
    if path.exists() {
        Ok(path)
    } else {
        Err(format!(
            "ptxas not found at {}: run scripts/setup",
            path.display()
        ))
    }
}

/// FileCheck from LLVM 19 (`scripts/setup` installs it with llvm-19-dev).
pub fn filecheck() -> Result<PathBuf, String> {
    let path = PathBuf::from("/usr/lib/llvm-19/bin/FileCheck");
    if path.exists() {
        Ok(path)
    } else {
        Err("FileCheck not found at /usr/lib/llvm-19/bin/FileCheck: run scripts/setup".to_string())
    }
}

/// Runs ptxas on `ptx` for `arch`; `Err` carries what ptxas said.
pub fn assemble(ptx: &str, arch: &str) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let input = dir.path().join("kernel.ptx");
    std::fs::write(&input, ptx).map_err(|e| e.to_string())?;
    let output = std::process::Command::new(ptxas()?)
        .arg(format!("-arch={arch}"))
        .arg(&input)
        .arg("-o")
        .arg(dir.path().join("kernel.cubin"))
        .output()
        .map_err(|e| format!("cannot run ptxas: {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "ptxas -arch={arch} rejected the PTX:\n{}",
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

/// The architectures every emitted PTX must assemble for.
pub const PTXAS_ARCHS: [&str; 3] = ["sm_75", "sm_80", "sm_90"];
