//! Code generation errors, as data.

use crate::diagnostics::{Diagnostic, INTERNAL_ERROR};
use crate::syntax::span::Span;
use inkwell::builder::BuilderError;

/// A construct the checker accepts but code generation does not handle yet.
pub const NOT_IMPLEMENTED: &str = "E0810";
/// A `shared` array, vector variable or scan whose length is not known at compile time.
pub const NEEDS_STATIC_LENGTH: &str = "E0811";

/// Every diagnostic id this stage can produce (the UI suite checks each one is tested).
/// Internal errors use [`INTERNAL_ERROR`] and are not listed: no valid program reaches them.
pub const CODES: &[&str] = &[NOT_IMPLEMENTED, NEEDS_STATIC_LENGTH];

#[derive(Debug, Clone)]
pub enum CodegenError {
    /// `what` names the construct, as a user would ("a scan inside a `func`").
    NotImplemented { what: String, span: Span },
    /// `what` is the thing that needs the length ("a `shared` array", "a scan").
    NeedsStaticLength { what: &'static str, span: Span },
    /// The checker's facts and the AST disagree, or inkwell refused an instruction: a loomc bug.
    Internal { message: String, span: Option<Span> },
    /// LLVM's verifier rejected the module: a loomc bug.
    InvalidModule { llvm_message: String },
}

impl CodegenError {
    pub fn not_implemented(what: impl Into<String>, span: Span) -> CodegenError {
        CodegenError::NotImplemented {
            what: what.into(),
            span,
        }
    }

    pub fn internal(message: impl Into<String>, span: Span) -> CodegenError {
        CodegenError::Internal {
            message: message.into(),
            span: Some(span),
        }
    }
}

impl From<BuilderError> for CodegenError {
    fn from(error: BuilderError) -> CodegenError {
        CodegenError::Internal {
            message: format!("LLVM builder: {error}"),
            span: None,
        }
    }
}

impl From<CodegenError> for Diagnostic {
    fn from(error: CodegenError) -> Diagnostic {
        match error {
            CodegenError::NotImplemented { what, span } => {
                Diagnostic::error(NOT_IMPLEMENTED, format!("code generation for {what} is not implemented yet"))
                    .primary(span, "not supported by this version of loomc")
                    .note("planned in issue #3")
            }
            CodegenError::NeedsStaticLength { what, span } => Diagnostic::error(
                NEEDS_STATIC_LENGTH,
                format!("{what} needs a length known at compile time"),
            )
            .primary(span, "the length of this depends on run-time values")
            .note("shared memory is allocated per block when the kernel is compiled")
            .help("use a length made of literals and `BLOCKSIZE`, or store the values to a global array"),
            CodegenError::Internal { message, span } => {
                let d = Diagnostic::error(INTERNAL_ERROR, format!("internal error in code generation: {message}"))
                    .note("this is a bug in loomc; please report it with the program that triggered it");
                match span {
                    Some(span) => d.primary(span, "while compiling this"),
                    None => d,
                }
            }
            CodegenError::InvalidModule { llvm_message } => {
                Diagnostic::error(INTERNAL_ERROR, "code generation produced invalid LLVM IR")
                    .note(format!("LLVM's verifier says: {}", llvm_message.trim()))
                    .note("this is a bug in loomc; please report it with the program that triggered it")
            }
        }
    }
}
