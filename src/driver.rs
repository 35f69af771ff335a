//! The pipeline, in one place: parse → check → lower → verify IR → optimise → verify kernels →
//! emit.
//!
//! Each stage collects diagnostics; the driver stops after a stage that reported an error, so one
//! run shows every independent problem of that stage. Outputs are produced in memory and returned;
//! writing files is the CLI's job, so nothing is written unless the whole pipeline succeeds.

use crate::check::{self, CheckOptions, STDLIB};
use crate::codegen::{self, CodegenOptions};
use crate::diagnostics::{Diagnostic, SourceFiles, INTERNAL_ERROR};
use crate::inspect::{IrPrinter, StageTimes};
use crate::kir;
use crate::syntax::{self, ast::Program};
use crate::target::{passes, sass, Libdevice, NvptxTarget, OptLevel};
use inkwell::context::Context;

/// What the user asked to see; each is a point where the pipeline can stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Emit {
    /// The parsed program as JSON, before checking.
    Ast,
    /// The kernel IR after its passes (`src/kir.rs`): what code generation is told.
    KernelIr,
    /// LLVM IR as code generation made it (`loom-lower`), before any other pass.
    LlvmRaw,
    /// LLVM IR after LOOM's own passes (`loom-link-libdevice`): the optimiser's input, for
    /// `opt -passes=...`.
    LlvmLoom,
    /// LLVM IR after optimisation: what goes to the NVPTX backend.
    Llvm,
    /// The kernels' calling convention as JSON (docs/abi.md).
    Metadata,
    Ptx,
    /// The machine code, from ptxas and cuobjdump (or nvdisasm).
    Sass,
    /// Typed Rust bindings of the kernels over loom-runtime, embedding the PTX (`bindings.rs`).
    Rust,
}

impl Emit {
    pub fn extension(self) -> &'static str {
        match self {
            Emit::Ast => "ast.json",
            Emit::KernelIr => "kir",
            Emit::LlvmRaw => "raw.ll",
            Emit::LlvmLoom => "loom.ll",
            Emit::Llvm => "ll",
            Emit::Metadata => "json",
            Emit::Ptx => "ptx",
            Emit::Sass => "sass",
            Emit::Rust => "rs",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Options {
    pub emit: Vec<Emit>,
    pub opt: OptLevel,
    pub arch: String,
    pub block_size: u32,
    /// `--remarks`: report barriers kept and removed, loops distributed or not, launch facts.
    pub remarks: bool,
    /// `-g` / `--lineinfo`: `.file`/`.loc` in the PTX.
    pub line_info: bool,
    /// `--fast-math`: fast-math flags and approximate math functions.
    pub fast_math: bool,
    /// The kernel verifier (barrier placement, shared-memory races); `--no-verify` turns it off.
    pub verify: crate::verify::VerifyOptions,
    /// Link libdevice (for the GPU), or leave its functions declared (for the CPU backend).
    pub libdevice: Libdevice,
    /// IR dumps around passes, `--passes`, `--time-passes`, `--resource-usage`
    /// (docs/optimising.md).
    pub inspect: crate::inspect::InspectOptions,
    /// `--kernel NAME`: compile this kernel only (`select.rs`).
    pub kernel: Option<String>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            emit: vec![Emit::Ptx],
            opt: OptLevel::O3,
            arch: "sm_80".to_string(),
            block_size: 256,
            remarks: false,
            line_info: false,
            fast_math: false,
            verify: crate::verify::VerifyOptions::default(),
            libdevice: Libdevice::Link,
            inspect: crate::inspect::InspectOptions::default(),
            kernel: None,
        }
    }
}

/// The outputs asked for, in the order of `Options::emit`.
pub type Outputs = Vec<(Emit, String)>;

/// The result of one compilation: its outputs if it succeeded, and every diagnostic (warnings
/// accompany success too).
pub struct Compilation {
    pub outputs: Option<Outputs>,
    pub diagnostics: Vec<Diagnostic>,
    pub reports: Reports,
}

/// What `--time-passes` and `--resource-usage` measured, for the caller to print.
#[derive(Debug, Default)]
pub struct Reports {
    pub times: Option<StageTimes>,
    pub resources: Vec<crate::target::sass::KernelResources>,
}

impl Compilation {
    pub fn has_internal_error(&self) -> bool {
        self.diagnostics.iter().any(|d| d.code == INTERNAL_ERROR)
    }
}

