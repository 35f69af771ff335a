//! Analyses and checks over LLVM IR for GPU kernels.
//!
//! This crate knows LLVM IR, not LOOM: it checks modules that any front end produced (loomc, or
//! clang's CUDA output read from a `.ll` file), in the spirit of verifying at the level where
//! every language meets. Two layers, and a mark both loomc's optimiser and the kernel verifier
//! need:
//!
//! - [`verify_module`]: the structural checks every module must pass before the optimiser sees
//!   it: LLVM's own verifier and the consistency of the NVPTX kernel annotations.
//! - [`verify_kernels`]: the kernel verifier. For every kernel, a divergence analysis
//!   (`divergence.rs`) finds the values and branches that differ between threads; the barrier
//!   placement check (`barriers.rs`) proves that every barrier and full-mask warp collective is
//!   reached by every thread that must reach it; the race analysis (`races.rs`) cuts the kernel
//!   into barrier intervals (`intervals.rs`), writes each shared- or global-memory address as an
//!   affine expression (`races/address.rs`) and decides, by enumerating the block's threads
//!   (`threads.rs`) and GCD and bounds tests (`races/solve.rs`), whether two different threads
//!   can touch the same bytes in one interval, and whether threads of two blocks can touch the
//!   same bytes of global memory at all (`races/blocks.rs`).
//! - [`speculation`]: the function attribute that keeps LLVM's passes from speculating loads,
//!   which would add shared-memory races the module does not have.
//! - [`affine`]: exact linear combinations, the one form in which loomc's checker and code
//!   generation compare integer expressions.
//!
//! The analyses read a snapshot of the module (`ir.rs`), so the only unsafe code is the reader.
//! Findings are data ([`Finding`]); front ends render them. [`print_analysis`] prints the facts
//! the analyses computed, for tests.

// An internal error is a finding, never a panic (tests may unwrap).
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod affine;
mod barriers;
mod block_size;
mod cfg;
mod divergence;
mod fast_hash;
mod findings;
mod intervals;
mod invariants;
mod ir;
mod kernel;
mod kernel_annotations;
mod linked_targets;
pub mod mutate;
mod node_set;
mod nvvm;
mod opencl;
mod races;
mod ranges;
pub mod speculation;
mod threads;

use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::module::Module;
use inkwell::values::InstructionOpcode;
use std::ffi::CString;

pub use findings::{
    block_text, AccessKind, ConvergentKind, Finding, Hazard, InstRef, Race, RaceAccess, Severity,
    Unproven,
};
pub use ir::DebugLoc;
pub use kernel_annotations::{
    kernel_annotations, AnnotationProblem, KernelAnnotation, MAX_THREADS_PER_BLOCK,
};
pub use threads::ThreadId;

pub(crate) use kernel::Context;

/// Choices of the kernel verifier.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VerifyOptions {
    /// Threads per block (x, y, z) for kernels whose IR does not say (`reqntid`). Without it,
    /// a kernel that reads only x-coordinates is checked for every block of up to 1024 threads,
    /// and one that reads y or z by GCD and bounds tests alone.
    pub block_size: Option<[u32; 3]>,
    /// Threads per block for one kernel, by name; takes precedence over `block_size` (but not
    /// over `reqntid`).
    pub kernel_block_sizes: Vec<(String, [u32; 3])>,
    /// Do not report two stores of the same uniform value to one location as a race (they are
    /// one by the memory model, and the default is strict).
    pub tolerate_same_value_writes: bool,
    /// The kernels are launched with a single block: races between blocks cannot happen and
    /// are not looked for.
    pub single_block: bool,
    /// Blocks per grid (x, y, z), if known: block ids of the witnesses of races between blocks
    /// stay below it (a 4096-wide matrix of 32-wide tiles has 128 blocks a row, and a block id
    /// of 4096 would reach past a row's end into the next).
    pub grid_size: Option<[u32; 3]>,
    /// Leave races that need particular contents of the kernel's input arrays undecided
    /// (E0852), as for any address computed from data, instead of reporting them with an input
    /// that shows them (`races::race_on_zero_inputs`). loomc sets it for its own output: LOOM
    /// defines a scatter's colliding positions (one element is stored) and leaves their
    /// distinctness to the program.
    pub input_dependent_races_undecided: bool,
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

/// Verifies every kernel of `module`: barrier placement, races within a block (shared and
/// global memory) and between blocks (global memory). Errors are proven problems; warnings are
/// what the analysis could not decide or express. Kernels are the functions
/// `!nvvm.annotations` marks, or every defined function if it marks none.
pub fn verify_kernels(module: &Module<'_>, options: &VerifyOptions) -> Vec<Finding> {
    run(module, options, None)
}

