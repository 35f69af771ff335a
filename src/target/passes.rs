//! LOOM's own passes, in pipeline order, as one registry (as LLVM's `NVPTXPassRegistry.def`
//! lists NVPTX's): what `--print-before`/`--print-after` accept besides LLVM's pass names, and
//! what `--print-after-all` dumps around LLVM's optimiser.
//!
//! The `kir-` passes work on the kernel IR (`crate::kir`, which runs them in this order) and
//! decide what code generation is told. LOOM's other IR-changing work happens in two places:
//! during lowering (barrier placement, loop distribution, reduction and scan expansion: one pass,
//! `loom-lower`, since each of those decisions is still made where the code is emitted) and in
//! `loom-link-libdevice` before LLVM's optimiser. The two verifiers are analyses: they never
//! change the module, and are listed so that a dump can be asked for at the point where each ran.

use super::NvptxTarget;
use inkwell::context::Context;

/// Where a LOOM pass stands relative to LLVM's optimiser.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Position {
    /// On the kernel IR (`crate::kir`), before code generation makes the LLVM module.
    KernelIr,
    BeforeOptimiser,
    AfterOptimiser,
}

#[derive(Debug, Clone, Copy)]
pub struct LoomPass {
    pub name: &'static str,
    /// Whether it can change the module (analyses cannot).
    pub transforms: bool,
    pub position: Position,
    pub what: &'static str,
}

/// Every LOOM pass, in the order the driver runs them; LLVM's pipeline runs between the last
/// `BeforeOptimiser` and the first `AfterOptimiser` one.
pub const LOOM_PASSES: &[LoomPass] = &[
    LoomPass {
        name: crate::kir::LOWER,
        transforms: true,
        position: Position::KernelIr,
        what: "the checked program to kernel IR: block-level statements, vector stages, their \
               reads, writes and collectives",
    },
    LoomPass {
        name: crate::kir::WRITTEN_ARRAYS,
        transforms: true,
        position: Position::KernelIr,
        what: "which array parameters each kernel may write (the others are `noalias`)",
    },
    LoomPass {
        name: crate::kir::REGISTER_VECTORS,
        transforms: true,
        position: Position::KernelIr,
        what: "which vector variables live in registers",
    },
    LoomPass {
        name: crate::kir::RECOMPUTED_VECTORS,
        transforms: true,
        position: Position::KernelIr,
        what: "which vector variables of run-time length are evaluated again at each use",
    },
    LoomPass {
        name: crate::kir::GRID,
        transforms: true,
        position: Position::KernelIr,
        what: "whether a kernel runs on a two-dimensional grid (it names BROW, BCOL, GRIDROWS or GRIDCOLS)",
    },
    LoomPass {
        name: crate::kir::INDEXED_COPIES,
        transforms: true,
        position: Position::KernelIr,
        what: "which computed vectors each kernel indexes (each is stored into a `shared` array \
               before its statement)",
    },
    LoomPass {
        name: crate::kir::SWEEPS,
        transforms: true,
        position: Position::KernelIr,
        what: "how each consumer of a block vector walks its positions (unrolled slots, block-stride \
               loop, tiles) and how each reduction combines",
    },
    LoomPass {
        name: crate::kir::COLLECTIVES,
        transforms: true,
        position: Position::KernelIr,
        what: "how each reduction and scan is expanded at the block size: the warp's lanes and \
               shuffle mask, the shuffle tree, the shared partials and their barrier, a \
               reduction's start from its function's identity, and the steps code generation \
               emits, in order",
    },
    LoomPass {
        name: crate::kir::GUARDS,
        transforms: true,
        position: Position::KernelIr,
        what: "which checked reads of a vector share one bounds test (`c[[r]] <- a[[r]] + b[[r]]`: \
               one test of the element index)",
    },
    LoomPass {
        name: crate::kir::ACCESSES,
        transforms: true,
        position: Position::KernelIr,
        what: "which vector stores read their own target at other positions and compute every \
               element before storing any (E0811 where that needs a run-time number of registers)",
    },
    LoomPass {
        name: crate::kir::DISTRIBUTE,
        transforms: true,
        position: Position::KernelIr,
        what: "which `for` loops run their iterations on the block's threads (dependence tests: \
               GCD, Banerjee)",
    },
    LoomPass {
        name: crate::kir::BARRIERS,
        transforms: true,
        position: Position::KernelIr,
        what: "where each kernel needs barriers and why, and the barriers the rule asks for that \
               no access needs, removed (R0802); code generation emits these",
    },
    LoomPass {
        name: crate::kir::SHARED_MEMORY,
        transforms: true,
        position: Position::KernelIr,
        what: "every array each kernel keeps in shared memory, the collectives' scratch buffers \
               included, and its size (checked against the target: E0812)",
    },
    LoomPass {
        name: LOWER,
        transforms: true,
        position: Position::BeforeOptimiser,
        what: "code generation: the checked program to LLVM IR with NVVM intrinsics, as the \
               kernel IR decided (its barriers, sweeps, guards, distributed loops and the \
               collectives' expansion)",
    },
    LoomPass {
        name: VERIFY_IR,
        transforms: false,
        position: Position::BeforeOptimiser,
        what: "LLVM's verifier and the NVVM annotations, on the IR as generated",
    },
    LoomPass {
        name: LINK_LIBDEVICE,
        transforms: true,
        position: Position::BeforeOptimiser,
        what: "links the libdevice functions the module calls, made internal",
    },
    LoomPass {
        name: THREAD_GUARDS,
        transforms: true,
        position: Position::AfterOptimiser,
        what: "a branch on the condition the branch before it just decided (a checked read's \
               triangle, then a store's guard on the same bounds test) goes straight to its side \
               (LLVM's jump threading is off on NVPTX); not after `--passes` or at -O0",
    },
    LoomPass {
        name: VERIFY_KERNELS,
        transforms: false,
        position: Position::AfterOptimiser,
        what: "the kernel verifier: barriers reached by every thread, no shared-memory races",
    },
];

