//! Crash hunting: arbitrary characters, arbitrary token sequences and mutations of the
//! repository's `.loom` files through the whole pipeline. Every input must end in success or in
//! diagnostics (what the binary reports as exit 0 or 1): never a panic, an internal error
//! (E9999, exit 101), a hang or a stack overflow.

use fastrand::Rng;
use loomc::diagnostics::{SourceFiles, INTERNAL_ERROR};
use loomc::driver::{self, Emit, Options};
use loomc::syntax::KEYWORDS;

/// Compiles `source` to PTX (through LLVM IR) and says whether the compiler behaved: `Ok` with
/// whether it compiled, `Err` with what went wrong. A panic propagates (the pool catches it).
pub fn compile_behaves(source: &str, options: &Options) -> Result<bool, String> {
    let mut files = SourceFiles::default();
    let compilation = driver::compile(&mut files, "fuzz.loom", source, options);
    if let Some(d) = compilation
        .diagnostics
        .iter()
        .find(|d| d.code == INTERNAL_ERROR)
    {
        return Err(format!("internal compiler error: {}", d.message));
    }
    let failed = compilation.diagnostics.iter().any(|d| d.is_error());
    match (&compilation.outputs, failed) {
        (Some(_), false) => Ok(true),
        (None, true) => Ok(false),
        (Some(_), true) => Err("outputs and an error diagnostic together".to_string()),
        (None, false) => Err("no outputs and no error diagnostic".to_string()),
    }
}

pub fn ptx_options() -> Options {
    Options {
        emit: vec![Emit::Ast, Emit::Llvm, Emit::Ptx],
        ..Options::default()
    }
}

/// What a LOOM file is made of, for arbitrary token sequences: the reserved words
/// (`loomc::syntax::KEYWORDS`), then these.
const OTHER_TOKENS: &[&str] = &[
    "<-",
    "/~",
    "/.",
    "/:",
    ":/",
    "[[",
    "]]",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    ".",
    "<",
    ">",
    "<=",
    ">=",
    "==",
    "!=",
    "=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "&",
    "|",
    "^",
    "<<",
    ">>",
    "~",
    "@blocksize",
    "x",
    "y",
    "in",
    "out",
    "B",
    "BLOCKS",
    "BLOCKSIZE",
    "THREADS",
    "Int32",
    "Int64",
    "UInt32",
    "UInt64",
    "Float32",
    "Float64",
    "Bool",
    "Range",
    "block",
    "range",
    "select",
    "sum",
    "max",
    "min",
    "prod",
    "sqrt",
    "abs",
    "0",
    "1",
    "2",
    "255",
    "0x7fffffff",
    "-1",
    "1.5",
    "0.0",
    "1e30",
    "99999999999999999999",
    // Malformed numbers: an exponent without digits, a hexadecimal prefix alone.
    "1e",
    "0x",
    "--",
    "\n",
    "\n  ",
    "\n    ",
];

/// Characters, mostly from LOOM's alphabet, some outside it.
pub fn random_chars(rng: &mut Rng) -> String {
    const ALPHABET: &[u8] = b"abcxyzBIF0123456789_ ()[]{},:.<>=+-*/%&|^~@\n\n\n  ";
    let len = rng.usize(0..400);
    (0..len)
        .map(|_| match rng.u32(0..20) {
            0 => char::from_u32(rng.u32(0..0x11_0000)).unwrap_or('\u{fffd}'),
            1 => ['\t', '\r', '$', ';', '"', '#', '!', '\0'][rng.usize(..8)],
            _ => ALPHABET[rng.usize(..ALPHABET.len())] as char,
        })
        .collect()
}

/// One token, each as likely as another.
fn random_token(rng: &mut Rng) -> &'static str {
    let i = rng.usize(..KEYWORDS.len() + OTHER_TOKENS.len());
    KEYWORDS
        .get(i)
        .copied()
        .unwrap_or_else(|| OTHER_TOKENS[i - KEYWORDS.len()])
}

/// Tokens, lines and indentation in any order.
pub fn random_tokens(rng: &mut Rng) -> String {
    let count = rng.usize(0..120);
    let mut out = String::new();
    if rng.bool() {
        out.push_str("kernel k(n: Int32, x: Float32[n], out: Float32[n])\n  ");
    }
    for _ in 0..count {
        out.push_str(random_token(rng));
        if rng.u32(0..4) != 0 {
            out.push(' ');
        }
    }
    out
}

/// `source` with one to four edits: lines deleted, duplicated or swapped, indentation changed,
/// tokens swapped, deleted, replaced or inserted, characters deleted.
pub fn mutate(source: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = source.lines().map(str::to_string).collect();
    for _ in 0..rng.usize(1..=4) {
        if lines.is_empty() {
            lines.push(String::new());
        }
        let at = rng.usize(..lines.len());
        match rng.u32(0..9) {
            0 => {
                lines.remove(at);
            }
            1 => {
                let line = lines[at].clone();
                lines.insert(rng.usize(..=lines.len()), line);
            }
            2 => {
                let other = rng.usize(..lines.len());
                lines.swap(at, other);
            }
            3 => {
                let text = lines[at].trim_start().to_string();
                let indent = [0, 1, 2, 3, 4, 6, 8][rng.usize(..7)];
                lines[at] = format!("{}{text}", " ".repeat(indent));
            }
            4..=6 => {
                let mut words: Vec<String> = lines[at].split(' ').map(str::to_string).collect();
                let i = rng.usize(..words.len());
                match rng.u32(0..4) {
                    0 => {
                        let j = rng.usize(..words.len());
                        words.swap(i, j);
                    }
                    1 => {
                        words.remove(i);
                    }
                    2 => words[i] = random_token(rng).to_string(),
                    _ => words.insert(i, random_token(rng).to_string()),
                }
                lines[at] = words.join(" ");
            }
            7 => {
                let line = &mut lines[at];
                if !line.is_empty() {
                    let mut chars: Vec<char> = line.chars().collect();
                    chars.remove(rng.usize(..chars.len()));
                    *line = chars.into_iter().collect();
                }
            }
            _ => {
                // Swap two characters that are operators or digits: `+` for `*`, `1` for `0`.
                const SWAPS: &[(char, char)] = &[
                    ('+', '*'),
                    ('0', '1'),
                    ('[', '('),
                    ('<', '>'),
                    ('2', '9'),
                    ('/', '%'),
                ];
                let (a, b) = SWAPS[rng.usize(..SWAPS.len())];
                lines[at] = lines[at].replacen(a, &b.to_string(), 1);
            }
        }
    }
    lines.join("\n")
}

/// The repository's `.loom` files (examples, tests, the standard library), the seeds of
/// mutation.
pub fn corpus() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for dir in ["examples", "tests", "stdlib"] {
        for path in crate::support::files_with_extension(dir, "loom") {
            if let Ok(text) = std::fs::read_to_string(crate::support::repo_root().join(&path)) {
                files.push((path.display().to_string(), text));
            }
        }
    }
    files
}
