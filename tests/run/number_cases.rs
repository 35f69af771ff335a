//! Execution cases for number literals and the 8- and 16-bit types: like `cases.rs`, a program,
//! how to launch it, and a reference computed in plain Rust.

use super::cases::Case;
use super::support::{array, bytes, exact, launch, Rng};
use libtest_mimic::{Failed, Trial};
use loomc::target::host::{HostArg, HostProgram};
use npyz::WriterBuilder;
use std::path::Path;

const ELEMENTS: &[usize] = &[1, 31, 1000, 4097];

pub const CASES: &[Case] = &[
    Case {
        name: "float_literals",
        file: "tests/run/programs/float_literals.loom",
        // One block of any size shows it: the values do not depend on the block size.
        block_size: Some(32),
        sizes: &[1],
        run: float_literals,
    },
    Case {
        name: "small_integers",
        file: "tests/run/programs/small_integers.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: small_integers,
    },
];

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

/// Random values of a plain integer type: every bit pattern is a value.
fn randoms<T: Copy>(rng: &mut Rng, n: usize, from_bits: fn(u64) -> T) -> Vec<T> {
    (0..n).map(|_| from_bits(rng.next_u64())).collect()
}

fn small_integers(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let blocks = n.div_ceil(bs as usize).max(1) as u32;
    let mut a: Vec<i8> = randoms(rng, n, |v| v as i8);
    let mut b: Vec<u8> = randoms(rng, n, |v| v as u8);
    let mut c: Vec<i16> = randoms(rng, n, |v| v as i16);
    let mut d: Vec<u16> = randoms(rng, n, |v| v as u16);
    let k = rng.next_u64() as i8;
    let mut out = [
        arithmetic(p, blocks, k, &mut a, &mut b, &mut c, &mut d)?,
        casts(p, blocks, rng, &mut a, &mut b, &mut c, &mut d)?,
    ]
    .concat();
    out.extend(reductions(p, n, rng)?);
    out.extend(shared(p, blocks, bs as usize, &mut b, &mut c)?);
    Ok(out)
}

/// `shared` arrays of `UInt8` and `Int16`: loaded from a block's slice (zeros past the end),
/// read back whole and shifted by one (a checked read: zero past the block's last thread).
fn shared(
    p: &HostProgram,
    blocks: u32,
    bs: usize,
    b: &mut [u8],
    c: &mut [i16],
) -> Result<Vec<u8>, String> {
    let n = b.len();
    let mut doubled = vec![0u8; n];
    let mut neighbours = vec![0i16; n];
    let (eb, ec) = (b.to_vec(), c.to_vec());
    launch(
        p,
        "smallShared",
        blocks,
        &mut [
            HostArg::I32(n as i32),
            array("b", b),
            array("c", c),
            array("doubled", &mut doubled),
            array("neighbours", &mut neighbours),
        ],
    )
    .map_err(|e| e.to_string())?;
    let expect_doubled: Vec<u8> = eb.iter().map(|&x| x.wrapping_mul(2)).collect();
    let expect_neighbours: Vec<i16> = (0..n)
        .map(|i| {
            let next = i + 1;
            let right = if next % bs != 0 && next < n {
                ec[next]
            } else {
                0
            };
            ec[i].wrapping_add(right)
        })
        .collect();
    exact("doubled", &doubled, &expect_doubled)?;
    exact("neighbours", &neighbours, &expect_neighbours)?;
    Ok([doubled, bytes(&neighbours)].concat())
}

