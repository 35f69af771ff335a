//! loom-simt: runs GPU kernels, compiled for the host CPU, with the GPU's execution model.
//!
//! Every GPU thread is a stackful coroutine with its own registers and stack; a block's threads
//! run on one OS thread, each until it reaches a barrier, a warp collective or its end
//! (`block.rs`); barriers and collectives complete as PTX says they do (`warp.rs`); every block
//! has its own shared memory; blocks are spread over the machine's cores (`launch`, on
//! `pool.rs`'s threads). In sanitizer mode every memory access is checked (`sanitizer.rs`) and
//! the run stops at the first problem with a report that names the threads and source locations
//! (`report.rs`).
//!
//! The kernel comes as a host function compiled by LLVM (see loomc's `target::host`), whose calls
//! of NVVM intrinsics were rewritten into calls of this crate's `loom_simt_*` functions
//! (`abi.rs`). Nothing here knows LOOM: it runs the IR.

// A kernel's callbacks run inside JIT-compiled frames, which cannot be unwound: no panics.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]
// A launch fails once, at its end: the size of the error does not matter, its detail does.
#![allow(clippy::result_large_err)]

mod abi;
mod block;
mod context;
mod cut;
mod libdevice;
mod math;
mod pool;
mod report;
mod sanitizer;
pub mod warp;

pub use abi::{
    all_symbols, ACCESS_ATOMIC, ACCESS_READ, ACCESS_WRITE, BOUNDS_PARAM_SHIFT, BOUNDS_SHARED,
};
pub use cut::{cut_is_barrier, cut_op};
pub use report::{Access, AccessKind, SimtError, SourceLocation, ThreadId, Whereabouts};

use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// The kernel as the host lowering exposes it: `entry(params)` runs one GPU thread, with
/// `params[i]` pointing at the value of the kernel's parameter `i` (the convention of CUDA's
/// `cuLaunchKernel`).
pub type EntryFn = unsafe extern "C" fn(*const *mut c_void);

/// Whole blocks at once: `loom.threads.<kernel>(params, ntid_x, ntid_y, ctaid_x, ctaid_y,
/// count)` runs the kernel for every thread of `count` blocks of one row of the grid, from
/// (`ctaid_x`, `ctaid_y`) on, `ntid_x` fastest, in loops the host lowering compiled
/// (`src/target/host/thread_loop.rs`); or `loom.cut.<kernel>` for a kernel that synchronises,
/// cut into loops at its synchronisations (`src/target/host/cut.rs`, the runtime's part in
/// `cut.rs`), which runs the one block the context names and ignores the last three.
pub type ThreadsFn = unsafe extern "C" fn(*const *mut c_void, i32, i32, i32, i32, i32);

/// A kernel compiled into an LLVM coroutine per thread (`src/target/host/coro.rs`): `ramp`
/// (`loom.coro.<kernel>(params)`) runs a thread to its first synchronisation and returns its
/// frame, `resume` (`loom.coro.resume(frame)`) runs it on to the next.
#[derive(Debug, Clone, Copy)]
pub struct CompiledCoroutine {
    pub ramp: unsafe extern "C" fn(*const *mut c_void) -> *mut c_void,
    pub resume: unsafe extern "C" fn(*mut c_void),
}

/// Address space reserved for each thread's stack; pages are committed only when touched.
pub const STACK_BYTES: usize = 256 * 1024;

/// A memory range a kernel may access: an array argument or a global variable. Accesses through
/// a kernel parameter are checked against that parameter's buffer (in every mode), other global
/// accesses against all of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Buffer {
    pub name: String,
    pub start: usize,
    pub len: usize,
    /// For reports: element indices instead of byte offsets.
    pub elem_size: usize,
    /// The index of the kernel parameter this buffer is passed as (`None`: a global variable).
    pub param: Option<u32>,
}

/// A `shared` variable: `len` bytes at `offset` in a block's shared memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedVariable {
    pub name: String,
    pub offset: usize,
    pub len: usize,
}

