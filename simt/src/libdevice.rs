//! NVIDIA libdevice's math functions (`__nv_sinf`, ...) on the host.
//!
//! On the GPU these come from libdevice.10.bc, whose bodies are PTX-specific (inline PTX and
//! NVVM-only intrinsics). For the CPU backend loomc leaves them declared and this table binds them
//! to Rust's correctly rounded (or nearly so) implementations, which are within libdevice's
//! documented error bounds of the GPU's results (at most a few ulp; the `__nv_fast_*` forms are
//! looser on the GPU). Results can therefore differ from a GPU's in the last bits, as results of
//! different libms do: compare with a tolerance.

macro_rules! libdevice {
    ($($symbol:literal => $name:ident: $t:ty, $arity:tt => $body:expr;)*) => {
        $(libdevice!(@fn $name, $t, $arity, $body);)*

        /// `(name, address)` of every libdevice function the CPU backend provides.
        pub fn symbols() -> Vec<(&'static str, usize)> {
            vec![$(($symbol, $name as libdevice!(@type $t, $arity) as usize)),*]
        }
    };
    (@fn $name:ident, $t:ty, 1, $body:expr) => {
        extern "C" fn $name(x: $t) -> $t {
            let f: fn($t) -> $t = $body;
            f(x)
        }
    };
    (@fn $name:ident, $t:ty, 2, $body:expr) => {
        extern "C" fn $name(a: $t, b: $t) -> $t {
            let f: fn($t, $t) -> $t = $body;
            f(a, b)
        }
    };
    (@type $t:ty, 1) => { extern "C" fn($t) -> $t };
    (@type $t:ty, 2) => { extern "C" fn($t, $t) -> $t };
}

libdevice! {
    "__nv_sqrtf" => sqrtf: f32, 1 => f32::sqrt;
    "__nv_rsqrtf" => rsqrtf: f32, 1 => |x| 1.0 / x.sqrt();
    "__nv_rsqrt" => rsqrt: f64, 1 => |x| 1.0 / x.sqrt();
    "__nv_expf" => expf: f32, 1 => f32::exp;
    "__nv_exp" => exp: f64, 1 => f64::exp;
    "__nv_fast_expf" => fast_expf: f32, 1 => f32::exp;
    "__nv_exp2f" => exp2f: f32, 1 => f32::exp2;
    "__nv_exp2" => exp2: f64, 1 => f64::exp2;
    "__nv_logf" => logf: f32, 1 => f32::ln;
    "__nv_log" => log: f64, 1 => f64::ln;
    "__nv_fast_logf" => fast_logf: f32, 1 => f32::ln;
    "__nv_log2f" => log2f: f32, 1 => f32::log2;
    "__nv_log2" => log2: f64, 1 => f64::log2;
    "__nv_fast_log2f" => fast_log2f: f32, 1 => f32::log2;
    "__nv_sinf" => sinf: f32, 1 => f32::sin;
    "__nv_sin" => sin: f64, 1 => f64::sin;
    "__nv_fast_sinf" => fast_sinf: f32, 1 => f32::sin;
    "__nv_cosf" => cosf: f32, 1 => f32::cos;
    "__nv_cos" => cos: f64, 1 => f64::cos;
    "__nv_fast_cosf" => fast_cosf: f32, 1 => f32::cos;
    "__nv_powf" => powf: f32, 2 => f32::powf;
    "__nv_pow" => pow: f64, 2 => f64::powf;
    "__nv_fast_powf" => fast_powf: f32, 2 => f32::powf;
    // Exact on both sides (CUDA documents `fmodf` with no error): the same bits as the GPU's.
    "__nv_fmodf" => fmodf: f32, 2 => |a, b| a % b;
    "__nv_fmod" => fmod: f64, 2 => |a, b| a % b;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_function_computes_what_its_name_says() {
        assert_eq!(sinf(0.5), 0.5f32.sin());
        assert_eq!(pow(2.0, 10.0), 1024.0);
        assert_eq!(rsqrtf(4.0), 0.5);
        assert_eq!(exp2f(3.0), 8.0);
        assert_eq!(fmodf(-7.5, 2.0), -1.5);
        assert_eq!(fmod(1e300, 3.0), 1e300 % 3.0);
        let names: Vec<&str> = symbols().into_iter().map(|(name, _)| name).collect();
        assert!(names.contains(&"__nv_fast_powf") && names.contains(&"__nv_log2"));
        assert!(symbols().iter().all(|(_, address)| *address != 0));
    }
}
