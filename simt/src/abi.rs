//! The functions JIT-compiled kernels call: one `loom_simt_<name>` per NVVM intrinsic
//! `llvm.nvvm.<name with dots>`, plus the shared-memory base and the sanitizer's check.
//!
//! The host lowering rewrites every call of `llvm.nvvm.a.b.c` into a call of `loom_simt_a_b_c`
//! with the same arguments, `i1` widened to `i32`, a `{T, i1}` result packed into an `i64`
//! (value bits low, predicate at bit 32), and one more argument: the call's location id, for
//! reports. [`symbols`] lists them all, so an intrinsic the runtime does not implement is found
//! when the kernel is compiled, not when it runs.

use crate::context::{self, current, BarrierReduce, Request};
use crate::report::{AccessKind, SimtError, ThreadId};
use crate::sanitizer::{outside_buffers, outside_param, Space};
use crate::warp::{LaneInput, ShflMode, WarpOp, WARP_SIZE};
use crate::Buffer;
use crate::{libdevice, math};

/// The running thread's context, read-only; `None` outside a launch.
fn with_thread<R>(f: impl FnOnce(&context::ThreadCtx, &context::BlockCtx) -> R) -> Option<R> {
    let ctx = current();
    if ctx.is_null() {
        return None;
    }
    // SAFETY: the scheduler keeps the running thread's context and its block alive.
    unsafe { Some(f(&*ctx, &*(*ctx).block)) }
}

extern "C" fn tid_x(_loc: u32) -> i32 {
    with_thread(|t, b| (t.tid % b.ntid_x.max(1)) as i32).unwrap_or(0)
}
extern "C" fn tid_y(_loc: u32) -> i32 {
    with_thread(|t, b| (t.tid / b.ntid_x.max(1)) as i32).unwrap_or(0)
}
extern "C" fn ntid_y(_loc: u32) -> i32 {
    with_thread(|_, b| (b.ntid / b.ntid_x.max(1)) as i32).unwrap_or(1)
}
extern "C" fn ctaid_y(_loc: u32) -> i32 {
    with_thread(|_, b| (b.ctaid / b.nctaid_x.max(1)) as i32).unwrap_or(0)
}
extern "C" fn nctaid_y(_loc: u32) -> i32 {
    with_thread(|_, b| (b.nctaid / b.nctaid_x.max(1)) as i32).unwrap_or(1)
}
extern "C" fn zero(_loc: u32) -> i32 {
    0
}
extern "C" fn one(_loc: u32) -> i32 {
    1
}
extern "C" fn ntid_x(_loc: u32) -> i32 {
    with_thread(|_, b| b.ntid_x as i32).unwrap_or(1)
}
extern "C" fn ctaid_x(_loc: u32) -> i32 {
    with_thread(|_, b| (b.ctaid % b.nctaid_x.max(1)) as i32).unwrap_or(0)
}
extern "C" fn nctaid_x(_loc: u32) -> i32 {
    with_thread(|_, b| b.nctaid_x as i32).unwrap_or(1)
}
extern "C" fn laneid(_loc: u32) -> i32 {
    with_thread(|t, _| (t.tid % WARP_SIZE) as i32).unwrap_or(0)
}
extern "C" fn warpid(_loc: u32) -> i32 {
    with_thread(|t, _| (t.tid / WARP_SIZE) as i32).unwrap_or(0)
}
extern "C" fn nwarpid(_loc: u32) -> i32 {
    with_thread(|_, b| b.ntid.div_ceil(WARP_SIZE) as i32).unwrap_or(1)
}
extern "C" fn warpsize(_loc: u32) -> i32 {
    WARP_SIZE as i32
}
fn lane_mask(f: impl Fn(u32) -> u32) -> i32 {
    with_thread(|t, _| f(t.tid % WARP_SIZE) as i32).unwrap_or(0)
}
extern "C" fn lanemask_eq(_loc: u32) -> i32 {
    lane_mask(|l| 1 << l)
}
extern "C" fn lanemask_lt(_loc: u32) -> i32 {
    lane_mask(|l| (1u32 << l) - 1)
}
extern "C" fn lanemask_le(_loc: u32) -> i32 {
    lane_mask(|l| ((1u64 << (l + 1)) - 1) as u32)
}
extern "C" fn lanemask_gt(_loc: u32) -> i32 {
    lane_mask(|l| !(((1u64 << (l + 1)) - 1) as u32))
}
extern "C" fn lanemask_ge(_loc: u32) -> i32 {
    lane_mask(|l| !((1u32 << l) - 1))
}

