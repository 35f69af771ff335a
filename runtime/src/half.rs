//! `Float16` (IEEE 754 binary16) and `BFloat16` (the upper half of a binary32) as their 16-bit
//! encodings, and conversions between them and `f64`/`f32`, rounded once to nearest, ties to
//! even, as PTX's `cvt.rn` and LLVM's `fptrunc` round.
//!
//! Used wherever LOOM meets these types outside a kernel: the checker's literals, `loomc run`'s
//! scalar arguments, and the CPU backend's conversion helpers (`__truncsfhf2` and friends, which
//! LLVM's x86 backend calls for `half` and `bfloat`). No crate gives a conversion from decimal
//! text that rounds once (`half`'s `from_str` goes through `f32`), so this one does.

use std::cmp::Ordering;

/// A 16-bit float format: exponent and stored mantissa bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Format {
    exp_bits: u32,
    man_bits: u32,
}

/// IEEE binary16: 5 exponent bits, 10 mantissa bits; largest finite 65504.
pub const F16: Format = Format {
    exp_bits: 5,
    man_bits: 10,
};

/// bfloat16: 8 exponent bits (Float32's range), 7 mantissa bits.
pub const BF16: Format = Format {
    exp_bits: 8,
    man_bits: 7,
};

impl Format {
    fn bias(self) -> i32 {
        (1 << (self.exp_bits - 1)) - 1
    }

    fn exp_mask(self) -> u16 {
        ((1u16 << self.exp_bits) - 1) << self.man_bits
    }

    /// The encoding of positive infinity.
    pub fn infinity(self) -> u16 {
        self.exp_mask()
    }

    /// The encoding of the largest finite value.
    pub fn max_finite(self) -> u16 {
        self.exp_mask() - 1
    }

    /// `x` rounded to this format, to nearest, ties to even. A NaN stays a NaN (quiet, with the
    /// sign and the top bits of the payload); beyond the largest finite value plus half an ulp is
    /// an infinity.
    pub fn from_f64(self, x: f64) -> u16 {
        let bits = x.to_bits();
        let sign = ((bits >> 63) as u16) << 15;
        if x.is_nan() {
            let payload = ((bits >> (52 - self.man_bits)) as u16) & ((1 << self.man_bits) - 1);
            return sign | self.exp_mask() | (1 << (self.man_bits - 1)) | payload;
        }
        if x.is_infinite() {
            return sign | self.exp_mask();
        }
        if x == 0.0 {
            return sign;
        }
        // |x| = m * 2^e exactly, m an integer of at most 53 bits.
        let biased = ((bits >> 52) & 0x7ff) as i32;
        let fraction = bits & ((1u64 << 52) - 1);
        let (m, e) = if biased == 0 {
            (fraction, -1074)
        } else {
            (fraction | (1u64 << 52), biased - 1075)
        };
        let man = self.man_bits as i32;
        let emin = 1 - self.bias();
        let log2 = 63 - m.leading_zeros() as i32 + e;
        // The result is q * 2^qe with q an integer of at most man + 1 bits.
        let qe = log2.max(emin) - man;
        let shift = qe - e;
        let q: u64 = if shift <= 0 {
            m << -shift
        } else if shift >= 64 {
            0
        } else {
            let kept = m >> shift;
            let rest = m & ((1u64 << shift) - 1);
            let half = 1u64 << (shift - 1);
            if rest > half || (rest == half && kept & 1 == 1) {
                kept + 1
            } else {
                kept
            }
        };
        // (E - 1) << man plus q is the encoding for q in [2^man, 2^(man+1)] (a carry out of the
        // mantissa moves into the exponent) and, with E - 1 = 0, for a subnormal q < 2^man.
        let encoded = (((qe + man + self.bias() - 1) as u64) << man) + q;
        if encoded >= u64::from(self.exp_mask()) {
            return sign | self.exp_mask();
        }
        sign | encoded as u16
    }

