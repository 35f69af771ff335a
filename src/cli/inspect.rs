//! The inspection options of `loomc FILE.loom` (docs/optimising.md): IR dumps around passes, a
//! custom pipeline, stage times and ptxas' resource usage.

use clap::Args;
use loomc::driver::{Emit, Reports};
use loomc::inspect::{render_resources, resources_json, InspectOptions};
use loomc::target::passes::{self, Position};
use loomc::target::{NvptxTarget, OptLevel};
use std::path::PathBuf;

#[derive(Args, Debug, Default)]
#[command(next_help_heading = "Inspecting IR and code (docs/optimising.md)")]
pub struct InspectArgs {
    /// Print the module before PASS: one of LOOM's passes (loom-verify-ir, loom-link-libdevice,
    /// loom-verify-kernels) or an LLVM pass name as `--passes` spells it (instcombine, licm).
    /// Several names separated by commas, or the option repeated.
    #[arg(long, value_name = "PASS", value_delimiter = ',')]
    print_before: Vec<String>,

    /// Print the module after PASS (LOOM's: loom-lower, loom-verify-ir, loom-link-libdevice,
    /// loom-verify-kernels; or LLVM's).
    #[arg(long, value_name = "PASS", value_delimiter = ',')]
    print_after: Vec<String>,

    /// Print the module after every pass, LOOM's and LLVM's, in pipeline order.
    #[arg(long)]
    print_after_all: bool,

    /// Print the module after every pass that changed it; `--print-changed=diff` prints each
    /// change as a unified diff against the module before the pass (LLVM's passes need `diff` on
    /// PATH for that, as `opt -print-changed=diff` does).
    #[arg(long, value_enum, value_name = "FORM", num_args = 0..=1, require_equals = true,
          default_missing_value = "full")]
    print_changed: Option<ChangedForm>,

    /// Write the --print-* dumps into DIR, one file per pass numbered in pipeline order, instead
    /// of to standard error (with --print-after-all: `000-after-kir-lower.kir`,
    /// `013-after-loom-lower.ll`, `014-after-loom-verify-ir.ll`, and so on). An earlier run's
    /// dumps in DIR are removed first; other files are left alone.
    #[arg(long, value_name = "DIR")]
    print_dir: Option<PathBuf>,

    /// Run this LLVM new-pass-manager pipeline instead of -O's (`default<O3>`), e.g.
    /// `--passes='function(sroa,instcombine,simplifycfg)'`.
    #[arg(long, value_name = "PIPELINE")]
    passes: Option<String>,

    /// Print the time of each stage (parse, check, lower, verify, link-libdevice, optimise,
    /// verify-kernels, nvptx) and of each LLVM pass of the optimiser (LLVM's -time-passes) to
    /// standard error; `--time-passes=json` prints them as one JSON object on one line.
    #[arg(long, value_enum, value_name = "FORMAT", num_args = 0..=1, require_equals = true,
          default_missing_value = "human")]
    time_passes: Option<ReportFormat>,

    /// Print each kernel's resources from ptxas (registers, stack frame, spills, local, shared
    /// and constant memory, barriers) and its occupancy at its block size on --arch to standard
    /// error; `--resource-usage=json` prints them as one JSON object on one line (needs NVIDIA's
    /// ptxas: LOOM_PTXAS or PATH).
    #[arg(long, value_enum, value_name = "FORMAT", num_args = 0..=1, require_equals = true,
          default_missing_value = "human")]
    resource_usage: Option<ReportFormat>,
}

/// How a report is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    /// A table.
    Human,
    /// One JSON object on one line, with `"report"` naming the report.
    Json,
}

/// How `--print-changed` shows a change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ChangedForm {
    /// The whole module after the pass.
    Full,
    /// A unified diff against the module before the pass.
    Diff,
}

