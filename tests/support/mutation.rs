//! Seeded bugs for the kernel verifier's tests: a barrier deleted, or put under a condition,
//! in the optimised module right before the verifier reads it (the driver's `compile_with` hook;
//! no stage of loomc changes a module this way). The UI cases (`--! mutate: remove-barrier N`),
//! the verifier's mutation suite, the CLI tests and the sanitizer's planted bug share it.
#![allow(dead_code)] // each harness uses a different part

use inkwell::module::Module;
use loomc::diagnostics::SourceFiles;
use loomc::driver::{Compilation, Options};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)] // every mutation is of a barrier: the names say which
pub enum Mutation {
    /// Delete block barrier number N (in module order, from 0).
    RemoveBarrier(usize),
    /// Put block barrier number N under `if (tid.x == 0)`.
    GuardBarrier(usize),
    /// Put block barrier number N under a condition no analysis can see through (a volatile
    /// load from private memory), true in every thread.
    OpaqueGuardBarrier(usize),
}

impl Mutation {
    /// `remove-barrier N`, `guard-barrier N` or `opaque-guard-barrier N`.
    pub fn parse(text: &str) -> Result<Mutation, String> {
        let bad = || {
            format!(
                "bad mutation `{text}`: want `remove-barrier N`, `guard-barrier N` or \
                 `opaque-guard-barrier N`"
            )
        };
        let (kind, index) = text.trim().split_once(' ').ok_or_else(bad)?;
        let index: usize = index.trim().parse().map_err(|_| bad())?;
        match kind {
            "remove-barrier" => Ok(Mutation::RemoveBarrier(index)),
            "guard-barrier" => Ok(Mutation::GuardBarrier(index)),
            "opaque-guard-barrier" => Ok(Mutation::OpaqueGuardBarrier(index)),
            _ => Err(bad()),
        }
    }

    fn apply(self, module: &Module<'_>) -> Result<(), String> {
        use llvm_passes::mutate;
        match self {
            Mutation::RemoveBarrier(n) => mutate::remove_barrier(module, n),
            Mutation::GuardBarrier(n) => mutate::guard_barrier(module, n),
            Mutation::OpaqueGuardBarrier(n) => {
                mutate::guard_barrier_with(module, n, mutate::Guard::Opaque)
            }
        }
        .map_err(|message| format!("cannot apply {self:?}: {message}"))
    }
}

/// Compiles with `mutations` applied, in order, before the kernel verifier.
pub fn compile_mutated(
    files: &mut SourceFiles,
    name: &str,
    source: &str,
    options: &Options,
    mutations: &[Mutation],
) -> Compilation {
    let apply = |module: &Module<'_>| mutations.iter().try_for_each(|m| m.apply(module));
    loomc::driver::compile_with(files, name, source, options, Some(&apply))
}
