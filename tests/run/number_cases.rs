//! `loomc run` on the 8- and 16-bit integer types: `.npy` files in and out (the run cases of
//! number literals and the small integer types are files: `tests/run/cases/float_literals.loom`,
//! `small_integers.loom`).

use super::support::exact;
use libtest_mimic::{Failed, Trial};
use npyz::WriterBuilder;
use std::path::Path;

pub fn trials() -> Vec<Trial> {
    vec![Trial::test(
        "cli/run_reads_and_writes_small_integer_npy",
        small_integer_npy,
    )]
}

fn write_npy<T: npyz::AutoSerialize + Copy>(path: &Path, values: &[T]) -> Result<(), String> {
    let mut out = std::fs::File::create(path).map_err(|e| e.to_string())?;
    let mut writer = npyz::WriteOptions::<T>::new()
        .default_dtype()
        .shape(&[values.len() as u64])
        .writer(&mut out)
        .begin_nd()
        .map_err(|e| e.to_string())?;
    writer
        .extend(values.iter().copied())
        .map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())
}

fn read_npy<T: npyz::Deserialize>(path: &Path) -> Result<Vec<T>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    npyz::NpyFile::new(file)
        .map_err(|e| e.to_string())?
        .into_vec()
        .map_err(|e| e.to_string())
}

/// `loomc run` takes `int8`, `uint8`, `int16` and `uint16` arrays (NumPy's `|i1`, `|u1`, `<i2`,
/// `<u2`) and an `Int8` scalar argument, and writes arrays of those types back.
fn small_integer_npy() -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let path = |name: &str| dir.path().join(format!("{name}.npy"));
    let a: Vec<i8> = vec![-128, -1, 0, 1, 127];
    let b: Vec<u8> = vec![0, 1, 128, 200, 255];
    let c: Vec<i16> = vec![-32768, -300, 0, 300, 32767];
    let d: Vec<u16> = vec![0, 1, 7, 40000, 65535];
    write_npy(&path("a"), &a)?;
    write_npy(&path("b"), &b)?;
    write_npy(&path("c"), &c)?;
    write_npy(&path("d"), &d)?;
    let file = super::support::repo_root().join("tests/run/programs/small_integers.loom");
    let mut args: Vec<String> = [
        "run",
        &file.display().to_string(),
        "--kernel",
        "smallArithmetic",
        "--blocks",
        "1",
        "--block-size",
        "32",
        "--arg",
        "n=5",
        "--arg",
        "k=-3",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for name in ["a", "b", "c", "d"] {
        args.extend([
            "--in".to_string(),
            format!("{name}={}", path(name).display()),
        ]);
    }
    for name in ["wrapped", "products", "shifted", "halves", "less"] {
        args.extend([
            "--out".to_string(),
            format!("{name}={}", path(name).display()),
        ]);
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_loomc"))
        .args(&args)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("loomc run failed: {}", String::from_utf8_lossy(&out.stderr)).into());
    }
    let k = -3i8;
    let wrapped: Vec<i8> = a
        .iter()
        .map(|&x| x.wrapping_add(k.wrapping_mul(x)).wrapping_sub(100))
        .collect();
    let products: Vec<u8> = b
        .iter()
        .map(|&x| x.wrapping_mul(x).wrapping_sub(3))
        .collect();
    let shifted: Vec<i16> = c
        .iter()
        .map(|&x| (x >> 3) ^ (x << 5).wrapping_add(!x))
        .collect();
    let halves: Vec<u16> = d
        .iter()
        .zip(&b)
        .map(|(&x, &y)| {
            let quotient = x.checked_div(u16::from(y % 3)).unwrap_or(0);
            (x / 2)
                .wrapping_add(x % 7)
                .wrapping_add(quotient)
                .wrapping_add(65000)
        })
        .collect();
    exact("wrapped.npy", &read_npy::<i8>(&path("wrapped"))?, &wrapped)?;
    exact(
        "products.npy",
        &read_npy::<u8>(&path("products"))?,
        &products,
    )?;
    exact("shifted.npy", &read_npy::<i16>(&path("shifted"))?, &shifted)?;
    exact("halves.npy", &read_npy::<u16>(&path("halves"))?, &halves)?;
    let less: Vec<bool> = (0..a.len())
        .map(|i| a[i] < c[i] as i8 && b[i] >= 128)
        .collect();
    exact("less.npy", &read_npy::<bool>(&path("less"))?, &less)?;
    Ok(())
}