/// Compiles `source` (named `name` in diagnostics). `files` receives the user's file and the
/// standard library's, so the caller can render the diagnostics.
pub fn compile(
    files: &mut SourceFiles,
    name: &str,
    source: &str,
    options: &Options,
) -> Compilation {
    compile_with(files, name, source, options, None)
}

/// A change made to the optimised module right before the kernel verifier reads it. No stage of
/// loomc makes one: it is how the verifier's tests seed the bug a barrier guards against
/// (`tests/support/mutation.rs` deletes or guards a barrier) and show that the verifier, or the
/// sanitizer with the verifier off, catches it on exactly what would ship.
pub type BeforeVerify<'a> = &'a dyn Fn(&inkwell::module::Module<'_>) -> Result<(), String>;

/// [`compile`], with `before_verify` applied to the module between LLVM's optimiser and the
/// kernel verifier.
pub fn compile_with(
    files: &mut SourceFiles,
    name: &str,
    source: &str,
    options: &Options,
    before_verify: Option<BeforeVerify<'_>>,
) -> Compilation {
    let mut diagnostics = Vec::new();
    let mut reports = Reports::default();
    let stages = Stages {
        options,
        before_verify,
    };
    let outputs = stages.run(files, name, source, &mut diagnostics, &mut reports);
    Compilation {
        outputs,
        diagnostics,
        reports,
    }
}

/// What one compilation runs: the options, and the test hook of [`compile_with`].
struct Stages<'a> {
    options: &'a Options,
    before_verify: Option<BeforeVerify<'a>>,
}

