//! The front end's first stage: source text to AST. `parser` is the only module that sees pest.

pub mod ast;
mod error;
mod parser;
pub mod span;
pub mod visit;

pub use error::{SyntaxError, CODES};
pub use parser::{parse, parse_parts, KEYWORDS};
