//! The grid-wide collectives' execution cases (`examples/grid_sum.loom`,
//! `examples/exclusive_scan.loom`, `examples/compaction.loom`, `tests/run/programs/grid.loom`)
//! and the bitonic sort of a block (`examples/bitonic_sort.loom`), listed in `cases.rs`. Each
//! grid-wide kernel runs at several numbers of blocks: one, a few (chunks of several tiles),
//! the usual `ceil(n / BLOCKSIZE)`, and more than there are chunks (blocks with nothing to do);
//! every launch reuses the same scratch arrays, which must be zero again after each.

use super::support::{array, bytes, exact, launch, nvptx_ir, Rng};
use libtest_mimic::{Failed, Trial};
use loomc::target::host::{HostArg, HostOptions, HostProgram};
use loomc::target::OptLevel;

/// The numbers of blocks each grid-wide kernel runs at, for `n` elements.
fn block_counts(n: usize, bs: u32) -> Vec<usize> {
    let usual = n.div_ceil(bs as usize).max(1);
    let mut counts = vec![1, 3, usual, usual + 2];
    counts.dedup();
    counts
}

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

pub fn grid_sum(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    // Small integers: every partial sum is exact in Float32, whatever the grouping.
    let x: Vec<f32> = rng
        .i32s(n, -100, 100)
        .into_iter()
        .map(|v| v as f32)
        .collect();
    let expected: f32 = x.iter().sum();
    let mut out = Vec::new();
    for blocks in block_counts(n, bs) {
        let mut s = scratch(blocks);
        for _ in 0..2 {
            let total = [grid_sum_total(p, &x, blocks, &mut s)?];
            exact(&format!("total at {blocks} blocks"), &total, &[expected])?;
            out.extend(bytes(&total));
        }
    }
    Ok(out)
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

pub fn exclusive_scan(
    p: &HostProgram,
    bs: u32,
    n: usize,
    rng: &mut Rng,
) -> Result<Vec<u8>, String> {
    let x = rng.i32s(n, -1000, 1000);
    let mut expected = Vec::with_capacity(n);
    let mut acc = 0i32;
    for &v in &x {
        expected.push(acc);
        acc = acc.wrapping_add(v);
    }
    let mut out = Vec::new();
    for blocks in block_counts(n, bs) {
        let mut s = scratch(blocks);
        let mut x = x.clone();
        let mut y = vec![i32::MIN; n];
        launch(
            p,
            "exclusiveScan",
            blocks as u32,
            &mut [
                HostArg::I32(n as i32),
                array("x", &mut x),
                array("y", &mut y),
                array("scratch", &mut s),
            ],
        )
        .map_err(|e| e.to_string())?;
        exact(&format!("y at {blocks} blocks"), &y, &expected)?;
        zeroed("scratch", &s)?;
        out.extend(bytes(&y));
    }
    Ok(out)
}

pub fn compaction(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let x: Vec<f32> = rng
        .i32s(n, -50, 50)
        .into_iter()
        .map(|v| v as f32 / 4.0)
        .collect();
    let kept: Vec<f32> = x.iter().copied().filter(|&v| v > 0.0).collect();
    let mut out = Vec::new();
    for blocks in block_counts(n, bs) {
        let (mut keep, mut total) = (scratch(blocks), scratch(blocks));
        let mut x = x.clone();
        let mut dest = vec![-1.0f32; n];
        let mut count = vec![-1i32];
        launch(
            p,
            "compact",
            blocks as u32,
            &mut [
                HostArg::I32(n as i32),
                array("x", &mut x),
                array("out", &mut dest),
                array("count", &mut count),
                array("keep", &mut keep),
                array("total", &mut total),
            ],
        )
        .map_err(|e| e.to_string())?;
        exact("count", &count, &[kept.len() as i32])?;
        exact(
            &format!("out at {blocks} blocks"),
            &dest[..kept.len()],
            &kept,
        )?;
        // Past the kept elements, `out` is untouched.
        if dest[kept.len()..].iter().any(|&v| v != -1.0) {
            return Err("compaction wrote past its kept elements".to_string());
        }
        zeroed("keep", &keep)?;
        zeroed("total", &total)?;
        out.extend(bytes(&dest));
    }
    Ok(out)
}

/// `tests/run/programs/grid.loom`: an inclusive scan with a non-commutative function, a
/// grid-wide maximum and minimum of `Int8`s widened by a map, a scan of `UInt32`s that wraps.
pub fn grid_programs(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let x = rng.i32s(n, -3, 4);
    let small: Vec<i8> = rng
        .i32s(n, -128, 128)
        .into_iter()
        .map(|v| v as i8)
        .collect();
    let big: Vec<u32> = (0..n).map(|_| rng.next_u64() as u32).collect();
    // First non-zero from the left, inclusive: the first non-zero element at or before k.
    let mut first = Vec::with_capacity(n);
    let mut seen = 0i32;
    for &v in &x {
        if seen == 0 {
            seen = v;
        }
        first.push(seen);
    }
    let mut wrapped = Vec::with_capacity(n);
    let mut acc = 0u32;
    for &v in &big {
        acc = acc.wrapping_add(v);
        wrapped.push(acc);
    }
    let hi = small.iter().map(|&v| i32::from(v)).max().unwrap_or(0);
    let lo = small.iter().map(|&v| i32::from(v)).min().unwrap_or(0);
    let mut out = Vec::new();
    for blocks in block_counts(n, bs) {
        let mut s = (0..4).map(|_| scratch(blocks)).collect::<Vec<_>>();
        let (mut x, mut small, mut big) = (x.clone(), small.clone(), big.clone());
        let mut f = vec![i32::MIN; n];
        let mut w = vec![0u32; n];
        let mut r = vec![i32::MIN; 2];
        let [s0, s1, s2, s3] = &mut s[..] else {
            return Err("four scratch arrays".to_string());
        };
        launch(
            p,
            "gridPrograms",
            blocks as u32,
            &mut [
                HostArg::I32(n as i32),
                array("x", &mut x),
                array("small", &mut small),
                array("big", &mut big),
                array("first", &mut f),
                array("wrapped", &mut w),
                array("extremes", &mut r),
                array("s0", s0),
                array("s1", s1),
                array("s2", s2),
                array("s3", s3),
            ],
        )
        .map_err(|e| e.to_string())?;
        exact(&format!("first at {blocks} blocks"), &f, &first)?;
        exact(&format!("wrapped at {blocks} blocks"), &w, &wrapped)?;
        exact(&format!("extremes at {blocks} blocks"), &r, &[hi, lo])?;
        for (i, s) in s.iter().enumerate() {
            zeroed(&format!("s{i}"), s)?;
        }
        out.extend(bytes(&f));
        out.extend(bytes(&w));
        out.extend(bytes(&r));
    }
    Ok(out)
}

pub fn bitonic_sort(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let mut x = rng.i32s(n, -1000, 1000);
    let mut expected = x.clone();
    for chunk in expected.chunks_mut(bs as usize) {
        chunk.sort_unstable();
    }
    let blocks = n.div_ceil(bs as usize).max(1);
    let mut y = vec![i32::MIN; n];
    launch(
        p,
        "bitonicSort",
        blocks as u32,
        &mut [
            HostArg::I32(n as i32),
            array("x", &mut x),
            array("out", &mut y),
        ],
    )
    .map_err(|e| e.to_string())?;
    exact("out", &y, &expected)?;
    Ok(bytes(&y))
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
