//! NVVM's math intrinsics on the host. Round-to-nearest forms are exact IEEE operations, as on
//! the GPU; `.approx` forms use the host's correctly rounded functions, which are within the
//! GPU's documented error bounds of them; `.ftz` forms flush subnormal inputs and results to
//! zero of the same sign, as PTX's `.ftz` does.

fn ftz(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// PTX `min`/`max` on floats: if one operand is NaN the other is the result.
fn fmin(a: f32, b: f32) -> f32 {
    a.min(b)
}
fn fmax(a: f32, b: f32) -> f32 {
    a.max(b)
}

macro_rules! unary {
    ($($name:ident: $t:ty => $body:expr;)*) => {
        $(extern "C" fn $name(x: $t, _loc: u32) -> $t {
            let f: fn($t) -> $t = $body;
            f(x)
        })*
    };
}
macro_rules! binary {
    ($($name:ident: $t:ty => $body:expr;)*) => {
        $(extern "C" fn $name(a: $t, b: $t, _loc: u32) -> $t {
            let f: fn($t, $t) -> $t = $body;
            f(a, b)
        })*
    };
}

unary! {
    fabs_f: f32 => f32::abs;
    fabs_ftz_f: f32 => |x| ftz(x).abs();
    fabs_d: f64 => f64::abs;
    floor_f: f32 => f32::floor;
    floor_ftz_f: f32 => |x| ftz(ftz(x).floor());
    floor_d: f64 => f64::floor;
    ceil_f: f32 => f32::ceil;
    ceil_ftz_f: f32 => |x| ftz(ftz(x).ceil());
    ceil_d: f64 => f64::ceil;
    trunc_f: f32 => f32::trunc;
    trunc_ftz_f: f32 => |x| ftz(ftz(x).trunc());
    trunc_d: f64 => f64::trunc;
    round_f: f32 => f32::round_ties_even;
    round_ftz_f: f32 => |x| ftz(ftz(x).round_ties_even());
    round_d: f64 => f64::round_ties_even;
    saturate_f: f32 => |x| if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    saturate_ftz_f: f32 => |x| if x.is_nan() { 0.0 } else { ftz(x).clamp(0.0, 1.0) };
    saturate_d: f64 => |x| if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    ex2_approx_f: f32 => f32::exp2;
    ex2_approx_ftz_f: f32 => |x| ftz(ftz(x).exp2());
    ex2_approx_d: f64 => f64::exp2;
    lg2_approx_f: f32 => f32::log2;
    lg2_approx_ftz_f: f32 => |x| ftz(ftz(x).log2());
    lg2_approx_d: f64 => f64::log2;
    sin_approx_f: f32 => f32::sin;
    sin_approx_ftz_f: f32 => |x| ftz(ftz(x).sin());
    cos_approx_f: f32 => f32::cos;
    cos_approx_ftz_f: f32 => |x| ftz(ftz(x).cos());
    sqrt_f: f32 => f32::sqrt;
    sqrt_rn_f: f32 => f32::sqrt;
    sqrt_rn_ftz_f: f32 => |x| ftz(ftz(x).sqrt());
    sqrt_rn_d: f64 => f64::sqrt;
    sqrt_approx_f: f32 => f32::sqrt;
    sqrt_approx_ftz_f: f32 => |x| ftz(ftz(x).sqrt());
    rsqrt_approx_f: f32 => |x| 1.0 / x.sqrt();
    rsqrt_approx_ftz_f: f32 => |x| ftz(1.0 / ftz(x).sqrt());
    rsqrt_approx_d: f64 => |x| 1.0 / x.sqrt();
    rcp_rn_f: f32 => |x| 1.0 / x;
    rcp_rn_ftz_f: f32 => |x| ftz(1.0 / ftz(x));
    rcp_rn_d: f64 => |x| 1.0 / x;
    rcp_approx_ftz_d: f64 => |x| 1.0 / x;
}

binary! {
    fmin_f: f32 => fmin;
    fmin_ftz_f: f32 => |a, b| fmin(ftz(a), ftz(b));
    fmin_d: f64 => f64::min;
    fmax_f: f32 => fmax;
    fmax_ftz_f: f32 => |a, b| fmax(ftz(a), ftz(b));
    fmax_d: f64 => f64::max;
    div_rn_f: f32 => |a, b| a / b;
    div_rn_ftz_f: f32 => |a, b| ftz(ftz(a) / ftz(b));
    div_rn_d: f64 => |a, b| a / b;
    div_approx_f: f32 => |a, b| a / b;
    div_approx_ftz_f: f32 => |a, b| ftz(ftz(a) / ftz(b));
    add_rn_f: f32 => |a, b| a + b;
    add_rn_ftz_f: f32 => |a, b| ftz(ftz(a) + ftz(b));
    add_rn_d: f64 => |a, b| a + b;
    mul_rn_f: f32 => |a, b| a * b;
    mul_rn_ftz_f: f32 => |a, b| ftz(ftz(a) * ftz(b));
    mul_rn_d: f64 => |a, b| a * b;
}

extern "C" fn fma_rn_f(a: f32, b: f32, c: f32, _loc: u32) -> f32 {
    a.mul_add(b, c)
}
extern "C" fn fma_rn_ftz_f(a: f32, b: f32, c: f32, _loc: u32) -> f32 {
    ftz(ftz(a).mul_add(ftz(b), ftz(c)))
}
extern "C" fn fma_rn_d(a: f64, b: f64, c: f64, _loc: u32) -> f64 {
    a.mul_add(b, c)
}
extern "C" fn mulhi_i(a: i32, b: i32, _loc: u32) -> i32 {
    ((a as i64 * b as i64) >> 32) as i32
}
extern "C" fn mulhi_ui(a: u32, b: u32, _loc: u32) -> u32 {
    ((a as u64 * b as u64) >> 32) as u32
}
extern "C" fn mulhi_ll(a: i64, b: i64, _loc: u32) -> i64 {
    ((a as i128 * b as i128) >> 64) as i64
}
extern "C" fn mulhi_ull(a: u64, b: u64, _loc: u32) -> u64 {
    ((a as u128 * b as u128) >> 64) as u64
}
/// `mul24`: the low 32 bits of the product of the operands' low 24 bits (sign-extended).
extern "C" fn mul24_i(a: i32, b: i32, _loc: u32) -> i32 {
    (((a << 8) >> 8) as i64 * ((b << 8) >> 8) as i64) as i32
}
extern "C" fn umul24_i(a: u32, b: u32, _loc: u32) -> u32 {
    ((a & 0xff_ffff) as u64 * (b & 0xff_ffff) as u64) as u32
}
extern "C" fn brev32(a: u32, _loc: u32) -> u32 {
    a.reverse_bits()
}
extern "C" fn brev64(a: u64, _loc: u32) -> u64 {
    a.reverse_bits()
}

macro_rules! table {
    ($($name:literal => $f:ident: $t:ty),* $(,)?) => {
        /// The math functions, by runtime symbol.
        pub fn symbols() -> Vec<(&'static str, usize)> {
            vec![$(($name, $f as $t as usize)),*]
        }
    };
}

type F1 = extern "C" fn(f32, u32) -> f32;
type D1 = extern "C" fn(f64, u32) -> f64;
type F2 = extern "C" fn(f32, f32, u32) -> f32;
type D2 = extern "C" fn(f64, f64, u32) -> f64;

table! {
    "loom_simt_fabs_f" => fabs_f: F1,
    "loom_simt_fabs_ftz_f" => fabs_ftz_f: F1,
    "loom_simt_fabs_d" => fabs_d: D1,
    "loom_simt_floor_f" => floor_f: F1,
    "loom_simt_floor_ftz_f" => floor_ftz_f: F1,
    "loom_simt_floor_d" => floor_d: D1,
    "loom_simt_ceil_f" => ceil_f: F1,
    "loom_simt_ceil_ftz_f" => ceil_ftz_f: F1,
    "loom_simt_ceil_d" => ceil_d: D1,
    "loom_simt_trunc_f" => trunc_f: F1,
    "loom_simt_trunc_ftz_f" => trunc_ftz_f: F1,
    "loom_simt_trunc_d" => trunc_d: D1,
    "loom_simt_round_f" => round_f: F1,
    "loom_simt_round_ftz_f" => round_ftz_f: F1,
    "loom_simt_round_d" => round_d: D1,
    "loom_simt_saturate_f" => saturate_f: F1,
    "loom_simt_saturate_ftz_f" => saturate_ftz_f: F1,
    "loom_simt_saturate_d" => saturate_d: D1,
    "loom_simt_ex2_approx_f" => ex2_approx_f: F1,
    "loom_simt_ex2_approx_ftz_f" => ex2_approx_ftz_f: F1,
    "loom_simt_ex2_approx_d" => ex2_approx_d: D1,
    "loom_simt_lg2_approx_f" => lg2_approx_f: F1,
    "loom_simt_lg2_approx_ftz_f" => lg2_approx_ftz_f: F1,
    "loom_simt_lg2_approx_d" => lg2_approx_d: D1,
    "loom_simt_sin_approx_f" => sin_approx_f: F1,
    "loom_simt_sin_approx_ftz_f" => sin_approx_ftz_f: F1,
    "loom_simt_cos_approx_f" => cos_approx_f: F1,
    "loom_simt_cos_approx_ftz_f" => cos_approx_ftz_f: F1,
    "loom_simt_sqrt_f" => sqrt_f: F1,
    "loom_simt_sqrt_rn_f" => sqrt_rn_f: F1,
    "loom_simt_sqrt_rn_ftz_f" => sqrt_rn_ftz_f: F1,
    "loom_simt_sqrt_rn_d" => sqrt_rn_d: D1,
    "loom_simt_sqrt_approx_f" => sqrt_approx_f: F1,
    "loom_simt_sqrt_approx_ftz_f" => sqrt_approx_ftz_f: F1,
    "loom_simt_rsqrt_approx_f" => rsqrt_approx_f: F1,
    "loom_simt_rsqrt_approx_ftz_f" => rsqrt_approx_ftz_f: F1,
    "loom_simt_rsqrt_approx_d" => rsqrt_approx_d: D1,
    "loom_simt_rcp_rn_f" => rcp_rn_f: F1,
    "loom_simt_rcp_rn_ftz_f" => rcp_rn_ftz_f: F1,
    "loom_simt_rcp_rn_d" => rcp_rn_d: D1,
    "loom_simt_rcp_approx_ftz_d" => rcp_approx_ftz_d: D1,
    "loom_simt_fmin_f" => fmin_f: F2,
    "loom_simt_fmin_ftz_f" => fmin_ftz_f: F2,
    "loom_simt_fmin_d" => fmin_d: D2,
    "loom_simt_fmax_f" => fmax_f: F2,
    "loom_simt_fmax_ftz_f" => fmax_ftz_f: F2,
    "loom_simt_fmax_d" => fmax_d: D2,
    "loom_simt_div_rn_f" => div_rn_f: F2,
    "loom_simt_div_rn_ftz_f" => div_rn_ftz_f: F2,
    "loom_simt_div_rn_d" => div_rn_d: D2,
    "loom_simt_div_approx_f" => div_approx_f: F2,
    "loom_simt_div_approx_ftz_f" => div_approx_ftz_f: F2,
    "loom_simt_add_rn_f" => add_rn_f: F2,
    "loom_simt_add_rn_ftz_f" => add_rn_ftz_f: F2,
    "loom_simt_add_rn_d" => add_rn_d: D2,
    "loom_simt_mul_rn_f" => mul_rn_f: F2,
    "loom_simt_mul_rn_ftz_f" => mul_rn_ftz_f: F2,
    "loom_simt_mul_rn_d" => mul_rn_d: D2,
    "loom_simt_fma_rn_f" => fma_rn_f: extern "C" fn(f32, f32, f32, u32) -> f32,
    "loom_simt_fma_rn_ftz_f" => fma_rn_ftz_f: extern "C" fn(f32, f32, f32, u32) -> f32,
    "loom_simt_fma_rn_d" => fma_rn_d: extern "C" fn(f64, f64, f64, u32) -> f64,
    "loom_simt_mulhi_i" => mulhi_i: extern "C" fn(i32, i32, u32) -> i32,
    "loom_simt_mulhi_ui" => mulhi_ui: extern "C" fn(u32, u32, u32) -> u32,
    "loom_simt_mulhi_ll" => mulhi_ll: extern "C" fn(i64, i64, u32) -> i64,
    "loom_simt_mulhi_ull" => mulhi_ull: extern "C" fn(u64, u64, u32) -> u64,
    "loom_simt_mul24_i" => mul24_i: extern "C" fn(i32, i32, u32) -> i32,
    "loom_simt_umul24_i" => umul24_i: extern "C" fn(u32, u32, u32) -> u32,
    "loom_simt_brev32" => brev32: extern "C" fn(u32, u32) -> u32,
    "loom_simt_brev64" => brev64: extern "C" fn(u64, u32) -> u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ftz_flushes_subnormals_only() {
        let tiny = f32::from_bits(1);
        assert_eq!(fabs_ftz_f(-tiny, 0).to_bits(), 0);
        assert_eq!(fabs_f(-tiny, 0), tiny);
        assert_eq!(fmin_f(f32::NAN, 2.0, 0), 2.0);
        assert_eq!(fmax_d(1.0, f64::NAN, 0), 1.0);
        assert_eq!(round_f(2.5, 0), 2.0);
        assert_eq!(saturate_f(f32::NAN, 0), 0.0);
        assert_eq!(mulhi_ui(0xffff_ffff, 2, 0), 1);
        assert_eq!(mul24_i(0x00ff_ffff, 2, 0), -2);
        assert_eq!(fma_rn_f(2.0, 3.0, 1.0, 0), 7.0);
    }
}
