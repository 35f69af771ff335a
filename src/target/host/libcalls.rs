//! The conversion helpers LLVM's x86 backend calls for `half` (`Float16`) and `bfloat`
//! (`BFloat16`) where the host CPU has no conversion instructions for them (no F16C for `half`;
//! `bfloat` everywhere, since `host_cpu` turns AVX-512 BF16 and AVX-NE-CONVERT off): every
//! 16-bit float operation is computed in `float` and converted with these (as compiler-rt and
//! libgcc name them). GCC 12's libgcc has the `half` ones but not the `bfloat` ones; a helper
//! the JIT cannot resolve would be called at address 0, so all five are bound here, to
//! conversions that round once to nearest even, as PTX's `cvt.rn` does.
//!
//! The x86-64 calling convention passes and returns `half` and `bfloat` in the low 16 bits of
//! `xmm0`, where an `f32` travels too: each helper takes or returns an `f32` whose low 16 bits
//! are the encoding (the upper ones are not defined on the way in).

use loom_runtime::half::{BF16, F16};

fn encoding(register: f32) -> u16 {
    register.to_bits() as u16
}

fn register(bits: u16) -> f32 {
    f32::from_bits(u32::from(bits))
}

extern "C" fn extend_hf_sf(h: f32) -> f32 {
    F16.to_f64(encoding(h)) as f32
}

extern "C" fn trunc_sf_hf(x: f32) -> f32 {
    register(F16.from_f64(f64::from(x)))
}

extern "C" fn trunc_df_hf(x: f64) -> f32 {
    register(F16.from_f64(x))
}

extern "C" fn trunc_sf_bf(x: f32) -> f32 {
    register(BF16.from_f64(f64::from(x)))
}

extern "C" fn trunc_df_bf(x: f64) -> f32 {
    register(BF16.from_f64(x))
}

/// `fma` of `Float16` and `BFloat16`: LLVM's x86 backend computes `llvm.fma.f16` and
/// `llvm.fma.bf16` as `fmaf` of the widened values and rounds the `float` to 16 bits, twice
/// rounded; these round once (`Format::fma`), as PTX's `fma.rn.f16`/`fma.rn.bf16` do.
extern "C" fn fma_f16(a: f32, b: f32, c: f32) -> f32 {
    register(F16.fma(encoding(a), encoding(b), encoding(c)))
}

extern "C" fn fma_bf16(a: f32, b: f32, c: f32) -> f32 {
    register(BF16.fma(encoding(a), encoding(b), encoding(c)))
}

/// The 16-bit `fma` intrinsics and the helpers that replace them (the NVPTX module calls the
/// intrinsics on the targets that have the instructions).
const FMAS: [(&str, &str); 2] = [
    ("llvm.fma.f16", "loom_simt_fma_f16"),
    ("llvm.fma.bf16", "loom_simt_fma_bf16"),
];

/// Makes every call of a 16-bit `llvm.fma` a call of its helper (step 4 of the lowering).
pub fn replace_half_fmas(module: &inkwell::module::Module<'_>) {
    for (intrinsic, helper) in FMAS {
        let Some(f) = module.get_function(intrinsic) else {
            continue;
        };
        let replacement = module
            .get_function(helper)
            .unwrap_or_else(|| module.add_function(helper, f.get_type(), None));
        f.replace_all_uses_with(replacement);
        // SAFETY: nothing uses the declaration any more.
        unsafe { f.delete() };
    }
}

/// The 16-bit `fma` helpers' names and addresses, bound like the runtime's functions.
pub fn fma_symbols() -> Vec<(&'static str, usize)> {
    vec![
        ("loom_simt_fma_f16", fma_f16 as *const () as usize),
        ("loom_simt_fma_bf16", fma_bf16 as *const () as usize),
    ]
}

/// Each helper's name and address.
pub fn symbols() -> Vec<(&'static str, usize)> {
    vec![
        ("__extendhfsf2", extend_hf_sf as *const () as usize),
        ("__truncsfhf2", trunc_sf_hf as *const () as usize),
        ("__truncdfhf2", trunc_df_hf as *const () as usize),
        ("__truncsfbf2", trunc_sf_bf as *const () as usize),
        ("__truncdfbf2", trunc_df_bf as *const () as usize),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_read_and_write_the_low_16_bits() {
        // Garbage above the encoding is ignored: 1.5 as a half is 0x3e00.
        assert_eq!(extend_hf_sf(f32::from_bits(0xdead_3e00)), 1.5);
        assert_eq!(trunc_sf_hf(1.5).to_bits(), 0x3e00);
        assert_eq!(trunc_df_hf(65520.0).to_bits(), 0x7c00);
        assert_eq!(trunc_sf_bf(1.5).to_bits(), 0x3fc0);
        // 1 + 2^-8 + 2^-30 is just above a BFloat16 midpoint: up, from the double, not down
        // (as through a float it would be).
        let x = 1.0 + 2f64.powi(-8) + 2f64.powi(-30);
        assert_eq!(trunc_df_bf(x).to_bits(), 0x3f81);
        // 1.75 * 37/64 - (255/256) 2^-52 is just below a BFloat16 midpoint: down, once.
        let [a, b, c] = [0x3fe0, 0x3f14, 0xa57f].map(|h| f32::from_bits(0xbeef_0000 | h));
        assert_eq!(fma_bf16(a, b, c).to_bits(), 0x3f81);
        assert_eq!(
            fma_f16(register(0x3c00), register(0x4000), register(0x3c00)).to_bits(),
            0x4200
        );
    }
}
