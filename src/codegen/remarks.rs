//! Optimisation remarks (`--remarks`): what code generation decided and why, as data. Each
//! becomes a note-level [`Diagnostic`] with a stable id, so remarks render like every other
//! diagnostic (for people or as JSON) and point at the statements they are about.
//!
//! | id | remark |
//! | --- | --- |
//! | R0801 | a barrier kept: the write and the read (or the read and the write) it orders |
//! | R0802 | a barrier the "synchronised by default" rule asks for, removed, and why |
//! | R0803 | a barrier inside a collective (the warps' partial results meet in shared memory) |
//! | R0804 | a `for` loop distributed over the block's threads, and the dependence tests' verdict |
//! | R0805 | a `for` loop kept sequential, and the dependence or construct that keeps it so |
//! | R0806 | a kernel's launch facts: threads per block, shared memory, register vectors |
//! | R0807 | a vector variable of run-time length, evaluated again at each use |
//! | R0808 | a vector variable of run-time length, stored in its block's scratch row |

use crate::diagnostics::{Diagnostic, Severity};
use crate::syntax::span::Span;

pub const BARRIER_KEPT: &str = "R0801";
pub const BARRIER_REMOVED: &str = "R0802";
pub const COLLECTIVE_BARRIER: &str = "R0803";
pub const LOOP_DISTRIBUTED: &str = "R0804";
pub const LOOP_SEQUENTIAL: &str = "R0805";
pub const LAUNCH_FACTS: &str = "R0806";
pub const RECOMPUTED_VECTOR: &str = "R0807";
pub const SCRATCH_ROW: &str = "R0808";

/// One side of a hazard: an access to an array, where it is and who makes it.
#[derive(Debug, Clone)]
pub struct AccessNote {
    pub span: Span,
    /// "write of `t`", "read of `t`".
    pub what: String,
    /// Which threads touch which elements, in words.
    pub who: String,
}

pub use crate::kir::removed_barriers::RemovedReason;

#[derive(Debug, Clone)]
pub enum Remark {
    BarrierKept {
        /// Where the barrier is placed (before this access).
        at: Span,
        array: String,
        earlier: AccessNote,
        later: AccessNote,
        /// True for the barrier at the end of a loop body, between one iteration and the next.
        loop_carried: bool,
    },
    /// The barrier the rule asks for after statement `after`, removed.
    BarrierRemoved(crate::kir::removed_barriers::Removed),
    CollectiveBarrier {
        at: Span,
        what: &'static str,
    },
    LoopDistributed {
        at: Span,
        summary: String,
        evidence: Vec<String>,
    },
    LoopSequential {
        at: Span,
        reason: String,
        /// The accesses or construct responsible, with a label each.
        labels: Vec<(Span, String)>,
        notes: Vec<String>,
    },
    LaunchFacts {
        at: Span,
        kernel: String,
        facts: Vec<String>,
    },
    RecomputedVector {
        /// The variable's name where it is declared.
        at: Span,
        name: String,
        init: Span,
    },
    ScratchRow {
        /// The variable's name where it is declared.
        at: Span,
        name: String,
        /// Why it is not recomputed, in words, and where that shows (if somewhere else).
        why: String,
        why_at: Option<Span>,
        /// The hidden parameter, and its shape in words.
        param: String,
        shape: String,
    },
}

impl Remark {
    /// Where the remark points: remarks are listed in source order.
    pub fn order(&self) -> (u32, u32) {
        let span = match self {
            Remark::BarrierKept { at, .. }
            | Remark::CollectiveBarrier { at, .. }
            | Remark::LoopDistributed { at, .. }
            | Remark::LoopSequential { at, .. }
            | Remark::LaunchFacts { at, .. }
            | Remark::RecomputedVector { at, .. }
            | Remark::ScratchRow { at, .. } => *at,
            Remark::BarrierRemoved(removed) => removed.after,
        };
        (span.file.0, span.start)
    }
}

