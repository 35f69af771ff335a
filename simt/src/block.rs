//! One block at a time: its threads as coroutines, run until each reaches a barrier, a warp
//! collective or its end; then the collectives whose participants have all arrived complete, and
//! the released threads run again. No runnable thread while some wait is a deadlock, reported.
//!
//! A thread is a stackful coroutine (corosensei), or, for a kernel the host lowering compiled
//! into LLVM coroutines (`CompiledCoroutine`, outside sanitizer mode), a frame that a resume
//! function runs on: the same scheduler drives both (`Scheduler::run` takes the way to resume).
//!
//! A kernel with no barrier and no collective needs no coroutines: its threads run one after the
//! other on the worker's own stack, or all in the kernel's compiled loop over them.

use crate::context::{self, BarrierReduce, BlockCtx, Pending, Request, ThreadCtx};
use crate::report::{SimtError, ThreadId, Whereabouts};
use crate::sanitizer::Sanitizer;
use crate::warp::{self, LaneInput, LaneOutput, WarpOp, WARP_SIZE};
use crate::{LaunchShared, STACK_BYTES};
use corosensei::stack::DefaultStack;
use corosensei::{Coroutine, CoroutineResult, Yielder};
use std::ffi::c_void;
use std::ptr;

type Thread = Coroutine<(), (), (), DefaultStack>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Runnable,
    Waiting,
    Exited,
}

/// What one OS thread keeps from block to block.
pub struct Worker {
    stacks: Vec<DefaultStack>,
    /// Shared memory, 16-byte aligned, between two red zones (`SHARED_RED_ZONE`).
    shared: Vec<u128>,
    sanitizer: Option<Sanitizer>,
    /// Compiled coroutines' frames, one after another (`BlockCtx::frames`).
    frames: Vec<u128>,
}

/// The pattern uninitialised shared memory holds: NaN as a float, -1 as an integer, so that a
/// kernel that reads shared memory before writing it does not get plausible zeros.
const SHARED_POISON: u8 = 0xff;

/// Bytes of `SHARED_POISON` before and after a block's shared memory. Without the sanitizer no
/// shared access is checked: a kernel that writes past either end of its shared memory writes
/// here instead of into the host's heap, and `shared_red_zones_intact` finds it after the launch.
/// (A multiple of 16, so that shared memory stays 16-byte aligned.)
const SHARED_RED_ZONE: usize = 4096;

