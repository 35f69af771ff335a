//! `kir-indexed-copies`: the computed vectors a kernel indexes (`(x[[r]] * 2.0)[[i]]`,
//! `(sum /: v)[[BLOCKSIZE - 1]]`). Element `i` of a block vector belongs to thread
//! `i mod BLOCKSIZE`, and any thread may ask for it, so before its statement each such vector is
//! stored, element by element by its owner, into a fresh `shared` array of its (compile-time)
//! length, which the index then reads like any `shared` array; barrier placement orders the
//! stores before the reads. (A shuffle would reach only the own warp.) Vector variables need no
//! copy: `kir-register-vectors` keeps the indexed ones in shared memory.
//!
//! Code generation copies exactly the vectors listed here (`codegen::memory`).

use super::Module;
use crate::check::types::{Len, Ty};
use crate::check::Checked;
use crate::syntax::ast::{ExprKind, Item};
use std::collections::BTreeSet;

pub fn run(module: &mut Module, checked: &Checked) {
    for kernel in &mut module.kernels {
        let mut copies = BTreeSet::new();
        if let Some(Item::Kernel(decl)) = checked.program.items.get(kernel.item) {
            crate::syntax::visit::visit_block(&decl.body, &mut |e| {
                let ExprKind::Index { base, .. } = &e.kind else {
                    return;
                };
                let computed = !matches!(base.kind, ExprKind::Name(_));
                if computed
                    && matches!(
                        checked.ty(base.id),
                        Ty::Vector {
                            len: Len::Static(_),
                            cols: None,
                            ..
                        }
                    )
                {
                    copies.insert(base.span);
                }
            });
        }
        kernel.indexed_copies = Some(copies);
    }
}
