//! The runtime half of kernels cut at their synchronisations into loops over a block's threads
//! (loomc's `src/target/host/cut.rs`): such a kernel runs as a `ThreadsFn`, every thread of the
//! block to its next synchronisation in one compiled loop, then the synchronisation for all of
//! them at once, then the next loop. A barrier needs nothing here; a shuffle with a constant full
//! mask is done in compiled code; every other collective (votes, matches, barriers that reduce,
//! shuffles with other masks) is done by [`collective`] over arrays of the threads' operands, with
//! the rules and the errors of the scheduler (`block.rs`), which all threads of a block reaching
//! the same call in lockstep satisfy by construction. A region whose threads may leave by more
//! than one way (a barrier in a loop, a return) is checked by [`uniform`]: threads that leave it
//! by different ways are the barrier divergence the sanitizer reports.

use crate::context::{self, current, BarrierReduce};
use crate::report::{SimtError, ThreadId, Whereabouts};
use crate::warp::{self, LaneInput, ShflMode, WarpOp, WARP_SIZE};

/// How a collective's result comes back: its 32 bits (an `i32` or `float` result), or an `i64`
/// packing the value and a predicate at bit 32 (as the runtime's `{T, i1}` results do).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Packing {
    Bits32,
    Pair,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CutOp {
    /// A barrier of every thread of the block: the loop boundary is all it takes.
    Barrier,
    BarrierReduce(BarrierReduce),
    /// A warp collective; `vote` turns the operand into 0 or 1 first.
    Warp {
        op: WarpOp,
        packing: Packing,
        vote: bool,
    },
}

const fn shfl(mode: ShflMode, packing: Packing) -> CutOp {
    CutOp::Warp {
        op: WarpOp::Shfl { mode },
        packing,
        vote: false,
    }
}
const fn warp(op: WarpOp, packing: Packing, vote: bool) -> CutOp {
    CutOp::Warp { op, packing, vote }
}

/// Every synchronising runtime function a cut kernel may call, by index (the `op` of
/// [`collective`]). `loom_simt_barrier_sync_cnt` (a barrier of some of the threads) is not among
/// them: a kernel that calls it keeps its coroutines.
const OPS: [(&str, CutOp); 27] = [
    ("loom_simt_barrier0", CutOp::Barrier),
    ("loom_simt_barrier_sync", CutOp::Barrier),
    (
        "loom_simt_barrier0_popc",
        CutOp::BarrierReduce(BarrierReduce::Popc),
    ),
    (
        "loom_simt_barrier0_and",
        CutOp::BarrierReduce(BarrierReduce::And),
    ),
    (
        "loom_simt_barrier0_or",
        CutOp::BarrierReduce(BarrierReduce::Or),
    ),
    (
        "loom_simt_bar_warp_sync",
        warp(WarpOp::Sync, Packing::Bits32, false),
    ),
    (
        "loom_simt_shfl_sync_idx_i32",
        shfl(ShflMode::Idx, Packing::Bits32),
    ),
    (
        "loom_simt_shfl_sync_up_i32",
        shfl(ShflMode::Up, Packing::Bits32),
    ),
    (
        "loom_simt_shfl_sync_down_i32",
        shfl(ShflMode::Down, Packing::Bits32),
    ),
    (
        "loom_simt_shfl_sync_bfly_i32",
        shfl(ShflMode::Bfly, Packing::Bits32),
    ),
    (
        "loom_simt_shfl_sync_idx_f32",
        shfl(ShflMode::Idx, Packing::Bits32),
    ),
    (
        "loom_simt_shfl_sync_up_f32",
        shfl(ShflMode::Up, Packing::Bits32),
    ),
    (
        "loom_simt_shfl_sync_down_f32",
        shfl(ShflMode::Down, Packing::Bits32),
    ),
    (
        "loom_simt_shfl_sync_bfly_f32",
        shfl(ShflMode::Bfly, Packing::Bits32),
    ),
    (
        "loom_simt_shfl_sync_idx_i32p",
        shfl(ShflMode::Idx, Packing::Pair),
    ),
    (
        "loom_simt_shfl_sync_up_i32p",
        shfl(ShflMode::Up, Packing::Pair),
    ),
    (
        "loom_simt_shfl_sync_down_i32p",
        shfl(ShflMode::Down, Packing::Pair),
    ),
    (
        "loom_simt_shfl_sync_bfly_i32p",
        shfl(ShflMode::Bfly, Packing::Pair),
    ),
    (
        "loom_simt_shfl_sync_idx_f32p",
        shfl(ShflMode::Idx, Packing::Pair),
    ),
    (
        "loom_simt_shfl_sync_up_f32p",
        shfl(ShflMode::Up, Packing::Pair),
    ),
    (
        "loom_simt_shfl_sync_down_f32p",
        shfl(ShflMode::Down, Packing::Pair),
    ),
    (
        "loom_simt_shfl_sync_bfly_f32p",
        shfl(ShflMode::Bfly, Packing::Pair),
    ),
    (
        "loom_simt_vote_all_sync",
        warp(WarpOp::VoteAll, Packing::Bits32, true),
    ),
    (
        "loom_simt_vote_any_sync",
        warp(WarpOp::VoteAny, Packing::Bits32, true),
    ),
    (
        "loom_simt_vote_uni_sync",
        warp(WarpOp::VoteUni, Packing::Bits32, true),
    ),
    (
        "loom_simt_vote_ballot_sync",
        warp(WarpOp::VoteBallot, Packing::Bits32, true),
    ),
    (
        "loom_simt_match_any_sync_i32",
        warp(WarpOp::MatchAny, Packing::Bits32, false),
    ),
];
/// Past `OPS`' 27 (arrays of tuples cannot be extended in a const).
const MORE_OPS: [(&str, CutOp); 3] = [
    (
        "loom_simt_match_any_sync_i64",
        warp(WarpOp::MatchAny, Packing::Bits32, false),
    ),
    (
        "loom_simt_match_all_sync_i32p",
        warp(WarpOp::MatchAll, Packing::Pair, false),
    ),
    (
        "loom_simt_match_all_sync_i64p",
        warp(WarpOp::MatchAll, Packing::Pair, false),
    ),
];

