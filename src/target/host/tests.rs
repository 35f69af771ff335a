//! The host lowering on hand-written NVVM IR: the forms LOOM's code generation may not produce
//! today but another front end (or a later loomc) does: constant expressions over shared
//! globals, shuffles with widths, votes, predicated shuffles, unknown intrinsics.

use super::*;

fn run_i32_kernel(ir: &str, kernel: &str, blocks: u32, out_len: usize) -> Result<Vec<i32>, String> {
    run_i32_kernel_with(ir, kernel, blocks, out_len, &HostOptions::default()).map(|(out, _)| out)
}

/// [`run_i32_kernel`] with `options`; also the compiled program.
fn run_i32_kernel_with(
    ir: &str,
    kernel: &str,
    blocks: u32,
    out_len: usize,
    options: &HostOptions,
) -> Result<(Vec<i32>, HostProgram), String> {
    let program = HostProgram::compile(ir, options).map_err(|e| e.to_string())?;
    let mut out = vec![0i32; out_len];
    let bytes = unsafe { std::slice::from_raw_parts_mut(out.as_mut_ptr() as *mut u8, out_len * 4) };
    program
        .launch(
            kernel,
            &LaunchShape {
                blocks,
                grid_cols: None,
                block_size: None,
                dynamic_shared_bytes: 0,
                progress: None,
            },
            &mut [HostArg::Array {
                name: "out".into(),
                data: bytes,
                elem_size: 4,
            }],
        )
        .map_err(|e| e.to_string())?;
    Ok((out, program))
}

/// Each thread stores tid*3 into shared[tid], barrier, then reads shared[(tid + 1) % 64] and
/// the constant-expression element shared[5]; out[block*64 + tid] = both + block.
const SHARED_CONSTEXPR: &str = r#"
target triple = "nvptx64-nvidia-cuda"
@s = internal addrspace(3) global [64 x i32] undef, align 4
@other = internal addrspace(3) global [3 x i8] undef, align 1

define void @k(ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %t64 = zext i32 %t to i64
  %v = mul i32 %t, 3
  %slot = getelementptr inbounds [64 x i32], ptr addrspace(3) @s, i64 0, i64 %t64
  store i32 %v, ptr addrspace(3) %slot
  store i8 7, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @other, i64 2)
  call void @llvm.nvvm.barrier0()
  %n = add i32 %t, 1
  %n64 = and i32 %n, 63
  %nz = zext i32 %n64 to i64
  %nslot = getelementptr inbounds [64 x i32], ptr addrspace(3) @s, i64 0, i64 %nz
  %x = load i32, ptr addrspace(3) %nslot
  %y = load i32, ptr addrspace(3) getelementptr inbounds ([64 x i32], ptr addrspace(3) @s, i64 0, i64 5)
  %z = load i8, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @other, i64 2)
  %z32 = zext i8 %z to i32
  %xy = add i32 %x, %y
  %xyz = add i32 %xy, %z32
  %r = add i32 %xyz, %b
  %g = mul i32 %b, 64
  %gi = add i32 %g, %t
  %gi64 = zext i32 %gi to i64
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %gi64
  store i32 %r, ptr addrspace(1) %o
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier0()
!nvvm.annotations = !{!0, !1}
!0 = !{ptr @k, !"kernel", i32 1}
!1 = !{ptr @k, !"reqntidx", i32 64}
"#;

#[test]
fn shared_globals_and_constant_expressions_are_per_block() {
    let out = run_i32_kernel(SHARED_CONSTEXPR, "k", 3, 192).unwrap();
    for b in 0..3 {
        for t in 0..64 {
            let expected = ((t + 1) % 64) * 3 + 15 + 7 + b;
            assert_eq!(out[(b * 64 + t) as usize], expected, "block {b} thread {t}");
        }
    }
}

/// Width-16 butterfly sum, a predicated shuffle and a ballot: out[gid] = segment sum of tid,
/// plus 1000 * (up-shuffle by 1 was in range), plus popcount(ballot(tid odd)) * 100000.
const WARP_OPS: &str = r#"
target triple = "nvptx64-nvidia-cuda"
define void @w(ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %s1 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %t, i32 8, i32 4127)
  %a1 = add i32 %t, %s1
  %s2 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %a1, i32 4, i32 4127)
  %a2 = add i32 %a1, %s2
  %s3 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %a2, i32 2, i32 4127)
  %a3 = add i32 %a2, %s3
  %s4 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %a3, i32 1, i32 4127)
  %a4 = add i32 %a3, %s4
  %up = call { i32, i1 } @llvm.nvvm.shfl.sync.up.i32p(i32 -1, i32 %t, i32 1, i32 0)
  %ok = extractvalue { i32, i1 } %up, 1
  %okv = select i1 %ok, i32 1000, i32 0
  %odd = trunc i32 %t to i1
  %ballot = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %odd)
  %pop = call i32 @llvm.ctpop.i32(i32 %ballot)
  %pk = mul i32 %pop, 100000
  %all = call i1 @llvm.nvvm.vote.all.sync(i32 -1, i1 true)
  %allv = select i1 %all, i32 0, i32 7
  %r1 = add i32 %a4, %okv
  %r2 = add i32 %r1, %pk
  %r = add i32 %r2, %allv
  %t64 = zext i32 %t to i64
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %t64
  store i32 %r, ptr addrspace(1) %o
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)
declare { i32, i1 } @llvm.nvvm.shfl.sync.up.i32p(i32, i32, i32, i32)
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
declare i1 @llvm.nvvm.vote.all.sync(i32, i1)
declare i32 @llvm.ctpop.i32(i32)
!nvvm.annotations = !{!0, !1}
!0 = !{ptr @w, !"kernel", i32 1}
!1 = !{ptr @w, !"reqntidx", i32 32}
"#;

