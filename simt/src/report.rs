//! What a run reports when it cannot go on: sanitizer findings, deadlocks, misuse of warp
//! collectives. Each names the threads involved (block and thread index) and the source location
//! of each access or synchronisation (from the location table the host lowering built).

use std::fmt;

/// Where an instrumented instruction comes from: a debug location when the IR has one, else the
/// function and the instruction's text.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SourceLocation {
    pub function: String,
    /// `file:line:col` parts; `line == 0` means the IR had no debug location.
    pub file: String,
    pub line: u32,
    pub column: u32,
    /// The LLVM instruction, for locations without debug information.
    pub instruction: String,
}

impl fmt::Display for SourceLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line != 0 {
            write!(
                f,
                "{}:{}:{} (in `{}`)",
                self.file, self.line, self.column, self.function
            )
        } else {
            write!(f, "`{}` in `{}`", self.instruction, self.function)
        }
    }
}

/// A GPU thread: its block and its index in the block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThreadId {
    pub block: u32,
    pub thread: u32,
}

impl fmt::Display for ThreadId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "thread {} of block {}", self.thread, self.block)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessKind {
    Read,
    Write,
}

impl fmt::Display for AccessKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AccessKind::Read => "read",
            AccessKind::Write => "write",
        })
    }
}

/// One memory access of a race.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Access {
    pub thread: ThreadId,
    pub kind: AccessKind,
    pub location: SourceLocation,
}

/// Where a thread stands when a barrier cannot complete.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Whereabouts {
    Exited,
    AtBarrier(SourceLocation),
    AtWarpCollective {
        op: &'static str,
        mask: u32,
        location: SourceLocation,
    },
}

impl fmt::Display for Whereabouts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Whereabouts::Exited => f.write_str("has exited"),
            Whereabouts::AtBarrier(at) => write!(f, "waits at the barrier at {at}"),
            Whereabouts::AtWarpCollective { op, mask, location } => {
                write!(f, "waits at `{op}` (mask {mask:#010x}) at {location}")
            }
        }
    }
}

/// Why a launch on the CPU stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SimtError {
    /// Two threads of a block touched one shared-memory byte between two barriers, at least one
    /// of them writing.
    SharedRace {
        /// Byte offset in the block's shared memory.
        offset: usize,
        first: Access,
        second: Access,
    },
    /// A barrier that not every thread of the block reaches: `missing` exited or waits
    /// somewhere else while `waiting` waits at the barrier.
    BarrierNotReached {
        waiting: ThreadId,
        barrier: SourceLocation,
        missing: ThreadId,
        missing_at: Whereabouts,
    },
    /// An access outside every buffer of the launch (global) or outside the block's shared
    /// memory.
    OutOfBounds {
        thread: ThreadId,
        kind: AccessKind,
        size: u64,
        location: SourceLocation,
        /// What lies nearest, in words: "4 bytes past the end of `x` (element 1000 of 1000)".
        detail: String,
    },
    /// No thread of a block can run, and not all have exited.
    Deadlock {
        block: u32,
        /// Where each group of threads waits, in words.
        waiting: Vec<String>,
    },
    /// A lane calls a warp collective whose mask does not include it, the lanes of a mask
    /// meet at different collectives, or a shuffle reads a lane that does not take part.
    WarpMisuse {
        thread: ThreadId,
        location: SourceLocation,
        problem: String,
    },
    /// Without the sanitizer: a block wrote outside its shared memory, into the poison the
    /// runtime keeps around it (found after the launch, so no thread or line is known).
    SharedOverrun {
        /// The shared memory's size.
        shared_bytes: usize,
        /// Where, in words: "up to 8 bytes past its end".
        detail: String,
    },
    /// The executor itself could not run (no memory for stacks, a runtime function called where
    /// it cannot be).
    Internal(String),
}

impl fmt::Display for SimtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimtError::SharedRace {
                offset,
                first,
                second,
            } => write!(
                f,
                "shared-memory race on byte {offset} of block {}'s shared memory, with no barrier between:\n  \
                 {} by {} at {}\n  {} by {} at {}",
                second.thread.block,
                first.kind,
                first.thread,
                first.location,
                second.kind,
                second.thread,
                second.location
            ),
            SimtError::BarrierNotReached {
                waiting,
                barrier,
                missing,
                missing_at,
            } => write!(
                f,
                "barrier not reached by every thread of block {}:\n  {waiting} waits at the barrier at {barrier}\n  \
                 {missing} {missing_at}",
                waiting.block
            ),
            SimtError::OutOfBounds {
                thread,
                kind,
                size,
                location,
                detail,
            } => write!(
                f,
                "out-of-bounds {kind} of {size} bytes by {thread} at {location}: {detail}"
            ),
            SimtError::Deadlock { block, waiting } => write!(
                f,
                "deadlock in block {block}: no thread can go on\n  {}",
                waiting.join("\n  ")
            ),
            SimtError::WarpMisuse {
                thread,
                location,
                problem,
            } => write!(f, "warp collective misused by {thread} at {location}: {problem}"),
            SimtError::SharedOverrun {
                shared_bytes,
                detail,
            } => write!(
                f,
                "a block wrote outside its {shared_bytes} bytes of shared memory ({detail}); \
                 run with --sanitize to find the thread and the line"
            ),
            SimtError::Internal(message) => write!(f, "CPU backend: {message}"),
        }
    }
}

impl std::error::Error for SimtError {}
