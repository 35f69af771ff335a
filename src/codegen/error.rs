//! Code generation errors, as data.

use crate::diagnostics::{Diagnostic, INTERNAL_ERROR};
use crate::syntax::span::Span;
use inkwell::builder::BuilderError;

// E0810 ("not implemented by code generation yet") is retired: whatever the checker accepts is
// either built or rejected by the checker with a code of its own, and a code generation path
// that a checked program cannot reach is an internal error naming the checker rule.
/// A `shared` array, vector variable or scan whose length is not known at compile time (also
/// found by `kir-sweeps`, which renders it the same way).
pub use crate::kir::NEEDS_STATIC_LENGTH;

/// A kernel's shared memory exceeds what one block may have on the target.
pub const SHARED_MEMORY_LIMIT: &str = "E0812";

/// Every diagnostic id this stage can produce (the UI suite checks each one is tested).
/// Internal errors use [`INTERNAL_ERROR`] and are not listed: no valid program reaches them.
pub const CODES: &[&str] = &[NEEDS_STATIC_LENGTH, SHARED_MEMORY_LIMIT];

#[derive(Debug, Clone)]
pub enum CodegenError {
    /// `what` is the thing that needs the length ("a `shared` array"); `why` says what is
    /// sized when the kernel is compiled.
    NeedsStaticLength {
        what: &'static str,
        why: &'static str,
        span: Span,
    },
    /// The kernel's static shared memory is more than a block may have on `arch`. `decls`: every
    /// shared array (name, declaration, bytes), largest first.
    SharedMemoryLimit {
        kernel: String,
        kernel_span: Span,
        total: u64,
        limit: u64,
        arch: String,
        decls: Vec<(String, Span, u64)>,
    },
    /// The checker's facts and the AST disagree, or inkwell refused an instruction: a loomc bug.
    Internal { message: String, span: Option<Span> },
    /// LLVM's verifier rejected the module: a loomc bug.
    InvalidModule { llvm_message: String },
}

impl CodegenError {
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
            CodegenError::NeedsStaticLength { what, why, span } => {
                crate::kir::Limit::NeedsStaticLength { what, why, span }.diagnostic()
            }
            CodegenError::SharedMemoryLimit {
                kernel,
                kernel_span,
                total,
                limit,
                arch,
                decls,
            } => {
                let mut d = Diagnostic::error(
                    SHARED_MEMORY_LIMIT,
                    format!("kernel `{kernel}` needs {total} bytes of shared memory per block, more than the {limit} that {arch} allows"),
                );
                for (i, (name, span, bytes)) in decls.iter().enumerate() {
                    let label = format!("{} {bytes} bytes", what_takes(name));
                    d = if i == 0 {
                        d.primary(*span, label)
                    } else {
                        d.secondary(*span, label)
                    };
                }
                d.secondary(kernel_span, "in this kernel")
                    .note(format!("static shared memory is limited to {limit} bytes per block; the size of a `shared` array is its length times its element size, and a length may depend on BLOCKSIZE"))
                    .help("make the arrays shorter (or the block smaller with `@blocksize(N)`), or keep the data in a global array")
            }
            CodegenError::Internal { message, span } => {
                let d = Diagnostic::error(
                    INTERNAL_ERROR,
                    format!("internal error in code generation: {message}"),
                )
                .note(
                    "this is a bug in loomc; please report it with the program that triggered it",
                );
                match span {
                    Some(span) => d.primary(span, "while compiling this"),
                    None => d,
                }
            }
            CodegenError::InvalidModule { llvm_message } => Diagnostic::error(
                INTERNAL_ERROR,
                "code generation produced invalid LLVM IR",
            )
            .note(format!("LLVM's verifier says: {}", llvm_message.trim()))
            .note("this is a bug in loomc; please report it with the program that triggered it"),
        }
    }
}

/// Who takes the bytes of a shared array in E0812: the user's array by name, or what the
/// compiler made one for (`kir-shared-memory`'s names).
fn what_takes(name: &str) -> String {
    match name {
        "reduce.partials" => "this reduction's partials take".to_string(),
        "scan.partials" => "this scan's partials take".to_string(),
        "indexed" => "this vector's shared copy takes".to_string(),
        "atomic.old" => "this atomic's old value takes".to_string(),
        "grid.ticket" => "this grid-wide statement's ticket takes".to_string(),
        "grid.prefix" => "this grid-wide statement's prefix takes".to_string(),
        _ => format!("`{name}` takes"),
    }
}

/// The result of a code generation step.
pub type Result<T> = std::result::Result<T, CodegenError>;
