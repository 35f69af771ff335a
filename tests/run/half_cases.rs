//! Execution cases for `Float16` and `BFloat16` (`tests/run/programs/half_floats.loom`): the
//! reference rounds with a search over every encoding of the type (nearest value, ties to the
//! even encoding, infinity from the largest finite value plus half an ulp on), decoding each with
//! its textbook formula: nothing here shares code with loomc's or the CPU backend's conversions.

use super::support::{array, bytes, close, launch, nvptx_ir_for, Rng};
use loomc::target::host::{HostArg, HostOptions, HostProgram};
use loomc::target::OptLevel;

/// A run case written in Rust (the only ones left: docs/testing.md, "What stays in Rust, and
/// why"): its program, and how to launch it on random inputs of a given size and check it
/// against a reference computed here; it returns the bytes of its outputs, which must be the
/// same in every build.
pub struct Case {
    pub name: &'static str,
    pub file: &'static str,
    /// `Some` when the program fixes `@blocksize`.
    pub block_size: Option<u32>,
    /// Problem sizes.
    pub sizes: &'static [usize],
    pub run: Run,
}

pub type Run = fn(&HostProgram, u32, usize, &mut Rng) -> Result<Vec<u8>, String>;

pub const CASES: &[Case] = &[
    Case {
        name: "half_floats",
        file: "tests/run/programs/half_floats.loom",
        block_size: None,
        sizes: &[1, 31, 1000, 4097],
        run: half_floats,
    },
    Case {
        name: "half_fma",
        file: "tests/run/programs/half_fma.loom",
        block_size: None,
        sizes: &[1, 31, 1000, 4097],
        run: half_fma,
    },
    Case {
        name: "half_atomics",
        file: "tests/run/programs/half_atomics.loom",
        block_size: None,
        sizes: &[1, 31, 1000, 4097],
        run: half_atomics,
    },
];

/// One 16-bit float format, as a table of its finite non-negative values in encoding order.
struct Format {
    name: &'static str,
    values: Vec<f64>,
    infinity: u16,
}

impl Format {
    fn f16() -> Format {
        let decode = |h: u16| {
            let (e, m) = (i32::from(h >> 10), f64::from(h & 0x3ff));
            if e == 0 {
                m * 2f64.powi(-24)
            } else {
                (1.0 + m / 1024.0) * 2f64.powi(e - 15)
            }
        };
        Format {
            name: "Float16",
            values: (0..0x7c00).map(decode).collect(),
            infinity: 0x7c00,
        }
    }

    fn bf16() -> Format {
        Format {
            name: "BFloat16",
            values: (0..0x7f80u32)
                .map(|h| f64::from(f32::from_bits(h << 16)))
                .collect(),
            infinity: 0x7f80,
        }
    }

    fn decode(&self, h: u16) -> f64 {
        let magnitude = match (h & 0x7fff) as usize {
            i if i < self.values.len() => self.values[i],
            i if i == self.infinity as usize => f64::INFINITY,
            _ => f64::NAN,
        };
        if h & 0x8000 != 0 {
            -magnitude
        } else {
            magnitude
        }
    }

    /// The encoding nearest to `x` (a NaN: any NaN).
    fn round(&self, x: f64) -> u16 {
        if x.is_nan() {
            return self.infinity | 0x40;
        }
        let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
        let a = x.abs();
        let last = self.values.len() - 1;
        let ulp = self.values[last] - self.values[last - 1];
        if a >= self.values[last] + ulp / 2.0 {
            return sign | self.infinity;
        }
        let above = self.values.partition_point(|v| *v < a).min(last);
        let below = if self.values[above] > a {
            above - 1
        } else {
            above
        };
        let (lo, hi) = (a - self.values[below], self.values[above] - a);
        let pick = if lo < hi || (lo == hi && below % 2 == 0) {
            below
        } else {
            above
        };
        sign | pick as u16
    }

    /// An integer's encoding, rounded once from its exact value (beyond 2^53 an `f64` cannot
    /// hold it: the neighbours, integers there, are compared as integers).
    fn round_integer(&self, v: i128) -> u16 {
        if v.unsigned_abs() < 1 << 53 {
            return self.round(v as f64);
        }
        let sign = if v < 0 { 0x8000 } else { 0 };
        let a = v.unsigned_abs() as i128;
        let last = self.values.len() - 1;
        // Float16's largest value is far below 2^53; BFloat16's far above 2^64.
        if self.values[last] < a as f64 {
            return sign | self.infinity;
        }
        let above = self.values.partition_point(|x| (*x as i128) < a).min(last);
        let below = if self.values[above] as i128 > a {
            above - 1
        } else {
            above
        };
        let (lo, hi) = (
            a - self.values[below] as i128,
            self.values[above] as i128 - a,
        );
        let pick = if lo < hi || (lo == hi && below % 2 == 0) {
            below
        } else {
            above
        };
        sign | pick as u16
    }