#[derive(Debug, Clone)]
pub struct LaunchConfig {
    /// Blocks in the grid, all of them (`grid_x * grid_y`).
    pub blocks: u32,
    /// Threads per block, all of them (`block_x * block_y`).
    pub block_size: u32,
    /// The block's x dimension (`%ntid.x`; `%ntid.y` is `block_size / block_x`); 0 for a
    /// one-dimensional block (`block_x = block_size`). Thread `t` of the block is
    /// (`t % block_x`, `t / block_x`): x fastest, as CUDA numbers threads (and warp lanes).
    pub block_x: u32,
    /// The grid's x dimension (`%nctaid.x`; `%nctaid.y` is `blocks / grid_x`); 0 for a
    /// one-dimensional grid. Block `b` is (`b % grid_x`, `b / grid_x`).
    pub grid_x: u32,
    /// Bytes of shared memory per block (static and dynamic).
    pub shared_bytes: usize,
    /// The kernel's `shared` variables in a block's shared memory, for reports.
    pub shared_variables: Vec<SharedVariable>,
    /// False when the kernel has no barrier and no warp collective: its threads then run one
    /// after another without coroutines.
    pub needs_coroutines: bool,
    /// The kernel's compiled loop over a block's threads, where it has one: used instead of one
    /// call of the entry per thread (or a coroutine per thread, for a kernel that synchronises
    /// and was cut at its synchronisations into loops, `src/target/host/cut.rs`) unless the
    /// sanitizer runs.
    pub threads_entry: Option<ThreadsFn>,
    /// Whether `threads_entry` runs the `count` blocks it is given (a loop over threads),
    /// rather than the one block the context names (a cut kernel). Given runs of blocks, one
    /// call does the work of many: its launch-wide values and the versioning tests' parts that
    /// do not depend on the block are computed once per run, not once per block.
    pub threads_entry_runs_blocks: bool,
    /// The kernel's threads as compiled coroutines, where it has them: used instead of a
    /// stack per thread when the block synchronises and no sanitizer runs.
    pub compiled_coroutine: Option<CompiledCoroutine>,
    pub sanitize: bool,
    /// OS threads to spread blocks over; 0 means one per available core.
    pub workers: usize,
    /// Counts the blocks that have run, for a progress report while the launch goes on.
    pub progress: Option<Arc<AtomicU32>>,
}

/// The parameter array, shared by the workers; it only points at values that outlive the launch.
#[derive(Clone, Copy)]
struct Params(*const *mut c_void);
// SAFETY: the parameter values are only read, by every worker, during the launch.
unsafe impl Send for Params {}
unsafe impl Sync for Params {}

pub(crate) struct LaunchShared {
    entry: Option<EntryFn>,
    params: Params,
    config: LaunchConfig,
    /// Sorted by start address.
    buffers: Vec<Buffer>,
    /// By kernel parameter index: the buffer passed there, if it is an array.
    by_param: Vec<Option<Buffer>>,
    locations: Vec<SourceLocation>,
}

impl LaunchShared {
    /// The `shared` variable a bounds check named (its index + 1; 0: none).
    pub(crate) fn shared_variable(&self, named: usize) -> Option<&SharedVariable> {
        named
            .checked_sub(1)
            .and_then(|i| self.config.shared_variables.get(i))
    }

    /// The kernel's entry, for the modes that call it once per thread.
    pub(crate) fn per_thread_entry(&self) -> Result<EntryFn, SimtError> {
        self.entry.ok_or_else(|| {
            SimtError::Internal(
                "this build of the kernel runs its threads compiled together and has no entry \
                 for one thread"
                    .to_string(),
            )
        })
    }

    /// The buffer of kernel parameter `param`.
    pub(crate) fn param_buffer(&self, param: usize) -> Option<&Buffer> {
        self.by_param.get(param).and_then(Option::as_ref)
    }

    /// Whether `[address, address + size)` lies inside one buffer of the launch.
    pub(crate) fn in_some_buffer(&self, address: usize, size: usize) -> bool {
        let after = self.buffers.partition_point(|b| b.start <= address);
        after.checked_sub(1).is_some_and(|i| {
            let b = &self.buffers[i];
            address - b.start <= b.len && size <= b.len - (address - b.start)
        })
    }
}