    /// The exact value of an encoding.
    pub fn to_f64(self, h: u16) -> f64 {
        let negative = h & 0x8000 != 0;
        let exp = ((h & self.exp_mask()) >> self.man_bits) as i32;
        let fraction = h & ((1 << self.man_bits) - 1);
        let man = self.man_bits as i32;
        let magnitude = if h & self.exp_mask() == self.exp_mask() {
            if fraction == 0 {
                f64::INFINITY
            } else {
                // Quiet, with the payload's bits at the top of f64's.
                f64::from_bits(
                    0x7ff8_0000_0000_0000 | (u64::from(fraction) << (52 - self.man_bits)),
                )
            }
        } else if exp == 0 {
            f64::from(fraction) * pow2(1 - self.bias() - man)
        } else {
            f64::from(fraction | (1 << self.man_bits)) * pow2(exp - self.bias() - man)
        };
        if negative {
            -magnitude
        } else {
            magnitude
        }
    }

    /// The value `exact` rounded to this format, where `nearest` is `exact` rounded to `f64` and
    /// `order` says how `exact` compares to it. Rounding `nearest` again would round twice: a
    /// value just above a midpoint of this format can round to `f64` exactly onto the midpoint,
    /// and then to even, down. So `exact` is rounded to `f64` *to odd* instead (of the two
    /// `f64`s around an inexact `exact`, the one whose last bit is 1): that value is never a
    /// midpoint or a value of this format (they have at most 12 significant bits, so their last
    /// bit is 0) and lies on the same side of each as `exact`, so it rounds as `exact` does.
    /// (Always nudging `nearest` one ulp towards `exact` is not enough: from just below a
    /// midpoint the nudge can land on it.)
    pub fn from_exact(self, nearest: f64, order: Ordering) -> u16 {
        let odd = nearest.to_bits() & 1 == 1;
        let nudged = match order {
            Ordering::Equal => nearest,
            _ if odd || !nearest.is_finite() => nearest,
            Ordering::Greater => next_up(nearest),
            Ordering::Less => -next_up(-nearest),
        };
        self.from_f64(nudged)
    }

    /// `a * b + c` of three encodings, rounded once (a fused multiply-add, as PTX's
    /// `fma.rn.f16`/`fma.rn.bf16` computes it). The product of two 16-bit values is exact in
    /// `f64` (at most 22 significant bits, exponents far inside `f64`'s), so only the sum
    /// rounds there; its error is found exactly (Knuth's TwoSum) and the sum rounded once to
    /// this format with [`Format::from_exact`]. Infinities and NaNs follow IEEE 754 (a NaN
    /// result is a quiet NaN).
    pub fn fma(self, a: u16, b: u16, c: u16) -> u16 {
        let (a, b, c) = (self.to_f64(a), self.to_f64(b), self.to_f64(c));
        let p = a * b;
        let s = p + c;
        if !s.is_finite() {
            return self.from_f64(s);
        }
        let virtual_c = s - p;
        let error = (p - (s - virtual_c)) + (c - virtual_c);
        let order = error.partial_cmp(&0.0).unwrap_or(Ordering::Equal);
        self.from_exact(s, order)
    }

    /// A decimal literal's text (digits, an optional `.` and fraction, an optional exponent)
    /// rounded once to this format.
    pub fn from_decimal(self, text: &str) -> Option<u16> {
        let nearest: f64 = text.parse().ok()?;
        let order = compare_decimal(text, nearest)?;
        Some(self.from_exact(nearest, order))
    }

    /// An integer rounded once to this format.
    pub fn from_integer(self, v: i128) -> u16 {
        let nearest = v as f64;
        let order = if nearest.is_infinite() {
            Ordering::Less
        } else {
            // Every finite f64 of an i128's magnitude is an integer: compare exactly.
            v.cmp(&(nearest as i128))
        };
        self.from_exact(nearest, order)
    }
}

fn pow2(e: i32) -> f64 {
    // Exact for the exponents of both formats (-133 to 127).
    let mut v = 1.0f64;
    let step = if e < 0 { 0.5 } else { 2.0 };
    for _ in 0..e.unsigned_abs() {
        v *= step;
    }
    v
}