    /// A random encoding: mostly magnitudes between `lo` and `hi` (encodings), some anything.
    fn random(&self, rng: &mut Rng, lo: u16, hi: u16) -> u16 {
        let r = rng.next_u64();
        let sign = ((r >> 63) as u16) << 15;
        match r % 16 {
            0 => (r >> 16) as u16,
            1 => sign | [0, 1, self.infinity - 1, self.infinity][(r >> 8) as usize % 4],
            _ => sign | (lo + ((r >> 16) % u64::from(hi - lo)) as u16),
        }
    }
}

/// Equal values (`+0` and `-0` alike: min and max may return either), or both NaN.
fn same(f: &Format, what: &str, got: &[u16], expected: &[u16]) -> Result<(), String> {
    for (i, (g, e)) in got.iter().zip(expected).enumerate() {
        let (gv, ev) = (f.decode(*g), f.decode(*e));
        if !(gv == ev || (gv.is_nan() && ev.is_nan())) {
            return Err(format!(
                "{what}[{i}] = {gv} ({g:#06x}), expected {ev} ({e:#06x}) in {}",
                f.name
            ));
        }
    }
    Ok(())
}

fn half_floats(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let (f16, bf16) = (Format::f16(), Format::bf16());
    let blocks = n.div_ceil(bs as usize).max(1) as u32;
    let mut out = arithmetic(p, blocks, n, rng, &f16, &bf16)?;
    out.extend(casts(p, blocks, n, rng, &f16, &bf16)?);
    out.extend(reductions(p, n, rng, &f16, &bf16)?);
    out.extend(shared(p, blocks, bs as usize, n, rng, &bf16)?);
    out.extend(grid(p, blocks, n, rng, &f16)?);
    Ok(out)
}

/// Grid-wide reductions of a `Float16` array: a `Float32` sum of a cast (exact here: quarters
/// below 64) and a maximum in the type.
fn grid(
    p: &HostProgram,
    blocks: u32,
    n: usize,
    rng: &mut Rng,
    f16: &Format,
) -> Result<Vec<u8>, String> {
    let mut x: Vec<u16> = (0..n)
        .map(|_| f16.round((rng.next_u64() % 256) as f64 / 4.0 - 32.0))
        .collect();
    let ex = x.clone();
    let mut total = vec![0f32; 1];
    let mut top = vec![0u16; 1];
    let mut scratch = vec![0u64; blocks as usize + 2];
    let mut scratch2 = vec![0u64; blocks as usize + 2];
    launch(
        p,
        "halfGrid",
        blocks,
        &mut [
            HostArg::I32(n as i32),
            array("x", &mut x),
            array("total", &mut total),
            array("top", &mut top),
            array("scratch", &mut scratch),
            array("scratch2", &mut scratch2),
        ],
    )
    .map_err(|e| e.to_string())?;
    let sum: f64 = ex.iter().map(|h| f16.decode(*h)).sum();
    if f64::from(total[0]) != sum {
        return Err(format!("grid total = {}, expected {sum}", total[0]));
    }
    let largest = ex
        .iter()
        .map(|h| f16.decode(*h))
        .fold(f64::NEG_INFINITY, f64::max);
    same(f16, "grid top", &top, &[f16.round(largest)])?;
    Ok([bytes(&total), bytes(&top)].concat())
}

