//! The execution case of `examples/argmax.loom`, listed in `cases.rs` (the elementwise calls of
//! `tests/run/programs/elementwise_call.loom` are a case file now:
//! `tests/run/cases/elementwise_call.loom`).

use super::support::{array, bytes, exact, launch, Rng};
use loomc::target::host::{HostArg, HostProgram};

fn blocks_for(n: usize, bs: u32) -> usize {
    n.div_ceil(bs as usize).max(1)
}

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
