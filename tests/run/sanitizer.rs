//! The sanitizer on planted bugs (`tests/run/planted/`): a missing barrier, divergent barriers,
//! a barrier after an early exit (hand-written NVVM IR, as another front end would produce: a
//! LOOM program cannot express them) and an unchecked read past an array's end (LOOM). Each must
//! be reported with its location and the threads involved, and the run must end. No false
//! alarm: every case file also runs clean under the sanitizer (`files.rs`, `sanitizer/clean/*`).

use super::support::{self, array, launch, Rng};
use libtest_mimic::{Failed, Trial};
use loomc::target::host::{HostArg, HostOptions, HostProgram, RunError, SimtError, Whereabouts};
use loomc::target::OptLevel;

pub fn trials() -> Vec<Trial> {
    vec![
        Trial::test("sanitizer/missing_barrier", missing_barrier),
        Trial::test("sanitizer/divergent_barrier", divergent_barrier),
        Trial::test("sanitizer/barrier_after_exit", barrier_after_exit),
        Trial::test("sanitizer/oob_unchecked_read", oob_unchecked_read),
        Trial::test("sanitizer/loom_barrier_removed", loom_barrier_removed),
    ]
}

fn planted(file: &str, sanitize: bool) -> Result<HostProgram, Failed> {
    let ir = std::fs::read_to_string(support::repo_root().join("tests/run/planted").join(file))
        .map_err(|e| e.to_string())?;
    Ok(HostProgram::compile(
        &ir,
        &HostOptions {
            sanitize,
            workers: 0,
            ..HostOptions::default()
        },
    )
    .map_err(|e| e.to_string())?)
}

fn run_i32_out(
    program: &HostProgram,
    kernel: &str,
    blocks: u32,
    len: usize,
) -> Result<Vec<i32>, RunError> {
    let mut out = vec![-1i32; len];
    launch(program, kernel, blocks, &mut [array("out", &mut out)])?;
    Ok(out)
}

fn expect_kernel_error(result: Result<(), RunError>) -> Result<SimtError, Failed> {
    match result {
        Err(RunError::Kernel(e)) => Ok(*e),
        Err(other) => Err(format!("expected a sanitizer report, got: {other}").into()),
        Ok(()) => Err("the sanitizer reported nothing".into()),
    }
}

fn missing_barrier() -> Result<(), Failed> {
    let mut input = Rng::new(1).f32s(128, 1.0, 2.0);
    let mut out = vec![0f32; 128];
    let program = planted("missing_barrier.ll", true)?;
    let err = expect_kernel_error(launch(
        &program,
        "neighbour",
        2,
        &mut [array("in", &mut input), array("out", &mut out)],
    ))?;
    let SimtError::SharedRace { first, second, .. } = &err else {
        return Err(format!("expected a race, got: {err}").into());
    };
    // Thread 0 reads thread 1's slot (line 7) before thread 1 writes it (line 6), in block 0.
    if (
        first.thread.thread,
        first.location.line,
        second.thread.thread,
        second.location.line,
    ) != (0, 7, 1, 6)
    {
        return Err(format!("wrong threads or lines: {err}").into());
    }
    let text = err.to_string();
    for needle in [
        "read by thread 0 of block 0 at missing_barrier.cu:7:11",
        "write by thread 1 of block 0 at missing_barrier.cu:6:3",
    ] {
        if !text.contains(needle) {
            return Err(format!("report lacks `{needle}`:\n{text}").into());
        }
    }
    // Without the sanitizer it runs to the end (with whatever the race gives).
    let program = planted("missing_barrier.ll", false)?;
    launch(
        &program,
        "neighbour",
        2,
        &mut [array("in", &mut input), array("out", &mut out)],
    )
    .map_err(|e| e.to_string())?;
    Ok(())
}

fn divergent_barrier() -> Result<(), Failed> {
    let program = planted("divergent_barrier.ll", true)?;
    let err = expect_kernel_error(run_i32_out(&program, "halves", 1, 64).map(|_| ()))?;
    let SimtError::BarrierNotReached {
        waiting,
        barrier,
        missing,
        missing_at: Whereabouts::AtBarrier(other),
    } = &err
    else {
        return Err(format!("expected divergent barriers, got: {err}").into());
    };
    if (
        waiting.thread,
        barrier.line,
        barrier.column,
        missing.thread,
        other.column,
    ) != (0, 4, 30, 32, 53)
    {
        return Err(format!("wrong threads or locations: {err}").into());
    }
    // The GPU counts arrivals at barrier 0 wherever they come from: without the sanitizer the
    // run completes and every thread stores its index.
    let program = planted("divergent_barrier.ll", false)?;
    let out = run_i32_out(&program, "halves", 1, 64).map_err(|e| e.to_string())?;
    support::exact("out", &out, &(0..64).collect::<Vec<i32>>())?;
    Ok(())
}

