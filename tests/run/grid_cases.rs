//! `examples/grid_sum.loom` at any timing: the same bits on one worker and on many (the run
//! cases of the grid-wide collectives are files: `tests/run/cases/grid_sum.loom`,
//! `grid_programs.loom`, `exclusive_scan.loom`, `compaction.loom`).

use super::support::{array, launch, nvptx_ir, Rng};
use libtest_mimic::{Failed, Trial};
use loomc::target::host::{HostArg, HostOptions, HostProgram};
use loomc::target::OptLevel;

/// A scratch array for `blocks` blocks, zero.
fn scratch(blocks: usize) -> Vec<u64> {
    vec![0; blocks + 2]
}

fn zeroed(name: &str, s: &[u64]) -> Result<(), String> {
    if s.iter().all(|&w| w == 0) {
        Ok(())
    } else {
        Err(format!(
            "scratch array `{name}` not zero after the launch: {s:?}"
        ))
    }
}

/// `gridSum` over `x` at `blocks` blocks with scratch `s`, which it must leave zero: the total.
fn grid_sum_total(p: &HostProgram, x: &[f32], blocks: usize, s: &mut [u64]) -> Result<f32, String> {
    let (mut x, mut total) = (x.to_vec(), vec![f32::NAN]);
    launch(
        p,
        "gridSum",
        blocks as u32,
        &mut [
            HostArg::I32(x.len() as i32),
            array("x", &mut x),
            array("total", &mut total),
            array("scratch", s),
        ],
    )
    .map_err(|e| e.to_string())?;
    zeroed("scratch", s)?;
    Ok(total[0])
}

pub fn trials() -> Vec<Trial> {
    vec![Trial::test(
        "grid/float_sum_same_bits_at_any_timing",
        float_sum_same_bits_at_any_timing,
    )]
}

/// `examples/grid_sum.loom` promises the same bits at every run. On one worker the CPU backend
/// runs blocks one after another, so every look-back meets its predecessor's inclusive word at
/// once; on 24 workers over this machine's few cores, blocks interleave and a look-back meets
/// runs of aggregates of varying length, as on a GPU. The `Float32` values span 40 binary orders
/// of magnitude, so a sum grouped differently rounds differently. The look-back once folded such
/// a run backwards, and an H100 gave a total that differed from the CPU backend's (2026-11-27,
/// bench/results/gpu-checks-2026-11-27.md); on 24 workers here the old fold gave other bits too.
fn float_sum_same_bits_at_any_timing() -> Result<(), Failed> {
    let file = "examples/grid_sum.loom";
    let ir = nvptx_ir(file, 32, OptLevel::O3)?;
    let program = |workers| {
        HostProgram::compile(
            &ir,
            &HostOptions {
                workers,
                ..HostOptions::default()
            },
        )
        .map_err(|e| format!("{file}: {e}"))
    };
    let (one, many) = (program(1)?, program(24)?);
    let mut rng = Rng::new(0x9a1d);
    let (blocks, n): (usize, usize) = (400, 400 * 32 * 3);
    let x: Vec<f32> = (0..n)
        .map(|_| {
            let sign = if rng.next_u64() % 2 == 0 { 1.0 } else { -1.0 };
            let exponent = rng.i32_in(-20, 20);
            sign * rng.f32_in(1.0, 2.0) * 2f32.powi(exponent)
        })
        .collect();
    let total = |program: &HostProgram| grid_sum_total(program, &x, blocks, &mut scratch(blocks));
    let sequential = total(&one)?;
    for run in 0..40 {
        let interleaved = total(&many)?;
        if interleaved.to_bits() != sequential.to_bits() {
            return Err(format!(
                "run {run} on 24 workers: total {interleaved:e}, on one worker {sequential:e}"
            )
            .into());
        }
    }
    Ok(())
}