fn barrier(id: u32, count: u32, reduce: BarrierReduce, predicate: bool, location: u32) -> u64 {
    context::wait(Request::Barrier {
        id,
        count,
        reduce,
        predicate,
        location,
    })
    .value
}
extern "C" fn barrier0(loc: u32) {
    barrier(0, 0, BarrierReduce::None, false, loc);
}
extern "C" fn barrier_sync(id: i32, loc: u32) {
    barrier(id as u32, 0, BarrierReduce::None, false, loc);
}
extern "C" fn barrier_sync_cnt(id: i32, count: i32, loc: u32) {
    barrier(id as u32, count as u32, BarrierReduce::None, false, loc);
}
extern "C" fn barrier0_popc(p: i32, loc: u32) -> i32 {
    barrier(0, 0, BarrierReduce::Popc, p != 0, loc) as i32
}
extern "C" fn barrier0_and(p: i32, loc: u32) -> i32 {
    barrier(0, 0, BarrierReduce::And, p != 0, loc) as i32
}
extern "C" fn barrier0_or(p: i32, loc: u32) -> i32 {
    barrier(0, 0, BarrierReduce::Or, p != 0, loc) as i32
}
/// A compiled loop over a block's threads (`ThreadsFn`), which runs them all under one
/// context, says which thread runs before a check that failed reports it.
extern "C" fn thread(t: i32) {
    let ctx = current();
    if !ctx.is_null() {
        // SAFETY: the context is the loop's own, live while it runs, and only this OS thread
        // touches it.
        unsafe { (*ctx).tid = t as u32 };
    }
}

/// A compiled loop over a run of blocks (`ThreadsFn`) says which block runs, (`x`, `y`) in the
/// grid, before a check that failed reports it.
extern "C" fn block(x: i32, y: i32) {
    let ctx = current();
    if !ctx.is_null() {
        // SAFETY: as in `thread`: the loop's own context and its block.
        unsafe {
            let block = &mut *(*ctx).block;
            block.ctaid = y as u32 * block.nctaid_x.max(1) + x as u32;
        }
    }
}

/// A compiled coroutine's frame (`CompiledCoroutine`): `size` bytes aligned to `align` for the
/// running thread, from the worker's frames (16-byte aligned, every frame a multiple of 16 bytes
/// from the first). Every thread of a kernel asks the same size; thread 0 asks first, before any
/// frame is in use, and sizes the block's frames.
extern "C" fn frame(size: u64, align: u64) -> *mut u8 {
    let ctx = current();
    if ctx.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: the context and its block are live while the thread runs; `frames` is the
    // worker's, used by this block alone.
    unsafe {
        let block = &mut *(*ctx).block;
        let tid = (*ctx).tid as usize;
        if align > 16 {
            context::fail(SimtError::Internal(format!(
                "a coroutine frame aligned to {align} bytes; the runtime's frames are aligned to 16"
            )));
            return std::ptr::null_mut();
        }
        let stride = (size as usize).div_ceil(16) * 16;
        if tid == 0 || block.frame_bytes == 0 {
            block.frame_bytes = stride;
            let frames = &mut *block.frames;
            let words = stride / 16 * block.ntid as usize;
            if frames.len() < words {
                frames.resize(words, 0);
            }
        }
        if stride > block.frame_bytes {
            context::fail(SimtError::Internal(format!(
                "a coroutine frame of {size} bytes, past the block's {} per thread",
                block.frame_bytes
            )));
            return std::ptr::null_mut();
        }
        ((*block.frames).as_mut_ptr() as *mut u8).add(tid * block.frame_bytes)
    }
}

