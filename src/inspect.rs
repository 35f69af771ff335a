//! The IR-inspection options (docs/optimising.md): dumps of the module before and after chosen
//! passes, LOOM's and LLVM's, a custom optimiser pipeline, and the time of each stage.
//!
//! LOOM's own passes (`target::passes::LOOM_PASSES`) are printed here. LLVM's are printed by
//! LLVM's pass instrumentation, which is reached through its command-line options
//! (`-print-after=…`, `-print-changed`, `-ir-dump-directory=…`) and so is process-wide: the
//! options are installed once per process (loomc compiles one file per process), and a second
//! compilation in the same process that asks for different ones is refused rather than printed
//! wrongly. In directory mode LLVM writes one file per pass into a scratch folder; they are then
//! renamed into the dump directory, numbered after LOOM's passes in pipeline order.

mod changes;
mod interleave;
mod report;

pub use interleave::{interleave_source, interleave_source_sass};
pub use report::{render_resources, resources_json, LlvmPassTime, StageTimes};

use crate::diagnostics::Diagnostic;
use crate::target::passes::{self, LOOM_PASSES};
use crate::target::NvptxTarget;
use inkwell::module::{Linkage, Module};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A dump directory could not be written, a pass name is unknown, or LLVM refused a pipeline.
pub const INSPECT: &str = "E0804";

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InspectOptions {
    /// `--print-before=PASS`: LOOM pass names (`loom-…`) or LLVM pass names (`instcombine`).
    pub print_before: Vec<String>,
    pub print_after: Vec<String>,
    pub print_after_all: bool,
    /// `--print-changed`: after every pass that changed the module.
    pub print_changed: bool,
    /// `--print-changed=diff`: each change as a unified diff against the module before the
    /// pass, instead of the whole module.
    pub print_changed_diff: bool,
    /// `--print-dir=DIR`: one file per dump in DIR instead of standard error.
    pub print_dir: Option<PathBuf>,
    /// `--passes=PIPELINE`: this new-pass-manager pipeline instead of `-O`'s.
    pub passes: Option<String>,
    /// `--time-passes`: the time of each stage.
    pub time_passes: bool,
    /// `--resource-usage`: ptxas' registers, spills and shared memory per kernel.
    pub resource_usage: bool,
}

impl InspectOptions {
    pub fn prints_ir(&self) -> bool {
        self.print_after_all
            || self.print_changed
            || !self.print_before.is_empty()
            || !self.print_after.is_empty()
    }
}

/// Checks the pass names and the `--passes` pipeline against LOOM's registry and LLVM's parser.
/// Runs before any LLVM printing option is installed (a check runs a pipeline).
pub fn check_options(options: &InspectOptions, target: &NvptxTarget) -> Result<(), String> {
    if let Some(pipeline) = &options.passes {
        passes::check_pipeline(target, pipeline)
            .map_err(|e| format!("--passes=`{pipeline}`: LLVM refused it: {e}"))?;
    }
    for (flag, names) in [
        ("--print-before", &options.print_before),
        ("--print-after", &options.print_after),
    ] {
        for name in names {
            if passes::is_loom_name(name) {
                if passes::find(name).is_none() {
                    let known: Vec<&str> = LOOM_PASSES.iter().map(|p| p.name).collect();
                    return Err(format!(
                        "{flag}={name}: LOOM has no such pass (LOOM's passes: {})",
                        known.join(", ")
                    ));
                }
                if flag == "--print-before" && (name == passes::LOWER || name == crate::kir::LOWER)
                {
                    return Err(format!(
                        "{flag}={name}: `{name}` makes the module, there is no IR before it"
                    ));
                }
            } else if passes::check_pipeline(target, name).is_err() {
                return Err(format!(
                    "{flag}={name}: neither LOOM nor LLVM has a pass of that name \
                     (LLVM's are the names of `--passes`, such as `instcombine`)"
                ));
            }
        }
    }
    Ok(())
}

/// `--resource-usage`: each kernel's block size, which the occupancy depends on and ptxas does
/// not know, from the checker's facts.
pub fn with_block_sizes(
    mut resources: Vec<crate::target::sass::KernelResources>,
    kernels: &[crate::check::KernelFacts],
) -> Vec<crate::target::sass::KernelResources> {
    for resource in &mut resources {
        resource.block_size = kernels
            .iter()
            .find(|k| k.name == resource.name)
            .map(|k| k.block_size);
    }
    resources
}

