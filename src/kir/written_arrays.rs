//! `kir-written-arrays`: which array parameters each kernel may write (by element, by slice or
//! whole). Code generation marks only the others `noalias`: on a written array, `noalias` would
//! let LLVM assume that no one else changes it during the kernel, so that a barrier (a call never
//! given the array) could not order another thread's write before this thread's read. LLVM then
//! kept a value read in one iteration of a loop for the next, where another thread had
//! overwritten it (found by the fuzzer, -O3 only).

use super::{walk_stmts, Module, Stmt};
use crate::check::Checked;
use std::collections::BTreeSet;

pub fn run(module: &mut Module, _checked: &Checked) {
    for kernel in &mut module.kernels {
        let mut written = BTreeSet::new();
        walk_stmts(&kernel.body, &mut |stmt| match stmt {
            Stmt::VectorStore { target, .. } | Stmt::Scatter { target, .. } => {
                written.insert(target.array.clone());
            }
            Stmt::Uniform {
                memory: Some(element),
                ..
            } => {
                written.insert(element.array.clone());
            }
            Stmt::Atomic { place, .. } => {
                written.insert(place.array.clone());
            }
            // Its ticket, flags and prefixes (the statement itself is visited on its own).
            Stmt::Grid { scratch, .. } => {
                written.insert(scratch.clone());
            }
            _ => {}
        });
        for param in kernel.params.iter_mut().filter(|p| p.array) {
            param.written = Some(written.contains(&param.name));
        }
    }
}