/// A compiled coroutine ran to its end.
extern "C" fn exit() {
    let ctx = current();
    if !ctx.is_null() {
        // SAFETY: the running thread's context, live while it runs.
        unsafe { (*ctx).exited = true };
    }
}

/// Memory fences: threads of a block run one at a time on one OS thread, so only other blocks
/// (other OS threads) can observe an order, and a sequentially consistent fence gives it.
extern "C" fn fence(_loc: u32) {
    std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
}

fn warp(op: WarpOp, mask: i32, value: u64, b: i32, c: i32, location: u32) -> (u64, bool) {
    let out = context::wait(Request::Warp {
        op,
        mask: mask as u32,
        input: LaneInput {
            value,
            b: b as u32,
            c: c as u32,
        },
        location,
    });
    (out.value, out.pred)
}
extern "C" fn bar_warp_sync(mask: i32, loc: u32) {
    warp(WarpOp::Sync, mask, 0, 0, 0, loc);
}
fn pack(value: u32, pred: bool) -> i64 {
    (value as i64 & 0xffff_ffff) | ((pred as i64) << 32)
}
macro_rules! shfl {
    ($mode:expr, $i32:ident, $f32:ident, $i32p:ident, $f32p:ident) => {
        extern "C" fn $i32(mask: i32, a: i32, b: i32, c: i32, loc: u32) -> i32 {
            warp(
                WarpOp::Shfl { mode: $mode },
                mask,
                a as u32 as u64,
                b,
                c,
                loc,
            )
            .0 as i32
        }
        extern "C" fn $f32(mask: i32, a: f32, b: i32, c: i32, loc: u32) -> f32 {
            f32::from_bits(
                warp(
                    WarpOp::Shfl { mode: $mode },
                    mask,
                    a.to_bits() as u64,
                    b,
                    c,
                    loc,
                )
                .0 as u32,
            )
        }
        extern "C" fn $i32p(mask: i32, a: i32, b: i32, c: i32, loc: u32) -> i64 {
            let (v, p) = warp(
                WarpOp::Shfl { mode: $mode },
                mask,
                a as u32 as u64,
                b,
                c,
                loc,
            );
            pack(v as u32, p)
        }
        extern "C" fn $f32p(mask: i32, a: f32, b: i32, c: i32, loc: u32) -> i64 {
            let (v, p) = warp(
                WarpOp::Shfl { mode: $mode },
                mask,
                a.to_bits() as u64,
                b,
                c,
                loc,
            );
            pack(v as u32, p)
        }
    };
}
shfl!(
    ShflMode::Idx,
    shfl_idx_i32,
    shfl_idx_f32,
    shfl_idx_i32p,
    shfl_idx_f32p
);
shfl!(
    ShflMode::Up,
    shfl_up_i32,
    shfl_up_f32,
    shfl_up_i32p,
    shfl_up_f32p
);
shfl!(
    ShflMode::Down,
    shfl_down_i32,
    shfl_down_f32,
    shfl_down_i32p,
    shfl_down_f32p
);
shfl!(
    ShflMode::Bfly,
    shfl_bfly_i32,
    shfl_bfly_f32,
    shfl_bfly_i32p,
    shfl_bfly_f32p
);

extern "C" fn vote_all(mask: i32, p: i32, loc: u32) -> i32 {
    warp(WarpOp::VoteAll, mask, (p != 0) as u64, 0, 0, loc).0 as i32
}
extern "C" fn vote_any(mask: i32, p: i32, loc: u32) -> i32 {
    warp(WarpOp::VoteAny, mask, (p != 0) as u64, 0, 0, loc).0 as i32
}
extern "C" fn vote_uni(mask: i32, p: i32, loc: u32) -> i32 {
    warp(WarpOp::VoteUni, mask, (p != 0) as u64, 0, 0, loc).0 as i32
}
extern "C" fn vote_ballot(mask: i32, p: i32, loc: u32) -> i32 {
    warp(WarpOp::VoteBallot, mask, (p != 0) as u64, 0, 0, loc).0 as i32
}
extern "C" fn match_any_i32(mask: i32, v: i32, loc: u32) -> i32 {
    warp(WarpOp::MatchAny, mask, v as u32 as u64, 0, 0, loc).0 as i32
}
extern "C" fn match_any_i64(mask: i32, v: i64, loc: u32) -> i32 {
    warp(WarpOp::MatchAny, mask, v as u64, 0, 0, loc).0 as i32
}
extern "C" fn match_all_i32p(mask: i32, v: i32, loc: u32) -> i64 {
    let (m, p) = warp(WarpOp::MatchAll, mask, v as u32 as u64, 0, 0, loc);
    pack(m as u32, p)
}
extern "C" fn match_all_i64p(mask: i32, v: i64, loc: u32) -> i64 {
    let (m, p) = warp(WarpOp::MatchAll, mask, v as u64, 0, 0, loc);
    pack(m as u32, p)
}