/// The functions `module` defines for outside callers: its kernels (every other function loomc
/// makes, and every libdevice function, is internal).
pub fn exported_functions(module: &Module<'_>) -> Vec<String> {
    module
        .get_functions()
        .filter(|f| f.count_basic_blocks() > 0 && f.get_linkage() == Linkage::External)
        .map(|f| f.get_name().to_string_lossy().into_owned())
        .collect()
}

/// After a `--passes` pipeline: each kernel in `exported` must still be an external definition.
/// `internalize` makes every function internal (nothing tells it to keep the kernels), and then
/// `globaldce` deletes them, leaving `nvvm.annotations` naming functions that are gone.
pub fn check_kernels_kept(
    module: &Module<'_>,
    exported: &[String],
    pipeline: &str,
) -> Result<(), Diagnostic> {
    let still = exported_functions(module);
    let lost: Vec<&str> = exported
        .iter()
        .filter(|name| !still.contains(name))
        .map(String::as_str)
        .collect();
    let Some(first) = lost.first() else {
        return Ok(());
    };
    let deleted = module.get_function(first).is_none();
    let what = if deleted { "deleted" } else { "made internal" };
    Err(fail(format!(
        "--passes=`{pipeline}` {what} the kernel{} `{}`: nothing would be left to launch",
        if lost.len() == 1 { "" } else { "s" },
        lost.join("`, `")
    ))
    .note("`internalize` makes every function internal unless told which to keep, and `globaldce` then deletes the unused ones")
    .help(format!(
        "keep the kernels with `internalize<preserve-gv={}>`, or leave `internalize` out",
        lost.join(";preserve-gv=")
    )))
}

/// The private temporary directory of [`timing_file`], once made.
static TIMING_DIR: OnceLock<Option<PathBuf>> = OnceLock::new();

/// Removes the directory `--time-passes` made, if it made one: LLVM's timing option is
/// process-wide, so later pipelines (the kernel verifier's) may write the report again after
/// it was read. The command line calls this when the command ends.
pub fn remove_timing_dir() {
    if let Some(Some(dir)) = TIMING_DIR.get() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// The file LLVM's `-time-passes` report goes to: one per process, as LLVM's options are (a
/// private temporary directory made once, removed by [`remove_timing_dir`]), emptied after
/// each read.
fn timing_file() -> std::io::Result<PathBuf> {
    let dir = TIMING_DIR
        .get_or_init(|| {
            tempfile::Builder::new()
                .prefix("loomc-time-passes-")
                .tempdir()
                .ok()
                .map(tempfile::TempDir::keep)
        })
        .clone()
        .ok_or_else(|| std::io::Error::other("no temporary directory"))?;
    Ok(dir.join("llvm-time-passes.txt"))
}

/// The last LOOM pass before LLVM's optimiser (`loom-link-libdevice`).
fn last_pass_before_optimiser() -> Option<&'static str> {
    LOOM_PASSES
        .iter()
        .rfind(|p| p.position == passes::Position::BeforeOptimiser)
        .map(|p| p.name)
}

/// The LLVM options installed in this process, if any.
static LLVM_OPTIONS: OnceLock<Vec<String>> = OnceLock::new();
fn parse_llvm_options(options: &[String]) {
    let args: Vec<std::ffi::CString> = std::iter::once("loomc".to_string())
        .chain(options.iter().cloned())
        .filter_map(|a| std::ffi::CString::new(a).ok())
        .collect();
    let argv: Vec<*const std::ffi::c_char> = args.iter().map(|a| a.as_ptr()).collect();
    // SAFETY: `argv` points at `args`' NUL-terminated strings, alive for the call; the options
    // are LLVM's own printing options with pass names checked beforehand, which LLVM parses
    // without error.
    unsafe {
        inkwell::llvm_sys::support::LLVMParseCommandLineOptions(
            argv.len() as i32,
            argv.as_ptr(),
            c"loomc".as_ptr(),
        );
    }
}

fn install_llvm_options(wanted: Vec<String>) -> Result<(), String> {
    if wanted.is_empty() && LLVM_OPTIONS.get().is_none() {
        return Ok(());
    }
    let installed = LLVM_OPTIONS.get_or_init(|| {
        parse_llvm_options(&wanted);
        wanted.clone()
    });
    if *installed == wanted {
        Ok(())
    } else {
        Err(format!(
            "LLVM's printing options are process-wide and this process already set `{}`",
            installed.join(" ")
        ))
    }
}

