//! The run cases whose reference is a loop rather than an expression (docs/testing.md, "What
//! stays in Rust, and why"): how to launch each program on random inputs of a given size, and a
//! reference computed here, independently of loomc, in plain Rust. Each returns the bytes of its
//! outputs so that the harness can compare `-O0` with `-O3` bit for bit.

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

pub const CASES: &[Case] = &[
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