fn arithmetic(
    p: &HostProgram,
    blocks: u32,
    n: usize,
    rng: &mut Rng,
    f16: &Format,
    bf16: &Format,
) -> Result<Vec<u8>, String> {
    // About 2^-8 to 2^8: products and sums stay finite, with some specials among them.
    let mut h: Vec<u16> = (0..n).map(|_| f16.random(rng, 0x1c00, 0x5c00)).collect();
    let mut b: Vec<u16> = (0..n).map(|_| bf16.random(rng, 0x3b80, 0x4380)).collect();
    let k = f16.random(rng, 0x3000, 0x4800);
    let g = bf16.random(rng, 0x3e00, 0x4100);
    let [mut hs, mut bs, mut mins, mut maxs, mut roots] = [(); 5].map(|_| vec![0u16; n]);
    let mut less = vec![0u8; n];
    let (eh, eb) = (h.clone(), b.clone());
    launch(
        p,
        "halfArithmetic",
        blocks,
        &mut [
            HostArg::I32(n as i32),
            HostArg::F16(k),
            HostArg::F16(g),
            array("h", &mut h),
            array("b", &mut b),
            array("hs", &mut hs),
            array("bs", &mut bs),
            array("mins", &mut mins),
            array("maxs", &mut maxs),
            array("roots", &mut roots),
            array("less", &mut less),
        ],
    )
    .map_err(|e| e.to_string())?;
    // Each operation rounded to the type: an f64 result of two 16-bit values is exact or
    // rounded far enough below the type's precision (53 >= 2 * 11 + 2) to round once.
    let r16 = |x: f64| f16.decode(f16.round(x));
    let rb = |x: f64| bf16.decode(bf16.round(x));
    let (kv, gv) = (f16.decode(k), bf16.decode(g));
    let min_num = |a: f64, b: f64| {
        if a.is_nan() {
            b
        } else if b.is_nan() || a <= b {
            a
        } else {
            b
        }
    };
    let max_num = |a: f64, b: f64| {
        if a.is_nan() {
            b
        } else if b.is_nan() || a >= b {
            a
        } else {
            b
        }
    };
    let mut expect: [Vec<u16>; 5] = Default::default();
    let mut expect_less = Vec::new();
    for (&x, &y) in eh.iter().zip(&eb) {
        let (x, y) = (f16.decode(x), bf16.decode(y));
        let left = r16(r16(x * kv) + 1.5);
        let right = r16(x / r16(x + 2.0));
        expect[0].push(f16.round(left - right));
        expect[1].push(bf16.round(rb(y * gv) - rb(y / rb(gv + 1.0))));
        expect[2].push(f16.round(min_num(x, r16(y))));
        expect[3].push(bf16.round(max_num(y, rb(-y * 0.5))));
        expect[4].push(f16.round(x.abs().sqrt()));
        expect_less.push(u8::from(x < r16(y) || y >= 1.0));
    }
    same(f16, "hs", &hs, &expect[0])?;
    same(bf16, "bs", &bs, &expect[1])?;
    same(f16, "mins", &mins, &expect[2])?;
    same(bf16, "maxs", &maxs, &expect[3])?;
    same(f16, "roots", &roots, &expect[4])?;
    if less != expect_less {
        return Err("less: a comparison differs".to_string());
    }
    Ok([bytes(&hs), bytes(&bs), bytes(&roots), bytes(&less)].concat())
}