/// The next `f64` above `x` (`x` finite).
fn next_up(x: f64) -> f64 {
    if x == 0.0 {
        f64::from_bits(1)
    } else if x > 0.0 {
        f64::from_bits(x.to_bits() + 1)
    } else {
        f64::from_bits(x.to_bits() - 1)
    }
}

/// A non-negative decimal as its significant digits (no leading or trailing zeros) and the power
/// of ten before them: `0.DIGITS * 10^exp`. `None` for text that is not such a decimal.
fn decimal_digits(text: &str) -> Option<(String, i64)> {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], text[i + 1..].parse::<i64>().ok()?),
        None => (text, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if !(int.bytes().chain(frac.bytes())).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let all: String = format!("{int}{frac}");
    let leading = all.bytes().take_while(|b| *b == b'0').count();
    let digits = all[leading..].trim_end_matches('0').to_string();
    Some((digits, int.len() as i64 - leading as i64 + exponent))
}

/// How the decimal `text` compares to the non-negative `f64` `x` (compared exactly: `x` printed
/// with all of its digits).
fn compare_decimal(text: &str, x: f64) -> Option<Ordering> {
    let (a, ae) = decimal_digits(text)?;
    if x.is_infinite() {
        return Some(Ordering::Less);
    }
    // 1100 digits hold every f64 exactly (at most 767 significant ones).
    let exact = format!("{:.1100e}", x.abs());
    let (m, e) = exact.split_once('e')?;
    let (b, be) = decimal_digits(m)?;
    let be = be + e.parse::<i64>().ok()?;
    Some(match (a.is_empty(), b.is_empty()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        // Same-length-prefix comparison of digit strings is numeric for equal exponents.
        (false, false) => ae.cmp(&be).then_with(|| a.cmp(&b)),
    })
}

/// `f32` to `Float16`, rounded once.
pub fn f16_from_f32(x: f32) -> u16 {
    F16.from_f64(f64::from(x))
}

/// `f32` to `BFloat16`, rounded once.
pub fn bf16_from_f32(x: f32) -> u16 {
    BF16.from_f64(f64::from(x))
}

/// `Float16` to `f32`, exactly.
pub fn f16_to_f32(h: u16) -> f32 {
    F16.to_f64(h) as f32
}

