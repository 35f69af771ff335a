//! `kir-grid`: whether a kernel runs on a two-dimensional grid. A kernel that names the grid's
//! rows or columns (`BROW`, `BCOL`, `GRIDROWS`, `GRIDCOLS`) is launched on a grid of
//! `GRIDROWS x GRIDCOLS` blocks (PTX `%nctaid.y` x `%nctaid.x`); its `B` is then the block's
//! index in row-major order, `BROW * GRIDCOLS + BCOL`, and `BLOCKS` the number of blocks,
//! `GRIDROWS * GRIDCOLS`, so that everything written over `B` and `BLOCKS` keeps its meaning.
//! Any other kernel is launched on a one-dimensional grid and reads `%ctaid.x` and `%nctaid.x`
//! only, as before: it pays nothing for the second dimension. The metadata says which
//! (`grid_dims`), and the runtimes refuse a two-dimensional launch of a one-dimensional kernel.

use super::Module;
use crate::check::Checked;
use crate::syntax::ast::{ExprKind, Item};
use crate::syntax::visit::visit_block;

/// The block constants that make a kernel's grid two-dimensional.
pub const GRID_2D_CONSTANTS: [&str; 4] = ["BROW", "BCOL", "GRIDROWS", "GRIDCOLS"];

pub fn run(module: &mut Module, checked: &Checked) {
    for kernel in &mut module.kernels {
        let Some(Item::Kernel(decl)) = checked.program.items.get(kernel.item) else {
            continue;
        };
        let mut two_d = false;
        // Every name these can be is the block constant: they are reserved (E0107).
        visit_block(&decl.body, &mut |e| {
            if let ExprKind::Name(id) = &e.kind {
                two_d |= GRID_2D_CONSTANTS.contains(&id.name.as_str());
            }
        });
        kernel.grid_2d = Some(two_d);
    }
}