fn casts(
    p: &HostProgram,
    blocks: u32,
    n: usize,
    rng: &mut Rng,
    f16: &Format,
    bf16: &Format,
) -> Result<Vec<u8>, String> {
    let mut f: Vec<f32> = Vec::with_capacity(n);
    let mut d: Vec<f64> = Vec::with_capacity(n);
    let mut w: Vec<i64> = Vec::with_capacity(n);
    let mut u: Vec<u32> = Vec::with_capacity(n);
    for i in 0..n {
        let r = rng.next_u64();
        let sign = if r & 1 == 1 { -1.0 } else { 1.0 };
        // At, just beside and between the midpoints of Float16 (for `d`) and of BFloat16 (for
        // `f`), where rounding twice would fail.
        let (lo, hi) = {
            let e = (r >> 8) as u16 % 0x7bff;
            (f16.decode(e), f16.decode(e + 1))
        };
        let mid = (lo + hi) / 2.0;
        let step = (hi - lo) * 2f64.powi(-30);
        d.push(sign * [mid, mid + step, mid - step, lo + (hi - lo) * 0.3][i % 4]);
        let (blo, bhi) = {
            let e = (r >> 24) as u16 % 0x7f7f;
            (bf16.decode(e) as f32, bf16.decode(e + 1) as f32)
        };
        let bmid = (blo + bhi) / 2.0;
        let nudged = [
            bmid,
            f32::from_bits(bmid.to_bits() + 1),
            f32::from_bits(bmid.to_bits().saturating_sub(1)),
            blo,
        ][i % 4];
        f.push(if r & 2 == 0 { -nudged } else { nudged });
        let magnitude = (r >> (r % 64)) as i64;
        w.push(match i % 3 {
            0 => magnitude,
            1 => -magnitude,
            // 2^k + 2^(k - 8) + 1: just above a BFloat16 midpoint.
            _ => (1i64 << (24 + i % 38)) + (1i64 << (16 + i % 38)) + 1,
        });
        u.push(r as u32);
    }
    let mut h: Vec<u16> = (0..n).map(|_| f16.random(rng, 0x0000, 0x7bff)).collect();
    let mut b: Vec<u16> = (0..n).map(|_| bf16.random(rng, 0x0000, 0x7f7f)).collect();
    let (ef, ed, ew, eu, eh, eb) = (
        f.clone(),
        d.clone(),
        w.clone(),
        u.clone(),
        h.clone(),
        b.clone(),
    );
    let [mut hf, mut hd, mut hw, mut bf, mut bd, mut bw, mut bu, mut crossed, mut back] =
        [(); 9].map(|_| vec![0u16; n]);
    let mut ints = vec![0i32; n];
    let mut wide = vec![0f64; n];
    launch(
        p,
        "halfCasts",
        blocks,
        &mut [
            HostArg::I32(n as i32),
            array("f", &mut f),
            array("d", &mut d),
            array("w", &mut w),
            array("u", &mut u),
            array("h", &mut h),
            array("b", &mut b),
            array("hf", &mut hf),
            array("hd", &mut hd),
            array("hw", &mut hw),
            array("bf", &mut bf),
            array("bd", &mut bd),
            array("bw", &mut bw),
            array("bu", &mut bu),
            array("crossed", &mut crossed),
            array("back", &mut back),
            array("ints", &mut ints),
            array("wide", &mut wide),
        ],
    )
    .map_err(|e| e.to_string())?;
    let map =
        |format: &Format, v: Vec<f64>| v.into_iter().map(|x| format.round(x)).collect::<Vec<_>>();
    let as_f64 = |v: &[f32]| v.iter().map(|x| f64::from(*x)).collect::<Vec<_>>();
    same(f16, "hf", &hf, &map(f16, as_f64(&ef)))?;
    same(f16, "hd", &hd, &map(f16, ed.clone()))?;
    let ints_f16: Vec<u16> = ew
        .iter()
        .map(|v| f16.round_integer(i128::from(*v)))
        .collect();
    same(f16, "hw", &hw, &ints_f16)?;
    same(bf16, "bf", &bf, &map(bf16, as_f64(&ef)))?;
    same(bf16, "bd", &bd, &map(bf16, ed))?;
    let ints_bf16: Vec<u16> = ew
        .iter()
        .map(|v| bf16.round_integer(i128::from(*v)))
        .collect();
    same(bf16, "bw", &bw, &ints_bf16)?;
    let uints_bf16: Vec<u16> = eu
        .iter()
        .map(|v| bf16.round_integer(i128::from(*v)))
        .collect();
    same(bf16, "bu", &bu, &uints_bf16)?;
    same(
        f16,
        "crossed",
        &crossed,
        &map(f16, eb.iter().map(|x| bf16.decode(*x)).collect()),
    )?;
    same(
        bf16,
        "back",
        &back,
        &map(bf16, eh.iter().map(|x| f16.decode(*x)).collect()),
    )?;
    // Saturating and truncating toward zero, NaN to 0 (Int32 holds every finite Float16 and the
    // BFloat16s of this range saturate).
    let to_i32 = |x: f64| {
        if x.is_nan() {
            0
        } else {
            x.trunc().clamp(i32::MIN as f64, i32::MAX as f64) as i32
        }
    };
    let expect_ints: Vec<i32> = eh
        .iter()
        .zip(&eb)
        .map(|(x, y)| to_i32(f16.decode(*x)) / 2 + to_i32(bf16.decode(*y)) / 2)
        .collect();
    if ints != expect_ints {
        let i = ints
            .iter()
            .zip(&expect_ints)
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        return Err(format!(
            "ints[{i}] = {}, expected {}",
            ints[i], expect_ints[i]
        ));
    }
    let expect_wide: Vec<f64> = eh
        .iter()
        .zip(&eb)
        .map(|(x, y)| f16.decode(*x) + bf16.decode(*y))
        .collect();
    for (i, (g, e)) in wide.iter().zip(&expect_wide).enumerate() {
        if !(g == e || (g.is_nan() && e.is_nan())) {
            return Err(format!("wide[{i}] = {g}, expected {e}"));
        }
    }
    Ok([
        bytes(&hd),
        bytes(&bw),
        bytes(&bu),
        bytes(&ints),
        bytes(&wide),
    ]
    .concat())
}

