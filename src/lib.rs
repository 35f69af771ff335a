//! loomc: the LOOM compiler as a library. `driver` runs the pipeline; `main.rs` is only the CLI.
//!
//! syntax (pest → AST) → check (names, types, uniformity) → codegen (LLVM IR) → verification
//! (`llvm-passes`) → target (optimise, PTX).

pub mod check;
pub mod codegen;
pub mod diagnostics;
pub mod driver;
pub mod syntax;
pub mod target;
