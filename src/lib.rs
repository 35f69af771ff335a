//! loomc: the LOOM compiler as a library. `driver` runs the pipeline; `main.rs` is only the CLI.
//!
//! syntax (pest → AST) → check (names, types, uniformity) → kir (kernel IR and its passes) →
//! codegen (LLVM IR) → verification
//! (`llvm-passes`) → target (optimise, PTX).

// An internal error is a diagnostic with a bug note, never a panic (tests may unwrap).
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod bindings;
pub mod check;
pub mod codegen;
pub mod diagnostics;
pub mod driver;
pub mod inspect;
pub mod kir;
pub mod metadata;
pub mod select;
pub mod stdlib;
pub mod syntax;
pub mod target;
pub mod verify;
