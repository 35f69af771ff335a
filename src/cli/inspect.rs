//! The inspection options of `loomc FILE.loom` (docs/optimising.md): IR dumps around passes, a
//! custom pipeline, stage times and ptxas' resource usage.

use clap::Args;
use loomc::driver::Reports;
use loomc::inspect::{render_resources, InspectOptions};
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

    /// Print the module after every pass that changed it.
    #[arg(long)]
    print_changed: bool,

    /// Write the --print-* dumps into DIR, one file per pass numbered in pipeline order
    /// (`003-after-loom-link-libdevice.ll`), instead of to standard error.
    #[arg(long, value_name = "DIR")]
    print_dir: Option<PathBuf>,

    /// Run this LLVM new-pass-manager pipeline instead of -O's (`default<O3>`), e.g.
    /// `--passes='function(sroa,instcombine,simplifycfg)'`.
    #[arg(long, value_name = "PIPELINE")]
    passes: Option<String>,

    /// Print the time of each stage (parse, check, lower, verify, link-libdevice, optimise,
    /// verify-kernels, nvptx) to standard error.
    #[arg(long)]
    time_passes: bool,

    /// Print ptxas' registers, spills, shared memory and barriers for each kernel to standard
    /// error (needs NVIDIA's ptxas: LOOM_PTXAS or PATH).
    #[arg(long)]
    resource_usage: bool,
}

impl InspectArgs {
    pub fn options(&self) -> InspectOptions {
        InspectOptions {
            print_before: self.print_before.clone(),
            print_after: self.print_after.clone(),
            print_after_all: self.print_after_all,
            print_changed: self.print_changed,
            print_dir: self.print_dir.clone(),
            passes: self.passes.clone(),
            time_passes: self.time_passes,
            resource_usage: self.resource_usage,
        }
    }

    /// Usage errors: pass names neither LOOM nor LLVM knows, a pipeline LLVM refuses, a dump
    /// directory without anything to dump.
    pub fn check(&self, arch: &str, opt: OptLevel) -> Result<(), String> {
        let options = self.options();
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

/// Prints what `--time-passes` and `--resource-usage` measured, to standard error.
pub fn print_reports(reports: &Reports, arch: &str) {
    if let Some(times) = &reports.times {
        eprint!("{}", times.render());
    }
    if !reports.resources.is_empty() {
        eprint!("{}", render_resources(&reports.resources, arch));
    }
}
