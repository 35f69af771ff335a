//! The run cases whose reference is an algorithm rather than an expression (docs/testing.md,
//! "What stays in Rust, and why"): how to launch each program on random inputs of a given size,
//! and a reference computed here, independently of loomc, in plain Rust. Each returns the bytes of its outputs so
//! that the harness can compare `-O0` with `-O3` bit for bit.

use super::support::{array, bytes, exact, launch, Rng};
use loomc::target::host::{HostArg, HostProgram};

pub type Run = fn(&HostProgram, u32, usize, &mut Rng) -> Result<Vec<u8>, String>;

pub struct Case {
    pub name: &'static str,
    pub file: &'static str,
    /// `Some` when the program fixes `@blocksize`.
    pub block_size: Option<u32>,
    /// Problem sizes (elements, or blocks for once-per-block programs).
    pub sizes: &'static [usize],
    pub run: Run,
}

const ELEMENTS: &[usize] = &[1, 31, 1000, 4097];

pub const CASES: &[Case] = &[
    Case {
        name: "mul_matr_vec",
        file: "bench/kernels/mul_matr_vec.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: mul_matr_vec,
    },
    Case {
        name: "collatz",
        file: "examples/collatz.loom",
        block_size: None,
        sizes: &[1, 31, 100],
        run: collatz,
    },
    Case {
        name: "scalar_control",
        file: "tests/ui/ok/scalar_control.loom",
        block_size: None,
        sizes: &[1, 31, 100],
        run: scalar_control,
    },
];

/// y = A x, one row per block (`sum /.` over a run-time length: each thread's accumulator starts
/// from `-0.0`). The reference adds in LOOM's documented order (reduce.rs), so it must agree bit
/// for bit: each thread its elements `t, t + BLOCKSIZE, ...` in turn, then a shuffle-down tree
/// within each warp, then one over the warps' results.
fn mul_matr_vec(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let (rows, cols, bs) = (3usize, n, bs as usize);
    let mut a = rng.f32s(rows * cols, -10.0, 10.0);
    let mut x = rng.f32s(cols, -10.0, 10.0);
    let mut y = vec![f32::NAN; rows];
    let width = bs.min(32);
    let expected: Vec<f32> = a
        .chunks(cols)
        .map(|row| {
            let threads: Vec<f32> = (0..bs)
                .map(|t| {
                    (t..cols)
                        .step_by(bs)
                        .fold(-0.0, |acc, j| acc + row[j] * x[j])
                })
                .collect();
            let warps: Vec<f32> = threads.chunks(width).map(shuffle_down_tree).collect();
            shuffle_down_tree(&warps)
        })
        .collect();
    launch(
        p,
        "mulMatrVec",
        rows as u32,
        &mut [
            HostArg::I32(rows as i32),
            HostArg::I32(cols as i32),
            array("a", &mut a),
            array("x", &mut x),
            array("y", &mut y),
        ],
    )
    .map_err(|e| e.to_string())?;
    exact("y", &y, &expected)?;
    Ok(bytes(&y))
}

/// Lane 0's value after `v[i] += v[i + offset]` for offsets 1, 2, 4, ... (all lanes at once).
fn shuffle_down_tree(lanes: &[f32]) -> f32 {
    let mut v = lanes.to_vec();
    let mut offset = 1;
    while offset < v.len() {
        // Ascending: v[i + offset] is still the value from before this step.
        for i in 0..v.len() - offset {
            v[i] += v[i + offset];
        }
        offset *= 2;
    }
    v[0]
}

fn collatz_steps(mut n: i64) -> i32 {
    let mut steps = 0;
    while n != 1 {
        n = if n % 2 == 0 { n / 2 } else { 3 * n + 1 };
        steps += 1;
    }
    steps
}

fn collatz(p: &HostProgram, _bs: u32, blocks: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let first = rng.i32_in(1, 1_000_000) as i64;
    let mut out = vec![-1i32; blocks];
    let expected: Vec<i32> = (0..blocks)
        .map(|b| collatz_steps(first + b as i64))
        .collect();
    launch(
        p,
        "collatz",
        blocks as u32,
        &mut [HostArg::I64(first), array("out", &mut out)],
    )
    .map_err(|e| e.to_string())?;
    exact("out", &out, &expected)?;
    Ok(bytes(&out))
}

fn scalar_control(
    p: &HostProgram,
    _bs: u32,
    blocks: usize,
    rng: &mut Rng,
) -> Result<Vec<u8>, String> {
    let n = rng.i32_in(-1000, 1000);
    let mut out = vec![-1i32; blocks];
    let mut half = vec![f32::NAN; blocks];
    let clamp = |x: i32| x.clamp(2, 7);
    let steps = |start: i32| collatz_steps(start as i64);
    let mut expected_out = Vec::new();
    let mut expected_half = Vec::new();
    for b in 0..blocks as i32 {
        let mut total: i32 = (0..10).map(clamp).sum();
        let k = (total as i64) << 2;
        if k > 100 && b != 0 {
            total += 1;
        }
        expected_out.push(total + n + steps(b + 1));
        expected_half.push(total as f32 / 2.0);
    }
    launch(
        p,
        "scalars",
        blocks as u32,
        &mut [
            HostArg::I32(n),
            array("out", &mut out),
            array("half", &mut half),
        ],
    )
    .map_err(|e| e.to_string())?;
    exact("out", &out, &expected_out)?;
    exact("half", &half, &expected_half)?;
    let mut all = bytes(&out);
    all.extend(bytes(&half));
    Ok(all)
}
