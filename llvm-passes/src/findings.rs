//! What the kernel verifier reports, as data: instructions with their debug locations, thread
//! witnesses, addresses. Front ends turn these into their own diagnostics (loomc maps the debug
//! locations back to LOOM source spans); `Display` gives a one-line summary for tools and tests.

use crate::ir::DebugLoc;
use crate::threads::ThreadId;

/// An instruction of the analysed module, as a report names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstRef {
    pub function: String,
    /// The basic block's name (may be empty for unnamed blocks).
    pub block: String,
    /// The instruction as LLVM prints it, without metadata.
    pub text: String,
    pub loc: Option<DebugLoc>,
}

impl std::fmt::Display for InstRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}`", self.text)?;
        if let Some(loc) = &self.loc {
            write!(f, " at {}", loc.outermost())?;
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// The kind of convergent operation a placement finding is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConvergentKind {
    /// A barrier of the whole block (`barrier0`, `barrier.sync`, ...).
    BlockBarrier,
    /// A call to a function that contains a block barrier.
    CallWithBarrier { callee: String },
    /// A warp collective with a full member mask (`shfl.sync`, `vote.sync`, ...).
    WarpCollective,
    /// `bar.warp.sync` with a full mask.
    WarpBarrier,
}

impl ConvergentKind {
    pub fn is_block_level(&self) -> bool {
        matches!(
            self,
            ConvergentKind::BlockBarrier | ConvergentKind::CallWithBarrier { .. }
        )
    }

    pub fn noun(&self) -> &'static str {
        match self {
            ConvergentKind::BlockBarrier => "barrier",
            ConvergentKind::CallWithBarrier { .. } => "call to a function with a barrier",
            ConvergentKind::WarpCollective => "full-mask warp collective",
            ConvergentKind::WarpBarrier => "full-mask warp barrier",
        }
    }
}

/// Why a convergent operation is not reached by every thread that must reach it.
// Reports are rare and short-lived: the size of a variant does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hazard {
    /// It is under a branch whose condition differs between threads (of the block, or of a warp
    /// for warp collectives).
    DivergentBranch {
        branch: InstRef,
        /// What the condition depends on (a thread-id read, an atomic, an opaque call).
        source: Option<InstRef>,
        /// One thread that reaches the operation and one that does not, when the analysis can
        /// tell them apart.
        witness: Option<(ThreadId, ThreadId)>,
        /// The operation is in a loop whose exit depends on the thread.
        in_loop: bool,
        /// The branch comes after some thread may already have returned.
        after_return: bool,
    },
    /// A full-mask warp collective in a block whose last warp is not full.
    PartialWarp { threads: u32, lanes: u32 },
    /// A named barrier whose id differs between threads: they wait at different barriers.
    DivergentBarrierId {
        /// The id's value.
        id: InstRef,
        /// Two threads and the ids they pass, when the analysis can evaluate them.
        witness: Option<((ThreadId, u64), (ThreadId, u64))>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessKind {
    Read,
    Write,
    /// An atomic read-modify-write (atomics do not race with each other).
    Atomic,
}

impl AccessKind {
    pub fn writes(self) -> bool {
        !matches!(self, AccessKind::Read)
    }
}

impl std::fmt::Display for AccessKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            AccessKind::Read => "read",
            AccessKind::Write => "write",
            AccessKind::Atomic => "atomic",
        })
    }
}

/// One side of a race.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RaceAccess {
    pub inst: InstRef,
    pub kind: AccessKind,
    pub thread: ThreadId,
    /// Byte offset of the access from the start of the shared variable.
    pub offset: i128,
    pub bytes: u64,
}

/// A proven conflict: two different threads of a block touch the same location (of shared or
/// global memory) between two barriers, and at least one writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Race {
    pub function: String,
    /// The shared variable, global variable or array parameter (`%name`).
    pub object: String,
    /// The object is in shared memory (else global memory: a race between two threads of one
    /// block).
    pub shared_memory: bool,
    pub first: RaceAccess,
    pub second: RaceAccess,
    /// Where the barrier interval of both accesses starts: a barrier, or `None` for the kernel's
    /// entry.
    pub interval_start: Option<InstRef>,
    /// Values of kernel parameters (and other uniform values) the conflict needs, e.g.
    /// `("%n", 3)`; empty when it happens for every value.
    pub assumptions: Vec<(String, i128)>,
    /// The threads of the witness belong to different warps because a `bar.warp.sync` orders
    /// the accesses within each warp.
    pub across_warps_only: bool,
    /// The block geometry was not known: the conflict needs a block of at least this many
    /// threads.
    pub needs_threads: Option<u32>,
    /// Other pairs of accesses at the same two source positions that race the same way (an
    /// unrolled loop repeats its accesses), not reported separately.
    pub similar: usize,
    /// For a race between threads of two different blocks: the two blocks' ids (x, y, z).
    pub blocks: Option<([i128; 3], [i128; 3])>,
}

/// A block id as the diagnostics write it: `3`, or `(3, 1, 0)` when it has y or z parts.
pub fn block_text(id: &[i128; 3]) -> String {
    match id {
        [x, 0, 0] => format!("{x}"),
        [x, y, z] => format!("({x}, {y}, {z})"),
    }
}

impl Race {
    /// Read-after-write, write-after-read or write-after-write, in program order of the pair.
    pub fn hazard(&self) -> &'static str {
        match (self.first.kind.writes(), self.second.kind.writes()) {
            (true, true) => "write-after-write",
            (true, false) => "read-after-write",
            (false, true) => "write-after-read",
            (false, false) => "read-read",
        }
    }
}

/// Something the verifier could not decide; it neither proves a bug nor rules one out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unproven {
    pub function: String,
    pub inst: InstRef,
    /// Another instruction involved (the other access of a pair), if any.
    pub other: Option<InstRef>,
    /// The value the reason is about (an index loaded from memory, a pointer phi), if one.
    pub culprit: Option<InstRef>,
    pub reason: String,
}

/// A reason a module cannot be compiled as it stands, or a doubt about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// LLVM's verifier rejected the module; its explanation.
    InvalidIr(String),
    /// `!nvvm.annotations` is inconsistent with the functions it describes.
    Annotation(crate::AnnotationProblem),
    /// A barrier or warp collective that not every thread that must reach it reaches.
    DivergentConvergent {
        function: String,
        op: InstRef,
        kind: ConvergentKind,
        hazard: Box<Hazard>,
    },
    /// As `DivergentConvergent`, but the branch depends on something the analysis cannot see
    /// through, so the divergence is possible, not proven.
    UnprovenConvergent {
        function: String,
        op: InstRef,
        kind: ConvergentKind,
        branch: InstRef,
        source: Option<InstRef>,
    },
    Race(Box<Race>),
    UnprovenRace(Unproven),
}

impl Finding {
    pub fn severity(&self) -> Severity {
        match self {
            Finding::UnprovenConvergent { .. } | Finding::UnprovenRace(_) => Severity::Warning,
            _ => Severity::Error,
        }
    }

    pub fn is_error(&self) -> bool {
        self.severity() == Severity::Error
    }
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Finding::InvalidIr(message) => write!(f, "invalid LLVM IR: {message}"),
            Finding::Annotation(problem) => write!(f, "{problem}"),
            Finding::DivergentConvergent {
                function,
                op,
                kind,
                hazard,
            } => {
                write!(f, "divergent {} in `{function}`: {op}", kind.noun())?;
                match hazard.as_ref() {
                    Hazard::DivergentBranch {
                        branch,
                        witness,
                        in_loop,
                        after_return,
                        ..
                    } => {
                        if *after_return {
                            write!(f, " after a divergent early return")?;
                        } else if *in_loop {
                            write!(f, " in a loop with a thread-dependent trip count")?;
                        }
                        write!(f, ", controlled by {branch}")?;
                        if let Some((reach, skip)) = witness {
                            write!(f, "; {reach} reaches it, {skip} does not")?;
                        }
                        Ok(())
                    }
                    Hazard::PartialWarp { threads, lanes } => write!(
                        f,
                        "; a block of {threads} threads has a last warp of only {lanes} lanes"
                    ),
                    Hazard::DivergentBarrierId { id, witness } => {
                        write!(f, "; its barrier id {id} differs between threads")?;
                        if let Some(((a, x), (b, y))) = witness {
                            write!(f, " ({a} passes {x}, {b} passes {y})")?;
                        }
                        Ok(())
                    }
                }
            }
            Finding::UnprovenConvergent {
                function,
                op,
                kind,
                branch,
                ..
            } => write!(
                f,
                "could not prove that every thread reaches the {} {op} in `{function}`: it is \
                 controlled by {branch}, whose condition may differ between threads",
                kind.noun()
            ),
            Finding::Race(race) => {
                let (first_block, second_block) = match &race.blocks {
                    Some((x, y)) => (
                        format!(" of block {}", block_text(x)),
                        format!(" of block {}", block_text(y)),
                    ),
                    None => (String::new(), String::new()),
                };
                write!(
                    f,
                    "data race ({}{}) on `{}` in `{}`: {}{first_block} {}s byte {} in {}, \
                     {}{second_block} {}s byte {} in {}",
                    race.hazard(),
                    if race.blocks.is_some() {
                        " between blocks"
                    } else {
                        ""
                    },
                    race.object,
                    race.function,
                    race.first.thread,
                    race.first.kind,
                    race.first.offset,
                    race.first.inst,
                    race.second.thread,
                    race.second.kind,
                    race.second.offset,
                    race.second.inst,
                )?;
                if !race.assumptions.is_empty() {
                    let values: Vec<String> = race
                        .assumptions
                        .iter()
                        .map(|(name, value)| format!("{name} = {value}"))
                        .collect();
                    write!(f, " (when {})", values.join(", "))?;
                }
                Ok(())
            }
            Finding::UnprovenRace(u) => {
                write!(
                    f,
                    "could not prove race freedom in `{}`: {} (",
                    u.function, u.inst
                )?;
                if let Some(culprit) = &u.culprit {
                    write!(f, "`{}` ", culprit.text)?;
                }
                write!(f, "{})", u.reason)?;
                if let Some(other) = &u.other {
                    write!(f, " against {other}")?;
                }
                Ok(())
            }
        }
    }
}
