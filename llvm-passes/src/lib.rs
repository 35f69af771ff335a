//! Analyses and checks over LLVM IR for GPU kernels.
//!
//! This crate knows LLVM IR, not LOOM: it checks modules that any front end produced (loomc, or
//! clang's CUDA output read from a `.ll` file). The barrier-divergence and shared-memory race
//! verifier lands here (issue #4). For now it holds the structural checks every module must pass
//! before the optimiser sees it: LLVM's own verifier and the consistency of the NVPTX kernel
//! annotations, which LLVM's verifier does not look at.

mod kernel_annotations;

use inkwell::module::Module;

pub use kernel_annotations::{kernel_annotations, AnnotationProblem, KernelAnnotation};

/// A reason a module cannot be compiled as it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// LLVM's verifier rejected the module; its explanation.
    InvalidIr(String),
    /// `!nvvm.annotations` is inconsistent with the functions it describes.
    Annotation(AnnotationProblem),
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Finding::InvalidIr(message) => write!(f, "invalid LLVM IR: {message}"),
            Finding::Annotation(problem) => write!(f, "{problem}"),
        }
    }
}

/// Runs every structural check on `module`; an empty result means it may be optimised and emitted.
pub fn verify_module(module: &Module<'_>) -> Vec<Finding> {
    let mut findings = Vec::new();
    if let Err(message) = module.verify() {
        findings.push(Finding::InvalidIr(message.to_string()));
    }
    match kernel_annotations(module) {
        Ok(_) => {}
        Err(problems) => findings.extend(problems.into_iter().map(Finding::Annotation)),
    }
    findings
}