impl Stages<'_> {
    fn run(
        &self,
        files: &mut SourceFiles,
        name: &str,
        source: &str,
        diagnostics: &mut Vec<Diagnostic>,
        reports: &mut Reports,
    ) -> Option<Outputs> {
        let options = self.options;
        let last_stage = options.emit.iter().copied().max().unwrap_or(Emit::Ptx);
        let mut outputs = Vec::new();
        let mut times = Timer {
            times: StageTimes::start(),
            on: options.inspect.time_passes,
            reports,
        };

        // The target machine is made beside parsing and checking, which do not need it.
        let target =
            (last_stage > Emit::Ast).then(|| NvptxTarget::start(&options.arch, options.opt));
        let user_file = files.add(name, source);
        let mut user_program = stop_on_error(syntax::parse(user_file, source, 0), diagnostics)?;
        if let Some(kernel) = &options.kernel {
            let selected = crate::select::only_kernel(&mut user_program, kernel);
            stop_on_error(selected.map_err(|d| vec![d]), diagnostics)?;
        }
        times.lap("parse");
        if options.emit.contains(&Emit::Ast) {
            outputs.push((Emit::Ast, ast_json(&user_program)));
        }
        // `None` exactly where the AST is all that was asked for: the compile ends here.
        let Some(target) = target else {
            return Some(outputs);
        };

        // The standard library is parsed after the user's file so that its items come last and its
        // expression ids continue the user's; the checker lets user funcs hide library ones.
        // Only the library items the program can name are parsed and checked (`crate::stdlib`);
        // a program with errors is checked again with the whole library, whose names the
        // diagnostics may suggest, so that they are the same.
        let library = stdlib_files(files);
        let check_options = CheckOptions {
            block_size: options.block_size,
        };
        let kept = crate::stdlib::reachable_items(source, &library.texts());
        let whole_library = kept.iter().all(Option::is_none);
        let mut checked_with = |user_program: Program, kept: &[Option<_>]| {
            let program = with_stdlib(&library, user_program, kept, diagnostics)?;
            Some(check::check(program, &check_options))
        };
        let again = (!whole_library).then(|| user_program.clone());
        let (mut checked, mut check_diagnostics) = checked_with(user_program, &kept)?;
        if let Some(user_program) = again {
            if check_diagnostics.iter().any(Diagnostic::is_error) {
                (checked, check_diagnostics) = checked_with(user_program, &[])?;
            }
        }
        let check_failed = check_diagnostics.iter().any(Diagnostic::is_error);
        diagnostics.extend(check_diagnostics);
        if check_failed {
            return None;
        }
        times.lap("check");

        let mut target = stop_on_error(target.finish().map_err(|d| vec![d]), diagnostics)?;
        target.libdevice = options.libdevice.clone();
        // Installs LLVM's printing options (process-wide): after the target, before any pipeline.
        let mut printer = stop_on_error(
            IrPrinter::new(&options.inspect, &target).map_err(|d| vec![d]),
            diagnostics,
        )?;
        let kernel_ir = kernel_ir(
            &checked,
            options.fast_math,
            files,
            &mut printer,
            diagnostics,
        )?;
        stop_on_error(
            match codegen::shared_memory_limits(&kernel_ir, &options.arch) {
                limits if limits.is_empty() => Ok(()),
                limits => Err(limits),
            },
            diagnostics,
        )?;
        times.lap("kir");
        if options.emit.contains(&Emit::KernelIr) {
            outputs.push((Emit::KernelIr, kir::print(&kernel_ir, files)));
        }
        if last_stage == Emit::KernelIr {
            times.finish();
            return Some(outputs);
        }
        let context = Context::create();
        let codegen_options = CodegenOptions {
            module_name: name.to_string(),
            remarks: options.remarks,
            line_info: options.line_info,
            fast_math: options.fast_math,
            sources: source_table(files),
        };
        let lowered = stop_on_error(
            codegen::lower_unverified(&context, &checked, &kernel_ir, &target, &codegen_options),
            diagnostics,
        )?;
        diagnostics.extend(lowered.remarks);
        let module = lowered.module;
        times.lap("lower");
        let print = |result: Result<(), Diagnostic>, diagnostics: &mut Vec<Diagnostic>| {
            stop_on_error(result.map_err(|d| vec![d]), diagnostics)
        };
        print(printer.after(passes::LOWER, &module), diagnostics)?;
        if options.emit.contains(&Emit::LlvmRaw) {
            outputs.push((Emit::LlvmRaw, module.print_to_string().to_string()));
        }

        // Verification runs on the module as lowered, before the optimiser: what it proves about
        // loomc's IR, the optimiser must preserve. A finding on loomc's own IR is a loomc bug.
        print(printer.before(passes::VERIFY_IR, &module), diagnostics)?;
        let findings = llvm_passes::verify_module(&module);
        if !findings.is_empty() {
            diagnostics.push(internal_error(&findings));
            return None;
        }
        times.lap("verify");
        print(printer.after(passes::VERIFY_IR, &module), diagnostics)?;
        print(printer.before(passes::LINK_LIBDEVICE, &module), diagnostics)?;
        stop_on_error(
            target.link_libraries(&module).map_err(|d| vec![d]),
            diagnostics,
        )?;
        times.lap("link-libdevice");
        print(printer.after(passes::LINK_LIBDEVICE, &module), diagnostics)?;
        if options.emit.contains(&Emit::LlvmLoom) {
            outputs.push((Emit::LlvmLoom, module.print_to_string().to_string()));
        }
        if last_stage <= Emit::LlvmLoom {
            times.finish();
            return Some(outputs);
        }
        let pipeline = options
            .inspect
            .passes
            .as_deref()
            .unwrap_or(options.opt.pipeline());
        let kernels = crate::inspect::exported_functions(&module);
        stop_on_error(
            target.run_pipeline(&module, pipeline).map_err(|d| vec![d]),
            diagnostics,
        )?;
        let kept = crate::inspect::check_kernels_kept(&module, &kernels, pipeline);
        print(kept, diagnostics)?;
        times.lap("optimise");
        print(printer.after_llvm(&module), diagnostics)?;
        times.times.llvm_passes = printer.llvm_pass_times();
        // `loom-thread-guards` completes -O's pipeline; a `--passes` pipeline runs alone.
        if options.inspect.passes.is_none() && options.opt != OptLevel::O0 {
            print(printer.before(passes::THREAD_GUARDS, &module), diagnostics)?;
            stop_on_error(
                target.thread_guards(&module).map_err(|d| vec![d]),
                diagnostics,
            )?;
            times.lap("thread-guards");
            print(printer.after(passes::THREAD_GUARDS, &module), diagnostics)?;
        }
        print(printer.before(passes::VERIFY_KERNELS, &module), diagnostics)?;
        // The kernel verifier proves barrier placement and race freedom on what ships: the module
        // after LOOM's barrier removal and LLVM's optimiser, right before emission.
        if let Some(change) = self.before_verify {
            let changed = change(&module).map_err(|message| {
                vec![Diagnostic::error(
                    INTERNAL_ERROR,
                    format!("the change before the kernel verifier failed: {message}"),
                )]
            });
            stop_on_error(changed, diagnostics)?;
        }
        let wants_ptx = last_stage >= Emit::Ptx || options.inspect.resource_usage;
        // A large kernel is verified on a copy, on a thread of its own, while this thread
        // emits its PTX; the findings are taken before the PTX is used.
        let verifier_beside =
            (options.verify.enabled && wants_ptx && verify_beside(&module, options))
                .then(|| crate::verify::VerifierThread::start(&module, &options.verify))
                .flatten();
        if options.verify.enabled && verifier_beside.is_none() {
            let found = stop_on_error(
                printer
                    .quietly(|| crate::verify::verify_loom_module(&module, files, &options.verify))
                    .map_err(|d| vec![d]),
                diagnostics,
            )?;
            take_verifier_findings(found, diagnostics)?;
        }
        times.lap("verify-kernels");
        print(printer.after(passes::VERIFY_KERNELS, &module), diagnostics)?;
        if options.emit.contains(&Emit::Llvm) {
            outputs.push((Emit::Llvm, module.print_to_string().to_string()));
        }
        let wants_metadata =
            options.emit.contains(&Emit::Metadata) || options.emit.contains(&Emit::Rust);
        let metadata = wants_metadata.then(|| {
            let metadata = crate::metadata::module_metadata(
                &checked,
                &module,
                &target.target_data(),
                &target.arch,
                name,
                source,
            );
            metadata.to_json()
        });
        if let (true, Some(metadata)) = (options.emit.contains(&Emit::Metadata), &metadata) {
            outputs.push((Emit::Metadata, metadata.clone()));
        }
        if wants_ptx {
            // The NVPTX backend's machine passes obey LLVM's printing options too.
            // The printer's failure (a dump it could not write), then the back end's.
            let backend = printer.around_backend(|| target.emit_ptx(&module));
            if let Some(verifier) = verifier_beside {
                let found =
                    stop_on_error(verifier.finish(files).map_err(|d| vec![d]), diagnostics)?;
                take_verifier_findings(found, diagnostics)?;
            }
            let emitted = stop_on_error(backend.map_err(|d| vec![d]), diagnostics)?;
            let ptx = stop_on_error(emitted.map_err(|d| vec![d]), diagnostics)?;
            times.lap("nvptx");
            if options.inspect.resource_usage {
                let resources = stop_on_error(
                    sass::resource_usage(&ptx, &target.arch).map_err(|d| vec![d]),
                    diagnostics,
                )?;
                times.reports.resources =
                    crate::inspect::with_block_sizes(resources, &checked.kernels);
                times.lap("ptxas");
            }
            if options.emit.contains(&Emit::Sass) {
                let machine_code = stop_on_error(
                    sass::disassemble(&ptx, &target.arch).map_err(|d| vec![d]),
                    diagnostics,
                )?;
                outputs.push((Emit::Sass, machine_code));
                times.lap("ptxas+disassemble");
            }
            if let (true, Some(metadata)) = (options.emit.contains(&Emit::Rust), &metadata) {
                let bindings = crate::bindings::rust_bindings(metadata, &ptx).map_err(|d| vec![d]);
                outputs.push((Emit::Rust, stop_on_error(bindings, diagnostics)?));
            }
            if options.emit.contains(&Emit::Ptx) {
                outputs.push((Emit::Ptx, ptx));
            }
        }
        times.finish();
        outputs.sort_by_key(|(emit, _)| options.emit.iter().position(|e| e == emit));
        Some(outputs)
    }
}