/// Runs the kernel over the grid of `config`: `entry` once per thread, or a block at a time
/// through `config`'s compiled threads or coroutines (a build that has those may have no
/// `entry`: the host compiles only what its launches call). Returns the first problem of the
/// lowest block that had one: in sanitizer mode every block below it has run, so the report does
/// not depend on scheduling.
///
/// # Safety
/// `entry` must be a kernel entry compiled by the host lowering, `params` must point at values
/// of the kernel's parameter types, and every pointer among them at memory the kernel may use;
/// `buffers` must describe the arrays among them.
pub unsafe fn launch(
    entry: Option<EntryFn>,
    params: &[*mut c_void],
    config: &LaunchConfig,
    buffers: &[Buffer],
    locations: &[SourceLocation],
) -> Result<(), SimtError> {
    if config.block_size == 0 || config.block_size > 1024 {
        return Err(SimtError::Internal(format!(
            "block size {} is outside 1..=1024",
            config.block_size
        )));
    }
    if config.blocks == 0 {
        return Ok(());
    }
    if config.block_x != 0 && config.block_size % config.block_x != 0 {
        return Err(SimtError::Internal(format!(
            "block size {} is not a multiple of its x dimension {}",
            config.block_size, config.block_x
        )));
    }
    if config.grid_x != 0 && config.blocks % config.grid_x != 0 {
        return Err(SimtError::Internal(format!(
            "{} blocks are not a multiple of the grid's x dimension {}",
            config.blocks, config.grid_x
        )));
    }
    let mut sorted = buffers.to_vec();
    sorted.sort_by_key(|b| b.start);
    let mut by_param = vec![None; params.len()];
    for b in buffers {
        if let Some(slot) = b.param.and_then(|p| by_param.get_mut(p as usize)) {
            *slot = Some(b.clone());
        }
    }
    let shared = LaunchShared {
        entry,
        params: Params(params.as_ptr()),
        config: config.clone(),
        buffers: sorted,
        by_param,
        locations: locations.to_vec(),
    };
    let workers = match config.workers {
        0 => cores(),
        n => n,
    }
    .clamp(1, config.blocks as usize);
    // Every claim reads `failed_block`, and a claim of a new chunk writes `next`: on one cache
    // line, each chunk another worker claimed made the next claim miss the cache (5% of a
    // launch of saxpy).
    let next = OwnLine(AtomicU32::new(0));
    let failed_block = OwnLine(AtomicU32::new(u32::MAX));
    let first_error: Mutex<Option<(u32, SimtError)>> = Mutex::new(None);
    let fail = |b: u32, error: SimtError| {
        failed_block.0.fetch_min(b, Ordering::Relaxed);
        let mut slot = first_error.lock().unwrap_or_else(|p| p.into_inner());
        if slot.as_ref().is_none_or(|(at, _)| b < *at) {
            *slot = Some((b, error));
        }
    };
    // Blocks are handed out many at a time where there are many, so that the workers do not
    // meet at the counter for every block of a short kernel (saxpy's blocks take about as long
    // as a contended atomic), and each streams through long runs of the arrays for the hardware
    // prefetchers (up to 1,024 blocks: saxpy at 2^22 went from 0.71 to 0.81 of PoCL's speed
    // against 16); 16 or more rounds per worker keep the load balanced.
    let chunk = (config.blocks as usize / (workers * 16)).clamp(1, 1024) as u32;
    let looped = config.threads_entry.is_some() && !config.sanitize;
    let work = || {
        let mut worker = block::Worker::new(&shared);
        let (mut at, mut end) = (0u32, 0u32);
        // The next blocks of this worker's chunk, at most `most` of them.
        let mut claim = |most: u32| {
            if at == end {
                at = next.0.fetch_add(chunk, Ordering::Relaxed);
                end = at.saturating_add(chunk).min(config.blocks);
            }
            if at >= end || at > failed_block.0.load(Ordering::Relaxed) {
                at = end;
                return None;
            }
            let run = at..end.min(at.saturating_add(most.max(1)));
            if let Some(progress) = &config.progress {
                progress.fetch_add(run.len() as u32, Ordering::Relaxed);
            }
            at = run.end;
            Some(run)
        };
        if looped {
            while let Err((b, error)) = worker.run_looped(&shared, &mut claim) {
                fail(b, error);
            }
        } else {
            while let Some(run) = claim(1) {
                let b = run.start;
                if let Err(error) = worker.run_block(&shared, b) {
                    fail(b, error);
                }
            }
        }
        // Not known which block it was: after every block's own error.
        if let Err(error) = worker.shared_red_zones_intact(&shared) {
            fail(u32::MAX, error);
        }
    };
    pool::run(workers, &work);
    let error = first_error.into_inner().unwrap_or_else(|p| p.into_inner());
    match error {
        Some((_, error)) => Err(error),
        None => Ok(()),
    }
}

/// The cores to spread a launch's blocks over, asked once per process: the standard library
/// reads the cgroup's CPU quota for it, three files opened and read at every launch.
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// A value on a cache line of its own (two, for the adjacent-line prefetcher).
#[repr(align(128))]
struct OwnLine<T>(T);

/// Whether a runtime function may suspend the calling thread (a barrier or warp collective):
/// a kernel that calls none runs without coroutines.
pub fn suspends(symbol: &str) -> bool {
    let name = symbol.strip_prefix("loom_simt_").unwrap_or(symbol);
    ["barrier", "bar_warp_sync", "shfl_", "vote_", "match_"]
        .iter()
        .any(|p| name.starts_with(p))
}
