//! Keeps LLVM's passes from speculating loads: from moving a load onto a path that did not
//! run it (SimplifyCFG turning `if valid { x = t[k] }` into a `select` on an unconditional load,
//! GVN's load PRE, LICM hoisting out of a conditional). A load of a shared array is speculable
//! whenever its address is known to lie inside the array, which happens as soon as a thread test
//! pins the index (`tid == 0`, a reduction's last tile of one element); the speculated load then
//! runs on every thread, racing with the one thread that writes the element. The racing value is
//! thrown away, so the GPU computes the right result, but the kernel verifier (E0851) and the
//! CPU backend's sanitizer prove race freedom of the accesses the module makes, and a racing
//! access cannot be told from a discarded one without following every value to its uses (found
//! by the fuzzer's one-hour campaign; docs/testing.md).
//!
//! LLVM has one switch for exactly this: a function with `sanitize_thread` gets no speculative
//! loads ("a speculative load may create a race that did not exist in the source",
//! `mustSuppressSpeculation`), and besides that it only stops code extraction (hot/cold
//! splitting), which the NVPTX pipeline does not run. loomc's optimiser (`src/target.rs`) and the
//! kernel verifier's working copy of unoptimised IR (`canonical_copy`) both run under it. No
//! ThreadSanitizer instrumentation runs:
//! that is a pass of its own (`tsan`), which `-O` never names (a `--passes` pipeline that names it
//! gets it). The attribute is put on every defined function, libdevice's included (linked
//! before), so that the inliner, which only inlines between functions that agree on it, still
//! inlines them, and taken off again after the optimiser, so that the IR users read
//! (`--emit=llvm`) does not claim a sanitizer; dumps from inside the pipeline
//! (`--print-after=instcombine`) show it. The cost on the GPU is small: a load under a thread
//! test stays under it, and ptxas predicates short branches itself.

use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;

const NO_SPECULATIVE_LOADS: &str = "sanitize_thread";

fn kind_id() -> u32 {
    Attribute::get_named_enum_kind_id(NO_SPECULATIVE_LOADS)
}

/// Marks every defined function of `module` so that the optimiser speculates none of its loads.
pub fn forbid(module: &Module<'_>) {
    let attribute = module.get_context().create_enum_attribute(kind_id(), 0);
    for function in module.get_functions() {
        if function.count_basic_blocks() > 0 {
            function.add_attribute(AttributeLoc::Function, attribute);
        }
    }
}

/// Takes the marks of [`forbid`] off again.
pub fn lift(module: &Module<'_>) {
    let kind = kind_id();
    for function in module.get_functions() {
        if function
            .get_enum_attribute(AttributeLoc::Function, kind)
            .is_some()
        {
            function.remove_enum_attribute(AttributeLoc::Function, kind);
        }
    }
}

/// Turns off LICM's scalar promotion in a pipeline run with `options`: the one speculation
/// `sanitize_thread` does not stop. Promotion keeps a loop's loads and stores of one location in
/// a register, loading it once in the preheader. When no access of the location is sure to run
/// in the loop (`if tid == 0 { t[0] = t[0] * x }` in a loop), LICM still hoists the load as
/// soon as a *store's* address is known to be dereferenceable (a constant element of a shared
/// array), and that test, unlike the one for hoisting a load, does not ask
/// `mustSuppressSpeculation`: every thread then loads `t[0]` before the loop, racing with the
/// owner's stores (the fuzz slice's seed 1682,
/// `tests/regressions/licm_promotion_speculates_owner_load.loom`). LLVM has no switch for
/// "promote only what is sure to run": a cap of 0 memory accesses per loop for promotion turns
/// promotion off (and the sinking of loads out of loops with stores, which the same cap guards)
/// for that run, not for the process. The SASS of every example and bench kernel was the same
/// with and without promotion (2026-11-27): loomc's loops keep their running values in SSA.
pub fn forbid_promotion(options: &PassBuilderOptions) {
    options.set_licm_mssa_no_acc_for_promotion_cap(0);
}