/// `BFloat16` to `f32`, exactly: its bits are the upper half of the `f32`'s.
pub fn bf16_to_f32(h: u16) -> f32 {
    f32::from_bits(u32::from(h) << 16)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The nearest value of `format` to `x`, found by a search over all finite encodings (ties
    /// to the even encoding; beyond the largest plus half an ulp, infinity): a reference that
    /// shares nothing with `from_f64`.
    fn nearest_by_search(format: Format, x: f64) -> u16 {
        let a = x.abs();
        let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
        let max = format.max_finite();
        let top = format.to_f64(max);
        let ulp = top - format.to_f64(max - 1);
        if a >= top + ulp / 2.0 {
            return sign | format.infinity();
        }
        let (mut lo, mut hi) = (0u16, max);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if format.to_f64(mid) <= a {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let (l, h) = (format.to_f64(lo), format.to_f64(hi));
        let pick = if a - l < h - a || (a - l == h - a && lo % 2 == 0) || a <= l {
            lo
        } else {
            hi
        };
        sign | pick
    }

    #[test]
    fn conversions_round_once_to_nearest_even() {
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut values: Vec<f64> = vec![
            0.0,
            -0.0,
            1.0,
            65504.0,
            65519.999,
            65520.0,
            65536.0,
            1e-8,
            5.960464477539063e-8,
            2.9802322387695312e-8,
            2f64.powi(-25),
            3.0e-8,
            1.0009765625,
            1.00048828125,
            1.000732421875,
            3.4e38,
            3.3961e38,
            3.3962e38,
            1e-40,
            9.2e-41,
        ];
        for _ in 0..200_000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            // Exponents that cover both formats' subnormals, normals and overflow.
            let e = (rng % 300) as i32 - 150;
            let m = f64::from_bits(0x3ff0_0000_0000_0000 | (rng >> 12));
            let sign = if rng & 1 == 1 { -1.0 } else { 1.0 };
            values.push(sign * m * 2f64.powi(e));
        }
        for x in values {
            for format in [F16, BF16] {
                assert_eq!(
                    format.from_f64(x),
                    nearest_by_search(format, x),
                    "{x:e} in {format:?}"
                );
            }
        }
    }

    #[test]
    fn every_encoding_survives_the_round_trip() {
        for format in [F16, BF16] {
            for h in 0..=u16::MAX {
                let v = format.to_f64(h);
                if v.is_nan() {
                    assert!(format.to_f64(format.from_f64(v)).is_nan());
                } else {
                    assert_eq!(format.from_f64(v), h, "{h:#x} in {format:?}");
                }
            }
        }
        for h in 0..=u16::MAX {
            let v = bf16_to_f32(h);
            assert!(v.is_nan() || f64::from(v) == BF16.to_f64(h));
        }
    }

    #[test]
    fn decimals_and_integers_round_once() {
        // 1 + 2^-11 is a Float16 midpoint; the decimal just above it rounds up, though as an
        // f64 it is the midpoint itself.
        let above = "1.00048828125000000000000001";
        assert_eq!(above.parse::<f64>().unwrap(), 1.00048828125);
        assert_eq!(F16.from_decimal(above), Some(0x3c01));
        assert_eq!(F16.from_decimal("1.00048828125"), Some(0x3c00));
        assert_eq!(
            F16.from_decimal("1.00048828124999999999999999"),
            Some(0x3c00)
        );
        assert_eq!(F16.from_decimal("65504"), Some(0x7bff));
        assert_eq!(F16.from_decimal("65519.99999"), Some(0x7bff));
        assert_eq!(F16.from_decimal("65520"), Some(0x7c00));
        assert_eq!(F16.from_decimal("6.0e-8"), Some(0x0001));
        assert_eq!(F16.from_decimal("1e-9"), Some(0x0000));
        assert_eq!(BF16.from_decimal("3.0e38"), Some(0x7f62));
        assert_eq!(BF16.from_decimal("1_0.5"), None);
        // 2^60 + 2^52 + 1 is above the BFloat16 midpoint 2^60 + 2^52, which is what it rounds
        // to as an f64; once from the integer it rounds up.
        let v = (1i128 << 60) + (1 << 52) + 1;
        assert_eq!((v as f64) as i128, (1 << 60) + (1 << 52));
        assert_eq!(
            BF16.from_integer(v),
            BF16.from_f64(2f64.powi(60) + 2f64.powi(53))
        );
        assert_eq!(F16.from_integer(70000), F16.infinity());
        assert_eq!(F16.from_integer(-2048), 0xe800);
    }

    #[test]
    fn a_value_one_f64_ulp_below_a_midpoint_rounds_down() {
        // 2^60 + 3 * 2^52 is the BFloat16 midpoint between 2^60 (1 + 2^-7) (odd) and
        // 2^60 (1 + 2^-6) (even). 256 below it, plus 1, rounds to the f64 just below the
        // midpoint (f64's ulp there is 256); nudged up by one ulp it would land on the midpoint
        // and round to even, up: the exact value is below the midpoint and rounds down.
        let midpoint = (1i128 << 60) + (3 << 52);
        let v = midpoint - 256 + 1;
        assert_eq!((v as f64) as i128, midpoint - 256);
        assert_eq!(BF16.from_integer(v), 0x5d81);
        assert_eq!(BF16.from_integer(midpoint + 256 - 1), 0x5d82);
        assert_eq!(BF16.from_integer(-v), 0xdd81);
    }

    /// `a * b + c` exactly, times 2^`scale`, for finite encodings whose values are multiples of
    /// 2^(-scale / 2) and small enough for an `i128`.
    fn scaled_fma(format: Format, a: u16, b: u16, c: u16, scale: i32) -> i128 {
        let int = |h: u16| {
            let v = format.to_f64(h) * 2f64.powi(scale / 2);
            assert_eq!(
                v.fract(),
                0.0,
                "{h:#06x} is not a multiple of 2^-{}",
                scale / 2
            );
            v as i128
        };
        int(a) * int(b) + int(c) * (1i128 << (scale / 2))
    }

    /// The encoding nearest to an exact value (times 2^`scale`), by comparing it exactly with
    /// the neighbours of an approximation: independent of `from_exact` and TwoSum.
    fn nearest_exact(format: Format, exact: i128, scale: i32) -> u16 {
        let approx = format.from_f64(exact as f64 * 2f64.powi(-scale));
        let sign = approx & 0x8000;
        let magnitude = approx & 0x7fff;
        let value = |m: u16| (format.to_f64(m) * 2f64.powi(scale)) as i128;
        let target = exact.abs();
        let max = format.max_finite();
        let threshold = value(max) + (value(max) - value(max - 1)) / 2;
        if target >= threshold {
            return (if exact < 0 { 0x8000 } else { 0 }) | format.infinity();
        }
        let magnitude = magnitude.min(max);
        let mut best = None::<(i128, u16)>;
        for m in magnitude.saturating_sub(1)..=(magnitude + 1).min(format.max_finite()) {
            let d = (value(m) - target).abs();
            best = match best {
                Some((bd, bm)) if bd < d || (bd == d && bm % 2 == 0) => Some((bd, bm)),
                _ => Some((d, m)),
            };
        }
        let (_, m) = best.unwrap();
        let sign = if exact == 0 {
            sign
        } else if exact < 0 {
            0x8000
        } else {
            0
        };
        sign | m
    }

    #[test]
    fn fma_rounds_once() {
        // 1.75 * 37/64 = 1 + 3 * 2^-8, a BFloat16 midpoint (between 1 + 2^-7, odd, and
        // 1 + 2^-6, even); c = -(255/256) 2^-52 puts the exact result just below it, so it
        // rounds down. Rounded to f32 first (LLVM's fma of bfloat on the CPU and before sm_80)
        // it would be the midpoint and round to even, up.
        assert_eq!(BF16.fma(0x3fe0, 0x3f14, 0xa57f), 0x3f81);
        assert_eq!(
            bf16_from_f32(1.75f32.mul_add(0.578125, -(255.0 / 256.0) * 2f32.powi(-52))),
            0x3f82
        );
        // Specials: inf * 0 is a NaN, inf + -inf too, overflow is infinity.
        assert!(F16.to_f64(F16.fma(0x7c00, 0, 0x3c00)).is_nan());
        assert!(F16.to_f64(F16.fma(0x7c00, 0x3c00, 0xfc00)).is_nan());
        assert_eq!(F16.fma(0x7bff, 0x4000, 0), 0x7c00);
        assert_eq!(F16.fma(0x8000, 0x3c00, 0x0000), 0x0000);
        // Random triples against an exact reference: every finite Float16 (multiples of
        // 2^-24), BFloat16 with exponents -20 to 20 (multiples of 2^-27).
        let mut state = 0x05ee_df3a_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..200_000 {
            let r = next();
            let pick = |shift: u32| {
                let sign = ((r >> (shift + 15)) & 1) as u16;
                (sign << 15) | ((r >> shift) as u16 % 0x7c00)
            };
            let (a, b, c) = (pick(0), pick(16), pick(32));
            let exact = scaled_fma(F16, a, b, c, 48);
            assert_eq!(
                F16.fma(a, b, c),
                nearest_exact(F16, exact, 48),
                "{a:#x} {b:#x} {c:#x}"
            );
            let r = next();
            let pick = |shift: u32| {
                let sign = ((r >> (shift + 15)) & 1) as u16;
                let exponent = 107 + ((r >> shift) as u16 % 41);
                let mantissa = (r >> (shift + 8)) as u16 & 0x7f;
                (sign << 15) | (exponent << 7) | mantissa
            };
            let (a, b, c) = (pick(0), pick(16), pick(32));
            let exact = scaled_fma(BF16, a, b, c, 54);
            assert_eq!(
                BF16.fma(a, b, c),
                nearest_exact(BF16, exact, 54),
                "{a:#x} {b:#x} {c:#x}"
            );
        }
    }
}