/// What the analyses computed for each kernel, as text: the values and branches that are not
/// uniform, the convergent operations, the barrier intervals and the shared accesses.
pub fn print_analysis(module: &Module<'_>, options: &VerifyOptions) -> String {
    let mut out = String::new();
    run(module, options, Some(&mut out));
    out
}

/// A kernel, with its block's dimensions if `reqntid` fixes them and its `maxntidx`.
type Target<'a> = (&'a ir::Function, Option<[u32; 3]>, Option<u32>);

fn run(
    module: &Module<'_>,
    options: &VerifyOptions,
    mut dump: Option<&mut String>,
) -> Vec<Finding> {
    // Structural problems are `verify_module`'s to report; a module with them is not analysed.
    if module.verify().is_err() {
        return Vec::new();
    }
    let Ok(kernels) = kernel_annotations(module) else {
        return Vec::new();
    };
    // Optimised IR (no `alloca` left) is read as it is: the canonical passes would find little
    // to do, and their time grows with the square of the branches on one condition.
    let copy;
    let analysed = if canonical_passes(module).is_some() {
        copy = match canonical_copy(module) {
            Ok(copy) => copy,
            Err(message) => return vec![Finding::InvalidIr(message)],
        };
        &copy
    } else {
        module
    };
    let snapshot = ir::read_module(analysed);
    let with_barriers = barriers::functions_with_barriers(&snapshot);
    // Each kernel with what its annotations say of the block: exact (`reqntid`) or a bound
    // (`maxntid`).
    let targets: Vec<Target<'_>> = if kernels.is_empty() {
        snapshot.functions.iter().map(|f| (f, None, None)).collect()
    } else {
        kernels
            .iter()
            .filter_map(|k| {
                let function = snapshot.function(&k.function)?;
                let required = k.required_threads.map(|x| {
                    [
                        x as u32,
                        k.required_threads_yz[0].unwrap_or(1) as u32,
                        k.required_threads_yz[1].unwrap_or(1) as u32,
                    ]
                });
                let most = k.max_threads.map(|m| m.min(MAX_THREADS_PER_BLOCK) as u32);
                Some((function, required, most))
            })
            .collect()
    };
    let mut findings = Vec::new();
    for (function, required, most) in targets {
        let given = options
            .kernel_block_sizes
            .iter()
            .find(|(name, _)| *name == function.name)
            .map(|(_, dims)| *dims)
            .or(options.block_size);
        let geometry = match required.or(given) {
            Some(dims) if dims.iter().map(|d| u64::from(*d)).product::<u64>() <= 1024 => {
                threads::Geometry::Known(dims)
            }
            _ if threads::uses_more_than_x(&snapshot, function) => threads::Geometry::Unknown,
            _ => threads::Geometry::UpTo(most.unwrap_or(threads::MAX_THREADS).max(1)),
        };
        let specialised = match geometry {
            threads::Geometry::Known(dims) => block_size::specialise(&snapshot, function, dims),
            _ => None,
        };
        let current = specialised.as_ref().unwrap_or(function);
        // Merged copies of invariant values serve the race check's address arithmetic only:
        // a merged copy may stand where threads take different paths, which the divergence
        // analysis would read as a value that differs between threads.
        let merged = invariants::merge_copies(&snapshot, current);
        findings.extend(kernel::verify(
            &snapshot,
            current,
            merged.as_ref(),
            geometry,
            options,
            &with_barriers,
            dump.as_deref_mut(),
        ));
    }
    findings
}