/// Prints the module around passes, as the options ask, to standard error or into a directory.
pub struct IrPrinter {
    options: InspectOptions,
    /// The next dump's number in the directory.
    sequence: usize,
    /// The module's text after the last pass, for `--print-changed`.
    last: Option<String>,
    /// The kernel IR's text after the last kernel-IR pass, likewise.
    last_kir: Option<String>,
    /// Where LLVM writes its dumps in directory mode, before they are numbered.
    llvm_scratch: Option<PathBuf>,
    /// `--time-passes`: where LLVM's `-time-passes` writes its report (`-info-output-file`).
    timing_file: Option<PathBuf>,
    /// What that report said about the optimiser's passes.
    llvm_pass_times: Vec<LlvmPassTime>,
}

fn fail(message: String) -> Diagnostic {
    Diagnostic::error(INSPECT, message)
}

impl IrPrinter {
    /// Checks the options, makes the dump directory and installs LLVM's printing options.
    pub fn new(options: &InspectOptions, target: &NvptxTarget) -> Result<IrPrinter, Diagnostic> {
        check_options(options, target).map_err(fail)?;
        let mut printer = IrPrinter {
            options: options.clone(),
            sequence: 0,
            last: None,
            last_kir: None,
            llvm_scratch: None,
            timing_file: None,
            llvm_pass_times: Vec::new(),
        };
        let mut llvm = Vec::new();
        if options.time_passes {
            let file = timing_file().map_err(|e| {
                fail(format!(
                    "--time-passes: cannot make a file for LLVM's report: {e}"
                ))
            })?;
            llvm.push("-time-passes".to_string());
            llvm.push(format!("-info-output-file={}", file.display()));
            printer.timing_file = Some(file);
        }
        if !options.prints_ir() {
            install_llvm_options(llvm).map_err(fail)?;
            return Ok(printer);
        }
        let llvm_names = |names: &[String]| -> Vec<String> {
            names
                .iter()
                .filter(|n| !passes::is_loom_name(n))
                .cloned()
                .collect()
        };
        for name in llvm_names(&options.print_before) {
            llvm.push(format!("-print-before={name}"));
        }
        for name in llvm_names(&options.print_after) {
            llvm.push(format!("-print-after={name}"));
        }
        if let Some(dir) = &options.print_dir {
            std::fs::create_dir_all(dir)
                .map_err(|e| fail(format!("--print-dir: cannot make `{}`: {e}", dir.display())))?;
            changes::remove_old_dumps(dir).map_err(|e| {
                fail(format!(
                    "--print-dir: cannot remove the earlier dumps in `{}`: {e}",
                    dir.display()
                ))
            })?;
            let scratch = dir.join(".llvm");
            // LLVM's file names carry its own pass numbers: start from an empty folder.
            let _ = std::fs::remove_dir_all(&scratch);
            llvm.push(format!("-ir-dump-directory={}", scratch.display()));
            // LLVM's -print-changed has no directory mode: dump after every pass, whole
            // modules, and keep the dumps that differ from the one before.
            if options.print_after_all || options.print_changed {
                llvm.push("-print-after-all".to_string());
            }
            if options.print_changed && !options.print_after_all {
                llvm.push("-print-module-scope".to_string());
            }
            printer.llvm_scratch = Some(scratch);
        } else {
            if options.print_after_all {
                llvm.push("-print-after-all".to_string());
            }
            if options.print_changed_diff {
                // LLVM runs `diff` (on PATH) for this mode, as `opt -print-changed=diff` does.
                llvm.push("-print-changed=diff".to_string());
            } else if options.print_changed {
                llvm.push("-print-changed".to_string());
            }
        }
        install_llvm_options(llvm).map_err(fail)?;
        Ok(printer)
    }

    /// Before LOOM's pass `pass` runs over `module`.
    pub fn before(&mut self, pass: &str, module: &Module<'_>) -> Result<(), Diagnostic> {
        if self.options.print_before.iter().any(|p| p == pass) {
            let text = module.print_to_string().to_string();
            self.dump(pass, "before", &text, "ll")?;
        }
        Ok(())
    }