/// The barrier kernel is cut at its barrier into loops over the threads by default
/// (`host/cut.rs`), its threads are compiled coroutines with `no_cut`, stackful ones with
/// `per_thread_calls`; all give the same.
#[test]
fn a_kernel_with_a_barrier_is_cut_into_loops_over_its_threads() {
    let (cut, program) =
        run_i32_kernel_with(SHARED_CONSTEXPR, "k", 3, 192, &HostOptions::default()).unwrap();
    assert_eq!(program.cut_kernels(), ["k".to_string()]);
    assert!(program.has_thread_loops());
    assert!(!program.has_compiled_coroutines());
    let no_cut = HostOptions {
        no_cut: true,
        ..HostOptions::default()
    };
    let (compiled, program) = run_i32_kernel_with(SHARED_CONSTEXPR, "k", 3, 192, &no_cut).unwrap();
    assert!(program.has_compiled_coroutines());
    assert!(!program.has_thread_loops());
    assert_eq!(cut, compiled);
    let stackful = HostOptions {
        per_thread_calls: true,
        ..HostOptions::default()
    };
    let (per_thread, _) = run_i32_kernel_with(SHARED_CONSTEXPR, "k", 3, 192, &stackful).unwrap();
    assert_eq!(cut, per_thread);
    let sanitized = HostOptions {
        sanitize: true,
        ..HostOptions::default()
    };
    // (Compiled only: the sanitizer finds the threads' common store of 7 a race, rightly.)
    let program = HostProgram::compile(SHARED_CONSTEXPR, &sanitized).unwrap();
    assert!(
        !program.has_compiled_coroutines() && !program.has_thread_loops(),
        "the sanitizer keeps stackful coroutines"
    );
}

/// Runs `ir`'s kernel `kernel` cut (the default), as compiled coroutines and with a stack per
/// thread, asserts that it was cut and that all three agree; returns the result.
fn cut_agrees(ir: &str, kernel: &str, blocks: u32, out_len: usize) -> Vec<i32> {
    let (cut, program) =
        run_i32_kernel_with(ir, kernel, blocks, out_len, &HostOptions::default()).unwrap();
    assert_eq!(
        program.cut_kernels(),
        [kernel.to_string()],
        "{:?}",
        program.cut_fallbacks()
    );
    for options in [
        HostOptions {
            no_cut: true,
            ..HostOptions::default()
        },
        HostOptions {
            per_thread_calls: true,
            ..HostOptions::default()
        },
    ] {
        let (other, _) = run_i32_kernel_with(ir, kernel, blocks, out_len, &options).unwrap();
        assert_eq!(cut, other, "{options:?}");
    }
    cut
}

/// A warp reduction by shuffles with the full mask (exchanged in compiled loops), votes and a
/// predicated shuffle (done by the runtime over arrays), cut.
#[test]
fn a_shuffle_reduction_is_cut() {
    let out = cut_agrees(WARP_OPS, "w", 1, 32);
    for t in 0..32i32 {
        let segment = (t / 16) * 16;
        let sum: i32 = (segment..segment + 16).sum();
        let in_range = if t >= 1 { 1000 } else { 0 };
        assert_eq!(out[t as usize], sum + in_range + 16 * 100000, "lane {t}");
    }
}

/// Shuffles with the full mask and constant lanes, fused into the region after them
/// (`cut.rs`'s `FusedShuffle`): every mode, a segment of 16 lanes, a `float` and a predicated
/// one, in blocks of 40 threads, whose second warp has 8 lanes: a lane that reads past the
/// block's last thread keeps its own value.
const FUSED_SHUFFLES: &str = r#"
target triple = "nvptx64-nvidia-cuda"
define void @f(ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %t7 = mul i32 %t, 7
  %v = add i32 %t7, 3
  %d = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %v, i32 5, i32 31)
  %d16 = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %d, i32 6, i32 4127)
  %u = call i32 @llvm.nvvm.shfl.sync.up.i32(i32 -1, i32 %d16, i32 3, i32 0)
  %x = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %u, i32 6, i32 31)
  %i = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %x, i32 9, i32 31)
  %vf = sitofp i32 %v to float
  %df = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %vf, i32 2, i32 31)
  %dfi = fptosi float %df to i32
  %p = call { i32, i1 } @llvm.nvvm.shfl.sync.down.i32p(i32 -1, i32 %i, i32 4, i32 31)
  %pv = extractvalue { i32, i1 } %p, 0
  %pok = extractvalue { i32, i1 } %p, 1
  %pk = select i1 %pok, i32 1000000, i32 0
  %r1 = mul i32 %pv, 11
  %r2 = add i32 %r1, %dfi
  %r3 = mul i32 %u, 100
  %r4 = add i32 %r2, %r3
  %r = add i32 %r4, %pk
  %base = mul i32 %b, 40
  %g = add i32 %base, %t
  %g64 = zext i32 %g to i64
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %g64
  store i32 %r, ptr addrspace(1) %o
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.up.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32)
declare { i32, i1 } @llvm.nvvm.shfl.sync.down.i32p(i32, i32, i32, i32)
!nvvm.annotations = !{!0, !1}
!0 = !{ptr @f, !"kernel", i32 1}
!1 = !{ptr @f, !"reqntidx", i32 40}
"#;

#[test]
fn fused_shuffles_agree_with_the_scheduler_in_every_mode() {
    let out = cut_agrees(FUSED_SHUFFLES, "f", 2, 80);
    // The predicated shuffle (down by 4) says "in range" by lane alone: lane 28 reads lane 32,
    // out of range; lane 7 of the second warp (thread 39) reads lane 11, in range though that
    // thread does not exist (it keeps its own value). The other terms stay below 10^6.
    assert!(out[28] < 1_000_000, "{}", out[28]);
    assert!(out[39] >= 1_000_000, "{}", out[39]);
    assert!(out[40 + 28] < 1_000_000, "{}", out[40 + 28]);
}

