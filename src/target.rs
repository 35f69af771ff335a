//! The NVPTX target: target machine for `--arch`, LLVM's optimiser at `-O`, PTX emission.

use crate::diagnostics::Diagnostic;
use inkwell::module::Module;
use inkwell::targets::TargetMachine;

/// `-O0` .. `-O3`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptLevel {
    O0,
    O1,
    O2,
    O3,
}

pub struct NvptxTarget {
    pub machine: TargetMachine,
    pub arch: String,
}

impl NvptxTarget {
    /// A target machine for `arch` (`sm_75`, `sm_80`, `sm_90`, ...).
    pub fn new(arch: &str, opt: OptLevel) -> Result<NvptxTarget, Diagnostic> {
        let _ = (arch, opt);
        todo!("target")
    }

    /// Runs LLVM's new-pass-manager pipeline for `opt` over the module.
    pub fn optimise(&self, module: &Module<'_>, opt: OptLevel) -> Result<(), Diagnostic> {
        let _ = (module, opt);
        todo!("optimise")
    }

    /// PTX text for the module.
    pub fn emit_ptx(&self, module: &Module<'_>) -> Result<String, Diagnostic> {
        let _ = module;
        todo!("ptx")
    }
}