/// The running block's shared memory: where the host lowering placed every `addrspace(3)`
/// global, at offsets it chose.
extern "C" fn shared_base(_loc: u32) -> *mut u8 {
    with_thread(|_, b| b.shared).unwrap_or(std::ptr::null_mut())
}

/// Access kinds the sanitizer's instrumentation passes (`kind` argument, low bits).
pub const ACCESS_READ: u32 = 0;
pub const ACCESS_WRITE: u32 = 1;
/// Atomic read-modify-write: checked for bounds, never a race.
pub const ACCESS_ATOMIC: u32 = 2;

/// Sanitizer mode: called before every load, store, atomic and memory intrinsic with the
/// address, the size in bytes, `kind | address_space << 8` and the location id. Returns the
/// address to use: the same one, or (after recording an error the thread could not be stopped
/// for) a scratch area, so that a bad access harms nothing.
extern "C" fn check_access(address: *mut u8, size: u64, kind: u32, loc: u32) -> *mut u8 {
    let ctx = current();
    if ctx.is_null() {
        return address;
    }
    // SAFETY: the scheduler keeps the running thread's context and its block alive, and the
    // block's sanitizer outlives it.
    unsafe {
        let thread = (*ctx).tid;
        let block = &mut *(*ctx).block;
        let sanitizer = block.sanitizer;
        if sanitizer.is_null() {
            return address;
        }
        let access = match kind & 0xff {
            ACCESS_WRITE => AccessKind::Write,
            _ => AccessKind::Read,
        };
        let atomic = kind & 0xff == ACCESS_ATOMIC;
        let space = Space::from_address_space(kind >> 8);
        let addr = address as usize;
        let shared = block.shared as usize;
        let in_shared = addr >= shared && addr < shared + block.shared_len;
        let id = ThreadId {
            block: block.ctaid,
            thread,
        };
        let error = match space {
            Space::Shared | Space::Generic if in_shared => {
                let offset = addr - shared;
                if offset + size as usize > block.shared_len {
                    Some(SimtError::OutOfBounds {
                        thread: id,
                        kind: access,
                        size,
                        location: block.location(loc),
                        detail: format!(
                            "it runs past the end of the block's {} bytes of shared memory",
                            block.shared_len
                        ),
                    })
                } else if atomic {
                    None
                } else {
                    (*sanitizer)
                        .shared_access(thread, offset, size as usize, access, loc)
                        .map(|(byte, other, other_loc, other_kind)| {
                            (*sanitizer).race(
                                byte,
                                (other, other_loc, other_kind),
                                (thread, loc, access),
                                |l| block.location(l),
                            )
                        })
                }
            }
            Space::Shared => Some(SimtError::OutOfBounds {
                thread: id,
                kind: access,
                size,
                location: block.location(loc),
                detail: format!(
                    "address {addr:#x} is outside the block's {} bytes of shared memory",
                    block.shared_len
                ),
            }),
            Space::Global => (*sanitizer)
                .global_access(addr, size as usize)
                .map(|detail| SimtError::OutOfBounds {
                    thread: id,
                    kind: access,
                    size,
                    location: block.location(loc),
                    detail,
                }),
            // A generic pointer outside shared memory and every buffer is thread-private.
            Space::Generic | Space::Other => None,
        };
        match error {
            None => address,
            Some(error) => {
                context::fail(error);
                block.scratch.as_mut_ptr() as *mut u8
            }
        }
    }
}