/// A barrier inside a loop with a uniform trip count (as LOOM's tile loops have): each of four
/// rounds every thread publishes its value, waits, adds its right neighbour's, waits. The
/// region after each barrier reaches the loop's exit and its next barrier: it may be left two
/// ways, and the threads are checked to agree.
const LOOP_BARRIER: &str = r#"
target triple = "nvptx64-nvidia-cuda"
@s = internal addrspace(3) global [64 x i32] undef, align 4

define void @l(ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %t to i64
  %slot = getelementptr inbounds [64 x i32], ptr addrspace(3) @s, i64 0, i64 %t64
  %n = add i32 %t, 1
  %n63 = and i32 %n, 63
  %nz = zext i32 %n63 to i64
  %nslot = getelementptr inbounds [64 x i32], ptr addrspace(3) @s, i64 0, i64 %nz
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i32 [ %t, %entry ], [ %acc1, %loop ]
  store i32 %acc, ptr addrspace(3) %slot
  call void @llvm.nvvm.barrier0()
  %x = load i32, ptr addrspace(3) %nslot
  %scaled = mul i32 %acc, 3
  %acc1 = add i32 %scaled, %x
  call void @llvm.nvvm.barrier.sync(i32 0)
  %i1 = add i32 %i, 1
  %more = icmp ult i32 %i1, 4
  br i1 %more, label %loop, label %done

done:
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %t64
  store i32 %acc1, ptr addrspace(1) %o
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.barrier.sync(i32)
!nvvm.annotations = !{!0, !1}
!0 = !{ptr @l, !"kernel", i32 1}
!1 = !{ptr @l, !"reqntidx", i32 64}
!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!4}
!2 = distinct !DICompileUnit(language: DW_LANG_C, file: !3, producer: "loomc", isOptimized: true, runtimeVersion: 0, emissionKind: NoDebug)
!3 = !DIFile(filename: "l.loom", directory: "")
!4 = !{i32 2, !"Debug Info Version", i32 3}
"#;

#[test]
fn a_barrier_inside_a_uniform_loop_is_cut() {
    let out = cut_agrees(LOOP_BARRIER, "l", 1, 64);
    let mut acc: Vec<i32> = (0..64).collect();
    for _ in 0..4 {
        acc = (0..64).map(|t| acc[t] * 3 + acc[(t + 1) % 64]).collect();
    }
    assert_eq!(out, acc);
}

/// `ir` with its barrier a barrier of part of the block (`barrier.sync` with a thread count),
/// which the cut does not handle.
fn partial_barrier(ir: &str) -> String {
    ir.replace(
        "call void @llvm.nvvm.barrier0()",
        "call void @llvm.nvvm.barrier.sync.cnt(i32 0, i32 64)",
    )
    .replace(
        "declare void @llvm.nvvm.barrier0()",
        "declare void @llvm.nvvm.barrier.sync.cnt(i32, i32)",
    )
}

/// A kernel the cut does not handle keeps its compiled coroutines, and says why: a barrier of
/// part of the block (`barrier.sync` with a thread count).
#[test]
fn a_kernel_the_cut_cannot_handle_falls_back_to_coroutines() {
    let ir = partial_barrier(SHARED_CONSTEXPR);
    let (fallen, program) = run_i32_kernel_with(&ir, "k", 3, 192, &HostOptions::default()).unwrap();
    assert!(program.cut_kernels().is_empty());
    assert!(program.has_compiled_coroutines());
    let [(kernel, why)] = program.cut_fallbacks() else {
        panic!("{:?}", program.cut_fallbacks())
    };
    assert_eq!(kernel, "k");
    assert!(
        why.contains("loom_simt_barrier_sync_cnt") && why.contains("part of the block"),
        "{why}"
    );
    let (cut, _) =
        run_i32_kernel_with(SHARED_CONSTEXPR, "k", 3, 192, &HostOptions::default()).unwrap();
    assert_eq!(fallen, cut);
}

