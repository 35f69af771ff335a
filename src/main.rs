//! `loomc`: parses the command line and hands each command to its module under `cli/`.

mod cli;

use clap::{Parser, Subcommand};
use cli::{EXIT_INTERNAL_ERROR, EXIT_USAGE};
use loomc::diagnostics::INTERNAL_ERROR;
use std::process::ExitCode;

/// `loomc FILE.loom [options]` compiles; `loomc COMMAND ...` does something else.
#[derive(Parser, Debug)]
#[command(
    name = "loomc",
    version,
    about = "Compiles LOOM GPU kernels to LLVM IR and PTX",
    args_conflicts_with_subcommands = true,
    after_help = cli::EXIT_STATUS_HELP,
    subcommand_negates_reqs = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    compile: cli::compile::CompileArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Explains a diagnostic code at length: `loomc explain E0300`.
    Explain(cli::explain::ExplainArgs),
    /// Runs a kernel on the CPU backend or a GPU: `loomc run k.loom --kernel k --blocks 4
    /// --arg n=1000 --in x=x.npy --out y=y.npy`.
    #[command(after_help = cli::EXIT_STATUS_HELP)]
    Run(cli::run::RunArgs),
    /// Verifies NVPTX LLVM IR from any front end: barrier placement and shared-memory races
    /// (`loomc verify kernel.ll`, e.g. from `clang --cuda-device-only -S -emit-llvm`).
    Verify(cli::verify::VerifyArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { EXIT_USAGE } else { 0 });
        }
    };
    // A panic anywhere in the compiler is a bug: report it as one instead of a bare backtrace.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("error[{INTERNAL_ERROR}]: internal compiler error: {info}");
        eprintln!("note: this is a bug in loomc: please report it with the program that caused it");
    }));
    // The checker and code generation recurse over expressions, which may be thousands of
    // operators deep (a chain `a + b + ...` is a tree as deep as it is long; the parser allows
    // 10,000 operators): run them on a thread with room for that, not on main's 8 MiB.
    let worker = std::thread::Builder::new()
        .name("loomc".to_string())
        .stack_size(COMPILER_STACK_BYTES)
        .spawn(move || {
            std::panic::catch_unwind(|| match &cli.command {
                None => cli::compile::run(&cli.compile),
                Some(Command::Explain(args)) => cli::explain::run(args),
                Some(Command::Run(args)) => cli::run::run(args),
                Some(Command::Verify(args)) => cli::verify::run(args),
            })
        });
    let code = match worker.map(|handle| handle.join()) {
        Ok(Ok(Ok(code))) => code,
        _ => ExitCode::from(EXIT_INTERNAL_ERROR),
    };
    loomc::inspect::remove_timing_dir();
    code
}

/// The compiler thread's stack: tests/fuzz.rs runs the pipeline with the same.
const COMPILER_STACK_BYTES: usize = 64 << 20;