/// `loom_simt_check_bounds`'s `kind` argument: the access kind in the low byte, and from this
/// bit the index + 1 of the kernel parameter the address derives from (0: not known, then any
/// buffer of the launch will do).
pub const BOUNDS_PARAM_SHIFT: u32 = 8;

/// In `loom_simt_check_bounds`'s `kind`: the access is to shared memory, and must lie inside the
/// running block's.
pub const BOUNDS_SHARED: u32 = 1 << 30;

/// The bounds check of every global access, in every mode: `address` must lie, with its `size`
/// bytes, inside the buffer of the kernel parameter it derives from, or inside some buffer of the
/// launch when that is not known. Returns `address`; else records the error and stops the
/// thread's block (`context::fail`), or returns a harmless scratch address outside a launch.
extern "C" fn check_bounds(address: *mut u8, size: u64, kind: u32, loc: u32) -> *mut u8 {
    let ctx = current();
    if ctx.is_null() {
        return address;
    }
    // SAFETY: the scheduler keeps the running thread's context, its block and the launch alive.
    unsafe {
        let block = &mut *(*ctx).block;
        let launch = &*block.launch;
        let addr = address as usize;
        let size = size as usize;
        let param = (kind & !BOUNDS_SHARED) >> BOUNDS_PARAM_SHIFT;
        let detail = if kind & BOUNDS_SHARED != 0 {
            let shared = block.shared as usize;
            match launch.shared_variable(param as usize) {
                Some(variable) => {
                    let start = shared + variable.offset;
                    let offset = addr.wrapping_sub(start);
                    if offset <= variable.len && size <= variable.len - offset {
                        return address;
                    }
                    let as_buffer = Buffer {
                        name: variable.name.clone(),
                        start,
                        len: variable.len,
                        elem_size: size,
                        param: None,
                    };
                    Some(format!(
                        "{} in shared memory",
                        outside_param(&as_buffer, addr, size)
                    ))
                }
                None => {
                    let offset = addr.wrapping_sub(shared);
                    if offset <= block.shared_len && size <= block.shared_len - offset {
                        return address;
                    }
                    Some(outside_shared(shared, block.shared_len, addr, size))
                }
            }
        } else if param == 0 {
            if launch.in_some_buffer(addr, size) {
                return address;
            }
            outside_buffers(&launch.buffers, addr, size)
        } else {
            match launch.param_buffer(param as usize - 1) {
                Some(b) => {
                    let offset = addr.wrapping_sub(b.start);
                    if offset <= b.len && size <= b.len - offset {
                        return address;
                    }
                    Some(outside_param(b, addr, size))
                }
                // Not an array parameter after all: any buffer will do.
                None if launch.in_some_buffer(addr, size) => return address,
                None => outside_buffers(&launch.buffers, addr, size),
            }
        };
        let error = SimtError::OutOfBounds {
            thread: ThreadId {
                block: block.ctaid,
                thread: (*ctx).tid,
            },
            kind: match kind & 0xff {
                ACCESS_WRITE => AccessKind::Write,
                _ => AccessKind::Read,
            },
            size: size as u64,
            location: block.location(loc),
            detail: detail.unwrap_or_default(),
        };
        context::fail(error);
        block.scratch.as_mut_ptr() as *mut u8
    }
}

/// Where a shared-memory access of `size` bytes at `addr` lies against the block's `len` bytes
/// at `start`.
fn outside_shared(start: usize, len: usize, addr: usize, size: usize) -> String {
    if addr < start {
        format!(
            "it starts {} bytes before the block's {len} bytes of shared memory",
            start - addr
        )
    } else {
        format!(
            "it ends {} bytes past the end of the block's {len} bytes of shared memory",
            (addr - start).saturating_add(size) - len
        )
    }
}

macro_rules! symbol_table {
    ($($name:literal => $f:expr),* $(,)?) => {
        /// Every runtime function, by the symbol the host lowering calls, with its address.
        pub fn symbols() -> Vec<(&'static str, usize)> {
            vec![$(($name, $f as usize)),*]
        }
    };
}

