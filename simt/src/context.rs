//! The state a runtime function sees: the GPU thread running on this OS thread right now, its
//! block, and the way back to the block's scheduler.
//!
//! The scheduler points `CURRENT` at a thread's context before resuming its coroutine; the
//! `loom_simt_*` functions that JIT-compiled code calls read it. Everything a block does happens
//! on one OS thread, so the contexts need no locks; they are reached through raw pointers because
//! the scheduler and the suspended coroutines take turns on them.

use crate::report::{SimtError, SourceLocation};
use crate::sanitizer::Sanitizer;
use crate::warp::{LaneInput, LaneOutput, WarpOp};
use crate::LaunchShared;
use corosensei::Yielder;
use std::cell::Cell;
use std::ptr;

/// What a suspended thread waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Request {
    /// Running, or exited.
    None,
    /// `bar.sync id` (`count == 0`: every thread of the block) or `bar.red`.
    Barrier {
        id: u32,
        count: u32,
        reduce: BarrierReduce,
        predicate: bool,
        location: u32,
    },
    Warp {
        op: WarpOp,
        mask: u32,
        input: LaneInput,
        location: u32,
    },
    /// The thread found an error (recorded in the block) and must never run again.
    Abort,
}

/// `barrier0` and its reducing forms (`__syncthreads_count/and/or`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BarrierReduce {
    None,
    Popc,
    And,
    Or,
}

/// One block's shared facts.
pub struct BlockCtx {
    /// The block's linear index, `ctaid.y * nctaid_x + ctaid.x`.
    pub ctaid: u32,
    /// Blocks in the grid, all of them.
    pub nctaid: u32,
    /// Threads in the block, all of them.
    pub ntid: u32,
    /// The block's x dimension (`ntid.x`), at least 1.
    pub ntid_x: u32,
    /// The grid's x dimension (`nctaid.x`), at least 1.
    pub nctaid_x: u32,
    pub shared: *mut u8,
    pub shared_len: usize,
    pub locations: *const [SourceLocation],
    /// `Some` in sanitizer mode.
    pub sanitizer: *mut Sanitizer,
    /// The first error a thread of this block found.
    pub error: Option<SimtError>,
    /// Where a bad access is redirected when it cannot be stopped, so that it harms nothing.
    pub scratch: [u64; 8],
    /// The launch: its buffers, for bounds checks.
    pub launch: *const LaunchShared,
    /// When the block's threads run one after another (no coroutine each), they run inside one
    /// coroutine for the block, so that an error can stop the block at once: its yielder.
    pub abort: *const Yielder<(), ()>,
    /// Compiled coroutines' frames: `frame_bytes` for each thread, from `frames`.
    pub frames: *mut Vec<u128>,
    pub frame_bytes: usize,
}

impl BlockCtx {
    /// The context of block `ctaid` of `launch`, with `shared` (`shared_bytes` of it) as its
    /// shared memory.
    pub(crate) fn new(
        launch: &LaunchShared,
        ctaid: u32,
        shared: *mut u8,
        sanitizer: *mut Sanitizer,
        frames: &mut Vec<u128>,
    ) -> BlockCtx {
        let config = &launch.config;
        BlockCtx {
            ctaid,
            nctaid: config.blocks,
            ntid: config.block_size,
            ntid_x: match config.block_x {
                0 => config.block_size.max(1),
                x => x,
            },
            nctaid_x: match config.grid_x {
                0 => config.blocks.max(1),
                x => x,
            },
            shared,
            shared_len: config.shared_bytes,
            locations: launch.locations.as_slice() as *const _,
            sanitizer,
            error: None,
            scratch: [0; 8],
            launch,
            abort: ptr::null(),
            frames,
            frame_bytes: 0,
        }
    }

    pub fn location(&self, id: u32) -> SourceLocation {
        // SAFETY: `locations` outlives the launch that made this block.
        let locations = unsafe { &*self.locations };
        locations
            .get(id as usize)
            .cloned()
            .unwrap_or_else(|| SourceLocation {
                function: "?".to_string(),
                instruction: format!("location #{id}"),
                ..SourceLocation::default()
            })
    }
}

