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
