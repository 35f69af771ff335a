//! Analyses and checks over LLVM IR for GPU kernels.
//!
//! This crate knows LLVM IR, not LOOM: it checks modules that any front end produced. The barrier
//! and shared-memory race verifier lands here (issue #4); for now it holds the structural checks
//! every module must pass before optimisation.

use inkwell::module::Module;

/// Checks that `module` is well-formed LLVM IR (LLVM's own verifier). `Err` carries LLVM's
/// explanation.
pub fn verify_module(module: &Module<'_>) -> Result<(), String> {
    module.verify().map_err(|message| message.to_string())
}