    /// After LOOM's pass `pass` ran over `module`.
    pub fn after(&mut self, pass: &str, module: &Module<'_>) -> Result<(), Diagnostic> {
        if !self.options.prints_ir() {
            return Ok(());
        }
        let text = module.print_to_string().to_string();
        let last = self.last.take();
        self.after_text(pass, &text, last.as_deref(), "ll")?;
        self.last = Some(text);
        if self.llvm_scratch.is_some() && Some(pass) == last_pass_before_optimiser() {
            // LLVM's first pass sees the module with `target::run_pipeline`'s temporary marks
            // on (`speculation::forbid`): compare its dump with that, or the marks would count
            // as a change made by that pass.
            llvm_passes::speculation::forbid(module);
            self.last = Some(module.print_to_string().to_string());
            llvm_passes::speculation::lift(module);
        }
        Ok(())
    }

    /// Dumps `text`, the IR after `pass`, as the options ask: whole, as a diff against `last`
    /// (the same kind of IR after the pass before), or not at all. `extension`: the dump file's
    /// in a directory.
    fn after_text(
        &mut self,
        pass: &str,
        text: &str,
        last: Option<&str>,
        extension: &str,
    ) -> Result<(), Diagnostic> {
        let changed = last != Some(text);
        let asked = self.options.print_after_all
            || self.options.print_after.iter().any(|p| p == pass)
            || (self.options.print_changed && changed);
        let as_diff =
            self.options.print_changed_diff && last.is_some() && changed && !self.asked_after(pass);
        if asked && as_diff {
            let diff = changes::unified_diff(last.unwrap_or(""), text);
            self.dump(pass, "after", &diff, extension)?;
        } else if asked {
            self.dump(pass, "after", text, extension)?;
        } else if self.options.print_changed && self.options.print_dir.is_none() {
            eprintln!("; *** IR Dump After {pass} omitted because no change ***");
        }
        Ok(())
    }

    /// Before kernel-IR pass `pass`; `print` gives the kernel IR's text (made only if asked).
    pub fn before_kir(
        &mut self,
        pass: &str,
        print: impl FnOnce() -> String,
    ) -> Result<(), Diagnostic> {
        if self.options.print_before.iter().any(|p| p == pass) {
            self.dump(pass, "before", &print(), "kir")?;
        }
        Ok(())
    }

    /// After kernel-IR pass `pass`, as [`IrPrinter::after`] after a pass over the LLVM module;
    /// compared with the kernel IR after the pass before.
    pub fn after_kir(
        &mut self,
        pass: &str,
        print: impl FnOnce() -> String,
    ) -> Result<(), Diagnostic> {
        if !self.options.prints_ir() {
            return Ok(());
        }
        let text = print();
        let last = self.last_kir.take();
        self.after_text(pass, &text, last.as_deref(), "kir")?;
        self.last_kir = Some(text);
        Ok(())
    }

    /// After LLVM's pipeline: in directory mode, LLVM's dumps numbered in pipeline order.
    pub fn after_llvm(&mut self, module: &Module<'_>) -> Result<(), Diagnostic> {
        if let Some(scratch) = self.llvm_scratch.clone() {
            self.collect_llvm_dumps(&scratch)?;
        }
        if let Some(file) = &self.timing_file {
            // LLVM wrote its report when the optimiser's pipeline ended; later pipelines (the
            // kernel verifier's) append their own, which the file's removal keeps out.
            let report = std::fs::read_to_string(file).unwrap_or_default();
            let _ = std::fs::remove_file(file);
            self.llvm_pass_times = report::parse_llvm_timing_report(&report);
        }
        if self.options.prints_ir() {
            self.last = Some(module.print_to_string().to_string());
        }
        Ok(())
    }

    /// `--time-passes`: each LLVM pass's wall time in the optimiser, slowest first (after
    /// [`IrPrinter::after_llvm`]).
    pub fn llvm_pass_times(&self) -> Vec<LlvmPassTime> {
        self.llvm_pass_times.clone()
    }

    /// Runs an analysis that builds its own LLVM pipeline (the kernel verifier) without its
    /// passes being printed: LLVM's printing options would show them as if they were the
    /// optimiser's. Its findings are returned, not printed, so nothing else is lost.
    pub fn quietly<T>(&mut self, run: impl FnOnce() -> T) -> Result<T, Diagnostic> {
        if LLVM_OPTIONS.get().is_none_or(|o| o.is_empty()) {
            return Ok(run());
        }
        let result = redirect_stderr(Path::new("/dev/null"), run)
            .map_err(|e| fail(format!("cannot silence LLVM's printing: {e}")))?;
        if let Some(scratch) = &self.llvm_scratch {
            let _ = std::fs::remove_dir_all(scratch);
        }
        Ok(result)
    }

