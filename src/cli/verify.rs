//! `loomc verify FILE.ll|FILE.bc`: the kernel verifier on LLVM IR from any front end.
//!
//! Reads textual or bitcode IR, runs LLVM's verifier and the NVPTX annotation checks, then the
//! kernel verifier (barrier placement, shared-memory races), and prints the findings as
//! diagnostics. Source positions come from the IR's debug locations; when the named source file
//! can be read, the diagnostic shows it. Exit status: 0 no error (warnings allowed), 1 errors or
//! unusable input, 2 usage error.

use super::{EXIT_PROGRAM_ERRORS, EXIT_USAGE};
use clap::{Args, ValueEnum};
use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use loomc::diagnostics::{Diagnostic, SourceFiles};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// LLVM IR for NVPTX, as text (`.ll`) or bitcode (`.bc`).
    file: PathBuf,

    /// Threads per block, `X` or `X,Y,Z`, for kernels whose IR does not say (`reqntid`);
    /// `KERNEL=X,Y,Z` for one kernel (repeat for several). Without it a kernel that reads only
    /// x-coordinates is checked for every block of up to 1024 threads (or its `maxntid`).
    #[arg(long, value_name = "[KERNEL=]X[,Y,Z]", value_parser = parse_block_size_arg)]
    block_size: Vec<(Option<String>, [u32; 3])>,

    /// Do not report stores of one uniform value to one location by several threads as a race.
    #[arg(long)]
    tolerate_same_value_writes: bool,

    /// The kernels are launched with one block: do not look for races between blocks.
    #[arg(long)]
    single_block: bool,

    /// Blocks per grid, `X` or `X,Y,Z`: the witnesses of races between blocks use block ids
    /// below it. Without it any block id the hardware allows is possible.
    #[arg(long, value_name = "X[,Y,Z]", value_parser = parse_grid_size)]
    grid_size: Option<[u32; 3]>,

    /// Print what the analyses found (divergent values and branches, convergent operations,
    /// barrier intervals, shared accesses) to standard output.
    #[arg(long)]
    print_analysis: bool,

    /// How diagnostics are printed: for people, or one JSON object per line for tools.
    #[arg(long, value_enum, default_value = "human")]
    error_format: Format,

    /// Colour in human diagnostics.
    #[arg(long, value_enum, default_value = "auto")]
    color: Color,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Human,
    Json,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

fn parse_block_size_arg(text: &str) -> Result<(Option<String>, [u32; 3]), String> {
    match text.split_once('=') {
        Some((kernel, dims)) if !kernel.trim().is_empty() => {
            Ok((Some(kernel.trim().to_string()), parse_block_size(dims)?))
        }
        Some(_) => Err("expected KERNEL=X[,Y,Z]".to_string()),
        None => Ok((None, parse_block_size(text)?)),
    }
}

fn parse_grid_size(text: &str) -> Result<[u32; 3], String> {
    let dims: Vec<u32> = text
        .split(',')
        .map(|d| {
            d.trim()
                .parse::<u32>()
                .map_err(|_| format!("`{d}` is not a block count"))
        })
        .collect::<Result<_, _>>()?;
    if dims.is_empty() || dims.len() > 3 || dims.contains(&0) {
        return Err("expected X, X,Y or X,Y,Z with positive counts".to_string());
    }
    Ok([
        dims[0],
        dims.get(1).copied().unwrap_or(1),
        dims.get(2).copied().unwrap_or(1),
    ])
}

fn parse_block_size(text: &str) -> Result<[u32; 3], String> {
    let dims: Vec<u32> = text
        .split(',')
        .map(|d| {
            d.trim()
                .parse::<u32>()
                .map_err(|_| format!("`{d}` is not a thread count"))
        })
        .collect::<Result<_, _>>()?;
    if dims.is_empty() || dims.len() > 3 || dims.contains(&0) {
        return Err("expected X, X,Y or X,Y,Z with positive counts".to_string());
    }
    let total: u64 = dims.iter().map(|d| u64::from(*d)).product();
    if total > llvm_passes::MAX_THREADS_PER_BLOCK {
        return Err(format!(
            "{total} threads: a block has at most {}",
            llvm_passes::MAX_THREADS_PER_BLOCK
        ));
    }
    Ok([
        dims[0],
        dims.get(1).copied().unwrap_or(1),
        dims.get(2).copied().unwrap_or(1),
    ])
}

pub fn run(args: &VerifyArgs) -> ExitCode {
    let context = Context::create();
    let buffer = match MemoryBuffer::create_from_file(&args.file) {
        Ok(buffer) => buffer,
        Err(e) => {
            eprintln!("error: cannot read `{}`: {e}", args.file.display());
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let module = match context.create_module_from_ir(buffer) {
        Ok(module) => module,
        Err(e) => {
            eprintln!(
                "error: `{}` is not LLVM IR: {}",
                args.file.display(),
                e.to_string().trim()
            );
            return ExitCode::from(EXIT_PROGRAM_ERRORS);
        }
    };
    let structural = llvm_passes::verify_module(&module);
    if !structural.is_empty() {
        for finding in &structural {
            eprintln!("error: `{}`: {finding}", args.file.display());
        }
        return ExitCode::from(EXIT_PROGRAM_ERRORS);
    }
    let options = llvm_passes::VerifyOptions {
        block_size: args
            .block_size
            .iter()
            .find(|(kernel, _)| kernel.is_none())
            .map(|(_, dims)| *dims),
        kernel_block_sizes: args
            .block_size
            .iter()
            .filter_map(|(kernel, dims)| kernel.clone().map(|k| (k, *dims)))
            .collect(),
        tolerate_same_value_writes: args.tolerate_same_value_writes,
        single_block: args.single_block,
        grid_size: args.grid_size,
        input_dependent_races_undecided: false,
    };
    if args.print_analysis {
        print!("{}", llvm_passes::print_analysis(&module, &options));
    }
    let mut files = SourceFiles::default();
    let diagnostics: Vec<Diagnostic> = llvm_passes::verify_kernels(&module, &options)
        .iter()
        .map(|finding| loomc::verify::diagnostic(finding, &mut files, loomc::verify::Style::Ir))
        .collect();
    print(args, &files, &diagnostics);
    if diagnostics.iter().any(Diagnostic::is_error) {
        ExitCode::from(EXIT_PROGRAM_ERRORS)
    } else {
        ExitCode::SUCCESS
    }
}

fn print(args: &VerifyArgs, files: &SourceFiles, diagnostics: &[Diagnostic]) {
    match args.error_format {
        Format::Json => {
            let mut stderr = std::io::stderr().lock();
            for diagnostic in diagnostics {
                let _ = writeln!(stderr, "{}", files.render_json(diagnostic));
            }
        }
        Format::Human => {
            let choice = match args.color {
                Color::Always => ColorChoice::Always,
                Color::Never => ColorChoice::Never,
                Color::Auto if std::io::stderr().is_terminal() => ColorChoice::Auto,
                Color::Auto => ColorChoice::Never,
            };
            let mut stderr = StandardStream::stderr(choice);
            for diagnostic in diagnostics {
                let _ = files.render_human(diagnostic, &mut stderr);
            }
            let errors = diagnostics.iter().filter(|d| d.is_error()).count();
            let warnings = diagnostics.len() - errors;
            let _ = writeln!(
                stderr,
                "{}: {errors} error{}, {warnings} warning{}",
                args.file.display(),
                if errors == 1 { "" } else { "s" },
                if warnings == 1 { "" } else { "s" },
            );
        }
    }
}
