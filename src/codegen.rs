//! Code generation: a checked program to an LLVM module for `nvptx64-nvidia-cuda`, with NVVM
//! intrinsics for thread and block ids and barriers, and kernels annotated for NVPTX.

mod error;

use crate::check::Checked;
use crate::diagnostics::Diagnostic;
use crate::target::NvptxTarget;
use inkwell::context::Context;
use inkwell::module::Module;

pub use error::{CodegenError, CODES};

#[derive(Debug, Clone)]
pub struct CodegenOptions {
    /// Name of the module (the source file's name).
    pub module_name: String,
}

/// Lowers every kernel (and the `func`s they call) of `checked` into one module.
pub fn lower<'ctx>(
    context: &'ctx Context,
    checked: &Checked,
    target: &NvptxTarget,
    options: &CodegenOptions,
) -> Result<Module<'ctx>, Vec<Diagnostic>> {
    let _ = (context, checked, target, options);
    todo!("codegen")
}