pub const LOWER: &str = "loom-lower";
pub const VERIFY_IR: &str = "loom-verify-ir";
pub const LINK_LIBDEVICE: &str = "loom-link-libdevice";
pub const THREAD_GUARDS: &str = "loom-thread-guards";
pub const VERIFY_KERNELS: &str = "loom-verify-kernels";

/// True for a name in LOOM's namespaces (`loom-…` on the LLVM module, `kir-…` on the kernel
/// IR): such a name must be in the registry; every other name is LLVM's.
pub fn is_loom_name(name: &str) -> bool {
    name.starts_with("loom-") || name.starts_with("kir-")
}

pub fn find(name: &str) -> Option<&'static LoomPass> {
    LOOM_PASSES.iter().find(|p| p.name == name)
}

/// Checks that LLVM's new pass manager accepts `pipeline` (a `--passes` value, or one pass name
/// given to `--print-before`/`--print-after`) by running it over an empty module: LLVM's own
/// parser decides, so every pass and parameter it knows is accepted and nothing else.
pub fn check_pipeline(target: &NvptxTarget, pipeline: &str) -> Result<(), String> {
    if pipeline.trim().is_empty() {
        return Err("the pass pipeline is empty".to_string());
    }
    let context = Context::create();
    let module = context.create_module("pipeline-check");
    target.configure(&module);
    module
        .run_passes(
            pipeline,
            &target.machine,
            inkwell::passes::PassBuilderOptions::create(),
        )
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::OptLevel;

    #[test]
    fn names_are_unique_and_in_pipeline_order() {
        let mut names: Vec<&str> = LOOM_PASSES.iter().map(|p| p.name).collect();
        let positions: Vec<Position> = LOOM_PASSES.iter().map(|p| p.position).collect();
        let after = positions
            .iter()
            .position(|p| *p == Position::AfterOptimiser)
            .unwrap();
        assert!(positions[after..]
            .iter()
            .all(|p| *p == Position::AfterOptimiser));
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), LOOM_PASSES.len());
        assert!(find(LINK_LIBDEVICE).unwrap().transforms);
        assert!(find("instcombine").is_none());
    }

    #[test]
    fn llvm_decides_which_pipelines_are_valid() {
        let target = NvptxTarget::new("sm_80", OptLevel::O3).unwrap();
        for good in [
            "default<O2>",
            "instcombine",
            "licm",
            "function(sroa,early-cse),globaldce",
        ] {
            check_pipeline(&target, good).unwrap_or_else(|e| panic!("{good}: {e}"));
        }
        for bad in ["", "instcombin", "default<O7>", "function(sroa"] {
            assert!(check_pipeline(&target, bad).is_err(), "{bad} accepted");
        }
    }
}