fn barrier_after_exit() -> Result<(), Failed> {
    let program = planted("barrier_after_exit.ll", true)?;
    let err = expect_kernel_error(run_i32_out(&program, "early", 3, 64).map(|_| ()))?;
    let text = err.to_string();
    let SimtError::BarrierNotReached {
        waiting,
        missing,
        missing_at: Whereabouts::Exited,
        barrier,
    } = &err
    else {
        return Err(format!("expected a barrier not reached, got: {err}").into());
    };
    if (waiting.block, waiting.thread, missing.thread, barrier.line) != (0, 0, 32, 5) {
        return Err(format!("wrong threads or location: {err}").into());
    }
    if !text.contains("barrier_after_exit.cu:5:3")
        || !text.contains("thread 32 of block 0 has exited")
    {
        return Err(format!("unclear report:\n{text}").into());
    }
    let program = planted("barrier_after_exit.ll", false)?;
    let out = run_i32_out(&program, "early", 1, 64).map_err(|e| e.to_string())?;
    let expected: Vec<i32> = (0..64).map(|t| if t < 32 { t } else { -1 }).collect();
    support::exact("out", &out, &expected)?;
    Ok(())
}

fn oob_unchecked_read() -> Result<(), Failed> {
    let file = "tests/run/planted/oob_unchecked_read.loom";
    for opt in [OptLevel::O0, OptLevel::O3] {
        let program = support::compile(file, 64, opt, true)?;
        let n = 100usize;
        let mut x = Rng::new(7).f32s(n, 1.0, 2.0);
        let mut out = vec![0f32; 2];
        let err = expect_kernel_error(launch(
            &program,
            "sumUnchecked",
            2,
            &mut [
                HostArg::I32(n as i32),
                array("x", &mut x),
                array("out", &mut out),
            ],
        ))?;
        let SimtError::OutOfBounds { thread, .. } = &err else {
            return Err(format!("expected an out-of-bounds read, got: {err}").into());
        };
        // Block 1 covers elements 64..128: thread 36 reads element 100, the first past the end.
        let text = err.to_string();
        if (thread.block, thread.thread) != (1, 36)
            || !text.contains("index 100 of `x`, an array of 100 elements")
        {
            return Err(format!("wrong report at {opt:?}:\n{text}").into());
        }
        if !text.contains("sumUnchecked") {
            return Err(format!("the report does not name the kernel:\n{text}").into());
        }
    }
    Ok(())
}

/// A LOOM program with a needed barrier taken out: `sumOfSquares` compiled with its reduction's
/// barrier deleted from the optimised IR (the verifier's mutation hook) and the verifier off, as
/// `--no-verify` would ship it. The sanitizer must catch the race between a warp's partial being
/// written and another warp reading it, at the reduce's line in the `.loom` file.
fn loom_barrier_removed() -> Result<(), Failed> {
    let file = "examples/sum_of_squares.loom";
    let options = loomc::driver::Options {
        emit: vec![loomc::driver::Emit::Llvm],
        opt: OptLevel::O3,
        block_size: 64,
        libdevice: loomc::target::Libdevice::Declare,
        verify: loomc::verify::VerifyOptions {
            enabled: false,
            ..loomc::verify::VerifyOptions::default()
        },
        ..loomc::driver::Options::default()
    };
    let source = std::fs::read_to_string(support::repo_root().join(file))?;
    let mut files = loomc::diagnostics::SourceFiles::default();
    let removed = [crate::mutation::Mutation::RemoveBarrier(0)];
    let compilation =
        crate::mutation::compile_mutated(&mut files, file, &source, &options, &removed);
    let ir = compilation
        .outputs
        .and_then(|outputs| outputs.into_iter().next())
        .map(|(_, ir)| ir)
        .ok_or("sum_of_squares.loom does not compile with the mutation")?;
    if ir.contains("call void @llvm.nvvm.barrier") {
        return Err("the mutation left a barrier in the IR".into());
    }
    let program = HostProgram::compile(
        &ir,
        &HostOptions {
            sanitize: true,
            workers: 0,
            ..HostOptions::default()
        },
    )
    .map_err(|e| e.to_string())?;
    let mut input = Rng::new(7).f32s(4 * 64, 0.5, 1.5);
    let mut out = vec![0f32; 4];
    let err = expect_kernel_error(launch(
        &program,
        "sumOfSquares",
        4,
        &mut [array("in", &mut input), array("out", &mut out)],
    ))?;
    let SimtError::SharedRace { first, second, .. } = &err else {
        return Err(format!("expected a shared-memory race, got: {err}").into());
    };
    // `out[B] <- sum /. (sqr /~ t)` is line 16 of the example.
    let text = err.to_string();
    if first.thread.thread == second.thread.thread || !text.contains("sum_of_squares.loom:16:") {
        return Err(
            format!("expected two threads racing at sum_of_squares.loom:16: {text}").into(),
        );
    }
    Ok(())
}