/// One GPU thread.
pub struct ThreadCtx {
    pub tid: u32,
    pub block: *mut BlockCtx,
    /// Null when the block runs without coroutines (it has no barrier or collective).
    pub yielder: *const Yielder<(), ()>,
    pub request: Request,
    /// What the collective the thread waited for gave it.
    pub result: LaneOutput,
    /// The thread is a compiled coroutine (`CompiledCoroutine`): a runtime function that
    /// synchronises is called twice, once to ask and, after the thread is resumed, once to get
    /// the result; it never suspends the OS thread's stack.
    pub compiled: bool,
    /// For a compiled coroutine: where its request stands.
    pub pending: Pending,
    /// For a compiled coroutine: it ran to its end.
    pub exited: bool,
}

/// Where a compiled coroutine's request stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pending {
    /// None asked.
    None,
    /// Asked; the scheduler has not completed it.
    Asked,
    /// Completed: the next call of the runtime function returns `result`.
    Done,
}

impl ThreadCtx {
    pub fn new(tid: u32, block: *mut BlockCtx) -> ThreadCtx {
        ThreadCtx {
            tid,
            block,
            yielder: ptr::null(),
            request: Request::None,
            result: LaneOutput::default(),
            compiled: false,
            pending: Pending::None,
            exited: false,
        }
    }
}

thread_local! {
    static CURRENT: Cell<*mut ThreadCtx> = const { Cell::new(ptr::null_mut()) };
}

pub fn set_current(ctx: *mut ThreadCtx) {
    CURRENT.with(|c| c.set(ctx));
}

/// The running GPU thread, or null outside a launch.
#[inline]
pub fn current() -> *mut ThreadCtx {
    CURRENT.with(|c| c.get())
}

/// Suspends the running thread until the scheduler satisfies `request`; returns what the
/// collective gave it. Outside a coroutine (a bug: the lowering said the kernel needs none) it
/// records an error and returns a default result.
pub fn wait(request: Request) -> LaneOutput {
    let ctx = current();
    if ctx.is_null() {
        return LaneOutput::default();
    }
    // SAFETY: the scheduler set `ctx` to a live context before resuming this thread, and does not
    // touch it until the thread suspends.
    unsafe {
        if (*ctx).compiled {
            if (*ctx).pending == Pending::Done {
                (*ctx).pending = Pending::None;
                (*ctx).request = Request::None;
                return (*ctx).result;
            }
            (*ctx).request = request;
            (*ctx).pending = Pending::Asked;
            return LaneOutput::default();
        }
        (*ctx).request = request;
        let yielder = (*ctx).yielder;
        if yielder.is_null() {
            record_error(SimtError::Internal(
                "a barrier or warp collective ran in a kernel compiled as having none".to_string(),
            ));
            return LaneOutput::default();
        }
        (*yielder).suspend(());
        (*ctx).request = Request::None;
        (*ctx).result
    }
}

/// Records `error` for the running thread's block (the first one wins) and stops the thread for
/// good: its own coroutine, or the block's when its threads run one after another, is suspended
/// and never resumed. Outside both (a runtime function called outside a launch) it returns, and
/// the caller must make the rest of the thread harmless.
pub fn fail(error: SimtError) {
    record_error(error);
    let ctx = current();
    // SAFETY: as in `wait`; the block's yielder, when set, belongs to the coroutine running now.
    unsafe {
        if ctx.is_null() {
            return;
        }
        if !(*ctx).yielder.is_null() {
            (*ctx).request = Request::Abort;
            (*(*ctx).yielder).suspend(());
        } else if !(*(*ctx).block).abort.is_null() {
            (*(*(*ctx).block).abort).suspend(());
        }
    }
}

fn record_error(error: SimtError) {
    let ctx = current();
    if ctx.is_null() {
        return;
    }
    // SAFETY: as in `wait`.
    unsafe {
        let block = &mut *(*ctx).block;
        block.error.get_or_insert(error);
    }
}
