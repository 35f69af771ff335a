//! The executor without LLVM: kernels written in Rust call the runtime functions through the
//! symbol table, exactly as JIT-compiled kernels do after the host lowering.

use loom_simt::{
    all_symbols, launch, Buffer, LaunchConfig, SimtError, SourceLocation, Whereabouts, ACCESS_READ,
    ACCESS_WRITE, BOUNDS_PARAM_SHIFT,
};
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::OnceLock;

fn address(name: &str) -> usize {
    static TABLE: OnceLock<HashMap<&'static str, usize>> = OnceLock::new();
    let table = TABLE.get_or_init(|| all_symbols().into_iter().collect());
    *table
        .get(name)
        .unwrap_or_else(|| panic!("no runtime symbol {name}"))
}

fn sreg(name: &str) -> i32 {
    let f: extern "C" fn(u32) -> i32 = unsafe { std::mem::transmute(address(name)) };
    f(0)
}
fn tid() -> usize {
    sreg("loom_simt_read_ptx_sreg_tid_x") as usize
}
fn ctaid() -> usize {
    sreg("loom_simt_read_ptx_sreg_ctaid_x") as usize
}
fn ntid() -> usize {
    sreg("loom_simt_read_ptx_sreg_ntid_x") as usize
}
fn barrier(loc: u32) {
    let f: extern "C" fn(u32) = unsafe { std::mem::transmute(address("loom_simt_barrier0")) };
    f(loc)
}
fn shared() -> *mut f32 {
    let f: extern "C" fn(u32) -> *mut u8 =
        unsafe { std::mem::transmute(address("loom_simt_shared_base")) };
    f(0) as *mut f32
}
fn shfl_down(v: f32, delta: i32) -> f32 {
    let f: extern "C" fn(i32, f32, i32, i32, u32) -> f32 =
        unsafe { std::mem::transmute(address("loom_simt_shfl_sync_down_f32")) };
    f(-1, v, delta, 0x1f, 7)
}
fn check(p: *mut f32, kind: u32, space: u32, loc: u32) -> *mut f32 {
    let f: extern "C" fn(*mut u8, u64, u32, u32) -> *mut u8 =
        unsafe { std::mem::transmute(address("loom_simt_check_access")) };
    f(p as *mut u8, 4, kind | space << 8, loc) as *mut f32
}

fn config(blocks: u32, block_size: u32, shared_bytes: usize, sanitize: bool) -> LaunchConfig {
    LaunchConfig {
        block_x: 0,
        grid_x: 0,
        blocks,
        block_size,
        shared_bytes,
        shared_variables: Vec::new(),
        needs_coroutines: true,
        threads_entry: None,
        threads_entry_runs_blocks: false,
        compiled_coroutine: None,
        sanitize,
        workers: 0,
        progress: None,
    }
}

fn locations() -> Vec<SourceLocation> {
    (0..10)
        .map(|i| SourceLocation {
            function: "k".into(),
            file: "k.loom".into(),
            line: i + 1,
            column: 3,
            instruction: String::new(),
        })
        .collect()
}

/// params[0]: *const f32 input, params[1]: *mut f32 output (one per block).
unsafe extern "C" fn tree_sum(params: *const *mut c_void) {
    let input = *(*params.add(0) as *const *const f32);
    let output = *(*params.add(1) as *const *mut f32);
    let (t, b, n) = (tid(), ctaid(), ntid());
    let s = shared();
    *s.add(t) = *input.add(b * n + t);
    barrier(1);
    let mut stride = 1;
    while stride < n {
        if t % (2 * stride) == 0 {
            *s.add(t) += *s.add(t + stride);
        }
        barrier(2);
        stride *= 2;
    }
    if t == 0 {
        *output.add(b) = *s;
    }
}

#[test]
fn blocks_have_their_own_shared_memory_and_barriers_hold() {
    for block_size in [32u32, 64, 256, 1024] {
        let blocks = 5;
        let n = (blocks * block_size) as usize;
        let input: Vec<f32> = (0..n).map(|i| (i % 17) as f32 + 0.5).collect();
        let mut output = vec![f32::NAN; blocks as usize];
        let (mut ip, mut op) = (input.as_ptr(), output.as_mut_ptr());
        let params = [
            &mut ip as *mut _ as *mut c_void,
            &mut op as *mut _ as *mut c_void,
        ];
        let cfg = config(blocks, block_size, block_size as usize * 4, false);
        unsafe { launch(Some(tree_sum), &params, &cfg, &[], &locations()) }.unwrap();
        for b in 0..blocks as usize {
            let expected: f32 = input[b * block_size as usize..(b + 1) * block_size as usize]
                .iter()
                .sum();
            assert_eq!(output[b], expected, "block {b} of size {block_size}");
        }
    }
}

