//! `--print-changed` and `--print-dir` bookkeeping: which dumps show a change, and which files
//! in a dump directory are an earlier run's.

use std::collections::HashMap;
use std::path::Path;

/// Keeps the sections of the NVPTX backend's `-print-after-all` output (one per pass, each
/// opened by a `*** IR Dump After ... ***` line) that changed something: the directory form of
/// `-print-changed`, which LLVM's legacy codegen pipeline only prints to standard error. A
/// machine pass (`# *** ...`) changed the function if its text differs from the machine section
/// before it; an IR pass (CodeGenPrepare and the others before instruction selection) if one of
/// its functions differs from that function's last text, starting from `optimised`, the module
/// after LLVM's optimiser.
pub fn changed_sections(text: &str, optimised: &str) -> String {
    let mut sections: Vec<(&str, String)> = Vec::new();
    for line in text.split_inclusive('\n') {
        if is_dump_header(line) {
            sections.push((line, String::new()));
        } else if let Some((_, body)) = sections.last_mut() {
            body.push_str(line);
        }
    }
    let mut functions = function_texts(optimised);
    let mut kept = String::new();
    let mut previous_machine: Option<String> = None;
    for (header, body) in &sections {
        let changed = if header.starts_with('#') {
            let compared = without_slot_indexes(body);
            let changed = previous_machine.as_ref() != Some(&compared);
            previous_machine = Some(compared);
            changed
        } else {
            let mut changed = false;
            for (name, function) in function_texts(body) {
                changed |= functions.get(&name) != Some(&function);
                functions.insert(name, function);
            }
            changed
        };
        if changed {
            kept.push_str(header);
            kept.push_str(body);
        }
    }
    kept
}

/// Each `define ... {` ... `}` of an IR text, by the function's name.
fn function_texts(ir: &str) -> HashMap<String, String> {
    let mut functions = HashMap::new();
    let mut current: Option<(String, String)> = None;
    for line in ir.split_inclusive('\n') {
        if line.starts_with("define ") {
            let name = line
                .split('@')
                .nth(1)
                .and_then(|rest| rest.split('(').next())
                .unwrap_or("")
                .to_string();
            current = Some((name, String::new()));
        }
        if let Some((_, text)) = current.as_mut() {
            text.push_str(line);
        }
        if line.starts_with('}') {
            if let Some((name, text)) = current.take() {
                functions.insert(name, text);
            }
        }
    }
    functions
}

/// A machine function's text without the `16B` slot numbers and the indentation that LLVM
/// prints once the
/// `slotindexes` analysis ran: numbering instructions changes none of them (LLVM's own
/// `-print-changed` does not count it either).
fn without_slot_indexes(body: &str) -> String {
    body.split_inclusive('\n')
        .map(|line| {
            // Numbered lines read `16B\t  %1 = ...`; the others gain a `\t`.
            let digits = line.bytes().take_while(u8::is_ascii_digit).count();
            let unnumbered = match line[digits..].strip_prefix('B') {
                Some(rest) if digits > 0 => rest,
                _ => line,
            };
            unnumbered.trim_start()
        })
        .collect()
}

/// `# *** IR Dump After Machine code sinking (machine-sink) ***:` or `*** IR Dump After ...`.
fn is_dump_header(line: &str) -> bool {
    line.trim_start_matches(['#', ';', ' '])
        .starts_with("*** IR Dump ")
}

/// `after` as a unified diff against `before` (`--print-changed=diff`), three lines of context,
/// as `diff -u` prints it.
pub fn unified_diff(before: &str, after: &str) -> String {
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(3)
        .header("before", "after")
        .to_string()
}

/// Whether `name` is a dump file as loomc names them (`NNN-after-PASS....ll`,
/// `NNN-after-nvptx-machine-passes.txt`): the files an earlier run left in a reused
/// `--print-dir`, removed before a new run so that its dumps are not mixed with older ones.
pub fn is_dump_file_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    bytes.len() > 4
        && bytes[..3].iter().all(u8::is_ascii_digit)
        && (name[3..].starts_with("-after-") || name[3..].starts_with("-before-"))
        && [".ll", ".kir", ".txt"].iter().any(|e| name.ends_with(e))
}

/// Removes an earlier run's dumps from `dir` (nothing else in it).
pub fn remove_old_dumps(dir: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let is_dump = entry.file_name().to_str().is_some_and(is_dump_file_name);
        if is_dump && entry.file_type()?.is_file() {
            std::fs::remove_file(entry.path())?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_sections_that_changed_are_kept() {
        let text = "\
# *** IR Dump After isel (nvptx-isel) ***:
body A
# *** IR Dump After finalize (finalize-isel) ***:
body A
# *** IR Dump After slots (slotindexes) ***:
0B\tbody A
# *** IR Dump After sink (machine-sink) ***:
body B
";
        assert_eq!(
            changed_sections(text, ""),
            "# *** IR Dump After isel (nvptx-isel) ***:\nbody A\n\
             # *** IR Dump After sink (machine-sink) ***:\nbody B\n"
        );
    }

    #[test]
    fn an_ir_pass_changed_something_if_a_function_differs_from_its_last_text() {
        let optimised = "define void @k() {\n  ret void\n}\n";
        let text = "\
*** IR Dump After Pre-ISel Intrinsic Lowering ***
; ModuleID = 'm'
define void @k() {
  ret void
}
*** IR Dump After CodeGen Prepare *** (function: k)
define void @k() {
  br label %x
}
";
        let kept = changed_sections(text, optimised);
        assert!(!kept.contains("Pre-ISel"), "{kept}");
        assert!(kept.contains("CodeGen Prepare"), "{kept}");
    }

    #[test]
    fn a_diff_shows_only_what_changed() {
        let before = "a\nb\nc\nd\ne\nf\ng\nh\n";
        let after = "a\nb\nc\nd\nE\nf\ng\nh\n";
        let diff = unified_diff(before, after);
        assert!(
            diff.starts_with("--- before\n+++ after\n@@ -2,7 +2,7 @@\n"),
            "{diff}"
        );
        assert!(diff.contains("\n-e\n+E\n"), "{diff}");
        assert!(!diff.contains(" a\n"), "outside the context: {diff}");
    }

    #[test]
    fn dump_names_are_recognised_and_nothing_else() {
        for dump in [
            "000-after-kir-lower.kir",
            "003-after-loom-lower.ll",
            "012-before-InstCombinePass-saxpy.ll",
            "031-after-nvptx-machine-passes.txt",
        ] {
            assert!(is_dump_file_name(dump), "{dump}");
        }
        for other in [
            "notes.txt",
            "1-after-x.ll",
            "000-after-x.ptx",
            "abc-after-x.ll",
        ] {
            assert!(!is_dump_file_name(other), "{other}");
        }
    }
}
