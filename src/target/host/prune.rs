//! Only what a build's launches call goes to the JIT. The lowering leaves several copies of each
//! kernel in the module: the kernel itself, its entry (one thread), its loop over a block's
//! threads or its cut, and its coroutine with LLVM's resume, destroy and cleanup clones. A build
//! calls one of them (`Calls`), and MCJIT generates machine code for every function it is given:
//! that was half of the fuzz slice's time, and a kernel that keeps its coroutines went to the
//! code generator six times.

use super::coro;
use super::error::HostError;
use inkwell::llvm_sys::core::LLVMReplaceAllUsesWith;
use inkwell::llvm_sys::prelude::LLVMValueRef;
use inkwell::module::{Linkage, Module};
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::TargetMachine;
use inkwell::values::{AsValueRef, FunctionValue};

/// What a launch of one kernel calls, in one build, by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Calls {
    /// `loom.entry.<kernel>`, once per thread (the sanitizer, a call per thread, or a kernel
    /// with nothing compiled for a whole block).
    Entry(String),
    /// This function, once per block: the loop over a block's threads, or the kernel cut into
    /// loops at its synchronisations.
    Threads(String),
    /// `loom.coro.<kernel>` per thread (`ramp`), and `loom.coro.resume`.
    Coroutine { ramp: String, resume: String },
}

impl Calls {
    /// The functions a launch calls.
    pub fn functions(&self) -> Vec<&str> {
        match self {
            Calls::Entry(name) | Calls::Threads(name) => vec![name],
            Calls::Coroutine { ramp, resume } => vec![ramp, resume],
        }
    }
}

/// Removes every function of `module` that no function in `called` reaches, and the coroutines'
/// destroy and cleanup clones: LOOM never destroys a coroutine (a thread's frame is the worker's
/// memory, reused), so each frame's pointers to them point at one function that is never called.
pub fn keep_only(
    module: &Module<'_>,
    machine: &TargetMachine,
    called: &[&str],
) -> Result<(), HostError> {
    let mut never_called = None;
    for f in module.get_functions() {
        if f.count_basic_blocks() == 0 {
            continue;
        }
        let name = f.get_name().to_string_lossy().into_owned();
        if !called.contains(&name.as_str()) {
            f.set_linkage(Linkage::Internal);
        }
        if is_never_called_clone(&name) {
            let stub = *never_called.get_or_insert_with(|| unreachable_function(module, f));
            // SAFETY: both are functions of `module` of one type; `f` is removed below.
            unsafe { LLVMReplaceAllUsesWith(f.as_value_ref(), stub) };
        }
    }
    module
        .run_passes("globaldce", machine, PassBuilderOptions::create())
        .map_err(|e| HostError::Llvm(format!("removing what no launch calls: {e}")))
}

/// A coroutine's destroy or cleanup function, as LLVM's `coro-split` names them.
fn is_never_called_clone(name: &str) -> bool {
    name.starts_with(coro::CORO_PREFIX)
        && (name.ends_with(".destroy") || name.ends_with(".cleanup"))
}

/// An internal function of `like`'s type whose body is `unreachable`.
fn unreachable_function<'ctx>(module: &Module<'ctx>, like: FunctionValue<'ctx>) -> LLVMValueRef {
    let context = module.get_context();
    let f = module.add_function(
        "loom.coro.never_called",
        like.get_type(),
        Some(Linkage::Internal),
    );
    let builder = context.create_builder();
    builder.position_at_end(context.append_basic_block(f, "never"));
    builder.build_unreachable().ok();
    f.as_value_ref()
}

#[cfg(test)]
mod tests {
    use super::is_never_called_clone;

    #[test]
    fn only_coroutine_clones_that_are_never_called_are_replaced() {
        assert!(is_never_called_clone("loom.coro.sum.destroy"));
        assert!(is_never_called_clone("loom.coro.sum.cleanup"));
        assert!(!is_never_called_clone("loom.coro.sum.resume"));
        assert!(!is_never_called_clone("loom.coro.sum"));
        // A user kernel named like a clone is not one.
        assert!(!is_never_called_clone("k.destroy"));
    }
}
