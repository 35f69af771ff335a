//! One huge kernel, in LOOM and as the same work in CUDA: the large input of `large.rs`'s
//! linear-time checks and of the compile-time benchmark (`bench/compile_scaling.rs`), which
//! compiles the CUDA twin with clang for comparison.
//!
//! Every fourth statement of each kind: scalar arithmetic with a load, a once-per-block element
//! store, a uniform `if` around a once-per-block store, and a vector statement over a row. Each
//! line is padded with a comment to about a hundred bytes, so 10,000 statements make a 1 MB file.

const LOOM_HEAD: &str = "kernel big(s: Int32, x: Int32[BLOCKS, 64], out: Int32[BLOCKS, 64], acc: Int32[BLOCKS])\n  u0: Int32 <- s\n";

/// The LOOM kernel of `statements` statements.
pub fn loom(statements: usize) -> String {
    let (body, last) = each_statement(statements, |k, last| {
        let line = match k % 4 {
            0 => format!("  u{k}: Int32 <- u{last} * 3 + x[B, {}]", k % 64),
            1 => format!("  out[B, {}] <- u{last} ^ {k}", k % 64),
            2 => format!("  if u{last} > {k} then acc[B] <- u{last}"),
            _ => format!("  out[B] <- out[B] + u{last}"),
        };
        format!("{line:<60}-- statement {k:>6} of a large kernel, padding\n")
    });
    format!("{LOOM_HEAD}{body}  acc[B] <- u{last}\n")
}

/// The same kernel in CUDA, for clang (`-nocudainc`: no CUDA headers needed): the
/// once-per-block stores under `threadIdx.x == 0`, the vector statement over the first 64
/// threads, a barrier after each store as LOOM places them.
pub fn cuda(statements: usize) -> String {
    let (body, last) = each_statement(statements, |k, last| match k % 4 {
        0 => format!("  int u{k} = u{last} * 3 + x[B * 64 + {}];\n", k % 64),
        1 => format!(
            "  if (t == 0) out[B * 64 + {}] = u{last} ^ {k};\n  __nvvm_bar_sync(0);\n",
            k % 64
        ),
        2 => format!("  if (u{last} > {k} && t == 0) acc[B] = u{last};\n  __nvvm_bar_sync(0);\n"),
        _ => format!("  if (t < 64) out[B * 64 + t] += u{last};\n  __nvvm_bar_sync(0);\n"),
    });
    format!(
        "#define __global__ __attribute__((global))\n\
         extern \"C\" __global__ void big(int s, const int* __restrict__ x, int* out, int* acc) {{\n\
         \x20 int B = __nvvm_read_ptx_sreg_ctaid_x(), t = __nvvm_read_ptx_sreg_tid_x();\n\
         \x20 int u0 = s;\n\
         {body}\
         \x20 if (t == 0) acc[B] = u{last};\n}}\n"
    )
}

/// Statements 1 to `statements - 1`, each written by `line(k, last)`, where `last` is the scalar
/// `u<last>` statement `k` reads (every fourth statement defines a new one). The text, and the
/// last scalar.
fn each_statement(
    statements: usize,
    mut line: impl FnMut(usize, usize) -> String,
) -> (String, usize) {
    let mut text = String::new();
    let mut last = 0;
    for k in 1..statements {
        text.push_str(&line(k, last));
        if k % 4 == 0 {
            last = k;
        }
    }
    (text, last)
}