fn op_at(index: u32) -> Option<CutOp> {
    let i = index as usize;
    OPS.get(i)
        .or_else(|| MORE_OPS.get(i.wrapping_sub(OPS.len())))
        .map(|(_, op)| *op)
}

/// The index [`collective`] takes for the synchronising runtime function `symbol`, or `None`
/// where a cut kernel cannot call it.
pub fn cut_op(symbol: &str) -> Option<u32> {
    OPS.iter()
        .chain(MORE_OPS.iter())
        .position(|(name, _)| *name == symbol)
        .map(|i| i as u32)
}

/// Whether the synchronisation `symbol` is a barrier of the whole block and nothing else (its
/// cut needs no exchange).
pub fn cut_is_barrier(symbol: &str) -> bool {
    cut_op(symbol).and_then(op_at) == Some(CutOp::Barrier)
}

/// `loom_simt_cut_scratch(bytes)`: memory for a cut kernel's per-thread arrays for one block,
/// 16-byte aligned, the worker's own (its coroutine frames' buffer, which a cut kernel does not
/// otherwise use), reused from block to block.
pub(crate) extern "C" fn scratch(bytes: u64) -> *mut u8 {
    let ctx = current();
    if ctx.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: the context and its block are live while the loop runs; `frames` is the worker's,
    // used by this block alone.
    unsafe {
        let frames = &mut *(*(*ctx).block).frames;
        let words = (bytes as usize).div_ceil(16).max(1);
        if frames.len() < words {
            frames.resize(words, 0);
        }
        frames.as_mut_ptr() as *mut u8
    }
}

fn fail_with(error: SimtError) {
    context::fail(error);
}

/// `loom_simt_cut_uniform(codes, n)`: every thread of a region said how it left it (`codes[t]`:
/// 0 for the kernel's end, else the synchronisation's location id plus one); returns that way
/// when all agree, else stops the block with the report the sanitizer gives for threads that do
/// not all reach a barrier.
pub(crate) extern "C" fn uniform(codes: *const u32, n: u32) -> u32 {
    // SAFETY: the compiled loop passes its own array of `n` codes.
    let codes = unsafe { std::slice::from_raw_parts(codes, n as usize) };
    let first = codes.first().copied().unwrap_or(0);
    let Some(other) = codes.iter().position(|c| *c != first) else {
        return first;
    };
    let ctx = current();
    if ctx.is_null() {
        return u32::MAX;
    }
    // SAFETY: as in `scratch`.
    let block = unsafe { &*(*ctx).block };
    let id = |t: usize| ThreadId {
        block: block.ctaid,
        thread: t as u32,
    };
    let whereabouts = |code: u32| match code {
        0 => Whereabouts::Exited,
        c => Whereabouts::AtBarrier(block.location(c - 1)),
    };
    // The thread at a synchronisation waits; the other is missing from it.
    let (waiting, missing) = if first != 0 { (0, other) } else { (other, 0) };
    fail_with(SimtError::BarrierNotReached {
        waiting: id(waiting),
        barrier: block.location(codes[waiting] - 1),
        missing: id(missing),
        missing_at: whereabouts(codes[missing]),
    });
    u32::MAX
}

