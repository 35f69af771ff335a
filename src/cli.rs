//! The commands of the `loomc` binary, one module each.

pub mod compile;
pub mod explain;
pub mod inspect;
pub mod run;
pub mod verify;

/// Exit statuses, as users of compilers expect them.
pub const EXIT_PROGRAM_ERRORS: u8 = 1;
pub const EXIT_USAGE: u8 = 2;
pub const EXIT_INTERNAL_ERROR: u8 = 101;

/// Printed after `--help`: what the exit status says.
pub const EXIT_STATUS_HELP: &str = "\
Exit status:
  0    success
  1    the program has errors (diagnostics on standard error), an output could not be written,
       or (`loomc run`) the kernel could not be launched
  2    usage error: a bad option or value, an unknown --arch, a missing input file
  101  internal compiler error (a bug in loomc: please report it)

--error-format=json prints each diagnostic as one JSON object per line on standard error
(code, severity, message, labels with file/line/column, notes, help); an error without a
code (a bad option value, a failed launch) has a null one. `loomc explain CODE` explains a
code at length.";

/// How diagnostics are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ErrorFormat {
    /// For people.
    Human,
    /// One JSON object per line, for tools.
    Json,
}

/// An error without a code or a source location (a usage error, a failed launch): human text,
/// or one JSON object with a null code, so that a tool reading standard error sees only JSON.
pub fn print_plain_error(format: ErrorFormat, message: &str, help: Option<&str>) {
    match format {
        ErrorFormat::Json => eprintln!(
            "{}",
            serde_json::json!({
                "code": null,
                "severity": "error",
                "message": message,
                "labels": [],
                "notes": [],
                "help": help,
            })
        ),
        ErrorFormat::Human => {
            eprintln!("error: {message}");
            if let Some(help) = help {
                eprintln!("  = help: {help}");
            }
        }
    }
}