fn reductions(
    p: &HostProgram,
    cols: usize,
    rng: &mut Rng,
    f16: &Format,
    bf16: &Format,
) -> Result<Vec<u8>, String> {
    let rows = 3usize;
    // Positive, 2^-7 to 1: a row's sum stays far below Float16's largest value.
    let mut h: Vec<u16> = (0..rows * cols)
        .map(|_| 0x2000 + (rng.next_u64() % 0x1c00) as u16)
        .collect();
    let mut b: Vec<u16> = (0..rows * cols)
        .map(|_| bf16.random(rng, 0x0080, 0x7f00))
        .collect();
    let (eh, eb) = (h.clone(), b.clone());
    let mut wide = vec![0f32; rows];
    let [mut narrow, mut low, mut top] = [(); 3].map(|_| vec![0u16; rows]);
    launch(
        p,
        "halfReductions",
        rows as u32,
        &mut [
            HostArg::I32(rows as i32),
            HostArg::I32(cols as i32),
            array("h", &mut h),
            array("b", &mut b),
            array("wide", &mut wide),
            array("narrow", &mut narrow),
            array("low", &mut low),
            array("top", &mut top),
        ],
    )
    .map_err(|e| e.to_string())?;
    let exact_sums: Vec<f64> = eh
        .chunks(cols)
        .map(|r| r.iter().map(|x| f16.decode(*x)).sum())
        .collect();
    let wide64: Vec<f64> = wide.iter().map(|x| f64::from(*x)).collect();
    // Float32 partial sums, in an unspecified order: within one Float32 rounding per element.
    close(
        "wide",
        &wide64,
        &exact_sums,
        cols as f64 * 2f64.powi(-24),
        0.0,
    )?;
    // In Float16 each partial sum is rounded, in an unspecified order: within the rounding of
    // one addition per element (2^-11 relative each).
    let narrow64: Vec<f64> = narrow.iter().map(|x| f16.decode(*x)).collect();
    close(
        "narrow",
        &narrow64,
        &exact_sums,
        cols as f64 * 2f64.powi(-11),
        0.0,
    )?;
    let min_num = |a: f64, b: f64| {
        if a.is_nan() {
            b
        } else if b.is_nan() || a <= b {
            a
        } else {
            b
        }
    };
    let max_num = |a: f64, b: f64| {
        if a.is_nan() {
            b
        } else if b.is_nan() || a >= b {
            a
        } else {
            b
        }
    };
    let expect_low: Vec<u16> = eh
        .chunks(cols)
        .map(|r| f16.round(r.iter().map(|x| f16.decode(*x)).fold(f64::NAN, min_num)))
        .collect();
    let expect_top: Vec<u16> = eb
        .chunks(cols)
        .map(|r| bf16.round(r.iter().map(|x| bf16.decode(*x)).fold(f64::NAN, max_num)))
        .collect();
    same(f16, "low", &low, &expect_low)?;
    same(bf16, "top", &top, &expect_top)?;
    Ok([bytes(&wide), bytes(&narrow), bytes(&low), bytes(&top)].concat())
}

fn shared(
    p: &HostProgram,
    blocks: u32,
    bs: usize,
    n: usize,
    rng: &mut Rng,
    bf16: &Format,
) -> Result<Vec<u8>, String> {
    let _ = bs;
    let mut b: Vec<u16> = (0..n).map(|_| bf16.random(rng, 0x0000, 0x7f7f)).collect();
    let eb = b.clone();
    let mut doubled = vec![0u16; n];
    launch(
        p,
        "halfShared",
        blocks,
        &mut [
            HostArg::I32(n as i32),
            array("b", &mut b),
            array("doubled", &mut doubled),
        ],
    )
    .map_err(|e| e.to_string())?;
    let expect: Vec<u16> = eb
        .iter()
        .map(|x| bf16.round(bf16.decode(*x) * 2.0))
        .collect();
    same(bf16, "doubled", &doubled, &expect)?;
    Ok(bytes(&doubled))
}

pub fn trials() -> Vec<libtest_mimic::Trial> {
    let mut trials = vec![libtest_mimic::Trial::test(
        "cli/run_reads_and_writes_half_float_npy",
        half_float_npy,
    )];
    trials.extend(fma_trials());
    trials
}

/// A version 1.0 `.npy` file of one dimension, written by hand (npyz has no `float16` without
/// its `half` feature).
fn write_raw_npy(path: &std::path::Path, descr: &str, elem: &[u16]) -> Result<(), String> {
    let mut dict = format!(
        "{{'descr': '{descr}', 'fortran_order': False, 'shape': ({},), }}",
        elem.len()
    );
    while (10 + dict.len() + 1) % 64 != 0 {
        dict.push(' ');
    }
    dict.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((dict.len() as u16).to_le_bytes());
    out.extend(dict.as_bytes());
    out.extend(bytes(elem));
    std::fs::write(path, out).map_err(|e| e.to_string())
}