impl InspectArgs {
    pub fn options(&self) -> InspectOptions {
        InspectOptions {
            print_before: self.print_before.clone(),
            print_after: self.print_after.clone(),
            print_after_all: self.print_after_all,
            print_changed: self.print_changed.is_some(),
            print_changed_diff: self.print_changed == Some(ChangedForm::Diff),
            print_dir: self.print_dir.clone(),
            passes: self.passes.clone(),
            time_passes: self.time_passes.is_some(),
            resource_usage: self.resource_usage.is_some(),
        }
    }

    /// Usage errors: pass names neither LOOM nor LLVM knows, a pipeline LLVM refuses, a dump
    /// directory without anything to dump.
    pub fn check(&self, arch: &str, opt: OptLevel, last: Emit) -> Result<(), String> {
        let options = self.options();
        if last <= Emit::LlvmLoom {
            never_reached(&options, last)?;
        }
        if options.print_dir.is_some() && !options.prints_ir() {
            return Err(
                "--print-dir needs one of --print-before, --print-after, --print-after-all or \
                 --print-changed"
                    .to_string(),
            );
        }
        if options == InspectOptions::default() {
            return Ok(());
        }
        // An unknown --arch is the driver's diagnostic; nothing to check against then.
        match NvptxTarget::new(arch, opt) {
            Ok(target) => loomc::inspect::check_options(&options, &target),
            Err(_) => Ok(()),
        }
    }
}

/// With `--emit` stopping before LLVM's optimiser (`kir`, `llvm-raw`, `llvm-loom`), LLVM's passes
/// and the kernel verifier never run (with `kir`, nothing after the kernel IR's passes; with
/// `ast`, no pass): asking to print around them would print nothing.
fn never_reached(options: &InspectOptions, last: Emit) -> Result<(), String> {
    let runs = |name: &str| match last {
        Emit::Ast => false,
        Emit::KernelIr => passes::find(name).is_some_and(|p| p.position == Position::KernelIr),
        _ => passes::find(name).is_some_and(|p| p.position != Position::AfterOptimiser),
    };
    let late = |name: &&String| !runs(name);
    let asked = options
        .print_before
        .iter()
        .map(|n| ("--print-before", n))
        .chain(options.print_after.iter().map(|n| ("--print-after", n)))
        .find(|(_, name)| late(name));
    let stage = match last {
        Emit::Ast => "ast",
        Emit::KernelIr => "kir",
        Emit::LlvmRaw => "llvm-raw",
        _ => "llvm-loom",
    };
    if last == Emit::Ast && (options.print_after_all || options.print_changed) {
        return Err(
            "--print-after-all and --print-changed print LLVM IR, and --emit=ast stops before \
             there is any"
                .to_string(),
        );
    }
    let before = match last {
        Emit::Ast => "the kernel IR",
        Emit::KernelIr => "code generation",
        _ => "LLVM's optimiser",
    };
    if let Some((flag, name)) = asked {
        return Err(format!(
            "{flag}={name}: with --emit={stage} compilation stops before {before}, so \
             `{name}` never runs; add --emit=llvm (or ptx) to run it"
        ));
    }
    if options.passes.is_some() {
        return Err(format!(
            "--passes: with --emit={stage} compilation stops before {before}, so the \
             pipeline never runs; add --emit=llvm (or ptx) to run it"
        ));
    }
    Ok(())
}

/// Prints what `--time-passes` and `--resource-usage` measured, to standard error, each in the
/// format asked for.
pub fn print_reports(args: &InspectArgs, reports: &Reports, arch: &str) {
    if let Some(times) = &reports.times {
        match args.time_passes {
            Some(ReportFormat::Json) => {
                let mut json = times.to_json();
                json["report"] = "time-passes".into();
                eprintln!("{json}");
            }
            _ => eprint!("{}", times.render()),
        }
    }
    if !reports.resources.is_empty() {
        match args.resource_usage {
            Some(ReportFormat::Json) => {
                let mut json = resources_json(&reports.resources, arch);
                json["report"] = "resource-usage".into();
                eprintln!("{json}");
            }
            _ => eprint!("{}", render_resources(&reports.resources, arch)),
        }
    }
}