/// The passes the verifier runs on a copy of `module` before reading it: [`CANONICAL_PASSES`]
/// when a defined function keeps a variable in memory (unoptimised IR) or calls a function the
/// module defines (which the copy inlines, so that the accesses and barriers inside it are
/// analysed as the kernel's own), none otherwise.
pub fn canonical_passes(module: &Module<'_>) -> Option<&'static str> {
    let alloca_or_call = module.get_functions().any(|function| {
        function.get_basic_block_iter().any(|block| {
            block
                .get_instructions()
                .any(|inst| match inst.get_opcode() {
                    InstructionOpcode::Alloca => true,
                    InstructionOpcode::Call => calls_defined_function(&inst),
                    _ => false,
                })
        }) || (function.count_basic_blocks() == 0
            && opencl::is_builtin(&function.get_name().to_string_lossy())
            && inkwell::values::BasicValue::get_first_use(
                &function.as_global_value().as_pointer_value(),
            )
            .is_some())
    });
    alloca_or_call.then_some(CANONICAL_PASSES)
}

/// Whether a call instruction calls a function with a body in this module.
fn calls_defined_function(call: &inkwell::values::InstructionValue<'_>) -> bool {
    use inkwell::values::AsValueRef;
    use llvm_sys::core::{LLVMCountBasicBlocks, LLVMGetCalledValue, LLVMIsAFunction};
    // SAFETY: `call` is a live call instruction of the module; its called value is a live value
    // (or null), which LLVMIsAFunction only inspects, and a function it returns is live.
    unsafe {
        let callee = LLVMGetCalledValue(call.as_value_ref());
        if callee.is_null() {
            return false;
        }
        let function = LLVMIsAFunction(callee);
        !function.is_null() && LLVMCountBasicBlocks(function) > 0
    }
}

/// The IR the kernel verifier reads for `module`: the text of its canonical copy (promoted,
/// folded, device functions inlined), or `None` when it reads the module as it is. For tests
/// that compare the verifier's analyses with LLVM's on the same IR.
pub fn canonical_ir(module: &Module<'_>) -> Result<Option<String>, String> {
    if canonical_passes(module).is_none() {
        return Ok(None);
    }
    Ok(Some(canonical_copy(module)?.print_to_string().to_string()))
}

/// The passes of [`canonical_copy`]: inline every defined function into its callers (the copy
/// marks them `alwaysinline`; a recursive one stays a call), then promote and fold, then drop
/// the branches that folding decided (`simplifycfg` with no hoisting, sinking or speculation
/// of blocks: it removes dead edges, merges blocks and folds branches whose outcome is known;
/// loads stay where they are, under the working copy's mark against speculated loads). A loop whose condition folds to false keeps
/// its back edge and the counter's phi otherwise, and the race check cannot follow a phi of a
/// thread id around a back edge that never runs (loomc's rotated block-stride loops at -O0).
pub const CANONICAL_PASSES: &str = "always-inline,function(sroa,mem2reg,instcombine<no-verify-fixpoint>,early-cse,simplifycfg<no-hoist-common-insts;no-sink-common-insts;no-speculate-blocks>)";

/// A copy of `module` with private variables promoted to registers (SROA, mem2reg) and
/// redundant computations folded (instcombine, early CSE), so that unoptimised IR, which keeps
/// every local in an `alloca` and recomputes `block(B).lo` at each use, shows its data flow.
/// These passes preserve the program's meaning, barriers included (a barrier is a call with
/// unknown memory effects: no load is merged across one), so what is proven of the copy holds of
/// the module.
fn canonical_copy<'ctx>(module: &Module<'ctx>) -> Result<Module<'ctx>, String> {
    let copy = module.clone();
    // Unoptimised clang output marks every function `optnone`, which the passes respect. And
    // instcombine must not speculate loads (`load (select c, p, q)` into loads of both), which
    // would add races the module does not have.
    let optnone = Attribute::get_named_enum_kind_id("optnone");
    let noinline = Attribute::get_named_enum_kind_id("noinline");
    let always = copy
        .get_context()
        .create_enum_attribute(Attribute::get_named_enum_kind_id("alwaysinline"), 0);
    let kernels: Vec<String> = kernel_annotations(module)
        .map(|ks| ks.into_iter().map(|k| k.function).collect())
        .unwrap_or_default();
    for function in copy.get_functions() {
        function.remove_enum_attribute(AttributeLoc::Function, optnone);
        // Device functions are inlined into the kernels, as the verifier analyses one function
        // at a time: a non-inlined callee's accesses and barriers would go unseen.
        let name = function.get_name().to_string_lossy();
        if function.count_basic_blocks() > 0 && !kernels.iter().any(|k| *k == name) {
            function.remove_enum_attribute(AttributeLoc::Function, noinline);
            function.add_attribute(AttributeLoc::Function, always);
        }
    }
    speculation::forbid(&copy);
    opencl::define_builtins(&copy)?;
    // `no-verify-fixpoint`: LLVM 19 otherwise aborts the process when instcombine needs a
    // second round, which is a quality check of instcombine, not of the module.
    let passes = CString::new(CANONICAL_PASSES).map_err(|e| e.to_string())?;
    // SAFETY: `copy` is a live module we own; LLVMRunPasses accepts a null target machine and
    // its own options, which are disposed of here.
    unsafe {
        use llvm_sys::error::{LLVMDisposeErrorMessage, LLVMGetErrorMessage};
        use llvm_sys::transforms::pass_builder::{
            LLVMCreatePassBuilderOptions, LLVMDisposePassBuilderOptions, LLVMRunPasses,
        };
        let options = LLVMCreatePassBuilderOptions();
        let error = LLVMRunPasses(
            copy.as_mut_ptr(),
            passes.as_ptr(),
            std::ptr::null_mut(),
            options,
        );
        LLVMDisposePassBuilderOptions(options);
        if !error.is_null() {
            let message = LLVMGetErrorMessage(error);
            let text = std::ffi::CStr::from_ptr(message)
                .to_string_lossy()
                .into_owned();
            LLVMDisposeErrorMessage(message);
            return Err(format!(
                "cannot prepare the module for verification: {text}"
            ));
        }
    }
    Ok(copy)
}