thread_local! {
    /// The coroutine stacks of this OS thread's last worker, for its next (`pool.rs` keeps the
    /// threads): a stack mapped afresh is page faults again wherever it is touched.
    static SPARE_STACKS: std::cell::RefCell<Vec<DefaultStack>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Spare stacks an OS thread keeps between launches: a block's worth of threads, at most.
const SPARE_STACKS_KEPT: usize = 1024;

/// This OS thread's spare stacks, taken.
fn take_spare_stacks() -> Vec<DefaultStack> {
    SPARE_STACKS.with_borrow_mut(std::mem::take)
}

/// Keeps up to `SPARE_STACKS_KEPT` of `stacks` as this OS thread's spares. (A thread that is
/// exiting has dropped its spares already: these are dropped too.)
fn keep_spare_stacks(mut stacks: Vec<DefaultStack>) {
    stacks.truncate(SPARE_STACKS_KEPT);
    let _ = SPARE_STACKS.try_with(|spare| spare.replace(stacks));
}

impl Worker {
    pub fn new(launch: &LaunchShared) -> Worker {
        Worker {
            stacks: take_spare_stacks(),
            frames: Vec::new(),
            shared: vec![
                u128::from_ne_bytes([SHARED_POISON; 16]);
                (launch.config.shared_bytes + 2 * SHARED_RED_ZONE).div_ceil(16)
            ],
            sanitizer: launch.config.sanitize.then(|| {
                Sanitizer::new(
                    &launch.buffers,
                    launch.config.shared_bytes,
                    launch.config.block_size,
                )
            }),
        }
    }

    pub fn run_block(&mut self, launch: &LaunchShared, block: u32) -> Result<(), SimtError> {
        let config = &launch.config;
        let shared_len = config.shared_bytes;
        let shared = self.shared_memory();
        // SAFETY: `shared` has room for `shared_bytes`.
        unsafe { ptr::write_bytes(shared, SHARED_POISON, shared_len) };
        let sanitizer = match &mut self.sanitizer {
            Some(s) => {
                s.start_block(block);
                s as *mut Sanitizer
            }
            None => ptr::null_mut(),
        };
        let mut block_ctx = BlockCtx::new(launch, block, shared, sanitizer, &mut self.frames);
        let block_ptr: *mut BlockCtx = &mut block_ctx;
        // (A kernel with a compiled loop over its threads, which a kernel that synchronises has
        // where the host lowering could cut it, runs in `run_looped` outside sanitizer mode.)
        let mut threads: Vec<ThreadCtx> = (0..config.block_size)
            .map(|t| ThreadCtx::new(t, block_ptr))
            .collect();
        let result = if let (true, false, Some(compiled)) = (
            config.needs_coroutines,
            config.sanitize,
            config.compiled_coroutine,
        ) {
            for t in threads.iter_mut() {
                t.compiled = true;
            }
            self.run_compiled(launch, block_ptr, &mut threads, compiled)
        } else if config.needs_coroutines || config.sanitize {
            self.run_coroutines(launch, block_ptr, &mut threads)
        } else {
            self.run_direct(launch, block_ptr, &mut threads)
        };
        context::set_current(ptr::null_mut());
        match block_ctx.error.take() {
            Some(error) => Err(error),
            None => result,
        }
    }

    /// Runs the blocks `claim` hands out (`claim(most)`: the next run of at most `most`
    /// blocks), one after another, in the kernel's compiled loop over a block's threads
    /// (`threads_entry`), all inside one coroutine (whose stack lets a failed check leave the
    /// JIT-compiled code at once): a coroutine made and entered for each block cost about a third
    /// of a microsecond, as long as a block of saxpy takes. A loop over threads that runs blocks
    /// (`threads_entry_runs_blocks`) gets as many as it can at once, each row of the grid's in
    /// one call; unless they have shared memory, which is poisoned afresh for every block.
    /// Returns at the first block that fails, with its error; the worker may go on with the
    /// next.
    pub fn run_looped(
        &mut self,
        launch: &LaunchShared,
        claim: &mut dyn FnMut(u32) -> Option<std::ops::Range<u32>>,
    ) -> Result<(), (u32, SimtError)> {
        let config = &launch.config;
        let Some(all) = config.threads_entry else {
            return Ok(());
        };
        let shared_len = config.shared_bytes;
        let shared = self.shared_memory();
        let mut block_ctx = BlockCtx::new(launch, 0, shared, ptr::null_mut(), &mut self.frames);
        let block: *mut BlockCtx = &mut block_ctx;
        // The loop reads only block-wide values from the context and names the thread itself
        // before a failing check: one context serves every block.
        let mut thread = ThreadCtx::new(0, block);
        let thread_addr = &mut thread as *mut ThreadCtx as usize;
        let block_addr = block as usize;
        let params = launch.params.0 as usize;
        // The first block is claimed here, so that a stack that cannot be allocated fails it
        // (and the worker's next call claims another, or none once a block has failed).
        let most = match config.threads_entry_runs_blocks && shared_len == 0 {
            true => u32::MAX,
            false => 1,
        };
        let Some(first) = claim(most) else {
            return Ok(());
        };
        let stack = match self.stack() {
            Ok(stack) => stack,
            Err(error) => return Err((first.start, error)),
        };
        type Claim<'c> = &'c mut dyn FnMut(u32) -> Option<std::ops::Range<u32>>;
        let mut claim_ref = claim;
        let claim_addr = &mut claim_ref as *mut Claim<'_> as usize;
        let mut coroutine = Thread::with_stack(stack, move |yielder: &Yielder<(), ()>, ()| {
            let block = block_addr as *mut BlockCtx;
            // SAFETY: the block context, the thread context and `claim` outlive the coroutine
            // (it is driven to its end or reset below), and `all` takes the launch's parameters.
            unsafe {
                let claim = &mut *(claim_addr as *mut Claim<'_>);
                (*block).abort = yielder;
                let columns = (*block).nctaid_x.max(1);
                let mut next = Some(first);
                'runs: while let Some(run) = next {
                    let mut b = run.start;
                    while b < run.end {
                        let (x, y) = (b % columns, b / columns);
                        let mut count = (run.end - b).min(columns - x);
                        // A row's last block goes alone: it is where a partial tile of the
                        // arrays usually falls, whose bounds checks the loop's versioning test
                        // cannot drop, and a run that fails the test runs every block of it
                        // with its checks.
                        if count > 1 && x + count == columns {
                            count -= 1;
                        }
                        // The loop names the block itself before a failing check.
                        (*block).ctaid = b;
                        if shared_len != 0 {
                            ptr::write_bytes(shared, SHARED_POISON, shared_len);
                        }
                        context::set_current(thread_addr as *mut ThreadCtx);
                        all(
                            params as *const *mut c_void,
                            (*block).ntid_x as i32,
                            ((*block).ntid / (*block).ntid_x) as i32,
                            x as i32,
                            y as i32,
                            count as i32,
                        );
                        if (*block).error.is_some() {
                            break 'runs;
                        }
                        b += count;
                    }
                    next = claim(most);
                }
                (*block).abort = ptr::null();
            }
        });
        if let CoroutineResult::Yield(()) = coroutine.resume(()) {
            // SAFETY: as in `run_coroutines`: the suspended frames own nothing to drop.
            unsafe { coroutine.force_reset() };
            // SAFETY: the coroutine no longer runs; the block context is live.
            unsafe { (*block).abort = ptr::null() };
        }
        self.stacks.push(coroutine.into_stack());
        context::set_current(ptr::null_mut());
        match block_ctx.error.take() {
            Some(error) => Err((block_ctx.ctaid, error)),
            None => Ok(()),
        }
    }

    fn run_coroutines(
        &mut self,
        launch: &LaunchShared,
        block: *mut BlockCtx,
        threads: &mut [ThreadCtx],
    ) -> Result<(), SimtError> {
        let entry = launch.per_thread_entry()?;
        let mut coroutines = Vec::with_capacity(threads.len());
        for ctx in threads.iter_mut() {
            let stack = self.stack()?;
            let params = launch.params.0 as usize;
            let me = ctx as *mut ThreadCtx as usize;
            coroutines.push(Thread::with_stack(
                stack,
                move |yielder: &Yielder<(), ()>, ()| {
                    let me = me as *mut ThreadCtx;
                    // SAFETY: the context outlives the coroutine (the block drives it to its end
                    // or resets it before returning), and `entry` takes the launch's parameters.
                    unsafe {
                        (*me).yielder = yielder;
                        entry(params as *const *mut c_void);
                    }
                },
            ));
        }
        let mut scheduler = Scheduler {
            threads,
            states: vec![State::Runnable; coroutines.len()],
            block,
            sanitizer: launch.config.sanitize,
        };
        let outcome = scheduler.run(&mut |t| match coroutines[t].resume(()) {
            CoroutineResult::Yield(()) => false,
            CoroutineResult::Return(()) => true,
        });
        for mut coroutine in coroutines {
            if !coroutine.done() {
                // SAFETY: a suspended thread's stack holds JIT-compiled frames and the runtime's
                // own, none of which owns anything to drop; unwinding through JIT code is not
                // possible, so the coroutine is reset instead.
                unsafe { coroutine.force_reset() };
            }
            self.stacks.push(coroutine.into_stack());
        }
        outcome
    }
}

impl Worker {
    /// Runs the threads one after another, all inside one coroutine, so that a thread that fails
    /// (an out-of-bounds access) stops the block at once instead of running on.
    fn run_direct(
        &mut self,
        launch: &LaunchShared,
        block: *mut BlockCtx,
        threads: &mut [ThreadCtx],
    ) -> Result<(), SimtError> {
        let entry = launch.per_thread_entry()?;
        let stack = self.stack()?;
        let params = launch.params.0 as usize;
        let first = threads.as_mut_ptr() as usize;
        let count = threads.len();
        let block_addr = block as usize;
        let mut coroutine = Thread::with_stack(stack, move |yielder: &Yielder<(), ()>, ()| {
            let block = block_addr as *mut BlockCtx;
            let first = first as *mut ThreadCtx;
            // SAFETY: the block context and the threads outlive the coroutine (it is driven to
            // its end or reset below), and `entry` takes the launch's parameters.
            unsafe {
                (*block).abort = yielder;
                for t in 0..count {
                    context::set_current(first.add(t));
                    entry(params as *const *mut c_void);
                }
                (*block).abort = ptr::null();
            }
        });
        if let CoroutineResult::Yield(()) = coroutine.resume(()) {
            // SAFETY: as in `run_coroutines`: the suspended frames own nothing to drop.
            unsafe { coroutine.force_reset() };
            // SAFETY: the coroutine no longer runs; the block context is live.
            unsafe { (*block).abort = ptr::null() };
        }
        self.stacks.push(coroutine.into_stack());
        Ok(())
    }

    /// Runs a synchronising block's threads as compiled coroutines, under the same scheduler as
    /// stackful ones, all inside one stackful coroutine for the block so that an error can stop
    /// the block at once (as `run_direct` does).
    fn run_compiled(
        &mut self,
        launch: &LaunchShared,
        block: *mut BlockCtx,
        threads: &mut [ThreadCtx],
        compiled: crate::CompiledCoroutine,
    ) -> Result<(), SimtError> {
        let stack = self.stack()?;
        let params = launch.params.0 as usize;
        let block_addr = block as usize;
        let threads_addr = threads.as_mut_ptr() as usize;
        let count = threads.len();
        let mut outcome = Ok(());
        let outcome_addr = &mut outcome as *mut Result<(), SimtError> as usize;
        let mut coroutine = Thread::with_stack(stack, move |yielder: &Yielder<(), ()>, ()| {
            let block = block_addr as *mut BlockCtx;
            // SAFETY: the block context, the threads and `outcome` outlive the coroutine (it is
            // driven to its end or reset below); the ramp takes the launch's parameters and the
            // resume function the frames the ramp returned.
            unsafe {
                (*block).abort = yielder;
                let threads = std::slice::from_raw_parts_mut(threads_addr as *mut ThreadCtx, count);
                let mut frames = vec![ptr::null_mut::<c_void>(); count];
                let mut scheduler = Scheduler {
                    threads,
                    states: vec![State::Runnable; count],
                    block,
                    // Compiled coroutines run only without the sanitizer.
                    sanitizer: false,
                };
                let result = scheduler.run(&mut |t| {
                    if frames[t].is_null() {
                        frames[t] = (compiled.ramp)(params as *const *mut c_void);
                    } else {
                        (compiled.resume)(frames[t]);
                    }
                    (*(threads_addr as *mut ThreadCtx).add(t)).exited
                });
                *(outcome_addr as *mut Result<(), SimtError>) = result;
                (*block).abort = ptr::null();
            }
        });
        if let CoroutineResult::Yield(()) = coroutine.resume(()) {
            // SAFETY: as in `run_coroutines`: the suspended frames own nothing to drop.
            unsafe { coroutine.force_reset() };
            // SAFETY: the coroutine no longer runs; the block context is live.
            unsafe { (*block).abort = ptr::null() };
        }
        self.stacks.push(coroutine.into_stack());
        outcome
    }

    /// The start of a block's shared memory, after the first red zone.
    fn shared_memory(&mut self) -> *mut u8 {
        // SAFETY: `shared` holds both red zones and the shared memory between them.
        unsafe { (self.shared.as_mut_ptr() as *mut u8).add(SHARED_RED_ZONE) }
    }

    /// Whether the red zones around shared memory still hold only poison: an error naming the
    /// bytes written outside it, if not. (Only meaningful without the sanitizer, which stops any
    /// such write before it happens.)
    pub fn shared_red_zones_intact(&self, launch: &LaunchShared) -> Result<(), SimtError> {
        let all: &[u8] = as_bytes(&self.shared);
        let len = launch.config.shared_bytes;
        let before = &all[..SHARED_RED_ZONE];
        let after = &all[SHARED_RED_ZONE + len..];
        // The farthest byte written on each side.
        let lowest = before.iter().position(|&b| b != SHARED_POISON);
        let highest = after.iter().rposition(|&b| b != SHARED_POISON);
        if lowest.is_none() && highest.is_none() {
            return Ok(());
        }
        let mut places = Vec::new();
        if let Some(at) = lowest {
            places.push(format!(
                "up to {} bytes before its start",
                SHARED_RED_ZONE - at
            ));
        }
        if let Some(at) = highest {
            places.push(format!("up to {} bytes past its end", at + 1));
        }
        Err(SimtError::SharedOverrun {
            shared_bytes: len,
            detail: places.join(" and "),
        })
    }

    /// A coroutine stack: a spare one, or a new one.
    fn stack(&mut self) -> Result<DefaultStack, SimtError> {
        match self.stacks.pop() {
            Some(stack) => Ok(stack),
            None => DefaultStack::new(STACK_BYTES)
                .map_err(|e| SimtError::Internal(format!("cannot allocate a thread's stack: {e}"))),
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        keep_spare_stacks(std::mem::take(&mut self.stacks));
    }
}

/// `words` as the bytes they are.
fn as_bytes(words: &[u128]) -> &[u8] {
    // SAFETY: u128 is plain data; the byte view borrows `words`.
    unsafe { std::slice::from_raw_parts(words.as_ptr() as *const u8, std::mem::size_of_val(words)) }
}

struct Scheduler<'a> {
    threads: &'a mut [ThreadCtx],
    states: Vec<State>,
    block: *mut BlockCtx,
    sanitizer: bool,
}

impl Scheduler<'_> {
    fn block(&self) -> &BlockCtx {
        // SAFETY: the block context outlives the scheduler, and no thread runs while the
        // scheduler uses it.
        unsafe { &*self.block }
    }

    /// The error a thread recorded before it stopped, if any.
    fn take_error(&mut self) -> Option<SimtError> {
        // SAFETY: as in `block`; the scheduler is the only one touching the context now.
        unsafe { (*self.block).error.take() }
    }

    fn id(&self, thread: usize) -> ThreadId {
        ThreadId {
            block: self.block().ctaid,
            thread: thread as u32,
        }
    }

    /// Runs the block: `resume(t)` runs thread `t` until it waits (false) or ends (true).
    fn run(&mut self, resume: &mut dyn FnMut(usize) -> bool) -> Result<(), SimtError> {
        loop {
            for t in 0..self.threads.len() {
                if self.states[t] != State::Runnable {
                    continue;
                }
                context::set_current(&mut self.threads[t]);
                let ended = resume(t);
                context::set_current(ptr::null_mut());
                self.states[t] = match ended {
                    false => State::Waiting,
                    true => State::Exited,
                };
                if let Some(error) = self.take_error() {
                    return Err(error);
                }
            }
            if self.states.iter().all(|s| *s == State::Exited) {
                return Ok(());
            }
            if !self.release_warp_collectives()? && !self.release_barrier()? {
                return Err(self.deadlock());
            }
        }
    }

    fn location(&self, id: u32) -> crate::report::SourceLocation {
        self.block().location(id)
    }

    /// Completes every warp collective whose non-exited lanes have all arrived.
    fn release_warp_collectives(&mut self) -> Result<bool, SimtError> {
        let n = self.threads.len();
        let mut released = false;
        for t in 0..n {
            let Request::Warp {
                op, mask, location, ..
            } = self.threads[t].request
            else {
                continue;
            };
            if self.states[t] != State::Waiting {
                continue;
            }
            let warp_start = t - t % WARP_SIZE as usize;
            let lane = (t - warp_start) as u32;
            if mask & (1 << lane) == 0 {
                return Err(SimtError::WarpMisuse {
                    thread: self.id(t),
                    location: self.location(location),
                    problem: format!(
                        "`{}` with mask {mask:#010x}, which does not include the calling lane {lane}",
                        op.name()
                    ),
                });
            }
            let mut inputs: [Option<LaneInput>; WARP_SIZE as usize] = [None; WARP_SIZE as usize];
            let mut ready = true;
            for l in 0..WARP_SIZE {
                let other = warp_start + l as usize;
                if mask & (1 << l) == 0 || other >= n || self.states[other] == State::Exited {
                    continue;
                }
                match self.threads[other].request {
                    Request::Warp {
                        op: op2,
                        mask: mask2,
                        input,
                        location: location2,
                    } if self.states[other] == State::Waiting => {
                        if op2 != op || mask2 != mask {
                            return Err(SimtError::WarpMisuse {
                                thread: self.id(t),
                                location: self.location(location),
                                problem: format!(
                                    "`{}` with mask {mask:#010x}, but lane {l} of the mask waits at `{}` with mask {mask2:#010x} at {}",
                                    op.name(),
                                    op2.name(),
                                    self.location(location2)
                                ),
                            });
                        }
                        inputs[l as usize] = Some(input);
                    }
                    _ => ready = false,
                }
            }
            if !ready {
                continue;
            }
            let (outputs, outside) = warp::execute(op, &inputs);
            if let (true, Some(bad)) = (self.sanitizer, outside) {
                return Err(SimtError::WarpMisuse {
                    thread: self.id(warp_start + bad.lane as usize),
                    location: self.location(location),
                    problem: format!(
                        "`{}` reads lane {}, which is not in the mask {mask:#010x}, has exited or does not exist",
                        op.name(),
                        bad.source
                    ),
                });
            }
            for (l, output) in outputs.iter().enumerate() {
                if inputs[l].is_some() {
                    self.threads[warp_start + l].result = *output;
                    self.threads[warp_start + l].pending = Pending::Done;
                    self.states[warp_start + l] = State::Runnable;
                }
            }
            if op == WarpOp::Sync {
                let sanitizer = self.block().sanitizer;
                if !sanitizer.is_null() {
                    // SAFETY: the worker's sanitizer outlives the block.
                    unsafe { (*sanitizer).warp_synced((warp_start as u32) / WARP_SIZE, mask) };
                }
            }
            released = true;
        }
        Ok(released)
    }

    /// Completes the block barrier once every thread that has not exited waits at it (PTX: an
    /// exited thread does not hold a barrier up). In sanitizer mode a thread that exited before
    /// a barrier the others reach, or threads waiting at different barriers, are errors.
    fn release_barrier(&mut self) -> Result<bool, SimtError> {
        let waiting: Vec<usize> = (0..self.threads.len())
            .filter(|t| {
                self.states[*t] == State::Waiting
                    && matches!(self.threads[*t].request, Request::Barrier { .. })
            })
            .collect();
        let Some(&first) = waiting.first() else {
            return Ok(false);
        };
        let Request::Barrier {
            id,
            count,
            reduce,
            location,
            ..
        } = self.threads[first].request
        else {
            return Ok(false);
        };
        let same_barrier: Vec<usize> = waiting
            .iter()
            .copied()
            .filter(
                |t| matches!(self.threads[*t].request, Request::Barrier { id: i, .. } if i == id),
            )
            .collect();
        let live = self.states.iter().filter(|s| **s != State::Exited).count();
        let complete = if count == 0 {
            same_barrier.len() == live
        } else {
            same_barrier.len() >= count as usize
        };
        if !complete {
            return Ok(false);
        }
        if self.sanitizer && count == 0 {
            if let Some(exited) = self.states.iter().position(|s| *s == State::Exited) {
                return Err(SimtError::BarrierNotReached {
                    waiting: self.id(first),
                    barrier: self.location(location),
                    missing: self.id(exited),
                    missing_at: Whereabouts::Exited,
                });
            }
            for &t in &same_barrier {
                if let Request::Barrier {
                    location: other, ..
                } = self.threads[t].request
                {
                    if other != location {
                        return Err(SimtError::BarrierNotReached {
                            waiting: self.id(first),
                            barrier: self.location(location),
                            missing: self.id(t),
                            missing_at: Whereabouts::AtBarrier(self.location(other)),
                        });
                    }
                }
            }
        }
        let predicates = same_barrier.iter().map(|t| match self.threads[*t].request {
            Request::Barrier { predicate, .. } => predicate,
            _ => false,
        });
        let value = match reduce {
            BarrierReduce::None => 0,
            BarrierReduce::Popc => predicates.filter(|p| *p).count() as u64,
            BarrierReduce::And => predicates.clone().all(|p| p) as u64,
            BarrierReduce::Or => predicates.clone().any(|p| p) as u64,
        };
        for &t in &same_barrier {
            self.threads[t].result = LaneOutput { value, pred: false };
            self.threads[t].pending = Pending::Done;
            self.states[t] = State::Runnable;
        }
        let sanitizer = self.block().sanitizer;
        if !sanitizer.is_null() {
            // SAFETY: the worker's sanitizer outlives the block.
            unsafe { (*sanitizer).new_interval() };
        }
        Ok(true)
    }

    fn whereabouts(&self, t: usize) -> Whereabouts {
        match self.threads[t].request {
            _ if self.states[t] == State::Exited => Whereabouts::Exited,
            Request::Barrier { location, .. } => Whereabouts::AtBarrier(self.location(location)),
            Request::Warp {
                op, mask, location, ..
            } => Whereabouts::AtWarpCollective {
                op: op.name(),
                mask,
                location: self.location(location),
            },
            Request::None | Request::Abort => Whereabouts::Exited,
        }
    }

    /// No thread can run: a barrier some thread never reaches, or collectives waiting on each
    /// other.
    fn deadlock(&self) -> SimtError {
        let n = self.threads.len();
        let at_barrier = (0..n).find(|t| {
            self.states[*t] == State::Waiting
                && matches!(self.threads[*t].request, Request::Barrier { .. })
        });
        if let Some(waiting) = at_barrier {
            let barrier_location = match self.threads[waiting].request {
                Request::Barrier { location, .. } => location,
                _ => 0,
            };
            let missing = (0..n).find(|t| {
                self.states[*t] == State::Waiting
                    && !matches!(self.threads[*t].request, Request::Barrier { location, .. } if location == barrier_location)
            });
            if let Some(missing) = missing {
                return SimtError::BarrierNotReached {
                    waiting: self.id(waiting),
                    barrier: self.location(barrier_location),
                    missing: self.id(missing),
                    missing_at: self.whereabouts(missing),
                };
            }
        }
        // Group consecutive threads that wait at the same place.
        let mut groups: Vec<(usize, usize, String)> = Vec::new();
        for t in 0..n {
            if self.states[t] != State::Waiting {
                continue;
            }
            let place = self.whereabouts(t).to_string();
            match groups.last_mut() {
                Some((_, last, p)) if *p == place && *last + 1 == t => *last = t,
                _ => groups.push((t, t, place)),
            }
        }
        SimtError::Deadlock {
            block: self.block().ctaid,
            waiting: groups
                .into_iter()
                .map(|(a, b, place)| {
                    if a == b {
                        format!("thread {a} {place}")
                    } else {
                        format!("threads {a}-{b} {place}")
                    }
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use corosensei::stack::Stack;

    #[test]
    fn an_os_thread_keeps_its_stacks_for_the_next_launch_up_to_a_blocks_worth() {
        std::thread::spawn(|| {
            let stack = DefaultStack::new(STACK_BYTES).unwrap();
            let base = stack.base();
            keep_spare_stacks(vec![stack]);
            let again = take_spare_stacks();
            assert_eq!(again.iter().map(|s| s.base()).collect::<Vec<_>>(), [base]);
            assert!(take_spare_stacks().is_empty(), "taken once");
            let many = (0..SPARE_STACKS_KEPT + 3)
                .map(|_| DefaultStack::new(4096).unwrap())
                .collect();
            keep_spare_stacks(many);
            assert_eq!(take_spare_stacks().len(), SPARE_STACKS_KEPT);
        })
        .join()
        .unwrap();
    }
}