/// The kernel verifier's diagnostics `found`, added to `diagnostics`; `None` if one is an error
/// (the compile stops).
fn take_verifier_findings(found: Vec<Diagnostic>, diagnostics: &mut Vec<Diagnostic>) -> Option<()> {
    let found = crate::verify::without_repeats_of_racy_updates(found, diagnostics);
    let failed = found.iter().any(Diagnostic::is_error);
    diagnostics.extend(found);
    (!failed).then_some(())
}

/// Whether the kernel verifier runs beside the NVPTX back end ([`crate::verify::VerifierThread`]):
/// for a module of at least [`VERIFY_BESIDE_INSTRUCTIONS`] instructions, when no IR is printed
/// (LLVM's printing options are process-wide: the verifier's passes would print as if they were
/// the compile's) and no stage is timed (`--time-passes` gives each stage's time alone).
fn verify_beside(module: &inkwell::module::Module<'_>, options: &Options) -> bool {
    if options.inspect.prints_ir() || options.inspect.time_passes {
        return false;
    }
    let instructions: usize = module
        .get_functions()
        .flat_map(|f| f.get_basic_block_iter())
        .map(|block| block.get_instructions().count())
        .sum();
    instructions >= VERIFY_BESIDE_INSTRUCTIONS
}

/// Below this many instructions the copy costs more CPU time than the wall time it saves: the
/// bench kernels of 66 to 85 instructions took 6 to 9 % more instructions in all (the bitcode
/// written, and read back in a context of its own) for 1 to 3 % less wall time; from 150
/// (softmax's 183: 5 % more, 3 to 7 % less) the trade is better.
const VERIFY_BESIDE_INSTRUCTIONS: usize = 150;

