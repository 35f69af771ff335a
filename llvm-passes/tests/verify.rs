//! One named test per `tests/verify/*.ll`: the module is read, `verify_module` runs, and its
//! findings must be exactly the file's `; FINDING: <substring>` lines, in order (none: clean).

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};

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

fn run_case(path: &Path) -> Result<(), Failed> {
    let text = std::fs::read_to_string(path)?;
    let expected: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("; FINDING:"))
        .map(str::trim)
        .collect();
    let context = Context::create();
    let buffer =
        MemoryBuffer::create_from_memory_range_copy(text.as_bytes(), &path.display().to_string());
    let module = context
        .create_module_from_ir(buffer)
        .map_err(|e| format!("{}: cannot read IR: {e}", path.display()))?;
    let findings: Vec<String> = llvm_passes::verify_module(&module)
        .iter()
        .map(ToString::to_string)
        .collect();
    let matches = findings.len() == expected.len()
        && findings.iter().zip(&expected).all(|(f, e)| f.contains(e));
    if matches {
        Ok(())
    } else {
        Err(format!(
            "{}:\n  expected findings: {expected:?}\n  actual findings:   {findings:?}",
            path.display()
        )
        .into())
    }
}