fn arithmetic(
    p: &HostProgram,
    blocks: u32,
    k: i8,
    a: &mut [i8],
    b: &mut [u8],
    c: &mut [i16],
    d: &mut [u16],
) -> Result<Vec<u8>, String> {
    let n = a.len();
    let mut wrapped = vec![0i8; n];
    let mut products = vec![0u8; n];
    let mut shifted = vec![0i16; n];
    let mut halves = vec![0u16; n];
    let mut less = vec![2u8; n];
    let (ea, eb, ec, ed) = (a.to_vec(), b.to_vec(), c.to_vec(), d.to_vec());
    launch(
        p,
        "smallArithmetic",
        blocks,
        &mut [
            HostArg::I32(n as i32),
            HostArg::I8(k),
            array("a", a),
            array("b", b),
            array("c", c),
            array("d", d),
            array("wrapped", &mut wrapped),
            array("products", &mut products),
            array("shifted", &mut shifted),
            array("halves", &mut halves),
            array("less", &mut less),
        ],
    )
    .map_err(|e| e.to_string())?;
    let expect_wrapped: Vec<i8> = ea
        .iter()
        .map(|&x| x.wrapping_add(k.wrapping_mul(x)).wrapping_sub(100))
        .collect();
    let expect_products: Vec<u8> = eb
        .iter()
        .map(|&x| x.wrapping_mul(x).wrapping_sub(3))
        .collect();
    // `^` binds less tightly than `+`, as in C.
    let expect_shifted: Vec<i16> = ec
        .iter()
        .map(|&x| (x >> 3) ^ (x << 5).wrapping_add(!x))
        .collect();
    let expect_halves: Vec<u16> = ed
        .iter()
        .zip(&eb)
        .map(|(&x, &y)| {
            let divisor = u16::from(y % 3);
            let quotient = x.checked_div(divisor).unwrap_or(0);
            (x / 2)
                .wrapping_add(x % 7)
                .wrapping_add(quotient)
                .wrapping_add(65000)
        })
        .collect();
    let expect_less: Vec<u8> = (0..n)
        .map(|i| u8::from(ea[i] < ec[i] as i8 && eb[i] >= 128))
        .collect();
    exact("wrapped", &wrapped, &expect_wrapped)?;
    exact("products", &products, &expect_products)?;
    exact("shifted", &shifted, &expect_shifted)?;
    exact("halves", &halves, &expect_halves)?;
    exact("less", &less, &expect_less)?;
    Ok([
        bytes(&wrapped),
        bytes(&products),
        bytes(&shifted),
        bytes(&halves),
        less,
    ]
    .concat())
}

#[allow(clippy::too_many_arguments)]
fn casts(
    p: &HostProgram,
    blocks: u32,
    rng: &mut Rng,
    a: &mut [i8],
    b: &mut [u8],
    c: &mut [i16],
    d: &mut [u16],
) -> Result<Vec<u8>, String> {
    let n = a.len();
    // Beyond both ends of Int8 and UInt16, NaN and the infinities: the casts saturate.
    let specials = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        127.9,
        -128.9,
        1e10,
    ];
    let mut f: Vec<f32> = (0..n)
        .map(|i| {
            specials
                .get(i)
                .copied()
                .unwrap_or(rng.f32_in(-300.0, 300.0))
        })
        .collect();
    let mut g: Vec<f64> = (0..n)
        .map(|i| match i {
            0 => -1.5,
            1 => 65535.9,
            2 => 1e9,
            _ => f64::from(rng.f32_in(-10.0, 70000.0)),
        })
        .collect();
    let mut w: Vec<i64> = randoms(rng, n, |v| v as i64);
    let mut widened = vec![0i32; n];
    let mut floats = vec![0f32; n];
    let mut saturated = vec![0i8; n];
    let mut saturated_u = vec![0u16; n];
    let mut narrowed = vec![0i8; n];
    let mut narrowed_u = vec![0u8; n];
    let mut extended = vec![0u64; n];
    let mut flags = vec![2u8; n];
    let mut from_bool = vec![0i16; n];
    let (ea, eb, ec, ed) = (a.to_vec(), b.to_vec(), c.to_vec(), d.to_vec());
    let (ef, eg, ew) = (f.clone(), g.clone(), w.clone());
    launch(
        p,
        "smallCasts",
        blocks,
        &mut [
            HostArg::I32(n as i32),
            array("a", a),
            array("b", b),
            array("c", c),
            array("d", d),
            array("f", &mut f),
            array("g", &mut g),
            array("w", &mut w),
            array("widened", &mut widened),
            array("floats", &mut floats),
            array("saturated", &mut saturated),
            array("saturatedU", &mut saturated_u),
            array("narrowed", &mut narrowed),
            array("narrowedU", &mut narrowed_u),
            array("extended", &mut extended),
            array("flags", &mut flags),
            array("fromBool", &mut from_bool),
        ],
    )
    .map_err(|e| e.to_string())?;
    let each = |f: &dyn Fn(usize) -> i64| (0..n).map(f).collect::<Vec<i64>>();
    let expect_widened = each(&|i| {
        i64::from(ea[i]) + i64::from(eb[i]) * 3 + i64::from(ec[i]) * 5 + i64::from(ed[i]) * 7
    });
    let expect_floats: Vec<f32> = (0..n)
        .map(|i| f32::from(ea[i]) + f32::from(eb[i]) + f32::from(ec[i]) + f32::from(ed[i]))
        .collect();
    // Rust's float-to-integer `as` saturates and takes NaN to 0, as LOOM's casts do.
    let expect_saturated: Vec<i8> = ef.iter().map(|&x| x as i8).collect();
    let expect_saturated_u: Vec<u16> = eg.iter().map(|&x| x as u16).collect();
    // Narrowing keeps the low bits; widening extends by the source's signedness.
    let expect_narrowed: Vec<i8> = (0..n)
        .map(|i| (ec[i] as i8).wrapping_add(ew[i] as i8))
        .collect();
    let expect_narrowed_u: Vec<u8> = (0..n)
        .map(|i| {
            (ed[i] as u8)
                .wrapping_add(ec[i] as u32 as u8)
                .wrapping_add(eb[i] as i16 as u8)
        })
        .collect();
    let expect_extended: Vec<u64> = (0..n)
        .map(|i| (ea[i] as u64).wrapping_add(u64::from(ed[i])))
        .collect();
    let expect_flags: Vec<u8> = eb.iter().map(|&x| u8::from(x != 0)).collect();
    let expect_from_bool: Vec<i16> = expect_flags.iter().map(|&x| i16::from(x)).collect();
    let widened64: Vec<i64> = widened.iter().map(|&x| i64::from(x)).collect();
    exact("widened", &widened64, &expect_widened)?;
    exact("floats", &floats, &expect_floats)?;
    exact("saturated", &saturated, &expect_saturated)?;
    exact("saturatedU", &saturated_u, &expect_saturated_u)?;
    exact("narrowed", &narrowed, &expect_narrowed)?;
    exact("narrowedU", &narrowed_u, &expect_narrowed_u)?;
    exact("extended", &extended, &expect_extended)?;
    exact("flags", &flags, &expect_flags)?;
    exact("fromBool", &from_bool, &expect_from_bool)?;
    Ok([
        bytes(&widened),
        bytes(&floats),
        bytes(&saturated),
        bytes(&saturated_u),
        bytes(&narrowed),
        narrowed_u,
        bytes(&extended),
        flags,
        bytes(&from_bool),
    ]
    .concat())
}