/// Each warp sums its lanes' values with shuffles; lane 0 writes the warp's sum.
unsafe extern "C" fn warp_sum(params: *const *mut c_void) {
    let output = *(*params.add(0) as *const *mut f32);
    let t = tid();
    let mut v = (t * t) as f32;
    let mut delta = 16;
    while delta > 0 {
        v += shfl_down(v, delta);
        delta /= 2;
    }
    if t % 32 == 0 {
        *output.add(ctaid() * ntid() / 32 + t / 32) = v;
    }
}

#[test]
fn shuffles_exchange_between_lanes() {
    let mut output = vec![0f32; 6];
    let mut op = output.as_mut_ptr();
    let params = [&mut op as *mut _ as *mut c_void];
    unsafe {
        launch(
            Some(warp_sum),
            &params,
            &config(3, 64, 0, false),
            &[],
            &locations(),
        )
    }
    .unwrap();
    for (w, got) in output.iter().enumerate() {
        let lanes = ((w % 2) * 32)..((w % 2) * 32 + 32);
        let expected: f32 = lanes.map(|t| (t * t) as f32).sum();
        assert_eq!(*got, expected, "warp {w}");
    }
}

/// Thread 0 waits at a barrier while the rest of its warp waits at a shuffle that needs it.
unsafe extern "C" fn barrier_against_shuffle(_: *const *mut c_void) {
    if tid() == 0 {
        barrier(4);
    } else {
        shfl_down(1.0, 1);
    }
}

#[test]
fn a_deadlock_is_reported_not_hung() {
    let err = unsafe {
        launch(
            Some(barrier_against_shuffle),
            &[],
            &config(2, 32, 0, false),
            &[],
            &locations(),
        )
    }
    .unwrap_err();
    match &err {
        SimtError::BarrierNotReached {
            waiting,
            barrier,
            missing,
            missing_at: Whereabouts::AtWarpCollective { op, .. },
        } => {
            assert_eq!((waiting.block, waiting.thread, missing.thread), (0, 0, 1));
            assert_eq!(barrier.line, 5);
            assert_eq!(*op, "shfl.sync.down");
        }
        other => panic!("{other}"),
    }
    assert!(err.to_string().contains("k.loom:5:3"), "{err}");
}

/// Threads past the first half leave before the barrier the others wait at.
unsafe extern "C" fn early_exit(params: *const *mut c_void) {
    let output = *(*params.add(0) as *const *mut f32);
    if tid() >= ntid() / 2 {
        return;
    }
    barrier(3);
    *output.add(ctaid() * ntid() + tid()) = 1.0;
}

#[test]
fn an_exited_thread_releases_a_barrier_but_the_sanitizer_reports_it() {
    let mut output = vec![0f32; 128];
    let mut op = output.as_mut_ptr();
    let params = [&mut op as *mut _ as *mut c_void];
    unsafe {
        launch(
            Some(early_exit),
            &params,
            &config(2, 64, 0, false),
            &[],
            &locations(),
        )
    }
    .unwrap();
    assert_eq!(output.iter().filter(|v| **v == 1.0).count(), 64);
    let err = unsafe {
        launch(
            Some(early_exit),
            &params,
            &config(2, 64, 0, true),
            &[],
            &locations(),
        )
    }
    .unwrap_err();
    match err {
        SimtError::BarrierNotReached {
            waiting,
            missing,
            missing_at: Whereabouts::Exited,
            barrier,
        } => {
            assert_eq!((waiting.block, waiting.thread, missing.thread), (0, 0, 32));
            assert_eq!(barrier.line, 4);
        }
        other => panic!("{other}"),
    }
}

/// Thread t writes shared[t] and reads shared[t + 1] with no barrier between.
unsafe extern "C" fn racy(_: *const *mut c_void) {
    let s = shared();
    let t = tid();
    *check(s.add(t), ACCESS_WRITE, 3, 1) = t as f32;
    let _ = *check(s.add((t + 1) % ntid()), ACCESS_READ, 3, 2);
}

#[test]
fn the_sanitizer_finds_a_shared_memory_race() {
    let err = unsafe {
        launch(
            Some(racy),
            &[],
            &config(4, 32, 128, true),
            &[],
            &locations(),
        )
    }
    .unwrap_err();
    match err {
        SimtError::SharedRace {
            offset,
            first,
            second,
        } => {
            // Thread 0 reads byte 4, then thread 1 writes it.
            assert_eq!(offset, 4);
            assert_eq!((first.thread.thread, first.location.line), (0, 3));
            assert_eq!((second.thread.thread, second.location.line), (1, 2));
            assert_eq!(first.thread.block, 0);
        }
        other => panic!("{other}"),
    }
    // Without the sanitizer the same kernel runs.
    unsafe {
        launch(
            Some(racy),
            &[],
            &config(4, 32, 128, false),
            &[],
            &locations(),
        )
    }
    .unwrap();
}

/// Reads element tid + 1 of a buffer of ntid elements.
unsafe extern "C" fn reads_past_the_end(params: *const *mut c_void) {
    let input = *(*params.add(0) as *const *mut f32);
    let _ = *check(input.add(tid() + 1), ACCESS_READ, 1, 6);
}