/// The JIT gets only what a build's launches call: the coroutine (ramp and resumes) of a kernel
/// that keeps one, the loop of a kernel that is cut, the entry under the sanitizer (with the
/// kernel it calls); never the coroutines' destroy and cleanup clones, which LOOM never calls.
#[test]
fn only_what_a_launch_calls_is_compiled() {
    let fallen = partial_barrier(SHARED_CONSTEXPR);
    let defined = |ir: &str, options: &HostOptions| {
        let program = HostProgram::compile(ir, options).unwrap();
        let mut names: Vec<String> = program
            ._module
            .get_functions()
            .filter(|f| f.count_basic_blocks() > 0)
            .map(|f| f.get_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let sanitized = HostOptions {
        sanitize: true,
        ..HostOptions::default()
    };
    assert_eq!(
        defined(&fallen, &HostOptions::default()),
        [
            "loom.coro.k",
            "loom.coro.k.resume",
            "loom.coro.never_called",
            "loom.coro.resume"
        ]
    );
    assert_eq!(
        defined(SHARED_CONSTEXPR, &HostOptions::default()),
        ["loom.cut.k"]
    );
    // (Under the sanitizer the entry calls the kernel.)
    assert_eq!(defined(SHARED_CONSTEXPR, &sanitized), ["k", "loom.entry.k"]);
}

/// Threads that leave a region different ways (thread 5 returns before the barrier the others
/// wait at) stop the block with the sanitizer's report: the cut runs only block-uniform
/// synchronisation, which LOOM's verifier proves for the kernels it emits (`producer:
/// "loomc"`, as `LOOP_BARRIER` says; `loomc --no-verify` could still emit this). IR from
/// elsewhere with such regions keeps its coroutines, which do what PTX does (an exited thread
/// releases the barrier).
#[test]
fn a_divergent_barrier_in_a_cut_kernel_is_reported() {
    let ir = LOOP_BARRIER.replace(
        "  br label %loop\n\nloop:",
        "  %early = icmp eq i32 %t, 5\n  br i1 %early, label %quit, label %loop\n\nquit:\n  ret void\n\nloop:",
    );
    assert_ne!(ir, LOOP_BARRIER);
    let elsewhere = ir.replace("producer: \"loomc\"", "producer: \"clang\"");
    let program = HostProgram::compile(&elsewhere, &HostOptions::default()).unwrap();
    assert!(program.cut_kernels().is_empty());
    assert!(
        program.cut_fallbacks()[0].1.contains("more than one way"),
        "{:?}",
        program.cut_fallbacks()
    );
    let program = HostProgram::compile(&ir, &HostOptions::default()).unwrap();
    assert_eq!(program.cut_kernels(), ["l".to_string()]);
    let mut out = vec![0i32; 64];
    let bytes = unsafe { std::slice::from_raw_parts_mut(out.as_mut_ptr() as *mut u8, 64 * 4) };
    let err = program
        .launch(
            "l",
            &LaunchShape {
                blocks: 1,
                ..LaunchShape::default()
            },
            &mut [HostArg::Array {
                name: "out".into(),
                data: bytes,
                elem_size: 4,
            }],
        )
        .unwrap_err()
        .to_string();
    assert!(err.contains("thread 5") && err.contains("barrier"), "{err}");
}

#[test]
fn shuffles_votes_and_predicated_results() {
    let out = run_i32_kernel(WARP_OPS, "w", 1, 32).unwrap();
    for t in 0..32i32 {
        let segment = (t / 16) * 16;
        let sum: i32 = (segment..segment + 16).sum();
        let in_range = if t >= 1 { 1000 } else { 0 };
        assert_eq!(out[t as usize], sum + in_range + 16 * 100000, "lane {t}");
    }
}

#[test]
fn an_unknown_nvvm_intrinsic_is_a_clear_error() {
    let ir = r#"
target triple = "nvptx64-nvidia-cuda"
define void @k(ptr addrspace(1) %out) {
  %c = call i64 @llvm.nvvm.read.ptx.sreg.globaltimer()
  store i64 %c, ptr addrspace(1) %out
  ret void
}
declare i64 @llvm.nvvm.read.ptx.sreg.globaltimer()
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
"#;
    let Err(err) = HostProgram::compile(ir, &HostOptions::default()) else {
        panic!("compiled")
    };
    assert_eq!(
        err.to_string(),
        "the CPU backend does not implement the NVVM intrinsic `llvm.nvvm.read.ptx.sreg.globaltimer` (called in `k`)"
    );
    let ir = ir.replace("llvm.nvvm.read.ptx.sreg.globaltimer", "vprintf");
    let Err(err) = HostProgram::compile(&ir, &HostOptions::default()) else {
        panic!("compiled")
    };
    assert!(err.to_string().contains("`vprintf`"), "{err}");
}

#[test]
fn launches_check_their_arguments() {
    let program = HostProgram::compile(WARP_OPS, &HostOptions::default()).unwrap();
    let shape = LaunchShape {
        blocks: 1,
        grid_cols: None,
        block_size: None,
        dynamic_shared_bytes: 0,
        progress: None,
    };
    let err = program
        .launch("w", &shape, &mut [HostArg::F32(1.0)])
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("argument 1 of `w` is a Float32, but the parameter is `ptr addrspace(1)`"),
        "{err}"
    );
    let err = program.launch("nope", &shape, &mut []).unwrap_err();
    assert_eq!(err.to_string(), "no kernel named `nope` (kernels: w)");
    let wrong_size = LaunchShape {
        block_size: Some(64),
        ..shape
    };
    let err = program.launch("w", &wrong_size, &mut []).unwrap_err();
    assert!(
        err.to_string().contains("requires 32 threads per block"),
        "{err}"
    );
}

/// Two kernels over arrays `a` and `b`: `through_param` reads `a[k]` through an `addrspacecast`
/// to a generic pointer; `unknown_origin` reads `a[k]` or `b[k]` through a `select` of the two,
/// whose origin the lowering does not follow. Both write what they read to `out[0]`.
const TWO_ARRAYS: &str = r#"
target triple = "nvptx64-nvidia-cuda"

define void @through_param(i32 %k, ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %out) {
entry:
  %generic = addrspacecast ptr addrspace(1) %a to ptr
  %i = sext i32 %k to i64
  %p = getelementptr inbounds i32, ptr %generic, i64 %i
  %v = load i32, ptr %p, align 4
  store i32 %v, ptr addrspace(1) %out, align 4
  ret void
}

define void @unknown_origin(i32 %k, ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %out) {
entry:
  %neg = icmp slt i32 %k, 0
  %base = select i1 %neg, ptr addrspace(1) %b, ptr addrspace(1) %a
  %i = sext i32 %k to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %base, i64 %i
  %v = load i32, ptr addrspace(1) %p, align 4
  store i32 %v, ptr addrspace(1) %out, align 4
  ret void
}

!nvvm.annotations = !{!0, !1, !2, !3}
!0 = !{ptr @through_param, !"kernel", i32 1}
!1 = !{ptr @through_param, !"reqntidx", i32 1}
!2 = !{ptr @unknown_origin, !"kernel", i32 1}
!3 = !{ptr @unknown_origin, !"reqntidx", i32 1}
"#;

/// Runs `kernel` of `TWO_ARRAYS` with `a` and `b` adjacent halves of one allocation (so `a[4]`
/// is `b[0]`): the value read, or the error.
fn read_two_arrays(program: &HostProgram, kernel: &str, k: i32) -> Result<i32, String> {
    let mut both = [10i32, 11, 12, 13, 20, 21, 22, 23];
    let mut out = [0i32];
    let bytes = |v: &mut [i32]| unsafe {
        std::slice::from_raw_parts_mut(v.as_mut_ptr() as *mut u8, v.len() * 4)
    };
    let (a, b) = both.split_at_mut(4);
    let array = |name: &str, data| HostArg::Array {
        name: name.into(),
        data,
        elem_size: 4,
    };
    program
        .launch(
            kernel,
            &LaunchShape {
                blocks: 1,
                ..LaunchShape::default()
            },
            &mut [
                HostArg::I32(k),
                array("a", bytes(a)),
                array("b", bytes(b)),
                array("out", bytes(&mut out)),
            ],
        )
        .map_err(|e| e.to_string())?;
    Ok(out[0])
}

#[test]
fn an_access_through_a_parameter_is_checked_against_that_array() {
    for sanitize in [false, true] {
        let options = HostOptions {
            sanitize,
            ..HostOptions::default()
        };
        let program = HostProgram::compile(TWO_ARRAYS, &options).unwrap();
        assert_eq!(read_two_arrays(&program, "through_param", 3), Ok(13));
        // a[4] is b[0]: inside a buffer of the launch, but not inside `a`.
        let err = read_two_arrays(&program, "through_param", 4).unwrap_err();
        assert!(
            err.contains("out-of-bounds read of 4 bytes by thread 0 of block 0")
                && err.contains("index 4 of `a`, an array of 4 elements"),
            "{err}"
        );
        let err = read_two_arrays(&program, "through_param", -1).unwrap_err();
        assert!(err.contains("index -1 of `a`"), "{err}");
    }
}

#[test]
fn a_global_access_of_unknown_origin_must_stay_in_some_array() {
    let program = HostProgram::compile(TWO_ARRAYS, &HostOptions::default()).unwrap();
    assert_eq!(read_two_arrays(&program, "unknown_origin", 2), Ok(12));
    // Past `a` into `b`: not caught without knowing the origin, but harmless.
    assert_eq!(read_two_arrays(&program, "unknown_origin", 5), Ok(21));
    // Far away: in no buffer (the report names the nearest, wherever the allocator put it).
    for k in [100_000, -100_000] {
        let err = read_two_arrays(&program, "unknown_origin", k).unwrap_err();
        assert!(
            err.contains("out-of-bounds read of 4 bytes by thread 0 of block 0 at `%v = load"),
            "{err}"
        );
    }
}

/// A 2-D block (8 x 4, `reqntidx`/`reqntidy`) without barriers: out[block * 32 + t] gets the
/// thread's x, y, lane, warp and lane masks packed; the compiled loop over the threads and a
/// call per thread must give the same, and the loop must exist.
const THREAD_IDS: &str = r#"
target triple = "nvptx64-nvidia-cuda"
define void @ids(ptr addrspace(1) %out) {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %y = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %nx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %lt = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
  %gt = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.gt()
  %row = mul i32 %y, %nx
  %t = add i32 %row, %x
  %base = mul i32 %b, 32
  %i = add i32 %base, %t
  %i64 = zext i32 %i to i64
  %slot = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %i64
  %y8 = shl i32 %y, 8
  %xy = or i32 %x, %y8
  %l16 = shl i32 %lane, 16
  %xyl = or i32 %xy, %l16
  %masks = xor i32 %lt, %gt
  %m = and i32 %masks, 1
  %m24 = shl i32 %m, 24
  %v = or i32 %xyl, %m24
  store i32 %v, ptr addrspace(1) %slot
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
declare i32 @llvm.nvvm.read.ptx.sreg.lanemask.gt()
!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @ids, !"kernel", i32 1}
!1 = !{ptr @ids, !"reqntidx", i32 8}
!2 = !{ptr @ids, !"reqntidy", i32 4}
"#;

fn run_ids(ir: &str, options: &HostOptions) -> Result<(Vec<i32>, bool), String> {
    let (out, program) = run_i32_kernel_with(ir, "ids", 3, 96, options)?;
    Ok((out, program.has_thread_loops()))
}

#[test]
fn a_loop_over_the_threads_gives_each_its_ids() {
    let (looped, has_loop) = run_ids(THREAD_IDS, &HostOptions::default()).unwrap();
    assert!(
        has_loop,
        "a kernel without barriers gets a loop over its threads"
    );
    let calls = HostOptions {
        per_thread_calls: true,
        ..HostOptions::default()
    };
    let (per_thread, _) = run_ids(THREAD_IDS, &calls).unwrap();
    let expected: Vec<i32> = (0..96)
        .map(|i| {
            let t = i % 32;
            // Lane t's `lt ^ gt` has every bit but its own: bit 0 is set except for lane 0.
            (t % 8) | (t / 8) << 8 | t << 16 | i32::from(t != 0) << 24
        })
        .collect();
    assert_eq!(looped, expected);
    assert_eq!(per_thread, expected);
}

#[test]
fn a_call_left_after_inlining_keeps_one_call_per_thread() {
    // The thread's x read in a function of its own that is never inlined: a loop could not
    // give it the thread, so the kernel keeps one call per thread (and stays right).
    let ir = THREAD_IDS
        .replace(
            "  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n",
            "  %x = call i32 @own_x()\n",
        )
        .replace(
            "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n",
            "define i32 @own_x() noinline {\n  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n  ret i32 %x\n}\ndeclare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n",
        );
    let (out, has_loop) = run_ids(&ir, &HostOptions::default()).unwrap();
    assert!(!has_loop);
    assert_eq!(out[9], 1 | 1 << 8 | 9 << 16 | 1 << 24);
}

/// out[sext(trunc_i8(block * 128 + t))] = block * 128 + t, 128 threads per block, `out` of 256
/// elements: block 0 writes out[0..128]; block 1's index is 128..256 as exact arithmetic (inside
/// `out`) but -128..0 as the kernel computes it (before `out`).
const NARROW_INDEX: &str = r#"
target triple = "nvptx64-nvidia-cuda"
define void @narrow(ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = shl i32 %b, 7
  %i = add i32 %base, %t
  %i8 = trunc i32 %i to i8
  %index = sext i8 %i8 to i64
  %slot = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %index
  store i32 %i, ptr addrspace(1) %slot
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
!nvvm.annotations = !{!0, !1}
!0 = !{ptr @narrow, !"kernel", i32 1}
!1 = !{ptr @narrow, !"reqntidx", i32 128}
"#;

#[test]
fn a_loop_drops_its_bounds_checks_only_for_blocks_that_cannot_fail_them() {
    // The loop over threads runs without checks for a block whose accesses are all inside their
    // arrays (`versioning.rs`), judged by the index the kernel computes, wraps included.
    for per_thread_calls in [false, true] {
        let options = HostOptions {
            per_thread_calls,
            ..HostOptions::default()
        };
        let (out, program) = run_i32_kernel_with(NARROW_INDEX, "narrow", 1, 256, &options).unwrap();
        // A build with a call per thread compiles only the entry its launches call.
        assert_eq!(program.has_thread_loops(), !per_thread_calls);
        assert_eq!(&out[..128], &(0..128).collect::<Vec<i32>>()[..]);
        let err = run_i32_kernel_with(NARROW_INDEX, "narrow", 2, 256, &options)
            .map(|_| ())
            .unwrap_err();
        assert!(
            err.contains("out-of-bounds write of 4 bytes by thread 0 of block 1")
                && err.contains("index -128 of `out`, an array of 256 elements"),
            "{err}"
        );
    }
}

/// out[(ctaid.y * nctaid.x + ctaid.x) * 128 + tid.x] = that index, 128 threads per block: each
/// block its own 128 elements, in the order of the blocks' linear numbers.
const GRID_INDEX: &str = r#"
target triple = "nvptx64-nvidia-cuda"
define void @grid(ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %cols = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %row = mul i32 %by, %cols
  %b = add i32 %row, %bx
  %base = shl i32 %b, 7
  %i = add i32 %base, %t
  %index = sext i32 %i to i64
  %slot = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %index
  store i32 %i, ptr addrspace(1) %slot
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
!nvvm.annotations = !{!0, !1}
!0 = !{ptr @grid, !"kernel", i32 1}
!1 = !{ptr @grid, !"reqntidx", i32 128}
"#;

#[test]
fn a_loop_over_a_run_of_blocks_gives_each_block_its_place_and_reports_the_one_that_fails() {
    // 240 blocks in 10 rows of 24, on one worker: runs of 15 blocks (`loom_simt::launch`), so
    // that runs cross rows (each row's part one call, `block.rs`) and block 137 (column 17 of
    // row 5) is inside a run, whose versioning test fails as a whole (`versioning.rs`).
    let options = HostOptions {
        workers: 1,
        ..HostOptions::default()
    };
    let program = HostProgram::compile(GRID_INDEX, &options).unwrap();
    assert!(program.has_thread_loops());
    let run = |out_len: usize| {
        let mut out = vec![-1i32; out_len];
        let bytes =
            unsafe { std::slice::from_raw_parts_mut(out.as_mut_ptr() as *mut u8, out_len * 4) };
        let shape = LaunchShape {
            blocks: 240,
            grid_cols: Some(24),
            block_size: None,
            dynamic_shared_bytes: 0,
            progress: None,
        };
        let mut args = [HostArg::Array {
            name: "out".into(),
            data: bytes,
            elem_size: 4,
        }];
        program
            .launch("grid", &shape, &mut args)
            .map(|()| out)
            .map_err(|e| e.to_string())
    };
    assert_eq!(
        run(240 * 128).unwrap(),
        (0..240 * 128).collect::<Vec<i32>>()
    );
    let err = run(137 * 128 + 5).unwrap_err();
    assert!(
        err.contains("out-of-bounds write of 4 bytes by thread 5 of block 137")
            && err.contains("index 17541 of `out`, an array of 17541 elements"),
        "{err}"
    );
}

/// [`NARROW_INDEX`] with a barrier, each side of it one access per thread (region 1 reads back
/// what region 0 wrote and adds 1000): both regions of the cut kernel index `out` affinely in
/// the thread's ids.
const CUT_NARROW_INDEX: &str = r#"
target triple = "nvptx64-nvidia-cuda"
define void @cutnarrow(ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = shl i32 %b, 7
  %i = add i32 %base, %t
  %i8 = trunc i32 %i to i8
  %index = sext i8 %i8 to i64
  %slot = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %index
  store i32 %i, ptr addrspace(1) %slot
  call void @llvm.nvvm.barrier0()
  %t2 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b2 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base2 = shl i32 %b2, 7
  %i2 = add i32 %base2, %t2
  %i28 = trunc i32 %i2 to i8
  %index2 = sext i8 %i28 to i64
  %slot2 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %index2
  %v = load i32, ptr addrspace(1) %slot2
  %w = add i32 %v, 1000
  store i32 %w, ptr addrspace(1) %slot2
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier0()
!nvvm.annotations = !{!0, !1}
!0 = !{ptr @cutnarrow, !"kernel", i32 1}
!1 = !{ptr @cutnarrow, !"reqntidx", i32 128}
"#;

#[test]
fn a_cut_kernel_drops_its_regions_bounds_checks_only_for_blocks_that_cannot_fail_them() {
    // Each region's loop nest is versioned as a kernel's loop over threads is (`cut.rs`,
    // `versioning.rs`); a block that fails a check still fails it where and as before.
    let expected: Vec<i32> = (0..128).map(|i| i + 1000).collect();
    let (out, program) = run_i32_kernel_with(
        CUT_NARROW_INDEX,
        "cutnarrow",
        1,
        256,
        &HostOptions::default(),
    )
    .unwrap();
    assert_eq!(program.cut_kernels(), ["cutnarrow".to_string()]);
    assert_eq!(
        program.versioned_loops(),
        2,
        "both regions' loops versioned"
    );
    assert_eq!(&out[..128], &expected[..]);
    let unversioned = HostOptions {
        unversioned_loops: true,
        ..HostOptions::default()
    };
    let (out, program) =
        run_i32_kernel_with(CUT_NARROW_INDEX, "cutnarrow", 1, 256, &unversioned).unwrap();
    assert_eq!(program.versioned_loops(), 0);
    assert_eq!(&out[..128], &expected[..]);
    for options in [HostOptions::default(), unversioned] {
        let err = run_i32_kernel_with(CUT_NARROW_INDEX, "cutnarrow", 2, 256, &options)
            .map(|_| ())
            .unwrap_err();
        assert!(
            err.contains("out-of-bounds write of 4 bytes by thread 0 of block 1")
                && err.contains("index -128 of `out`, an array of 256 elements"),
            "{err}"
        );
    }
}

#[test]
fn the_host_cpu_is_given_as_llvm_names_it() {
    // Quoted names (LLVMString's Display) made LLVM print "'\"+prfchw' is not a recognized
    // feature" at every compilation and drop the first and last features.
    let (cpu, features) = host_cpu(false);
    assert!(!cpu.is_empty() && !cpu.contains('"'), "{cpu}");
    assert!(!features.contains('"'), "{features}");
    assert!(features
        .split(',')
        .all(|f| f.starts_with('+') || f.starts_with('-')));
    assert!(features.ends_with(",-avx512bf16,-avxneconvert,-amx-bf16"));
    // A module with 16-bit floats goes without AVX-512 (LLVM 19 miscompiled a `half`
    // comparison with it: tests/regressions/cpu_half_compare_without_avx512.loom).
    let (_, sixteen) = host_cpu(true);
    assert!(sixteen.ends_with(",-amx-bf16,-avx512f"), "{sixteen}");
}

#[test]
fn only_modules_with_16_bit_floats_count_as_such() {
    let context = inkwell::context::Context::create();
    let module = context.create_module("m");
    let f32t = context.f32_type();
    let f = module.add_function(
        "k",
        context.void_type().fn_type(&[f32t.into()], false),
        None,
    );
    let b = context.create_builder();
    b.position_at_end(context.append_basic_block(f, "entry"));
    b.build_return(None).unwrap();
    assert!(!uses_16_bit_floats(&module));
    // A `bfloat` loaded through a pointer: an instruction's value.
    let ptr = context.ptr_type(inkwell::AddressSpace::default());
    let g = module.add_function("g", context.void_type().fn_type(&[ptr.into()], false), None);
    b.position_at_end(context.append_basic_block(g, "entry"));
    let p = g.get_nth_param(0).unwrap().into_pointer_value();
    b.build_load(context.bf16_type(), p, "v").unwrap();
    b.build_return(None).unwrap();
    assert!(uses_16_bit_floats(&module));
    // A `<2 x half>` parameter.
    let other = context.create_module("n");
    let half2 = context.f16_type().vec_type(2);
    let h = other.add_function(
        "h",
        context.void_type().fn_type(&[half2.into()], false),
        None,
    );
    b.position_at_end(context.append_basic_block(h, "entry"));
    b.build_return(None).unwrap();
    assert!(uses_16_bit_floats(&other));
}

/// The NVVM IR loomc emits for `source` at `opt` and `block_size`.
fn loomc_ir(file: &str, source: &str, opt: crate::target::OptLevel, block_size: u32) -> String {
    let options = crate::driver::Options {
        emit: vec![crate::driver::Emit::Llvm],
        opt,
        block_size,
        ..crate::driver::Options::default()
    };
    let mut files = crate::diagnostics::SourceFiles::default();
    let compiled = crate::driver::compile(&mut files, file, source, &options);
    let (_, ir) = compiled.outputs.unwrap().into_iter().next().unwrap();
    ir
}

/// bench/kernels/sum_of_squares.loom at `opt`, 256 threads per block.
fn sum_of_squares_ir(opt: crate::target::OptLevel) -> String {
    loomc_ir(
        "sum_of_squares.loom",
        include_str!("../../../bench/kernels/sum_of_squares.loom"),
        opt,
        256,
    )
}

#[test]
fn a_cut_kernels_region_loops_vectorise_across_its_slots() {
    // sumOfSquares (bench/kernels) is cut into a region per shuffle step: eleven regions, for
    // nine shuffles and a barrier. Each region's loop writes slots (host memory, parts of one
    // allocation) and reads the kernel's arrays (`addrspace(1)`) or shared memory
    // (`addrspace(3)`): the vectoriser cannot check pointers of different address spaces for
    // overlap at run time, and vectorised only some of these loops before the slots' alias
    // scopes said that no slot is another, nor anything the kernel reaches. With them, every
    // region's loop but the last (thread 0's store of the sum) vectorises; the shuffles are
    // fused into the regions after them, so there are no exchange loops besides. Where the
    // host has no AVX-512, the region that loads the warps' partials (lanes below 8 read shared
    // memory, the rest take 0) stays scalar too: AVX2 has no cheap masked load of its own
    // (LLVM's cost model declines the gather), which is the host's cost, not an alias question.
    let ir = sum_of_squares_ir(crate::target::OptLevel::O3);
    let program = HostProgram::compile(&ir, &HostOptions::default()).unwrap();
    assert_eq!(program.cut_kernels(), ["sumOfSquares".to_string()]);
    let features = TargetMachine::get_host_cpu_features().to_string();
    let expected = if features.contains("+avx512f") { 10 } else { 9 };
    assert!(
        program.cut_vector_loops() >= expected,
        "{} loops vectorised, {expected} expected on this host",
        program.cut_vector_loops()
    );
}

#[test]
fn an_unoptimised_kernel_that_synchronises_is_cut_too() {
    // At -O0 every local is private memory (`alloca`), which the cut does not keep across a
    // synchronisation: the host lowering promotes it to values first (mem2reg), as -O1 and up
    // leave it, so that the kernel runs cut rather than as coroutines.
    let ir = sum_of_squares_ir(crate::target::OptLevel::O0);
    assert!(ir.contains("alloca"), "-O0 IR keeps its locals in memory");
    let program = HostProgram::compile(&ir, &HostOptions::default()).unwrap();
    assert_eq!(
        program.cut_kernels(),
        ["sumOfSquares".to_string()],
        "{:?}",
        program.cut_fallbacks()
    );
}

#[test]
fn unoptimised_ir_computes_each_thread_id_once_before_the_host_lowering() {
    // tests/run/programs/scratch_rows.loom's `doubled` at -O0: its scratch row's initializer
    // (4,095 nodes) read `ctaid` 2,048 times and took the `min` of as many lengths; its host
    // code took minutes to generate.
    let ir = loomc_ir(
        "scratch_rows.loom",
        include_str!("../../../tests/run/programs/scratch_rows.loom"),
        crate::target::OptLevel::O0,
        2,
    );
    let context = Context::create();
    let buffer = MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "k.ll");
    let module = context.create_module_from_ir(buffer).unwrap();
    let doubled = module.get_function("doubled").unwrap();
    let size = |f: inkwell::values::FunctionValue<'_>| -> usize {
        f.get_basic_block_iter()
            .map(|b| b.get_instructions().count())
            .sum()
    };
    let before = size(doubled);
    assert!(before > 20_000, "{before} instructions at -O0");
    register_native_target().unwrap();
    let machine = host_machine(false).unwrap();
    simplify(&module, &machine).unwrap();
    let after = size(module.get_function("doubled").unwrap());
    assert!(after * 4 < before, "{before} -> {after} instructions");
}

#[test]
fn a_kernel_that_requires_its_block_size_loops_over_a_constant_number_of_threads() {
    // sumOfSquares requires 256 threads (`reqntid`), and a launch refuses any other block size,
    // so its block function's shape parameters become constants (`ir::fix_block_shape`). Its
    // loops over threads then have constant trip counts, and the thread ids' ranges decide the
    // bounds checks of the shared partials (slot `tid >> 5`) before the loops run: without the
    // constants those checks stayed inside the loops and cost the kernel about 15 %.
    let required = sum_of_squares_ir(crate::target::OptLevel::O3);
    // The same IR, whose kernel may run with up to 256 threads (an annotation the host lowering
    // does not read): what the requirement changes, and that the checks are there to count.
    let not_required = required.replace(r#"!"reqntidx", i32 256"#, r#"!"maxntidx", i32 256"#);
    assert_ne!(required, not_required, "no `reqntidx` of 256 in the IR");
    let name = cut::function_name("sumOfSquares");
    let compiled = |ir: &str| HostProgram::compile(ir, &HostOptions::default()).unwrap();
    let (program, unfixed) = (compiled(&required), compiled(&not_required));
    let unfixed_ntid_x = block_function(&unfixed, &name).get_nth_param(1).unwrap();
    assert!(
        inkwell::values::BasicValue::get_first_use(&unfixed_ntid_x).is_some(),
        "`{name}` without reqntid does not read its ntid.x parameter"
    );
    let function = block_function(&program, &name);
    for (index, what) in [(1, "ntid.x"), (2, "ntid.y")] {
        let param = function.get_nth_param(index).unwrap();
        assert!(
            inkwell::values::BasicValue::get_first_use(&param).is_none(),
            "`{name}` still reads its {what} parameter"
        );
    }
    let unfixed_checks = shared_checks(block_function(&unfixed, &name));
    assert!(
        unfixed_checks > 0,
        "`{name}` without reqntid checks no shared access at run time"
    );
    assert_eq!(
        shared_checks(function),
        0,
        "`{name}` still checks shared accesses at run time ({unfixed_checks} without reqntid)"
    );
}

/// The block function `name` of `program`.
fn block_function<'a>(program: &'a HostProgram, name: &str) -> inkwell::values::FunctionValue<'a> {
    program
        ._module
        .get_function(name)
        .unwrap_or_else(|| panic!("no block function `{name}`"))
}

/// How many calls of the runtime's check in `function` have a kind that says shared memory
/// (`bounds.rs`).
fn shared_checks(function: inkwell::values::FunctionValue<'_>) -> usize {
    function
        .get_basic_block_iter()
        .flat_map(|block| block.get_instructions())
        .filter(|inst| inst.get_opcode() == inkwell::values::InstructionOpcode::Call)
        .filter(|call| {
            let callee = call.get_operand(call.get_num_operands() - 1);
            callee.and_then(|c| c.value()).is_some_and(|c| {
                c.is_pointer_value()
                    && c.into_pointer_value().get_name().to_bytes()
                        == bounds::CHECK_BOUNDS.as_bytes()
            })
        })
        .filter(|call| {
            let kind = call.get_operand(2).and_then(|o| o.value());
            kind.filter(|k| k.is_int_value())
                .and_then(|k| k.into_int_value().get_zero_extended_constant())
                .is_some_and(|k| k & u64::from(loom_simt::BOUNDS_SHARED) != 0)
        })
        .count()
}