    /// Runs the NVPTX backend (`run`). Its legacy codegen pipeline reads LLVM's `-print-*`
    /// options too and prints each machine pass to standard error (as `llc -print-after-all`
    /// does); in directory mode that output goes into the directory as one more numbered file,
    /// `NNN-after-nvptx-machine-passes.txt`: every machine pass with `--print-after-all`, those
    /// that changed the function with `--print-changed` (LLVM prints them all in directory
    /// mode; `changes::changed_sections` keeps the changed ones, as the standard-error form
    /// lists them).
    pub fn around_backend<T>(&mut self, run: impl FnOnce() -> T) -> Result<T, Diagnostic> {
        if self.llvm_scratch.is_none() {
            return Ok(run());
        }
        let name = format!("{:03}-after-nvptx-machine-passes.txt", self.sequence);
        let path = self.dir_path(&name);
        let result = redirect_stderr(&path, run)
            .map_err(|e| fail(format!("cannot write `{}`: {e}", path.display())))?;
        let empty = std::fs::metadata(&path)
            .map(|m| m.len() == 0)
            .unwrap_or(true);
        let keep = !empty && (self.options.print_after_all || self.options.print_changed);
        if keep && !self.options.print_after_all {
            let all = std::fs::read_to_string(&path)
                .map_err(|e| fail(format!("cannot read `{}`: {e}", path.display())))?;
            let optimised = self.last.as_deref().unwrap_or("");
            std::fs::write(&path, changes::changed_sections(&all, optimised))
                .map_err(|e| fail(format!("cannot write `{}`: {e}", path.display())))?;
        }
        if keep {
            self.sequence += 1;
        } else {
            let _ = std::fs::remove_file(&path);
        }
        Ok(result)
    }

    fn collect_llvm_dumps(&mut self, scratch: &Path) -> Result<(), Diagnostic> {
        let mut dumps: Vec<(usize, PathBuf)> = match std::fs::read_dir(scratch) {
            Ok(entries) => entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter_map(|path| {
                    let name = path.file_name()?.to_str()?;
                    let number = name.split('-').next()?.parse().ok()?;
                    Some((number, path))
                })
                .collect(),
            // No pass matched: LLVM made no folder.
            Err(_) => Vec::new(),
        };
        dumps.sort();
        let keep_changed_only = self.options.print_changed && !self.options.print_after_all;
        for (_, path) in dumps {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| fail(format!("cannot read LLVM's dump `{}`: {e}", path.display())))?;
            let (header_line, body) = text.split_once('\n').unwrap_or((text.as_str(), ""));
            let header = header_line;
            // `; *** IR Dump After InstCombinePass on k ***`
            let header = header.trim_start_matches("; ").trim_matches('*').trim();
            let (when, rest) = match header.strip_prefix("IR Dump Before ") {
                Some(rest) => ("before", rest),
                None => (
                    "after",
                    header.strip_prefix("IR Dump After ").unwrap_or(header),
                ),
            };
            let (pass, unit) = rest.split_once(" on ").unwrap_or((rest, ""));
            let from_print_after =
                self.options.print_after_all || self.asked_after_llvm(pass, when);
            let mut text = text.clone();
            if keep_changed_only && when == "after" && !from_print_after {
                if self.last.as_deref() == Some(body) {
                    continue;
                }
                if self.options.print_changed_diff {
                    let diff = changes::unified_diff(self.last.as_deref().unwrap_or(""), body);
                    text = format!("{header_line}\n{diff}");
                }
                self.last = Some(body.to_string());
            }
            let unit: String = unit
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '_' {
                        c
                    } else {
                        '_'
                    }
                })
                .take(60)
                .collect();
            let name =
                format!("{:03}-{when}-{pass}-{unit}.ll", self.sequence).replace("-.ll", ".ll");
            self.sequence += 1;
            let target = self.dir_path(&name);
            std::fs::write(&target, &text)
                .map_err(|e| fail(format!("cannot write `{}`: {e}", target.display())))?;
        }
        let _ = std::fs::remove_dir_all(scratch);
        Ok(())
    }

    /// Whether `--print-after` named LOOM's pass `pass` (then it is printed whole).
    fn asked_after(&self, pass: &str) -> bool {
        self.options.print_after_all || self.options.print_after.iter().any(|p| p == pass)
    }

    /// Whether `--print-after`/`--print-before` named LLVM's pass `class` (LLVM's dump headers
    /// give class names, `InstCombinePass`; the options give pipeline names, `instcombine`).
    fn asked_after_llvm(&self, class: &str, when: &str) -> bool {
        let names = if when == "before" {
            &self.options.print_before
        } else {
            &self.options.print_after
        };
        let squash = |s: &str| {
            s.chars()
                .filter(|c| c.is_ascii_alphanumeric())
                .collect::<String>()
                .to_ascii_lowercase()
        };
        let class = squash(class.trim_end_matches("Pass"));
        names.iter().any(|n| squash(n) == class)
    }

    fn dir_path(&self, name: &str) -> PathBuf {
        self.options
            .print_dir
            .as_deref()
            .unwrap_or(Path::new("."))
            .join(name)
    }

    fn dump(
        &mut self,
        pass: &str,
        when: &str,
        text: &str,
        extension: &str,
    ) -> Result<(), Diagnostic> {
        let title = if when == "before" { "Before" } else { "After" };
        let header = format!("; *** IR Dump {title} {pass} ***\n");
        match &self.options.print_dir {
            None => eprint!("{header}{text}"),
            Some(_) => {
                let path =
                    self.dir_path(&format!("{:03}-{when}-{pass}.{extension}", self.sequence));
                self.sequence += 1;
                std::fs::write(&path, header + text)
                    .map_err(|e| fail(format!("cannot write `{}`: {e}", path.display())))?;
            }
        }
        Ok(())
    }
}

