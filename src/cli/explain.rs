//! `loomc explain CODE`: the long explanation of a diagnostic, from `docs/errors/CODE.md`.

use super::EXIT_USAGE;
use clap::Args;
use loomc::diagnostics::{explained_codes, explanation, retired};
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// A diagnostic code such as E0300 (as printed in `error[E0300]`).
    code: String,
}

pub fn run(args: &ExplainArgs) -> ExitCode {
    let code = args.code.trim().to_ascii_uppercase();
    match explanation(&code) {
        Some(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        None if retired(&code).is_some() => {
            let why = retired(&code).unwrap_or_default();
            println!("{code} is no longer given by loomc: {why}.");
            ExitCode::SUCCESS
        }
        None => {
            let known: Vec<&str> = explained_codes().collect();
            eprintln!(
                "error: no explanation for `{}`; codes with one: {}",
                args.code,
                known.join(", ")
            );
            ExitCode::from(EXIT_USAGE)
        }
    }
}
