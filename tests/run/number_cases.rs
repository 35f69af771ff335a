//! Execution cases for number literals and the 8- and 16-bit types: like `cases.rs`, a program,
//! how to launch it, and a reference computed in plain Rust.

use super::cases::Case;
use super::support::{array, bytes, exact, launch};
use loomc::target::host::{HostArg, HostProgram};

pub const CASES: &[Case] = &[Case {
    name: "float_literals",
    file: "tests/run/programs/float_literals.loom",
    // One block of any size shows it: the values do not depend on the block size.
    block_size: Some(32),
    sizes: &[1],
    run: float_literals,
}];

/// The values Rust's correctly rounded parsing and `u64 as f32` give, bit for bit.
fn float_literals(
    p: &HostProgram,
    _bs: u32,
    _n: usize,
    _rng: &mut super::support::Rng,
) -> Result<Vec<u8>, String> {
    let wide: u64 = (1 << 60) + (1 << 36) + 1;
    let mut out = vec![f32::NAN; 6];
    let mut converted = vec![f32::NAN; 1];
    launch(
        p,
        "floatLiterals",
        1,
        &mut [
            HostArg::I64(wide as i64),
            array("out", &mut out),
            array("converted", &mut converted),
        ],
    )
    .map_err(|e| e.to_string())?;
    let expected = [16777218.0, wide as f32, f32::MAX, f32::MAX, -f32::MAX, 0.1];
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    exact("out (bits)", &bits(&out), &bits(&expected))?;
    exact(
        "the literal and the run-time conversion",
        &bits(&out[1..2]),
        &bits(&converted),
    )?;
    if expected[1] != (1u64 << 60) as f32 + (1u64 << 37) as f32 {
        return Err("2^60 + 2^36 + 1 should round to 2^60 + 2^37".to_string());
    }
    Ok([bytes(&out), bytes(&converted)].concat())
}