impl From<Remark> for Diagnostic {
    fn from(r: Remark) -> Diagnostic {
        match r {
            Remark::BarrierKept {
                at,
                array,
                earlier,
                later,
                loop_carried,
            } => {
                let message = if loop_carried {
                    format!("barrier kept at the end of the loop body: `{array}` is shared between iterations")
                } else {
                    format!("barrier kept: `{array}` is shared between threads here")
                };
                let mut d = remark(BARRIER_KEPT, message)
                    .primary(at, format!("barrier placed before this {}", later.what))
                    .secondary(earlier.span, format!("{} by {}", earlier.what, earlier.who))
                    .note(format!(
                        "the {} ({}) may touch an element the {} ({}) touched, from another thread",
                        later.what, later.who, earlier.what, earlier.who
                    ));
                if later.span != at {
                    d = d.secondary(later.span, format!("{} by {}", later.what, later.who));
                }
                d
            }
            Remark::BarrierRemoved(crate::kir::removed_barriers::Removed {
                after,
                arrays,
                reason,
            }) => {
                let names = arrays
                    .iter()
                    .map(|a| format!("`{a}`"))
                    .collect::<Vec<_>>()
                    .join(", ");
                let d = remark(
                    BARRIER_REMOVED,
                    format!("barrier after this statement removed (it writes {names})"),
                )
                .primary(after, "no barrier needed after this statement");
                match reason {
                    RemovedReason::SameThread { later } => d
                        .secondary(later, "read or written only by the thread that wrote each element")
                        .note("every later access up to the next barrier is by the thread that wrote the element"),
                    RemovedReason::AtomicsOnly { later } => d
                        .secondary(later, "another atomic update of the array")
                        .note("every later access up to the next barrier is an atomic, and atomics do not race with each other"),
                    RemovedReason::NoLaterAccess => {
                        d.note("nothing later in the kernel reads or writes it")
                    }
                    RemovedReason::Covered { by } => d
                        .secondary(by, "a barrier placed here orders these writes")
                        .note("no access before that barrier conflicts with these writes"),
                }
            }
            Remark::CollectiveBarrier { at, what } => {
                remark(COLLECTIVE_BARRIER, format!("barrier kept in {what}"))
                    .primary(at, "the warps' partial results meet in shared memory here")
            }
            Remark::LoopDistributed {
                at,
                summary,
                evidence,
            } => evidence.into_iter().fold(
                remark(
                    LOOP_DISTRIBUTED,
                    "loop distributed over the block's threads",
                )
                .primary(at, summary),
                Diagnostic::note,
            ),
            Remark::LoopSequential {
                at,
                reason,
                labels,
                notes,
            } => {
                let d = remark(LOOP_SEQUENTIAL, "loop stays sequential").primary(at, reason);
                let d = labels
                    .into_iter()
                    .fold(d, |d, (span, label)| d.secondary(span, label));
                notes.into_iter().fold(d, Diagnostic::note)
            }
            Remark::LaunchFacts { at, kernel, facts } => facts.into_iter().fold(
                remark(LAUNCH_FACTS, format!("launch facts of kernel `{kernel}`"))
                    .primary(at, "this kernel"),
                Diagnostic::note,
            ),
            Remark::RecomputedVector { at, name, init } => remark(
                RECOMPUTED_VECTOR,
                format!("vector variable `{name}` is recomputed at each use"),
            )
            .primary(at, "its length is known only at run time")
            .secondary(init, "each use of the variable evaluates this again")
            .note("a thread holds a fixed number of register slots, so a vector of run-time length cannot stay in registers; nothing the initializer reads changes before a use, so evaluating it again gives the same value"),
            Remark::ScratchRow {
                at,
                name,
                why,
                why_at,
                param,
                shape,
            } => {
                let d = remark(
                    SCRATCH_ROW,
                    format!("vector variable `{name}` is stored in its block's row of a scratch array"),
                )
                .primary(at, format!("its length is known only at run time, and {why}"));
                let d = match why_at {
                    Some(span) => d.secondary(span, "here"),
                    None => d,
                };
                d.note(format!("loomc adds the parameter `{param}`, {shape}, after the kernel's own; the host allocates it at each launch (docs/abi.md), and each block reads and writes its row `B` in global memory"))
            }
        }
    }
}

/// R0807 for every vector variable that `kir-recomputed-vectors` chose.
pub fn recomputed_vectors(kir: &crate::kir::Module) -> Vec<Remark> {
    let mut found = Vec::new();
    for kernel in &kir.kernels {
        let Some(recomputed) = &kernel.recomputed_vectors else {
            continue;
        };
        crate::kir::walk_stmts(&kernel.body, &mut |stmt| {
            if let crate::kir::Stmt::Vector {
                name,
                name_span,
                init: Some(init),
                ..
            } = stmt
            {
                if recomputed.contains(name_span) {
                    found.push(Remark::RecomputedVector {
                        at: *name_span,
                        name: name.clone(),
                        init: init.expr.span,
                    });
                }
            }
        });
    }
    found
}

/// R0808 for every vector variable that the checker moved to a scratch row.
pub fn scratch_rows(checked: &crate::check::Checked) -> Vec<Remark> {
    use crate::check::NotRecomputed as Why;
    let mut found = Vec::new();
    for row in &checked.scratch_rows {
        let (why, why_at) = match &row.reason {
            Why::UniformFill => ("its initializer only fills it".to_string(), None),
            Why::Assigned { at } => (format!("`{}` is assigned again", row.name), Some(*at)),
            Why::Changed { name, at } => (
                format!("`{name}`, which its initializer reads, changes after it"),
                Some(*at),
            ),
            Why::TooLarge { nodes } => (
                format!("recomputing it would take {nodes} expression nodes at each use"),
                None,
            ),
        };
        let param = checked
            .program
            .items
            .get(row.kernel)
            .and_then(|item| match item {
                crate::syntax::ast::Item::Kernel(k) => k
                    .params
                    .iter()
                    .find(|p| p.scratch && p.name.span == row.name_span),
                _ => None,
            });
        let Some(param) = param else {
            continue;
        };
        found.push(Remark::ScratchRow {
            at: row.name_span,
            name: row.name.clone(),
            why,
            why_at,
            param: param.name.name.clone(),
            shape: format!("`{}` (`BLOCKS` rows of its length)", param.ty.made_text()),
        });
    }
    found
}

/// A note-level diagnostic: remarks inform, they never stop compilation.
fn remark(code: &'static str, message: impl Into<String>) -> Diagnostic {
    Diagnostic {
        severity: Severity::Note,
        ..Diagnostic::error(code, message)
    }
}
