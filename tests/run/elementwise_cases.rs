//! The execution case of elementwise calls (`tests/run/programs/elementwise_call.loom`), listed
//! in `cases.rs`: funcs called with block vectors, against the same funcs written here in Rust.

use super::support::{array, bytes, close, exact, launch, widen, Rng};
use loomc::target::host::{HostArg, HostProgram};

fn blocks_for(n: usize, bs: u32) -> usize {
    n.div_ceil(bs as usize).max(1)
}

fn mix(a: f32, b: f32, w: f32) -> f32 {
    if a > b {
        a * w + b
    } else {
        b * w - a
    }
}

pub fn elementwise_call(
    p: &HostProgram,
    bs: u32,
    n: usize,
    rng: &mut Rng,
) -> Result<Vec<u8>, String> {
    let m = 1 + n % 17;
    let w = rng.f32_in(-2.0, 2.0);
    let mut x = rng.f32s(n, -1.0, 1.0);
    let mut y = rng.f32s(n, -1.0, 1.0);
    // Some indices fall outside `tab`: `clampTo` brings them back.
    let mut ix = rng.i32s(n, -5, m as i32 + 5);
    let mut tab = rng.i32s(m, -1000, 1000);
    let (mut mixed, mut biggest, mut fused) = (vec![0.0f32; n], vec![0.0f32; n], vec![0.0f32; n]);
    let mut looked = vec![0i32; n];
    launch(
        p,
        "elementwiseCalls",
        blocks_for(n, bs) as u32,
        &mut [
            HostArg::I32(n as i32),
            HostArg::I32(m as i32),
            HostArg::F32(w),
            array("x", &mut x),
            array("y", &mut y),
            array("ix", &mut ix),
            array("tab", &mut tab),
            array("mixed", &mut mixed),
            array("biggest", &mut biggest),
            array("fused", &mut fused),
            array("looked", &mut looked),
        ],
    )
    .map_err(|e| e.to_string())?;
    let expected_mixed: Vec<f64> = (0..n).map(|i| mix(x[i], y[i], w) as f64).collect();
    let expected_biggest: Vec<f32> = (0..n).map(|i| x[i].max(y[i])).collect();
    let expected_fused: Vec<f32> = (0..n).map(|i| x[i].max(y[i]).mul_add(y[i], x[i])).collect();
    let expected_looked: Vec<i32> = (0..n)
        .map(|i| tab[ix[i].clamp(0, m as i32 - 1) as usize])
        .collect();
    // `a * w + b` may be fused into one rounding by the optimiser.
    close("mixed", &widen(&mixed), &expected_mixed, 1e-6, 1e-6)?;
    exact("biggest", &biggest, &expected_biggest)?;
    exact("fused", &fused, &expected_fused)?;
    exact("looked", &looked, &expected_looked)?;
    let mut all = bytes(&mixed);
    all.extend(bytes(&biggest));
    all.extend(bytes(&fused));
    all.extend(bytes(&looked));
    Ok(all)
}

/// `examples/argmax.loom`: the first index of each block's maximum. Few distinct values, so
/// that ties are common and the first-index rule is tested.
pub fn argmax(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let blocks = blocks_for(n, bs);
    let mut x: Vec<f32> = rng
        .i32s(n, -20, 20)
        .into_iter()
        .map(|v| v as f32 / 4.0)
        .collect();
    let mut out = vec![-7i32; blocks];
    launch(
        p,
        "argmax",
        blocks as u32,
        &mut [
            HostArg::I32(n as i32),
            array("x", &mut x),
            array("out", &mut out),
        ],
    )
    .map_err(|e| e.to_string())?;
    let bs = bs as usize;
    let expected: Vec<i32> = (0..blocks)
        .map(|b| {
            let slice = b * bs..((b + 1) * bs).min(n);
            // The first maximum: a later element wins only when strictly larger.
            let first = slice
                .clone()
                .fold(slice.start, |best, i| if x[i] > x[best] { i } else { best });
            first as i32
        })
        .collect();
    exact("out", &out, &expected)?;
    Ok(bytes(&out))
}
