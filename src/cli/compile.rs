//! `loomc FILE.loom`: compile to AST, LLVM IR or PTX, print diagnostics, write outputs.

use super::{print_plain_error, ErrorFormat, EXIT_INTERNAL_ERROR, EXIT_PROGRAM_ERRORS, EXIT_USAGE};
use clap::{Args, ValueEnum};
use codespan_reporting::term::termcolor::{BufferedStandardStream, ColorChoice};
use loomc::diagnostics::{explanation, Diagnostic, SourceFiles};
use loomc::driver::{self, Emit, Options};
use loomc::target::OptLevel;
use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

pub(crate) mod output;

#[derive(Args, Debug)]
pub struct CompileArgs {
    /// The .loom source file; `-` reads standard input.
    // Optional to clap only so that a subcommand can stand in its place; `main` requires it then.
    #[arg(required = true)]
    file: Option<String>,

    /// Output file. With several --emit kinds, the path without its extension: each kind is
    /// written beside it (`-o build/k --emit=llvm,ptx` writes build/k.ll and build/k.ptx).
    /// `-` writes to standard output. Default: the input's name with the kind's extension, in the
    /// current directory (standard output when reading standard input).
    #[arg(short = 'o', value_name = "OUT")]
    output: Option<PathBuf>,

    /// What to produce; several kinds separated by commas.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "ptx")]
    emit: Vec<EmitArg>,

    /// Optimisation level, -O0 to -O3.
    #[arg(short = 'O', value_name = "LEVEL", default_value = "3", value_parser = ["0", "1", "2", "3"])]
    opt_level: String,

    /// The GPU architecture of the PTX (`.target`).
    #[arg(long, default_value = "sm_80", value_name = "sm_XX")]
    arch: String,

    /// BLOCKSIZE of kernels without `@blocksize(N)`: threads per block, 1 to 1024.
    #[arg(long, default_value_t = 256, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    block_size: u32,

    /// How diagnostics are printed: for people, or one JSON object per line for tools (see
    /// "Exit status" below).
    #[arg(long, value_enum, default_value = "human")]
    error_format: ErrorFormat,

    /// Colour in human diagnostics.
    #[arg(long, value_enum, default_value = "auto")]
    color: ColorArg,

    /// Report code generation's decisions as notes: each barrier kept or removed and why, each
    /// `for` loop distributed over the block's threads or kept sequential and why, and each
    /// kernel's launch facts.
    #[arg(long)]
    remarks: bool,

    /// Put source line information in the PTX (`.file`/`.loc`), for cuda-gdb, Nsight and
    /// compute-sanitizer. `-g` and `--lineinfo` are the same.
    #[arg(short = 'g', long = "lineinfo")]
    line_info: bool,

    /// Show the LOOM source next to the code: each line of source as a comment above the PTX
    /// it became (`// saxpy.loom:5: y[[current]] <- ...`), and in --emit=sass after nvdisasm's
    /// `//## File "saxpy.loom", line 5` markers; from the line information of -g, which this
    /// implies. The PTX stays valid.
    #[arg(long)]
    interleave_source: bool,

    /// Allow float reassociation and contraction (fma), approximate division and the fast
    /// approximations of exp, log, sin, cos, pow and sqrt (like CUDA's -use_fast_math).
    #[arg(long)]
    fast_math: bool,

    /// Skip the kernel verifier, which proves before emission that every barrier is reached by
    /// every thread and that no two threads race on shared memory (docs/verifier.md).
    #[arg(long)]
    no_verify: bool,

    /// Compile only the kernel NAME (with the funcs it calls): every --emit kind, dump and
    /// report is about that kernel alone. A name the file does not define is a usage error that
    /// lists its kernels.
    #[arg(long, value_name = "NAME")]
    kernel: Option<String>,

    #[command(flatten)]
    inspect: super::inspect::InspectArgs,
}