/// The kernel IR: `kir-lower`, then each of its passes in the registry's order, printed around
/// each as `--print-before`/`--print-after` ask.
fn kernel_ir(
    checked: &check::Checked,
    fast_math: bool,
    files: &SourceFiles,
    printer: &mut IrPrinter,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<kir::Module> {
    let built = kir::build_observed(checked, fast_math, &mut |moment, module| {
        let print = || kir::print(module, files);
        match moment {
            kir::Moment::Before(pass) => printer.before_kir(pass, print),
            kir::Moment::After(pass) => printer.after_kir(pass, print),
        }
    });
    let module = stop_on_error(built.map_err(|d| vec![d]), diagnostics)?;
    // What the passes found no code can be generated for (`E0811`), with spans.
    let limits = module.limits();
    stop_on_error(
        if limits.is_empty() {
            Ok(module)
        } else {
            Err(limits)
        },
        diagnostics,
    )
}

/// `--time-passes`: laps recorded as the stages end; kept in the reports when asked for.
struct Timer<'r> {
    times: StageTimes,
    on: bool,
    reports: &'r mut Reports,
}

impl Timer<'_> {
    fn lap(&mut self, stage: &'static str) {
        self.times.lap(stage);
    }

    fn finish(&mut self) {
        self.reports.times = self.on.then(|| self.times.clone());
    }
}

/// Every source file's name and text, by `FileId` (for debug locations).
fn source_table(files: &SourceFiles) -> Vec<(String, String)> {
    (0..)
        .map(crate::syntax::span::FileId)
        .map_while(|id| {
            let name = files.name(id);
            (name != "<unknown>").then(|| (name.to_string(), files.source(id).to_string()))
        })
        .collect()
}

/// The standard library's files, added to `files` (every compile adds them all, so that file ids
/// and the debug information's file table do not depend on which items a program uses).
struct Library {
    files: Vec<(crate::syntax::span::FileId, &'static str)>,
}

impl Library {
    fn texts(&self) -> Vec<&'static str> {
        self.files.iter().map(|(_, text)| *text).collect()
    }
}

fn stdlib_files(files: &mut SourceFiles) -> Library {
    Library {
        files: STDLIB
            .iter()
            .map(|(path, source)| (files.add(*path, *source), *source))
            .collect(),
    }
}

/// Appends the standard library's items to the user's program: of each file, the items `kept`
/// (`crate::stdlib::reachable_items`), or all of them where there are none or they are `None`;
/// read as the parser gives them from the file built into loomc, or parsed
/// (`crate::stdlib::parsed`).
fn with_stdlib(
    library: &Library,
    mut program: Program,
    kept: &[Option<Vec<usize>>],
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Program> {
    // Whatever earlier stages did to the user's items (`--kernel` drops some), the library
    // starts after them: the checker lets user items hide library ones by this boundary.
    program.library_start = program.items.len();
    for (i, &(file, source)) in library.files.iter().enumerate() {
        let first = program.expr_count;
        let every_item: Vec<usize>;
        let kept = match kept.get(i) {
            Some(Some(kept)) if kept.is_empty() => continue,
            Some(Some(kept)) => kept,
            _ => {
                every_item = (0..crate::stdlib::item_ranges(source).len()).collect();
                &every_item
            }
        };
        // An item that does not parse on its own would be a bug in `stdlib`; the whole file
        // then says what is wrong, with the file's positions.
        let parsed = crate::stdlib::parsed::items(file, source, kept, first)
            .or_else(|_| syntax::parse(file, source, first));
        let library = stop_on_error(parsed, diagnostics)?;
        program.append_library(library);
    }
    Some(program)
}

fn ast_json(program: &Program) -> String {
    serde_json::to_string_pretty(program).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
        + "\n"
}

fn stop_on_error<T>(
    result: Result<T, Vec<Diagnostic>>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<T> {
    match result {
        Ok(value) => Some(value),
        Err(errors) => {
            diagnostics.extend(errors);
            None
        }
    }
}

fn internal_error(findings: &[llvm_passes::Finding]) -> Diagnostic {
    let diagnostic = Diagnostic::error(
        INTERNAL_ERROR,
        "internal compiler error: loomc generated LLVM IR that does not verify",
    );
    findings
        .iter()
        .fold(diagnostic, |d, finding| d.note(finding.to_string()))
        .note("this is a bug in loomc: please report it with the program that caused it")
}
