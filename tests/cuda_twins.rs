//! The CUDA twins that scripts/bench-compile and scripts/bench-static time beside loomc
//! (`bench/cuda/clang/`): every example has one, so the compile-time table has clang's and
//! NVRTC's time in every row, and each still compiles with clang 19 (ptxas accepting its PTX)
//! and with NVRTC, with the flags the benchmarks use. A failure names the twin.

#[path = "../bench/common/cuda_twins.rs"]
mod cuda_twins;

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn tool(variable: &str) -> PathBuf {
    std::env::var_os(variable)
        .map(PathBuf::from)
        .filter(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!("{variable} is unset: run under scripts/test (source .tools/env)")
        })
}

fn stems(dir: &str) -> Vec<String> {
    let mut stems: Vec<String> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "loom"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    stems.sort();
    assert!(!stems.is_empty(), "no .loom files in {dir}");
    stems
}

fn twins() -> Vec<PathBuf> {
    let mut twins: Vec<PathBuf> = std::fs::read_dir(root().join("bench/cuda/clang"))
        .expect("bench/cuda/clang")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "cu"))
        .collect();
    twins.sort();
    twins
}

fn run(mut command: Command, what: &str) -> Result<(), String> {
    let output = command.output().map_err(|e| format!("{what}: {e}"))?;
    if output.status.success() {
        return Ok(());
    }
    Err(format!(
        "{what}: {}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    ))
}

fn check_all(check: impl Fn(&Path, &Path) -> Result<(), String>) {
    let work = tempfile::tempdir().unwrap();
    let twins = twins();
    let failures: Vec<String> = twins
        .iter()
        .filter_map(|twin| {
            check(twin, work.path())
                .err()
                .map(|e| format!("{}: {e}", twin.display()))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} twins:\n{}",
        failures.len(),
        twins.len(),
        failures.join("\n")
    );
}

#[test]
fn every_example_and_bench_kernel_has_a_twin() {
    let root = root();
    let missing: Vec<String> = ["examples", "bench/kernels"]
        .iter()
        .flat_map(|dir| stems(dir).into_iter().map(move |stem| (dir, stem)))
        .filter(|(_, stem)| cuda_twins::twin_of(&root, stem).is_none())
        .map(|(dir, stem)| format!("{dir}/{stem}.loom has no bench/cuda/clang/{stem}.cu"))
        .collect();
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn clang_compiles_every_twin_to_ptx_that_ptxas_accepts() {
    let clang = std::env::var_os("LOOM_CLANG")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/lib/llvm-19/bin/clang"));
    assert!(
        clang.is_file(),
        "no clang 19 at {}: run scripts/setup",
        clang.display()
    );
    let ptxas = tool("LOOM_PTXAS");
    let libdevice = cuda_twins::libdevice(&root());
    check_all(|twin, work| {
        let ptx = work.join("twin.ptx");
        run(
            cuda_twins::clang_command(&clang, twin, &ptx, libdevice.as_deref())?,
            "clang",
        )?;
        let mut assemble = Command::new(&ptxas);
        assemble
            .args(["-arch=sm_80", "-o"])
            .arg(work.join("twin.cubin"))
            .arg(&ptx);
        run(assemble, "ptxas")
    });
}

#[test]
fn nvrtc_compiles_every_twin() {
    let library = tool("LOOM_NVRTC");
    let work = tempfile::tempdir().unwrap();
    let driver = cuda_twins::build_nvrtc_driver(&root(), work.path()).unwrap();
    check_all(|twin, work| {
        let ptx = work.join("twin.nvrtc.ptx");
        run(
            cuda_twins::nvrtc_command(&driver, &library, twin, &ptx),
            "NVRTC",
        )?;
        let text = std::fs::read_to_string(&ptx).map_err(|e| format!("NVRTC's PTX: {e}"))?;
        match text.contains(".entry") {
            true => Ok(()),
            false => Err("NVRTC wrote no kernel".into()),
        }
    });
}