symbol_table! {
    "loom_simt_read_ptx_sreg_tid_x" => tid_x as extern "C" fn(u32) -> i32,
    "loom_simt_read_ptx_sreg_tid_y" => tid_y as extern "C" fn(u32) -> i32,
    "loom_simt_read_ptx_sreg_tid_z" => zero as extern "C" fn(u32) -> i32,
    "loom_simt_read_ptx_sreg_ntid_x" => ntid_x as extern "C" fn(u32) -> i32,
    "loom_simt_read_ptx_sreg_ntid_y" => ntid_y as extern "C" fn(u32) -> i32,
    "loom_simt_read_ptx_sreg_ntid_z" => one as extern "C" fn(u32) -> i32,
    "loom_simt_read_ptx_sreg_ctaid_x" => ctaid_x as extern "C" fn(u32) -> i32,
    "loom_simt_read_ptx_sreg_ctaid_y" => ctaid_y as extern "C" fn(u32) -> i32,
    "loom_simt_read_ptx_sreg_ctaid_z" => zero as extern "C" fn(u32) -> i32,
    "loom_simt_read_ptx_sreg_nctaid_x" => nctaid_x as extern "C" fn(u32) -> i32,
    "loom_simt_read_ptx_sreg_nctaid_y" => nctaid_y as extern "C" fn(u32) -> i32,
    "loom_simt_read_ptx_sreg_nctaid_z" => one as extern "C" fn(u32) -> i32,
    "loom_simt_read_ptx_sreg_laneid" => laneid as extern "C" fn(u32) -> i32,
    "loom_simt_read_ptx_sreg_warpid" => warpid as extern "C" fn(u32) -> i32,
    "loom_simt_read_ptx_sreg_nwarpid" => nwarpid as extern "C" fn(u32) -> i32,
    "loom_simt_read_ptx_sreg_warpsize" => warpsize as extern "C" fn(u32) -> i32,
    "loom_simt_read_ptx_sreg_lanemask_eq" => lanemask_eq as extern "C" fn(u32) -> i32,
    "loom_simt_read_ptx_sreg_lanemask_lt" => lanemask_lt as extern "C" fn(u32) -> i32,
    "loom_simt_read_ptx_sreg_lanemask_le" => lanemask_le as extern "C" fn(u32) -> i32,
    "loom_simt_read_ptx_sreg_lanemask_gt" => lanemask_gt as extern "C" fn(u32) -> i32,
    "loom_simt_read_ptx_sreg_lanemask_ge" => lanemask_ge as extern "C" fn(u32) -> i32,
    "loom_simt_barrier0" => barrier0 as extern "C" fn(u32),
    "loom_simt_barrier_sync" => barrier_sync as extern "C" fn(i32, u32),
    "loom_simt_barrier_sync_cnt" => barrier_sync_cnt as extern "C" fn(i32, i32, u32),
    "loom_simt_barrier0_popc" => barrier0_popc as extern "C" fn(i32, u32) -> i32,
    "loom_simt_barrier0_and" => barrier0_and as extern "C" fn(i32, u32) -> i32,
    "loom_simt_barrier0_or" => barrier0_or as extern "C" fn(i32, u32) -> i32,
    "loom_simt_membar_cta" => fence as extern "C" fn(u32),
    "loom_simt_membar_gl" => fence as extern "C" fn(u32),
    "loom_simt_membar_sys" => fence as extern "C" fn(u32),
    "loom_simt_bar_warp_sync" => bar_warp_sync as extern "C" fn(i32, u32),
    "loom_simt_shfl_sync_idx_i32" => shfl_idx_i32 as extern "C" fn(i32, i32, i32, i32, u32) -> i32,
    "loom_simt_shfl_sync_up_i32" => shfl_up_i32 as extern "C" fn(i32, i32, i32, i32, u32) -> i32,
    "loom_simt_shfl_sync_down_i32" => shfl_down_i32 as extern "C" fn(i32, i32, i32, i32, u32) -> i32,
    "loom_simt_shfl_sync_bfly_i32" => shfl_bfly_i32 as extern "C" fn(i32, i32, i32, i32, u32) -> i32,
    "loom_simt_shfl_sync_idx_f32" => shfl_idx_f32 as extern "C" fn(i32, f32, i32, i32, u32) -> f32,
    "loom_simt_shfl_sync_up_f32" => shfl_up_f32 as extern "C" fn(i32, f32, i32, i32, u32) -> f32,
    "loom_simt_shfl_sync_down_f32" => shfl_down_f32 as extern "C" fn(i32, f32, i32, i32, u32) -> f32,
    "loom_simt_shfl_sync_bfly_f32" => shfl_bfly_f32 as extern "C" fn(i32, f32, i32, i32, u32) -> f32,
    "loom_simt_shfl_sync_idx_i32p" => shfl_idx_i32p as extern "C" fn(i32, i32, i32, i32, u32) -> i64,
    "loom_simt_shfl_sync_up_i32p" => shfl_up_i32p as extern "C" fn(i32, i32, i32, i32, u32) -> i64,
    "loom_simt_shfl_sync_down_i32p" => shfl_down_i32p as extern "C" fn(i32, i32, i32, i32, u32) -> i64,
    "loom_simt_shfl_sync_bfly_i32p" => shfl_bfly_i32p as extern "C" fn(i32, i32, i32, i32, u32) -> i64,
    "loom_simt_shfl_sync_idx_f32p" => shfl_idx_f32p as extern "C" fn(i32, f32, i32, i32, u32) -> i64,
    "loom_simt_shfl_sync_up_f32p" => shfl_up_f32p as extern "C" fn(i32, f32, i32, i32, u32) -> i64,
    "loom_simt_shfl_sync_down_f32p" => shfl_down_f32p as extern "C" fn(i32, f32, i32, i32, u32) -> i64,
    "loom_simt_shfl_sync_bfly_f32p" => shfl_bfly_f32p as extern "C" fn(i32, f32, i32, i32, u32) -> i64,
    "loom_simt_vote_all_sync" => vote_all as extern "C" fn(i32, i32, u32) -> i32,
    "loom_simt_vote_any_sync" => vote_any as extern "C" fn(i32, i32, u32) -> i32,
    "loom_simt_vote_uni_sync" => vote_uni as extern "C" fn(i32, i32, u32) -> i32,
    "loom_simt_vote_ballot_sync" => vote_ballot as extern "C" fn(i32, i32, u32) -> i32,
    "loom_simt_match_any_sync_i32" => match_any_i32 as extern "C" fn(i32, i32, u32) -> i32,
    "loom_simt_match_any_sync_i64" => match_any_i64 as extern "C" fn(i32, i64, u32) -> i32,
    "loom_simt_match_all_sync_i32p" => match_all_i32p as extern "C" fn(i32, i32, u32) -> i64,
    "loom_simt_match_all_sync_i64p" => match_all_i64p as extern "C" fn(i32, i64, u32) -> i64,
    "loom_simt_shared_base" => shared_base as extern "C" fn(u32) -> *mut u8,
    "loom_simt_thread" => thread as extern "C" fn(i32),
    "loom_simt_block" => block as extern "C" fn(i32, i32),
    "loom_simt_frame" => frame as extern "C" fn(u64, u64) -> *mut u8,
    "loom_simt_exit" => exit as extern "C" fn(),
    "loom_simt_cut_scratch" => crate::cut::scratch as extern "C" fn(u64) -> *mut u8,
    "loom_simt_cut_uniform" => crate::cut::uniform as extern "C" fn(*const u32, u32) -> u32,
    "loom_simt_cut_collective" => crate::cut::collective as extern "C" fn(u32, *const u64, *mut u64, u32, u32),
    "loom_simt_check_access" => check_access as extern "C" fn(*mut u8, u64, u32, u32) -> *mut u8,
    "loom_simt_check_bounds" => check_bounds as extern "C" fn(*mut u8, u64, u32, u32) -> *mut u8,
}

/// Every runtime function, math included.
pub fn all_symbols() -> Vec<(&'static str, usize)> {
    let mut all = symbols();
    all.extend(math::symbols());
    all.extend(libdevice::symbols());
    all
}
