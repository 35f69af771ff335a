//! The CUB-free CUDA twins of LOOM's programs (`bench/cuda/clang/NAME.cu` beside
//! `bench/kernels/NAME.loom` or `examples/NAME.loom`) and how clang 19 and NVRTC compile them.
//! Shared by `bench/static_compare.rs`, `bench/compile_examples.rs` and `tests/cuda_twins.rs`,
//! which checks that every twin still compiles and that every example has one.
// Each of them uses part of this module.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// clang's CUDA device compile without CUDA's headers (`bench/cuda/clang/clang_cuda.h` maps the
/// few names used) and without contraction into fma, like LOOM's default and nvcc's -fmad=false.
pub const CLANG_FLAGS: &[&str] = &[
    "-x",
    "cuda",
    "--cuda-device-only",
    "-nocudainc",
    "-nocudalib",
    "--cuda-gpu-arch=sm_80",
    "-Xclang",
    "-target-feature",
    "-Xclang",
    "+ptx78",
    "-O3",
    "-ffp-contract=off",
    "-S",
];

/// NVRTC's equivalents: sm_80, no contraction, device code by default as in a `.cu` file.
pub const NVRTC_FLAGS: &[&str] = &["-arch=compute_80", "-fmad=false", "-default-device"];

/// The twin of the LOOM program named `stem`, if there is one.
pub fn twin_of(root: &Path, stem: &str) -> Option<PathBuf> {
    let twin = root.join(format!("bench/cuda/clang/{stem}.cu"));
    twin.is_file().then_some(twin)
}

/// libdevice.10.bc (`LOOM_LIBDEVICE`, else scripts/setup's copy), if it is installed.
pub fn libdevice(root: &Path) -> Option<PathBuf> {
    let path = std::env::var_os("LOOM_LIBDEVICE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            root.join(".tools/cu12/nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc")
        });
    path.is_file().then_some(path)
}

/// clang 19 on `twin`, writing PTX to `out`, with libdevice linked where the twin calls it
/// (`__nv_expf`), as loomc and NVRTC link it. An error where it does and `libdevice` is `None`.
pub fn clang_command(
    clang: &Path,
    twin: &Path,
    out: &Path,
    libdevice: Option<&Path>,
) -> Result<Command, String> {
    let text = std::fs::read_to_string(twin).map_err(|e| format!("{}: {e}", twin.display()))?;
    let mut command = Command::new(clang);
    command.args(CLANG_FLAGS).arg(twin).arg("-o").arg(out);
    if text.contains("__nv_") {
        let libdevice = libdevice
            .ok_or_else(|| format!("{} calls libdevice, which is not installed", twin.display()))?;
        command
            .args(["-Xclang", "-mlink-builtin-bitcode", "-Xclang"])
            .arg(libdevice);
    }
    Ok(command)
}

/// NVRTC on `twin` through `driver` (`bench/nvrtc/nvrtc_ptx.c`, compiled), which loads `library`.
pub fn nvrtc_command(driver: &Path, library: &Path, twin: &Path, out: &Path) -> Command {
    let mut command = Command::new(driver);
    command.arg(library).arg(twin).arg(out).args(NVRTC_FLAGS);
    if let Some(dir) = twin.parent() {
        command.arg(format!("-I{}", dir.display()));
    }
    command
}

/// Compiles `bench/nvrtc/nvrtc_ptx.c` into `work` with the system's C compiler.
pub fn build_nvrtc_driver(root: &Path, work: &Path) -> Result<PathBuf, String> {
    let driver = work.join("nvrtc_ptx");
    let status = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&driver)
        .arg(root.join("bench/nvrtc/nvrtc_ptx.c"))
        .arg("-ldl")
        .status()
        .map_err(|e| format!("cc: {e}"))?;
    if !status.success() {
        return Err("cc could not compile bench/nvrtc/nvrtc_ptx.c".into());
    }
    Ok(driver)
}