impl CompileArgs {
    /// The input; clap requires it whenever no subcommand is given, which is when this runs.
    fn file(&self) -> &str {
        self.file.as_deref().unwrap_or("-")
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum EmitArg {
    /// The parsed program as JSON.
    Ast,
    /// The kernel IR after its passes: what code generation is told (`.kir`).
    Kir,
    /// LLVM IR as code generation made it (`.raw.ll`).
    LlvmRaw,
    /// LLVM IR after LOOM's own passes: the optimiser's input (`.loom.ll`).
    LlvmLoom,
    /// LLVM IR after the optimiser: what the NVPTX backend gets (`.ll`).
    Llvm,
    /// The kernels' calling convention as JSON.
    Metadata,
    Ptx,
    /// Machine code from ptxas and cuobjdump or nvdisasm (`.sass`).
    Sass,
    /// Typed Rust bindings of the kernels over loom-runtime, with the PTX embedded (`.rs`).
    Rust,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ColorArg {
    Auto,
    Always,
    Never,
}

pub fn run(cli: &CompileArgs) -> ExitCode {
    let source = match read_source(cli.file()) {
        Ok(source) => source,
        Err(message) => return usage_error(cli, &message, None),
    };
    let options = options(cli);
    if let Err(exit) = check_usage(cli, &options) {
        return exit;
    }
    let name = if cli.file() == "-" {
        "<stdin>"
    } else {
        cli.file()
    };
    let mut files = SourceFiles::default();
    let compilation = driver::compile(&mut files, name, &source, &options);
    // An unknown --kernel is a mistake on the command line, not in the program.
    let usage = compilation
        .diagnostics
        .iter()
        .any(|d| d.code == loomc::select::UNKNOWN_KERNEL);
    print_diagnostics(cli, &files, &compilation.diagnostics, !usage);
    if usage {
        return ExitCode::from(EXIT_USAGE);
    }
    super::inspect::print_reports(&cli.inspect, &compilation.reports, &options.arch);
    if compilation.has_internal_error() {
        return ExitCode::from(EXIT_INTERNAL_ERROR);
    }
    let Some(mut outputs) = compilation.outputs else {
        return ExitCode::from(EXIT_PROGRAM_ERRORS);
    };
    if cli.interleave_source {
        interleave_source(&mut outputs, &files);
    }
    match write_outputs(cli, &outputs) {
        Ok(()) => ExitCode::SUCCESS,
        Err(diagnostic) => {
            print_diagnostics(cli, &files, &[diagnostic], false);
            ExitCode::from(EXIT_PROGRAM_ERRORS)
        }
    }
}

/// The driver's options for the command line.
fn options(cli: &CompileArgs) -> Options {
    Options {
        emit: dedup(cli.emit.iter().map(|e| match e {
            EmitArg::Ast => Emit::Ast,
            EmitArg::Kir => Emit::KernelIr,
            EmitArg::LlvmRaw => Emit::LlvmRaw,
            EmitArg::LlvmLoom => Emit::LlvmLoom,
            EmitArg::Llvm => Emit::Llvm,
            EmitArg::Metadata => Emit::Metadata,
            EmitArg::Ptx => Emit::Ptx,
            EmitArg::Sass => Emit::Sass,
            EmitArg::Rust => Emit::Rust,
        })),
        opt: match cli.opt_level.as_str() {
            "0" => OptLevel::O0,
            "1" => OptLevel::O1,
            "2" => OptLevel::O2,
            _ => OptLevel::O3,
        },
        arch: cli.arch.clone(),
        block_size: cli.block_size,
        remarks: cli.remarks,
        line_info: cli.line_info || cli.interleave_source,
        fast_math: cli.fast_math,
        verify: loomc::verify::VerifyOptions {
            enabled: !cli.no_verify,
            ..loomc::verify::VerifyOptions::default()
        },
        inspect: cli.inspect.options(),
        kernel: cli.kernel.clone(),
        ..Options::default()
    }
}

/// `--interleave-source`: the source lines beside the PTX and the SASS.
fn interleave_source(outputs: &mut driver::Outputs, files: &SourceFiles) {
    for (emit, text) in outputs {
        match emit {
            Emit::Ptx => *text = loomc::inspect::interleave_source(text, files),
            Emit::Sass => *text = loomc::inspect::interleave_source_sass(text, files),
            _ => {}
        }
    }
}

/// The command-line mistakes found before compiling: each prints its diagnostic and exits 2.
fn check_usage(cli: &CompileArgs, options: &Options) -> Result<(), ExitCode> {
    if let Err(diagnostic) = loomc::target::known_arch(&options.arch) {
        print_diagnostics(cli, &SourceFiles::default(), &[diagnostic], false);
        return Err(ExitCode::from(EXIT_USAGE));
    }
    let last = options.emit.iter().copied().max().unwrap_or(Emit::Ptx);
    if let Err(message) = cli.inspect.check(&options.arch, options.opt, last) {
        return Err(usage_error(cli, &message, None));
    }
    let to_stdout = output::destinations(cli.file(), cli.output.as_deref(), &options.emit)
        .iter()
        .filter(|d| **d == output::Destination::Stdout)
        .count();
    if to_stdout > 1 {
        return Err(usage_error(
            cli,
            "several --emit kinds cannot share standard output: their texts would run together",
            Some(
                "ask for one kind with `-o -`, or name files with `-o PATH` (each kind is \
                 written beside it: `-o build/k --emit=llvm,ptx` writes build/k.ll and \
                 build/k.ptx)",
            ),
        ));
    }
    Ok(())
}

/// A mistake on the command line: exit status 2.
fn usage_error(cli: &CompileArgs, message: &str, help: Option<&str>) -> ExitCode {
    print_plain_error(cli.error_format, message, help);
    ExitCode::from(EXIT_USAGE)
}

fn dedup(emits: impl Iterator<Item = Emit>) -> Vec<Emit> {
    let mut out: Vec<Emit> = Vec::new();
    for emit in emits {
        if !out.contains(&emit) {
            out.push(emit);
        }
    }
    out
}

fn read_source(file: &str) -> Result<String, String> {
    let mut bytes = Vec::new();
    let result = if file == "-" {
        std::io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::File::open(file)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .map(|_| ())
    };
    result.map_err(|e| format!("cannot read `{file}`: {e}"))?;
    // Spans are 32-bit byte offsets.
    if bytes.len() >= u32::MAX as usize {
        return Err(format!(
            "`{file}` is too large: LOOM sources must be smaller than 4 GiB"
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "`{file}` is not valid UTF-8 (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Prints `diagnostics`; `about_the_program` adds the "could not compile" summary (not for a
/// usage error or a failed write, which are no fault of the program).
fn print_diagnostics(
    cli: &CompileArgs,
    files: &SourceFiles,
    diagnostics: &[Diagnostic],
    about_the_program: bool,
) {
    match cli.error_format {
        ErrorFormat::Json => {
            let mut stderr = std::io::stderr().lock();
            for diagnostic in diagnostics {
                let _ = writeln!(stderr, "{}", files.render_json(diagnostic));
            }
        }
        ErrorFormat::Human => {
            let choice = match cli.color {
                ColorArg::Always => ColorChoice::Always,
                ColorArg::Never => ColorChoice::Never,
                ColorArg::Auto if std::io::stderr().is_terminal() => ColorChoice::Auto,
                ColorArg::Auto => ColorChoice::Never,
            };
            // Buffered: codespan-reporting writes a diagnostic in many small pieces, one system call
            // each on a raw stream (200 errors on one long line took seconds to print).
            let mut stderr = BufferedStandardStream::stderr(choice);
            for diagnostic in diagnostics {
                let _ = files.render_human(diagnostic, &mut stderr);
            }
            let errors = diagnostics.iter().filter(|d| d.is_error()).count();
            if errors > 0 && about_the_program {
                let plural = if errors == 1 { "" } else { "s" };
                let _ = writeln!(
                    stderr,
                    "error: could not compile `{}` ({errors} error{plural})",
                    cli.file()
                );
            }
            let mut explained: Vec<&str> = diagnostics
                .iter()
                .map(|d| d.code)
                .filter(|c| explanation(c).is_some())
                .collect();
            explained.dedup();
            if let Some(code) = explained.first() {
                let _ = writeln!(
                    stderr,
                    "For more information about an error, try `loomc explain {code}`."
                );
            }
        }
    }
}

/// Writes the outputs to their destinations (`output.rs`).
fn write_outputs(cli: &CompileArgs, outputs: &driver::Outputs) -> Result<(), Diagnostic> {
    let emits: Vec<Emit> = outputs.iter().map(|(emit, _)| *emit).collect();
    let destinations = output::destinations(cli.file(), cli.output.as_deref(), &emits);
    let writes: Vec<(output::Destination, &str)> = destinations
        .into_iter()
        .zip(outputs.iter().map(|(_, text)| text.as_str()))
        .collect();
    output::write_all(&writes)
}
