//! Cross-check of the divergence analysis against LLVM 19's own (`print<uniformity>` with the
//! NVPTX target), one named test per `tests/verify/*.ll` that has a kernel.
//!
//! LLVM's analysis is not the verifier's: it prints to stderr only, and it marks every call
//! divergent, block ids and block dimensions included. It is a sound over-approximation all the
//! same, so every value the verifier calls non-uniform must be divergent for LLVM too. The
//! other direction is where the verifier is more precise (block ids, `tid < 256` in a block of
//! 256, ...), and is only counted.
//!
//! Both analyses read the module after the verifier's canonicalisation (SROA, mem2reg,
//! instcombine, early CSE).

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module;
use libtest_mimic::{Arguments, Failed, Trial};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

const OPT: &str = "/usr/lib/llvm-19/bin/opt";

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

/// The module in `text`.
fn read_ir<'c>(context: &'c Context, path: &Path, text: &str) -> Result<Module<'c>, String> {
    let buffer =
        MemoryBuffer::create_from_memory_range_copy(text.as_bytes(), &path.display().to_string());
    context
        .create_module_from_ir(buffer)
        .map_err(|e| format!("cannot read IR: {e}"))
}

/// The values the verifier's dump lists as not uniform: (function, printed instruction).
fn ours(module: &Module<'_>) -> Option<BTreeSet<(String, String)>> {
    if !llvm_passes::verify_module(module).is_empty() {
        // Structurally broken modules are not analysed.
        return None;
    }
    let dump = llvm_passes::print_analysis(module, &llvm_passes::VerifyOptions::default());
    if dump.is_empty() {
        return None;
    }
    let mut function = String::new();
    let mut found = BTreeSet::new();
    for line in dump.lines() {
        if let Some(rest) = line.strip_prefix("kernel @") {
            function = rest.split(':').next().unwrap_or("").to_string();
            continue;
        }
        let value = ["  divergent ", "  warp-uniform ", "  unknown "]
            .iter()
            .find_map(|p| line.strip_prefix(p));
        if let Some(value) = value {
            found.insert((function.clone(), value.trim().to_string()));
        }
    }
    Some(found)
}

/// The values LLVM's uniformity analysis calls divergent: (function, printed instruction),
/// after `passes` (those the verifier runs before reading the module, if any).
fn llvm(
    path: &Path,
    text: &str,
    passes: Option<&str>,
) -> Result<BTreeSet<(String, String)>, String> {
    // The verifier drops `optnone` (unoptimised clang output has it everywhere) before its
    // canonicalisation; so must opt, or it would skip the passes.
    let without_optnone: String = text
        .lines()
        .map(|l| {
            if l.starts_with("attributes #") {
                l.replace(" optnone", "")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let dir = std::env::temp_dir().join(format!("loom-uniformity-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let copy = dir.join(path.file_name().unwrap_or_default());
    std::fs::write(&copy, without_optnone).map_err(|e| e.to_string())?;
    let passes = passes.map(|p| format!("{p},")).unwrap_or_default();
    let output = Command::new(OPT)
        .args([
            "-mtriple=nvptx64-nvidia-cuda",
            &format!("-passes={passes}print<uniformity>"),
            "-disable-output",
        ])
        .arg(&copy)
        .output()
        .map_err(|e| format!("cannot run {OPT}: {e} (run scripts/setup)"));
    let _ = std::fs::remove_file(&copy);
    let output = output?;
    if !output.status.success() {
        return Err(format!(
            "opt failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let mut function = String::new();
    let mut found = BTreeSet::new();
    for line in String::from_utf8_lossy(&output.stderr).lines() {
        if let Some(rest) = line.strip_prefix("UniformityInfo for function '") {
            function = rest.trim_end_matches("':").to_string();
            continue;
        }
        if let Some(value) = line.trim().strip_prefix("DIVERGENT:") {
            // Without metadata attachments, as the verifier prints instructions.
            let value = value.trim();
            let value = value.find(", !").map_or(value, |at| &value[..at]);
            found.insert((function.clone(), value.to_string()));
        }
    }
    Ok(found)
}

fn run_case(path: &Path) -> Result<(), Failed> {
    let text = std::fs::read_to_string(path)?;
    let context = Context::create();
    let module = read_ir(&context, path, &text)?;
    let Some(ours) = ours(&module) else {
        return Ok(());
    };
    // LLVM reads the verifier's own canonical copy (promoted, folded, device functions
    // inlined by the verifier's choice of attributes), so both see the same instructions.
    let theirs = match llvm_passes::canonical_ir(&module)? {
        Some(canonical) => llvm(path, &canonical, None)?,
        None => llvm(path, &text, None)?,
    };
    let missing: Vec<String> = ours
        .iter()
        .filter(|v| !theirs.contains(*v))
        .map(|(f, v)| format!("@{f}: {v}"))
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}: non-uniform for the verifier, uniform for LLVM:\n  {}",
            path.display(),
            missing.join("\n  ")
        )
        .into())
    }
}
