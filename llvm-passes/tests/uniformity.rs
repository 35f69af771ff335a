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
//!
//! Both dumps are read by their line prefixes, so a change in either format could leave nothing
//! parsed and every comparison vacuous. Hence: a kernel the verifier analysed must have its
//! section in LLVM's output, output without any section we can read fails, and the trial
//! `dump-formats` checks that both readers find a thread-id read divergent.

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module;
use libtest_mimic::{Arguments, Failed, Trial};
use std::collections::{BTreeMap, BTreeSet};
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
    if files.is_empty() {
        eprintln!(
            "no .ll files in {}: the cross-check would compare nothing",
            dir.display()
        );
        std::process::exit(1);
    }
    let mut trials: Vec<Trial> = files
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
    trials.push(Trial::test("dump-formats", dump_formats));
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

/// The kernels the verifier's dump covers, each with the values it lists as not uniform
/// (printed instructions); `None` for a module it does not analyse.
type Divergent = BTreeMap<String, BTreeSet<String>>;

fn ours(module: &Module<'_>) -> Result<Option<Divergent>, String> {
    if !llvm_passes::verify_module(module).is_empty() {
        // Structurally broken modules are not analysed.
        return Ok(None);
    }
    let dump = llvm_passes::print_analysis(module, &llvm_passes::VerifyOptions::default());
    if dump.is_empty() {
        return Ok(None);
    }
    let mut function = String::new();
    let mut found = Divergent::new();
    for line in dump.lines() {
        if let Some(rest) = line.strip_prefix("kernel @") {
            function = rest.split(':').next().unwrap_or("").to_string();
            found.entry(function.clone()).or_default();
            continue;
        }
        let value = ["  divergent ", "  warp-uniform ", "  unknown "]
            .iter()
            .find_map(|p| line.strip_prefix(p));
        if let Some(value) = value {
            found
                .entry(function.clone())
                .or_default()
                .insert(value.trim().to_string());
        }
    }
    if found.is_empty() {
        return Err(format!(
            "the verifier's dump has no `kernel @NAME:` line (did its format change?):\n{dump}"
        ));
    }
    Ok(Some(found))
}

/// The functions LLVM's uniformity analysis printed, each with the values it calls divergent
/// (printed instructions), after `passes` (those the verifier runs before reading the module,
/// if any).
fn llvm(path: &Path, text: &str, passes: Option<&str>) -> Result<Divergent, String> {
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
    let printed = String::from_utf8_lossy(&output.stderr);
    let mut function = String::new();
    let mut found = Divergent::new();
    for line in printed.lines() {
        if let Some(rest) = line.strip_prefix("UniformityInfo for function '") {
            function = rest.trim_end_matches("':").to_string();
            found.entry(function.clone()).or_default();
            continue;
        }
        if let Some(value) = line.trim().strip_prefix("DIVERGENT:") {
            // Without metadata attachments, as the verifier prints instructions.
            let value = value.trim();
            let value = value.find(", !").map_or(value, |at| &value[..at]);
            found
                .entry(function.clone())
                .or_default()
                .insert(value.to_string());
        }
    }
    if found.is_empty() && !printed.trim().is_empty() {
        return Err(format!(
            "no `UniformityInfo for function 'NAME':` section in opt's output (did \
             print<uniformity>'s format change?):\n{printed}"
        ));
    }
    Ok(found)
}

fn run_case(path: &Path) -> Result<(), Failed> {
    let text = std::fs::read_to_string(path)?;
    let context = Context::create();
    let module = read_ir(&context, path, &text)?;
    let Some(ours) = ours(&module)? else {
        return Ok(());
    };
    // LLVM reads the verifier's own canonical copy (promoted, folded, device functions
    // inlined by the verifier's choice of attributes), so both see the same instructions.
    let theirs = match llvm_passes::canonical_ir(&module)? {
        Some(canonical) => llvm(path, &canonical, None)?,
        None => llvm(path, &text, None)?,
    };
    let mut missing = Vec::new();
    for (function, values) in &ours {
        let Some(divergent) = theirs.get(function) else {
            return Err(format!(
                "{}: LLVM printed no uniformity section for kernel @{function} (sections: {:?})",
                path.display(),
                theirs.keys().collect::<Vec<_>>()
            )
            .into());
        };
        missing.extend(
            values
                .iter()
                .filter(|v| !divergent.contains(*v))
                .map(|v| format!("@{function}: {v}")),
        );
    }
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

/// Both readers find a thread-id read divergent in a one-line kernel: if either dump's format
/// changes so that its reader finds nothing, this fails rather than every comparison passing.
fn dump_formats() -> Result<(), Failed> {
    const KERNEL: &str = "target triple = \"nvptx64-nvidia-cuda\"
@s = internal addrspace(3) global [512 x i32] undef, align 4
define void @k() {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [512 x i32], ptr addrspace(3) @s, i32 0, i32 %t
  store i32 %t, ptr addrspace(3) %p, align 4
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !\"kernel\", i32 1, !\"reqntidx\", i32 256}
";
    let path = Path::new("dump-formats.ll");
    let context = Context::create();
    let module = read_ir(&context, path, KERNEL)?;
    let tid = "%t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()".to_string();
    let ours = ours(&module)?.ok_or("the verifier did not analyse the kernel")?;
    let theirs = llvm(path, KERNEL, llvm_passes::canonical_passes(&module))?;
    for (who, found) in [("verifier", ours), ("LLVM", theirs)] {
        if !found.get("k").is_some_and(|values| values.contains(&tid)) {
            return Err(format!("the {who} dump, as read, lacks `{tid}` in @k: {found:?}").into());
        }
    }
    Ok(())
}
