//! Ordinary programs whose compile time once grew exponentially with their length: many
//! sequential `if`s (barrier placement doubled its pending accesses at every join), a long `and`
//! chain of comparisons (the same, through the right side of every `and`), and one line of
//! malformed literals (one unbuffered write per piece of every diagnostic). `large.rs` checks
//! that each grows linearly; `scripts/bench-compile` prints their times.

/// `count` sequential `if n > k` statements, each storing once per block.
pub fn sequential_ifs(count: usize) -> String {
    let mut text = String::from("kernel k(n: Int32, o: Float32[BLOCKS])\n");
    for k in 0..count {
        text.push_str(&format!("  if n > {k}\n    then o[B] <- 1.0\n"));
    }
    text
}

/// One `if` whose condition is an `and` of `terms` comparisons.
pub fn and_chain(terms: usize) -> String {
    let condition: Vec<String> = (0..terms).map(|k| format!("n > {k}")).collect();
    format!(
        "kernel k(n: Int32, o: Float32[BLOCKS])\n  if {}\n    then o[B] <- 1.0\n",
        condition.join(" and ")
    )
}

/// One line adding `count` malformed binary literals (`0b12`): `count` E0011 errors.
pub fn malformed_literals(count: usize) -> String {
    format!(
        "kernel k(o: Int32[BLOCKS])\n  o[B] <- {}\n",
        vec!["0b12"; count].join(" + ")
    )
}

/// A shape's name, its generator, the size the issue asked to compile in under a second, and the
/// diagnostic it must end with (none: it compiles).
pub type Shape = (
    &'static str,
    fn(usize) -> String,
    usize,
    Option<&'static str>,
);

/// Every shape. The sequential `if`s also at 4,000 (1,000 against 4,000): the size at which
/// lowering once looked faster than linear (27 ms at 1,000, 122-166 at 4,000 on a loaded
/// machine; 4.06x the instructions for 4x the ifs when measured, so linear).
pub const SHAPES: [Shape; 4] = [
    ("sequential_ifs", sequential_ifs, 1000, None),
    ("sequential_ifs_4000", sequential_ifs, 4000, None),
    ("and_chain", and_chain, 200, None),
    ("malformed_literals", malformed_literals, 200, Some("E0011")),
];