/// The header's dictionary and the 16-bit elements of a `.npy` file.
fn read_raw_npy(path: &std::path::Path) -> Result<(String, Vec<u16>), String> {
    let data = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let len = u16::from_le_bytes([data[8], data[9]]) as usize;
    let header = String::from_utf8_lossy(&data[10..10 + len]).to_string();
    let values = data[10 + len..]
        .chunks(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    Ok((header, values))
}

/// `loomc run` takes `Float16` arrays as NumPy's `<f2` and `BFloat16` arrays as their encodings
/// (`<u2`), decimal scalar arguments of both types rounded once, and writes arrays back in the
/// same dtypes; a file of another dtype is refused with a message that names both.
fn half_float_npy() -> Result<(), libtest_mimic::Failed> {
    let (f16, bf16) = (Format::f16(), Format::bf16());
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let path = |name: &str| dir.path().join(format!("{name}.npy"));
    let h: Vec<u16> = [0.5, -3.25, 1000.0, 0.0]
        .iter()
        .map(|x| f16.round(*x))
        .collect();
    let b: Vec<u16> = [0.75, 1e30, -2.5, 1.0]
        .iter()
        .map(|x| bf16.round(*x))
        .collect();
    write_raw_npy(&path("h"), "<f2", &h)?;
    write_raw_npy(&path("b"), "<u2", &b)?;
    let file = super::support::repo_root().join("tests/run/programs/half_floats.loom");
    let run = |inputs: &[(&str, &str)]| {
        let mut args: Vec<String> = [
            "run",
            &file.display().to_string(),
            "--kernel",
            "halfArithmetic",
            "--blocks",
            "1",
            "--block-size",
            "32",
            "--arg",
            "n=4",
            // Just above the Float16 midpoint 1 + 2^-11: rounds up, once, to 1 + 2^-10.
            "--arg",
            "k=1.00048828125000001",
            "--arg",
            "g=-1.5",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for (name, p) in inputs {
            args.extend(["--in".to_string(), format!("{name}={p}")]);
        }
        for name in ["hs", "bs", "mins", "maxs", "roots", "less"] {
            args.extend([
                "--out".to_string(),
                format!("{name}={}", path(name).display()),
            ]);
        }
        std::process::Command::new(env!("CARGO_BIN_EXE_loomc"))
            .args(&args)
            .output()
            .map_err(|e| e.to_string())
    };
    let (hp, bp) = (
        path("h").display().to_string(),
        path("b").display().to_string(),
    );
    let out = run(&[("h", &hp), ("b", &bp)])?;
    if !out.status.success() {
        return Err(format!("loomc run failed: {}", String::from_utf8_lossy(&out.stderr)).into());
    }
    let r16 = |x: f64| f16.decode(f16.round(x));
    let rb = |x: f64| bf16.decode(bf16.round(x));
    let k = 1.0 + 2f64.powi(-10);
    let g = -1.5;
    let hs: Vec<u16> = h
        .iter()
        .map(|x| {
            let x = f16.decode(*x);
            f16.round(r16(r16(x * k) + 1.5) - r16(x / r16(x + 2.0)))
        })
        .collect();
    let bs: Vec<u16> = b
        .iter()
        .map(|y| {
            let y = bf16.decode(*y);
            bf16.round(rb(y * g) - rb(y / rb(g + 1.0)))
        })
        .collect();
    let (hs_header, hs_got) = read_raw_npy(&path("hs"))?;
    let (bs_header, bs_got) = read_raw_npy(&path("bs"))?;
    if !hs_header.contains("'descr': '<f2'") || !bs_header.contains("'descr': '<u2'") {
        return Err(format!("dtypes: {hs_header} / {bs_header}").into());
    }
    same(&f16, "hs.npy", &hs_got, &hs)?;
    same(&bf16, "bs.npy", &bs_got, &bs)?;
    // A BFloat16 parameter does not take float16 data, nor a Float16 one uint16.
    let refused = run(&[("h", &bp), ("b", &hp)])?;
    let stderr = String::from_utf8_lossy(&refused.stderr);
    if refused.status.code() != Some(2)
        || !stderr.contains("parameter `h` holds Float16 (dtype <f2)")
        || !stderr.contains("has dtype <u2")
    {
        return Err(format!("a wrong dtype: status {:?}, {stderr}", refused.status).into());
    }
    Ok(())
}

/// `fma` of both 16-bit types against the exact `a * b + c`, rounded by comparing it exactly
/// with the neighbours of an approximation (scaled to integers: every finite `Float16` is a
/// multiple of 2^-24; the `BFloat16` inputs are drawn with exponents -20 to 20, multiples of
/// 2^-27, plus values that need the single rounding: just below a midpoint after a product
/// that is a midpoint, where rounding through `float` would round up).
pub fn half_fma(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    half_fma_on(p, "halfFma", n.div_ceil(bs as usize).max(1) as u32, n, rng)
}

fn half_fma_on(
    p: &HostProgram,
    kernel: &str,
    blocks: u32,
    n: usize,
    rng: &mut Rng,
) -> Result<Vec<u8>, String> {
    let (f16, bf16) = (Format::f16(), Format::bf16());
    let draw_h = |rng: &mut Rng| {
        let r = rng.next_u64();
        let sign = ((r >> 40) as u16 & 1) << 15;
        match r % 32 {
            0 => sign | [0, 0x7c00, 0x7e00, 0x7bff][(r >> 8) as usize % 4],
            _ => sign | ((r >> 16) as u16 % 0x7c00),
        }
    };
    let draw_b = |rng: &mut Rng| {
        let r = rng.next_u64();
        let sign = ((r >> 40) as u16 & 1) << 15;
        match r % 32 {
            0 => sign | [0, 0x7f80, 0x7fc0, 0x4a7f][(r >> 8) as usize % 4],
            _ => sign | ((107 + ((r >> 16) as u16 % 41)) << 7) | ((r >> 32) as u16 & 0x7f),
        }
    };
    let mut inputs: [Vec<u16>; 6] = Default::default();
    for i in 0..n {
        for (k, v) in inputs.iter_mut().enumerate() {
            v.push(if k < 3 { draw_h(rng) } else { draw_b(rng) });
        }
        if i % 7 == 3 {
            // 1.75 2^10 * 37/64 2^10 = (1 + 3 * 2^-8) 2^20, a BFloat16 midpoint between an odd
            // and an even encoding; c = -2^-6 puts the sum just below it, too little for a
            // `float` (whose ulp there is 2^-3): rounded through one, it would round up.
            let [a, b, c] = [0x44e0, 0x4414, 0xbc80];
            inputs[3][i] = a;
            inputs[4][i] = b;
            inputs[5][i] = c;
        }
    }
    let k = draw_h(rng) & 0x3fff;
    let g = draw_b(rng) & 0x3fff;
    let expected_inputs = inputs.clone();
    let [mut ha, mut hb, mut hc, mut ba, mut bb, mut bc] = inputs;
    let (mut hr, mut br) = (vec![0u16; n], vec![0u16; n]);
    let (mut hu, mut bu) = (vec![0u16; 1], vec![0u16; 1]);
    launch(
        p,
        kernel,
        blocks,
        &mut [
            HostArg::I32(n as i32),
            HostArg::F16(k),
            HostArg::F16(g),
            array("ha", &mut ha),
            array("hb", &mut hb),
            array("hc", &mut hc),
            array("ba", &mut ba),
            array("bb", &mut bb),
            array("bc", &mut bc),
            array("hr", &mut hr),
            array("br", &mut br),
            array("hu", &mut hu),
            array("bu", &mut bu),
        ],
    )
    .map_err(|e| e.to_string())?;
    if exact_fma(&bf16, 0x44e0, 0x4414, 0xbc80, 27) != 0x4981 {
        return Err("the reference rounds the crafted BFloat16 case wrongly".to_string());
    }
    let [ea, eb, ec, fa, fb, fc] = &expected_inputs;
    let eh: Vec<u16> = (0..n)
        .map(|i| exact_fma(&f16, ea[i], eb[i], ec[i], 24))
        .collect();
    let ebr: Vec<u16> = (0..n)
        .map(|i| exact_fma(&bf16, fa[i], fb[i], fc[i], 27))
        .collect();
    same(&f16, "hr", &hr, &eh)?;
    same(&bf16, "br", &br, &ebr)?;
    let minus_one = [0xbc00, 0xbf80];
    same(&f16, "hu", &hu, &[exact_fma(&f16, k, k, minus_one[0], 24)])?;
    same(
        &bf16,
        "bu",
        &bu,
        &[exact_fma(&bf16, g, g, minus_one[1], 27)],
    )?;
    Ok([bytes(&hr), bytes(&br), bytes(&hu), bytes(&bu)].concat())
}

/// `a * b + c` rounded once to `f`, where every finite input is a multiple of 2^-`unit`:
/// `a * b + c` times 2^(2 unit) is then an exact integer, compared exactly with the encodings
/// around an approximation (ties to the even encoding; beyond the largest value plus half an
/// ulp, infinity). Infinities and NaNs follow IEEE through `f64`.
fn exact_fma(f: &Format, a: u16, b: u16, c: u16, unit: i32) -> u16 {
    let (x, y, z) = (f.decode(a), f.decode(b), f.decode(c));
    if !(x.is_finite() && y.is_finite() && z.is_finite()) {
        return f.round(x * y + z);
    }
    let int = |v: f64| (v * 2f64.powi(unit)) as i128;
    let exact = int(x) * int(y) + (int(z) << unit);
    if exact == 0 {
        // IEEE: +0 unless both the product and c are -0 (or round to it).
        return f.round(x * y + z);
    }
    let scaled = |m: usize| (f.values[m] * 2f64.powi(2 * unit)) as i128;
    let sign = if exact < 0 { 0x8000 } else { 0 };
    let target = exact.abs();
    let last = f.values.len() - 1;
    let approx = (f.round(target as f64 * 2f64.powi(-2 * unit)) & 0x7fff) as usize;
    if approx >= last {
        // Near the largest value (Float16's only: the BFloat16 inputs stay far below it).
        if target * 2 >= scaled(last) * 2 + (scaled(last) - scaled(last - 1)) {
            return sign | f.infinity;
        }
    }
    let approx = approx.min(last);
    let mut best = None::<(i128, usize)>;
    for m in approx.saturating_sub(1)..=(approx + 1).min(last) {
        let d = (scaled(m) - target).abs();
        best = match best {
            Some((bd, bm)) if bd < d || (bd == d && bm % 2 == 0) => Some((bd, bm)),
            _ => Some((d, m)),
        };
    }
    sign | best.map_or(0, |(_, m)| m) as u16
}

/// The same kernel compiled for architectures without the 16-bit `fma` instructions: sm_75
/// (`BFloat16` through the sequence that rounds once) and sm_52 (`Float16` too).
fn fma_trials() -> Vec<libtest_mimic::Trial> {
    ["sm_75", "sm_52"]
        .into_iter()
        .map(|arch| {
            libtest_mimic::Trial::test(format!("half_fma/{arch}"), move || {
                let file = "tests/run/programs/half_fma.loom";
                for opt in [OptLevel::O0, OptLevel::O3] {
                    let ir = nvptx_ir_for(file, 64, opt, arch)?;
                    if !ir.contains("fma.odd") {
                        return Err(format!("{arch}: no sequence for the 16-bit fma").into());
                    }
                    let p = HostProgram::compile(&ir, &HostOptions::default())
                        .map_err(|e| e.to_string())?;
                    for (i, n) in [1usize, 1000, 4097].into_iter().enumerate() {
                        let mut rng = Rng::new(0x5eed ^ i as u64);
                        half_fma_on(&p, "halfFma", n.div_ceil(64).max(1) as u32, n, &mut rng)
                            .map_err(|e| format!("{arch} {opt:?} n={n}: {e}"))?;
                    }
                }
                Ok(())
            })
        })
        .collect()
}

/// `atomic_add` on 16-bit float places (`tests/run/programs/half_atomics.loom`): histograms
/// of neighbouring 16-bit bins, a count made once per block whose old values are tickets, and a
/// shared histogram per block. Sums of small integers stay exact (below 2048 in `Float16`, 256
/// in `BFloat16`), so the results do not depend on the order of the atomics; the tickets are
/// checked as a set and left out of the `-O0`/`-O3` comparison.
pub fn half_atomics(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let (f16, bf16) = (Format::f16(), Format::bf16());
    const BINS: usize = 37;
    let blocks = n.div_ceil(bs as usize).max(1);
    let mut x = rng.i32s(n, 0, BINS as i32);
    let mut w: Vec<u16> = (0..n)
        .map(|_| f16.round((1 + rng.next_u64() % 2) as f64))
        .collect();
    let (ex, ew) = (x.clone(), w.clone());
    let mut hh = vec![0u16; BINS];
    let mut hb = vec![0u16; BINS];
    let mut total = vec![0u16; 1];
    let mut tickets = vec![0u16; blocks];
    let mut local = vec![0u16; blocks * 16];
    launch(
        p,
        "halfAtomics",
        blocks as u32,
        &mut [
            HostArg::I32(n as i32),
            HostArg::I32(BINS as i32),
            array("x", &mut x),
            array("w", &mut w),
            array("hh", &mut hh),
            array("hb", &mut hb),
            array("total", &mut total),
            array("tickets", &mut tickets),
            array("local", &mut local),
        ],
    )
    .map_err(|e| e.to_string())?;
    let mut eh = vec![0f64; BINS];
    let mut eb = vec![0f64; BINS];
    let mut el = vec![0f64; blocks * 16];
    for (i, (&v, &wi)) in ex.iter().zip(&ew).enumerate() {
        let weight = f16.decode(wi);
        eh[v as usize] += weight;
        eb[v as usize] += 1.0;
        el[i / bs as usize * 16 + v as usize % 16] += weight;
    }
    let round_all = |f: &Format, v: &[f64]| v.iter().map(|x| f.round(*x)).collect::<Vec<u16>>();
    same(&f16, "hh", &hh, &round_all(&f16, &eh))?;
    same(&bf16, "hb", &hb, &round_all(&bf16, &eb))?;
    same(&bf16, "local", &local, &round_all(&bf16, &el))?;
    // One +1 per block: exact up to 2048, where 2048 + 1 rounds to 2048 (even) in any order.
    let counted = |k: usize| f16.round(k.min(2048) as f64);
    same(&f16, "total", &total, &[counted(blocks)])?;
    let mut got: Vec<f64> = tickets.iter().map(|t| f16.decode(*t)).collect();
    got.sort_by(f64::total_cmp);
    let expected: Vec<f64> = (0..blocks).map(|k| f16.decode(counted(k))).collect();
    if got != expected {
        return Err(format!(
            "tickets: {got:?}, expected {expected:?} in some order"
        ));
    }
    Ok([bytes(&hh), bytes(&hb), bytes(&total), bytes(&local)].concat())
}
