//! LLVM 19's NVPTX back end keeps a process-wide cache of every module's `!nvvm.annotations`
//! (`maxntidx`, `reqntidx`, `kernel`, ...), keyed by the module's and the function's addresses.
//! NVVMIntrRange (in `default<On>`) fills it when it bounds `tid.x` by the block size, and only
//! the PTX printer's finalisation clears it. A module that is optimised but never printed as PTX
//! leaves its entries behind; a later module allocated at the same addresses then reads them,
//! and gets the old module's block size: `range(i32 0, 32)` on `tid.x` in a kernel compiled for
//! 1,024 threads, so that the optimiser deleted its bounds checks (found by the fuzzer: reads
//! past the end of an array on the CPU backend, in about one program in 150, never when the
//! program ran alone).
//!
//! The C API offers no way to clear it; `llvm::clearAnnotationCache(const Module *)` is an
//! ordinary exported function of libLLVMNVPTXCodeGen, which inkwell links statically, so it is
//! called by its C++ name. An `LLVMModuleRef` is the `Module *` itself (`wrap`/`unwrap` are casts),
//! and a function of one pointer argument returning nothing has the C calling convention on every
//! host LLVM supports.

use inkwell::llvm_sys::prelude::LLVMModuleRef;
use inkwell::module::Module;

extern "C" {
    #[link_name = "_ZN4llvm20clearAnnotationCacheEPKNS_6ModuleE"]
    fn llvm_clear_annotation_cache(module: LLVMModuleRef);
}

/// Drops whatever the NVPTX back end remembers about a module at `module`'s address: called
/// before the optimiser reads the annotations (an entry may be another, freed module's) and
/// after (so that this module leaves none behind).
pub fn forget(module: &Module<'_>) {
    // SAFETY: the module is live; the function only takes the cache's lock and erases the
    // module's entry, if there is one.
    unsafe { llvm_clear_annotation_cache(module.as_mut_ptr()) }
}