#[test]
fn the_sanitizer_finds_an_out_of_bounds_read() {
    let mut data = vec![1f32; 64];
    let mut p = data.as_mut_ptr();
    let params = [&mut p as *mut _ as *mut c_void];
    let buffers = [Buffer {
        name: "in".into(),
        start: data.as_ptr() as usize,
        len: 64 * 4,
        elem_size: 4,
        param: Some(0),
    }];
    let err = unsafe {
        launch(
            Some(reads_past_the_end),
            &params,
            &config(1, 64, 0, true),
            &buffers,
            &locations(),
        )
    }
    .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("out-of-bounds read of 4 bytes by thread 63 of block 0 at k.loom:7:3"),
        "{text}"
    );
    assert!(
        text.contains("element 64 of an array of 64 elements"),
        "{text}"
    );
}

fn check_bounds(p: *mut f32, kind: u32, param: u32, loc: u32) -> *mut f32 {
    let f: extern "C" fn(*mut u8, u64, u32, u32) -> *mut u8 =
        unsafe { std::mem::transmute(address("loom_simt_check_bounds")) };
    f(
        p as *mut u8,
        4,
        kind | (param + 1) << BOUNDS_PARAM_SHIFT,
        loc,
    ) as *mut f32
}

/// params[0]: a buffer of 4 f32; params[1]: a counter of the threads that got past the write.
/// Thread t writes element t.
unsafe extern "C" fn writes_by_thread_index(params: *const *mut c_void) {
    let data = *(*params.add(0) as *const *mut f32);
    let done = *(*params.add(1) as *const *mut u32);
    *check_bounds(data.add(tid()), ACCESS_WRITE, 0, 4) = 1.0;
    let done = check_bounds(done as *mut f32, ACCESS_WRITE, 1, 5) as *mut u32;
    *done += 1;
}

#[test]
fn an_out_of_bounds_access_stops_the_block_without_the_sanitizer() {
    // The block runs without coroutines (no barrier, no sanitizer): the bounds check must still
    // stop it at the first bad access, in block 0 at thread 4, and touch nothing outside.
    let mut data = [0f32; 4];
    let mut done = [0u32; 1];
    let mut p = data.as_mut_ptr();
    let mut q = done.as_mut_ptr();
    let params = [
        &mut p as *mut _ as *mut c_void,
        &mut q as *mut _ as *mut c_void,
    ];
    let buffers = [
        Buffer {
            name: "data".into(),
            start: data.as_ptr() as usize,
            len: 16,
            elem_size: 4,
            param: Some(0),
        },
        Buffer {
            name: "done".into(),
            start: done.as_ptr() as usize,
            len: 4,
            elem_size: 4,
            param: Some(1),
        },
    ];
    let mut cfg = config(1, 64, 0, false);
    cfg.needs_coroutines = false;
    cfg.workers = 1;
    let err = unsafe {
        launch(
            Some(writes_by_thread_index),
            &params,
            &cfg,
            &buffers,
            &locations(),
        )
    }
    .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("out-of-bounds write of 4 bytes by thread 4 of block 0 at k.loom:5:3"),
        "{text}"
    );
    assert!(
        text.contains("index 4 of `data`, an array of 4 elements"),
        "{text}"
    );
    assert_eq!(data, [1.0; 4]);
    assert_eq!(done[0], 4, "threads after the failing one must not run");
}

/// Thread 0 of block 1 writes shared float `params[0]` (of 16, in 64 bytes of shared memory).
unsafe extern "C" fn shared_overrun(params: *const *mut c_void) {
    let at = *(*params.add(0) as *const isize);
    if tid() == 0 && ctaid() == 1 {
        *shared().offset(at) = 1.0;
    }
}

#[test]
fn a_write_outside_shared_memory_is_found_without_the_sanitizer() {
    for (offset, words) in [
        (16isize, "up to 4 bytes past its end"),
        (25, "up to 40 bytes past its end"),
        (-2, "up to 8 bytes before its start"),
    ] {
        let mut value = offset;
        let params = [&mut value as *mut _ as *mut c_void];
        for workers in [1, 3] {
            let cfg = LaunchConfig {
                workers,
                ..config(4, 32, 64, false)
            };
            let err = unsafe { launch(Some(shared_overrun), &params, &cfg, &[], &locations()) }
                .unwrap_err();
            let SimtError::SharedOverrun {
                shared_bytes,
                detail,
            } = &err
            else {
                panic!("offset {offset}: {err}");
            };
            assert_eq!(
                (*shared_bytes, detail.as_str()),
                (64, words),
                "offset {offset}"
            );
            assert!(err.to_string().contains("--sanitize"), "{err}");
        }
    }
    // The same kernel writing inside its shared memory is no error.
    let mut inside = 15isize;
    let params = [&mut inside as *mut _ as *mut c_void];
    unsafe {
        launch(
            Some(shared_overrun),
            &params,
            &config(4, 32, 64, false),
            &[],
            &locations(),
        )
    }
    .unwrap();
}