/// `loom_simt_cut_collective(op, args, results, n, loc)`: the synchronisation `op` ([`cut_op`])
/// for all `n` threads of the block, every one of them at the call of location `loc`. `args`
/// holds the call's operands, operand-major (`args[i * n16 + t]`, `n16` being `n` rounded up to
/// a multiple of 16, each zero-extended to 64 bits),
/// `results[t]` gets thread `t`'s result as the runtime function would return it. The rules are
/// the scheduler's (`Scheduler::release_warp_collectives`, `release_barrier`).
pub(crate) extern "C" fn collective(
    op: u32,
    args: *const u64,
    results: *mut u64,
    n: u32,
    loc: u32,
) {
    let ctx = current();
    if ctx.is_null() {
        return;
    }
    // SAFETY: the context and its block are live while the loop runs.
    let block = unsafe { &*(*ctx).block };
    let n = n as usize;
    let Some(op) = op_at(op) else {
        fail_with(SimtError::Internal(format!(
            "a cut kernel's collective #{op} is unknown"
        )));
        return;
    };
    // Each operand's array has room for `n` rounded up to 16 threads.
    let stride = n.div_ceil(16) * 16;
    let arg = |i: usize, t: usize| -> u64 {
        // SAFETY: the loop stored every operand of every thread.
        unsafe { *args.add(i * stride + t) }
    };
    let set = |t: usize, v: u64| {
        // SAFETY: `results` has room for `n` values.
        unsafe { *results.add(t) = v }
    };
    let id = |t: usize| ThreadId {
        block: block.ctaid,
        thread: t as u32,
    };
    match op {
        CutOp::Barrier => {}
        CutOp::BarrierReduce(reduce) => {
            let predicates = (0..n).map(|t| arg(0, t) as u32 != 0);
            let value = match reduce {
                BarrierReduce::None => 0,
                BarrierReduce::Popc => predicates.filter(|p| *p).count() as u64,
                BarrierReduce::And => predicates.clone().all(|p| p) as u64,
                BarrierReduce::Or => predicates.clone().any(|p| p) as u64,
            };
            (0..n).for_each(|t| set(t, value));
        }
        CutOp::Warp {
            op: warp_op,
            packing,
            vote,
        } => {
            let mut done = vec![false; n];
            for t in 0..n {
                if done[t] {
                    continue;
                }
                let mask = arg(0, t) as u32;
                let warp_start = t - t % WARP_SIZE as usize;
                let lane = (t - warp_start) as u32;
                if mask & (1 << lane) == 0 {
                    fail_with(SimtError::WarpMisuse {
                        thread: id(t),
                        location: block.location(loc),
                        problem: format!(
                            "`{}` with mask {mask:#010x}, which does not include the calling lane {lane}",
                            warp_op.name()
                        ),
                    });
                    return;
                }
                let mut inputs: [Option<LaneInput>; WARP_SIZE as usize] =
                    [None; WARP_SIZE as usize];
                for l in 0..WARP_SIZE {
                    let other = warp_start + l as usize;
                    if mask & (1 << l) == 0 || other >= n {
                        continue;
                    }
                    let mask2 = arg(0, other) as u32;
                    if mask2 != mask {
                        fail_with(SimtError::WarpMisuse {
                            thread: id(t),
                            location: block.location(loc),
                            problem: format!(
                                "`{}` with mask {mask:#010x}, but lane {l} of the mask waits at `{}` with mask {mask2:#010x} at {}",
                                warp_op.name(),
                                warp_op.name(),
                                block.location(loc)
                            ),
                        });
                        return;
                    }
                    let value = match warp_op {
                        WarpOp::Sync => 0,
                        _ => arg(1, other),
                    };
                    let (b, c) = match warp_op {
                        WarpOp::Shfl { .. } => (arg(2, other) as u32, arg(3, other) as u32),
                        _ => (0, 0),
                    };
                    inputs[l as usize] = Some(LaneInput {
                        value: if vote {
                            (value as u32 != 0) as u64
                        } else {
                            value
                        },
                        b,
                        c,
                    });
                }
                let (outputs, _) = warp::execute(warp_op, &inputs);
                for (l, output) in outputs.iter().enumerate() {
                    if inputs[l].is_some() {
                        let v = output.value as u32 as u64;
                        set(
                            warp_start + l,
                            match packing {
                                Packing::Bits32 => v,
                                Packing::Pair => v | (output.pred as u64) << 32,
                            },
                        );
                        done[warp_start + l] = true;
                    }
                }
            }
        }
    }
}
