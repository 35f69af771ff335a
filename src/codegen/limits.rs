//! Launch facts and the target's per-block limits, checked when the kernel is compiled: a
//! kernel whose shared memory cannot fit would otherwise fail at load time, far from its cause.
//!
//! Threads per block are checked by the checker (`BLOCKSIZE` between 1 and 1024, E0500, the
//! limit of every architecture loomc targets). Static shared memory (`.shared` variables) is
//! limited to 48 KiB per block on every architecture from `sm_50` to `sm_90a`; more needs
//! dynamic shared memory and an opt-in at launch, which LOOM does not use. The driver checks
//! it on the kernel IR's count (`kir-shared-memory`, [`shared_memory`]) before any code is
//! generated; once a kernel is lowered, [`check`] makes sure code generation allocated exactly
//! that.

use super::error::{CodegenError, Result};
use super::remarks::Remark;
use super::Cx;
use crate::syntax::span::Span;

/// One shared array code generation made: what the user calls it (or what the compiler made it
/// for) and its size (`kir-shared-memory` lists the same ones, with where each is declared).
#[derive(Debug, Clone)]
pub struct SharedDecl {
    pub name: String,
    pub bytes: u64,
}

/// Static shared memory per block, in bytes, on `arch`.
pub fn static_shared_limit(arch: &str) -> u64 {
    // Every architecture loomc targets (sm_50 .. sm_90a) has the same static limit.
    let _ = arch;
    48 * 1024
}

/// The kernel IR's shared arrays against the target's static limit (E0812), before code
/// generation: `kir-shared-memory` counted them, the collectives' scratch included.
pub fn shared_memory(kernel: &crate::kir::Kernel, arch: &str) -> Option<CodegenError> {
    let total = kernel.shared_bytes();
    let limit = static_shared_limit(arch);
    if total <= limit {
        return None;
    }
    let mut decls: Vec<(String, Span, u64)> = kernel
        .shared_arrays
        .iter()
        .flatten()
        .map(|a| (a.name.clone(), a.span, a.bytes))
        .collect();
    decls.sort_by_key(|d| std::cmp::Reverse(d.2));
    Some(CodegenError::SharedMemoryLimit {
        kernel: kernel.name.clone(),
        kernel_span: kernel.span,
        total,
        limit,
        arch: arch.to_string(),
        decls,
    })
}

/// The kernel's launch facts, after checking that the shared arrays code generation made are
/// the bytes `kir-shared-memory` counted (`counted`; the limit was checked on those).
pub fn check(
    cx: &Cx<'_, '_>,
    kernel: &str,
    kernel_span: Span,
    (block_size, block_rows): (u32, u32),
    shared: &[SharedDecl],
    counted: u64,
    register_vectors: usize,
) -> Result<Remark> {
    // Compiler-made scratch arrays are aligned to 16 bytes like the user's.
    let total: u64 = shared
        .iter()
        .map(|d| d.bytes.div_ceil(16).saturating_mul(16))
        .fold(0u64, u64::saturating_add);
    let limit = static_shared_limit(&cx.arch);
    if total != counted {
        return Err(CodegenError::internal(
            format!(
                "kir-shared-memory counted {counted} bytes of shared memory, code generation allocated {total}"
            ),
            kernel_span,
        ));
    }
    let mut facts = vec![
        match block_rows {
            rows if rows > 1 => format!(
                "{block_size} threads per block, {rows} rows of {} (`.reqntid {}, {rows}, 1`)",
                block_size / rows,
                block_size / rows
            ),
            _ => format!("{block_size} threads per block (`.reqntid {block_size}, 1, 1`)"),
        },
        format!(
            "{total} bytes of static shared memory per block (limit on {}: {limit})",
            cx.arch
        ),
    ];
    facts.extend(
        shared
            .iter()
            .map(|d| format!("shared `{}`: {} bytes", d.name, d.bytes)),
    );
    if register_vectors > 0 {
        facts.push(format!(
            "{register_vectors} vector variable(s) in registers"
        ));
    }
    Ok(Remark::LaunchFacts {
        at: kernel_span,
        kernel: kernel.to_string(),
        facts,
    })
}