/// Runs `run` with file descriptor 2 writing into `path` (LLVM prints to it directly).
#[cfg(unix)]
fn redirect_stderr<T>(path: &Path, run: impl FnOnce() -> T) -> std::io::Result<T> {
    use std::os::fd::AsRawFd;
    let file = std::fs::File::create(path)?;
    // SAFETY: plain descriptor duplication; descriptor 2 is restored before returning.
    let saved = unsafe { libc::dup(2) };
    if saved < 0 || unsafe { libc::dup2(file.as_raw_fd(), 2) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    let result = run();
    // SAFETY: `saved` is the descriptor duplicated above.
    unsafe {
        libc::dup2(saved, 2);
        libc::close(saved);
    }
    Ok(result)
}

#[cfg(not(unix))]
fn redirect_stderr<T>(_: &Path, run: impl FnOnce() -> T) -> std::io::Result<T> {
    Ok(run())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::OptLevel;

    #[test]
    fn names_are_checked_against_loom_and_llvm() {
        let target = NvptxTarget::new("sm_80", OptLevel::O3).unwrap();
        let ok = InspectOptions {
            print_after: vec!["loom-link-libdevice".into(), "instcombine".into()],
            print_before: vec!["licm".into()],
            passes: Some("function(sroa,instcombine)".into()),
            ..InspectOptions::default()
        };
        check_options(&ok, &target).unwrap();
        for bad in [
            InspectOptions {
                print_after: vec!["loom-nothing".into()],
                ..InspectOptions::default()
            },
            InspectOptions {
                print_before: vec!["loom-lower".into()],
                ..InspectOptions::default()
            },
            InspectOptions {
                print_after: vec!["instcombin".into()],
                ..InspectOptions::default()
            },
            InspectOptions {
                passes: Some("default<O9>".into()),
                ..InspectOptions::default()
            },
        ] {
            assert!(check_options(&bad, &target).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn llvm_pass_class_matches_pipeline_name() {
        let printer = IrPrinter {
            options: InspectOptions {
                print_after: vec!["instcombine".into(), "simplifycfg".into()],
                ..InspectOptions::default()
            },
            sequence: 0,
            last: None,
            last_kir: None,
            llvm_scratch: None,
            timing_file: None,
            llvm_pass_times: Vec::new(),
        };
        assert!(printer.asked_after_llvm("InstCombinePass", "after"));
        assert!(printer.asked_after_llvm("SimplifyCFGPass", "after"));
        assert!(!printer.asked_after_llvm("InstCombinePass", "before"));
        assert!(!printer.asked_after_llvm("LICMPass", "after"));
    }
}