/// One row per block, `cols` elements: a sum that wraps in `UInt8`, the same sum widened to
/// `Int32` by mapping a cast first, `min` and `max` in the element type, and a scan in `UInt16`.
fn reductions(p: &HostProgram, cols: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let rows = 3usize;
    let mut b: Vec<u8> = randoms(rng, rows * cols, |v| v as u8);
    let mut c: Vec<i16> = randoms(rng, rows * cols, |v| v as i16);
    let mut wrapped_sum = vec![0u8; rows];
    let mut wide_sum = vec![0i32; rows];
    let mut smallest = vec![0i16; rows];
    let mut largest = vec![0u8; rows];
    let mut prefix = vec![0u16; rows * cols];
    let (eb, ec) = (b.clone(), c.clone());
    launch(
        p,
        "smallReductions",
        rows as u32,
        &mut [
            HostArg::I32(rows as i32),
            HostArg::I32(cols as i32),
            array("b", &mut b),
            array("c", &mut c),
            array("wrappedSum", &mut wrapped_sum),
            array("wideSum", &mut wide_sum),
            array("smallest", &mut smallest),
            array("largest", &mut largest),
            array("prefix", &mut prefix),
        ],
    )
    .map_err(|e| e.to_string())?;
    let rows_of = |v: &[u8]| v.chunks(cols).map(<[u8]>::to_vec).collect::<Vec<_>>();
    let expect_wrapped: Vec<u8> = rows_of(&eb)
        .iter()
        .map(|r| r.iter().fold(0u8, |s, &x| s.wrapping_add(x)))
        .collect();
    let expect_wide: Vec<i32> = rows_of(&eb)
        .iter()
        .map(|r| r.iter().map(|&x| i32::from(x)).sum())
        .collect();
    let expect_smallest: Vec<i16> = ec
        .chunks(cols)
        .map(|r| r.iter().copied().min().unwrap_or(i16::MAX))
        .collect();
    let expect_largest: Vec<u8> = rows_of(&eb)
        .iter()
        .map(|r| r.iter().copied().max().unwrap_or(0))
        .collect();
    let expect_prefix: Vec<u16> = rows_of(&eb)
        .iter()
        .flat_map(|r| {
            r.iter()
                .scan(0u16, |s, &x| {
                    *s = s.wrapping_add(u16::from(x));
                    Some(*s)
                })
                .collect::<Vec<_>>()
        })
        .collect();
    exact("wrappedSum", &wrapped_sum, &expect_wrapped)?;
    exact("wideSum", &wide_sum, &expect_wide)?;
    exact("smallest", &smallest, &expect_smallest)?;
    exact("largest", &largest, &expect_largest)?;
    exact("prefix", &prefix, &expect_prefix)?;
    Ok([
        wrapped_sum,
        bytes(&wide_sum),
        bytes(&smallest),
        largest,
        bytes(&prefix),
    ]
    .concat())
}

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
