//! Run cases as files: every `tests/run/cases/**/*.loom` is one case, run at each block size of
//! its `BLOCK-SIZES` (one test each, named after the file: `saxpy/bs64`). Its directives, in the
//! shared header syntax (`tests/support/header.rs`), say which program and kernel to launch, on
//! which inputs, and what the outputs must be; `reference.rs` evaluates the expressions. The
//! directives are documented in docs/testing.md ("Run cases"); in short:
//!
//! ```text
//! -- PROGRAM: examples/saxpy.loom      (default: this file is the program)
//! -- KERNEL: saxpy
//! -- SIZES: 1 31 1000 4097             (the values of `n`; this is the default)
//! -- BLOCK-SIZES: 2 16 32 64 256 1024  (the values of `bs`; this is the default)
//! -- BLOCKS: max(cdiv(n, bs), 1)       (the grid; this is the default; `GRID-COLS:` makes it 2-D)
//! -- LET: m = 2 * n                    (a name for later expressions)
//! -- ARG: n: i32 = n                   (the kernel's parameters, in order)
//! -- ARG: a: f32 = uniform(-3, 3)
//! -- ARG: x: f32[n] = uniform(-10, 10)
//! -- ARG: y: f32[n] = uniform(-10, 10)
//! -- EXPECT: y = a * x + y             (names in references are the inputs, before the launch)
//! -- EXPECT: z = f64(x) * 2 within rel 1e-6 abs 1e-6
//! -- ARG: r: range = 3 .. n - 2        (a `Range` parameter; `r.start`, `r.end` in references)
//! -- ARG: p.x: f32 = uniform(-1, 1)    (consecutive `p.FIELD` lines: one record parameter `p`,
//! -- ARG: p.n: i32 = 7                  its fields in order, in the C layout)
//! ```
//!
//! Several launches: `LAUNCH: kernel(arg, ...)` lines instead of `KERNEL` (arrays persist; each
//! `EXPECT` is checked after the launches above it). Several grids: one run per `BLOCKS` line.
//! Timing-dependent results: `EXPECT-MULTISET`, and `result(name)` for an array as launched.
//!
//! As for the cases in Rust (`run.rs`), `-O0` and `-O3` must give the same bits in every array
//! after the last launch, and so must a call per thread where the kernel runs as compiled
//! threads (a multiset's array compared sorted; one checked against `result(...)` left out).

use super::header;
use super::reference::{self, Env, Ty, Val};
use super::support::{self, Rng};
use libtest_mimic::{Failed, Trial};
use loomc::target::host::{HostArg, HostProgram, LaunchShape};
use loomc::target::OptLevel;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub const DIR: &str = "tests/run/cases";

const KEYS: &[&str] = &[
    "PROGRAM",
    "KERNEL",
    "LAUNCH",
    "SIZES",
    "BLOCK-SIZES",
    "BLOCKS",
    "GRID-COLS",
    "LET",
    "ARG",
    "EXPECT",
    "EXPECT-MULTISET",
];

const DEFAULT_SIZES: &[usize] = &[1, 31, 1000, 4097];

#[derive(Debug)]
enum Step {
    Let {
        name: String,
        expr: String,
        line: usize,
    },
    /// A scalar or an array; `p.x` is field `x` of record parameter `p`.
    Arg {
        name: String,
        ty: Ty,
        /// `None` for a scalar.
        len: Option<String>,
        expr: String,
        line: usize,
    },
    /// `ARG: r: range = START .. END`: a `Range` parameter, `{ Int32 start; Int32 end }`.
    Range {
        name: String,
        start: String,
        end: String,
        line: usize,
    },
    /// One launch: the kernel, its arguments (`ARG` names, in order), and its number of blocks
    /// when not the case's.
    Launch {
        kernel: String,
        args: Vec<String>,
        blocks: Option<String>,
        line: usize,
    },
    Expect(Expect),
}

/// What an `EXPECT` asks of an array.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Check {
    /// Element by element (`EXPECT`).
    Equal,
    /// The same elements in some order (`EXPECT-MULTISET`): the order depends on the timing of
    /// atomics, so the builds are compared on the sorted elements too.
    Multiset,
}

#[derive(Debug)]
struct Expect {
    check: Check,
    name: String,
    expr: String,
    rel: f64,
    abs: f64,
    /// A per-element absolute tolerance.
    tol: Option<String>,
    /// Compared within a tolerance rather than exactly.
    close: bool,
    line: usize,
}

#[derive(Debug)]
pub struct Spec {
    /// The case file, relative to the repository.
    pub file: String,
    /// The program it launches.
    pub program: String,
    sizes: Vec<usize>,
    pub block_sizes: Vec<u32>,
    /// One run of the case per `BLOCKS` line (the same inputs each time).
    blocks: Vec<String>,
    grid_cols: Option<String>,
    /// `LET`s, `ARG`s, launches and checks, in the order they run.
    steps: Vec<Step>,
}

fn words<T: std::str::FromStr>(at: &str, value: &str) -> Result<Vec<T>, String> {
    let v: Vec<T> = value
        .split_whitespace()
        .map(|w| w.parse().map_err(|_| format!("{at}: bad number `{w}`")))
        .collect::<Result<_, _>>()?;
    if v.is_empty() {
        return Err(format!("{at}: no values"));
    }
    Ok(v)
}

fn identifier(at: &str, name: &str) -> Result<String, String> {
    let ok = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ok {
        Ok(name.to_string())
    } else {
        Err(format!("{at}: `{name}` is not a name"))
    }
}

/// `name: ty = expr` or `name: ty[len] = expr`.
fn parse_arg(at: &str, value: &str, line: usize) -> Result<Step, String> {
    let (lhs, expr) = value
        .split_once('=')
        .ok_or(format!("{at}: `ARG: name: type = expression`"))?;
    let (name, ty) = lhs
        .split_once(':')
        .ok_or(format!("{at}: `ARG: name: type = expression`"))?;
    let ty = ty.trim();
    if ty == "range" {
        let (start, end) = expr
            .split_once("..")
            .ok_or(format!("{at}: a range is `ARG: r: range = START .. END`"))?;
        return Ok(Step::Range {
            name: identifier(at, name.trim())?,
            start: start.trim().to_string(),
            end: end.trim().to_string(),
            line,
        });
    }
    let (ty, len) = match ty.split_once('[') {
        Some((t, rest)) => {
            let len = rest
                .strip_suffix(']')
                .ok_or(format!("{at}: `{ty}`: an array type is `f32[length]`"))?;
            (t.trim(), Some(len.trim().to_string()))
        }
        None => (ty, None),
    };
    // `p.x`: field `x` of record parameter `p`.
    let name = match name.trim().split_once('.') {
        Some((record, field)) if len.is_none() => {
            format!("{}.{}", identifier(at, record)?, identifier(at, field)?)
        }
        _ => identifier(at, name.trim())?,
    };
    Ok(Step::Arg {
        name,
        ty: Ty::parse(ty).ok_or(format!("{at}: unknown type `{ty}`"))?,
        len,
        expr: expr.trim().to_string(),
        line,
    })
}

/// `name = expr [within [rel R] [abs A] [tol EXPR]]`.
fn parse_expect(at: &str, value: &str, line: usize, check: Check) -> Result<Expect, String> {
    let (name, rest) = value
        .split_once('=')
        .ok_or(format!("{at}: `EXPECT: array = expression`"))?;
    let (expr, within) = match rest.split_once(" within ") {
        Some((e, w)) => (e, Some(w)),
        None => (rest, None),
    };
    if check == Check::Multiset && within.is_some() {
        return Err(format!(
            "{at}: `EXPECT-MULTISET` compares exactly, not `within`"
        ));
    }
    let mut expect = Expect {
        check,
        name: identifier(at, name.trim())?,
        expr: expr.trim().to_string(),
        rel: 0.0,
        abs: 0.0,
        tol: None,
        close: within.is_some(),
        line,
    };
    if let Some(within) = within {
        let mut rest = within.trim();
        while !rest.is_empty() {
            let (word, tail) = rest.split_once(' ').unwrap_or((rest, ""));
            if word == "tol" {
                expect.tol = Some(tail.trim().to_string());
                break;
            }
            let (number, tail) = tail.trim().split_once(' ').unwrap_or((tail.trim(), ""));
            let number: f64 = number
                .parse()
                .map_err(|_| format!("{at}: bad tolerance `{number}`"))?;
            match word {
                "rel" => expect.rel = number,
                "abs" => expect.abs = number,
                _ => {
                    return Err(format!(
                        "{at}: `within` takes rel, abs and tol, not `{word}`"
                    ))
                }
            }
            rest = tail.trim();
        }
    }
    Ok(expect)
}

pub fn parse(file: &str, source: &str) -> Result<Spec, String> {
    let directives = header::parse(file, source, KEYS)?;
    let one = |key: &str| -> Result<Option<String>, String> {
        Ok(header::single(file, &directives, key)?.map(|d| d.value.clone()))
    };
    let at = |line: usize| format!("{file}:{line}");
    let kernel = one("KERNEL")?;
    let sizes = match header::single(file, &directives, "SIZES")? {
        Some(d) => words(&at(d.line), &d.value)?,
        None => DEFAULT_SIZES.to_vec(),
    };
    let block_sizes = match header::single(file, &directives, "BLOCK-SIZES")? {
        Some(d) => words(&at(d.line), &d.value)?,
        None => super::BLOCK_SIZES.to_vec(),
    };
    let mut blocks = Vec::new();
    let mut steps = Vec::new();
    let mut expects = Vec::new();
    for d in &directives {
        match d.key.as_str() {
            "BLOCKS" => blocks.push(d.value.clone()),
            "LET" => {
                let (name, expr) = d
                    .value
                    .split_once('=')
                    .ok_or(format!("{}: `LET: name = expression`", at(d.line)))?;
                steps.push(Step::Let {
                    name: identifier(&at(d.line), name.trim())?,
                    expr: expr.trim().to_string(),
                    line: d.line,
                });
            }
            "ARG" => steps.push(parse_arg(&at(d.line), &d.value, d.line)?),
            "LAUNCH" => steps.push(parse_launch(&at(d.line), &d.value, d.line)?),
            "EXPECT" | "EXPECT-MULTISET" => {
                let check = match d.key.as_str() {
                    "EXPECT" => Check::Equal,
                    _ => Check::Multiset,
                };
                let expect = parse_expect(&at(d.line), &d.value, d.line, check)?;
                match kernel {
                    // One launch after every `LET` and `ARG`, then every check.
                    Some(_) => expects.push(expect),
                    None => steps.push(Step::Expect(expect)),
                }
            }
            _ => {}
        }
    }
    let launches = steps
        .iter()
        .filter(|s| matches!(s, Step::Launch { .. }))
        .count();
    match (&kernel, launches) {
        (Some(kernel), 0) => {
            let args = spec_arg_names(&steps)
                .into_iter()
                .map(str::to_string)
                .collect();
            steps.push(Step::Launch {
                kernel: kernel.clone(),
                args,
                blocks: None,
                line: 0,
            });
            steps.extend(expects.into_iter().map(Step::Expect));
        }
        (Some(_), _) => {
            return Err(format!(
                "{file}: `KERNEL` (one launch of every `ARG`) or `LAUNCH` lines, not both"
            ))
        }
        (None, 0) => return Err(format!("{file}: no `-- KERNEL:` or `-- LAUNCH:` line")),
        (None, _) => {}
    }
    check_names(file, &steps)?;
    if blocks.is_empty() {
        blocks.push("max(cdiv(n, bs), 1)".to_string());
    }
    Ok(Spec {
        file: file.to_string(),
        program: one("PROGRAM")?.unwrap_or_else(|| file.to_string()),
        sizes,
        block_sizes,
        blocks,
        grid_cols: one("GRID-COLS")?,
        steps,
    })
}

/// `kernel(arg, ...)` or `kernel(arg, ...) blocks EXPR`.
fn parse_launch(at: &str, value: &str, line: usize) -> Result<Step, String> {
    let form = format!("{at}: `LAUNCH: kernel(arg, ...)` or `LAUNCH: kernel(arg, ...) blocks N`");
    let (kernel, rest) = value.split_once('(').ok_or(form.clone())?;
    let (args, tail) = rest.split_once(')').ok_or(form.clone())?;
    let args = match args.trim() {
        "" => Vec::new(),
        list => list
            .split(',')
            .map(|a| identifier(at, a.trim()))
            .collect::<Result<_, _>>()?,
    };
    let blocks = match tail.trim() {
        "" => None,
        tail => Some(tail.strip_prefix("blocks ").ok_or(form)?.trim().to_string()),
    };
    Ok(Step::Launch {
        kernel: identifier(at, kernel.trim())?,
        args,
        blocks,
        line,
    })
}

/// Every launch passes `ARG`s declared above it, every check names an array `ARG` declared
/// above it and comes after a launch, and the case checks something.
/// Whether a field of record `param` continues the record declared last.
fn continues_record(declared: &[(&str, bool)], param: &str) -> bool {
    declared.last().is_some_and(|d| d.0 == param)
}

fn check_names(file: &str, steps: &[Step]) -> Result<(), String> {
    let mut declared: Vec<(&str, bool)> = Vec::new();
    let (mut launched, mut checks) = (false, 0);
    for step in steps {
        match step {
            Step::Let { .. } => {}
            Step::Arg {
                name, len, line, ..
            } => {
                // The first field of a record declares it; the next ones continue it.
                let (param, field) = match name.split_once('.') {
                    Some((record, _)) => (record, true),
                    None => (name.as_str(), false),
                };
                if field && continues_record(&declared, param) {
                    continue;
                }
                if declared.iter().any(|d| d.0 == param) {
                    return Err(format!("{file}:{line}: a second `ARG` named `{param}`"));
                }
                declared.push((param, len.is_some()));
            }
            Step::Range { name, line, .. } => {
                if declared.iter().any(|d| d.0 == name) {
                    return Err(format!("{file}:{line}: a second `ARG` named `{name}`"));
                }
                declared.push((name, false));
            }
            Step::Launch { args, line, .. } => {
                launched = true;
                if let Some(a) = args.iter().find(|a| !declared.iter().any(|d| d.0 == *a)) {
                    return Err(format!(
                        "{file}:{line}: `{a}` is not an `ARG` above the launch"
                    ));
                }
            }
            Step::Expect(e) => {
                checks += 1;
                if !declared.iter().any(|d| d.0 == e.name && d.1) {
                    return Err(format!(
                        "{file}:{}: `{}` is not an array `ARG`",
                        e.line, e.name
                    ));
                }
                if !launched {
                    return Err(format!(
                        "{file}:{}: an `EXPECT` before any `LAUNCH` checks the inputs",
                        e.line
                    ));
                }
            }
        }
    }
    if checks == 0 {
        return Err(format!(
            "{file}: no `-- EXPECT:` line: the case would check nothing"
        ));
    }
    Ok(())
}

/// Every case file, parsed; `Err` for a missing or empty directory (a suite of zero cases would
/// pass while testing nothing) and for a file that does not parse.
pub fn specs() -> Vec<Result<Spec, String>> {
    let root = support::repo_root();
    let mut found = Vec::new();
    collect(&root.join(DIR), &mut found);
    if found.is_empty() {
        return vec![Err(format!(
            "{DIR}: missing or holds no .loom case: nothing to run"
        ))];
    }
    found.sort();
    found
        .into_iter()
        .map(|path| {
            let file = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .display()
                .to_string();
            let source = std::fs::read_to_string(&path).map_err(|e| format!("{file}: {e}"))?;
            parse(&file, &source)
        })
        .collect()
}

fn collect(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, found);
        } else if path.extension().is_some_and(|e| e == "loom") {
            found.push(path);
        }
    }
}

/// One test per case file and block size; a file that does not parse is one failing test.
pub fn trials() -> Vec<Trial> {
    let mut trials = Vec::new();
    for spec in specs() {
        match spec {
            // Named after the file (or the directory) the error names.
            Err(e) => {
                let name = format!("{} (unusable)", e.split(':').next().unwrap_or(DIR));
                trials.push(Trial::test(name, move || Err(e.into())))
            }
            Ok(spec) => {
                let spec = std::sync::Arc::new(spec);
                let name = spec
                    .file
                    .strip_prefix(&format!("{DIR}/"))
                    .unwrap_or(&spec.file)
                    .trim_end_matches(".loom")
                    .to_string();
                for &bs in &spec.block_sizes {
                    let spec = spec.clone();
                    trials.push(Trial::test(format!("{name}/bs{bs}"), move || {
                        run_case(&spec, bs)
                    }));
                }
                trials.push(Trial::test(format!("sanitizer/clean/{name}"), move || {
                    run_sanitized(&spec)
                }));
            }
        }
    }
    trials
}

fn run_case(spec: &Spec, bs: u32) -> Result<(), Failed> {
    let launch = |program: &HostProgram, n: usize, seed: u64| run(spec, program, bs, n, seed);
    Ok(support::same_bits_in_every_build(
        &spec.file,
        &spec.program,
        bs,
        support::faithful_sample(&spec.file, &spec.block_sizes, bs),
        &spec.sizes,
        &launch,
    )?)
}

/// No false alarm: the case runs clean under the sanitizer, and its `EXPECT`s hold, at `-O0`
/// and `-O3`, at its one block size or at 16 (a block that is part of one warp, whose shuffles
/// must stay within it) and 64.
fn run_sanitized(spec: &Spec) -> Result<(), Failed> {
    let block_sizes = match spec.block_sizes.as_slice() {
        [fixed] => vec![*fixed],
        _ => vec![16, 64],
    };
    for bs in block_sizes {
        for opt in [OptLevel::O0, OptLevel::O3] {
            let program = support::compile(&spec.program, bs, opt, true)
                .map_err(|e| format!("{}: {e}", spec.file))?;
            for &n in &spec.sizes {
                run(spec, &program, bs, n, n as u64).map_err(|e| {
                    format!(
                        "{} under the sanitizer ({opt:?}, block size {bs}, n = {n}): {e}",
                        spec.file
                    )
                })?;
            }
        }
    }
    Ok(())
}

/// An argument's memory: 8-byte aligned, so that any element type may live in it.
struct Buffer {
    words: Vec<u64>,
    len: usize,
}

impl Buffer {
    fn new(bytes: &[u8]) -> Buffer {
        let mut words = vec![0u64; bytes.len().div_ceil(8)];
        Buffer::view(&mut words, bytes.len()).copy_from_slice(bytes);
        Buffer {
            words,
            len: bytes.len(),
        }
    }

    fn view(words: &mut [u64], len: usize) -> &mut [u8] {
        // SAFETY: `words` holds at least `len` bytes, and any bytes are valid `u8`s.
        unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr() as *mut u8, len) }
    }

    fn bytes(&mut self) -> &mut [u8] {
        Buffer::view(&mut self.words, self.len)
    }
}

fn scalar_arg(ty: Ty, bytes: &[u8]) -> HostArg<'static> {
    let mut wide = [0u8; 8];
    wide[..bytes.len()].copy_from_slice(bytes);
    let v = u64::from_le_bytes(wide);
    match ty {
        Ty::I8 | Ty::U8 => HostArg::I8(v as i8),
        Ty::I16 | Ty::U16 => HostArg::I16(v as i16),
        Ty::I32 | Ty::U32 => HostArg::I32(v as i32),
        Ty::I64 | Ty::U64 => HostArg::I64(v as i64),
        Ty::F32 => HostArg::F32(f32::from_bits(v as u32)),
        Ty::F64 => HostArg::F64(f64::from_bits(v)),
    }
}

fn eval(env: &mut Env, line: usize, text: &str) -> Result<Val, String> {
    reference::parse(text)
        .and_then(|e| env.eval(&e))
        .map_err(|e| format!("line {line}: `{text}`: {e}"))
}

/// Runs the case once per `BLOCKS` line (the same seed, so the same inputs) and returns the
/// bytes every run compares, one run after another.
fn run(
    spec: &Spec,
    program: &HostProgram,
    bs: u32,
    n: usize,
    seed: u64,
) -> Result<Vec<u8>, String> {
    let mut all = Vec::new();
    for blocks in &spec.blocks {
        let bytes =
            run_at(spec, program, bs, n, seed, blocks).map_err(|e| match spec.blocks.len() {
                1 => e,
                _ => format!("at `BLOCKS: {blocks}`: {e}"),
            })?;
        all.extend(bytes);
    }
    Ok(all)
}

/// One kernel argument's value: its memory and what it was declared as.
struct Arg {
    name: String,
    ty: Ty,
    array: bool,
    buffer: Buffer,
    /// A record's (or `Range`'s) bytes in the C layout and its alignment so far; `None` for
    /// scalars and arrays.
    record: Option<(Vec<u8>, usize)>,
}

/// Appends a field's `bytes` to record `name`: to the last argument when it is that record,
/// else to a new one; each field at its size's alignment.
fn add_field(args: &mut Vec<Arg>, name: &str, bytes: Vec<u8>) {
    let continues = args
        .last()
        .is_some_and(|a| a.name == name && a.record.is_some());
    if !continues {
        args.push(Arg {
            name: name.to_string(),
            ty: Ty::U8,
            array: false,
            buffer: Buffer::new(&[]),
            record: Some((Vec::new(), 1)),
        });
    }
    if let Some(Arg {
        record: Some((packed, align)),
        ..
    }) = args.last_mut()
    {
        let size = bytes.len();
        packed.resize(packed.len().next_multiple_of(size), 0);
        packed.extend(bytes);
        *align = (*align).max(size);
    }
}

/// Whether `e` reads an array as a launch left it (`result(name)`).
fn reads_results(e: &reference::Expr) -> bool {
    use reference::Expr;
    match e {
        Expr::Call(name, args) => name == "result" || args.iter().any(reads_results),
        Expr::Unary(_, a) => reads_results(a),
        Expr::Binary(_, a, b) => reads_results(a) || reads_results(b),
        _ => false,
    }
}

/// Draws the inputs at one number of blocks, runs the steps in order (each `LAUNCH` on the
/// arrays as the launches before it left them, each `EXPECT` after the launches above it), and
/// returns the bytes of every array after the last step: as they are, or sorted where an
/// `EXPECT-MULTISET` checks the array (its order depends on timing), and without an array
/// whose `EXPECT` reads `result(...)` (a value a race decided, checked against the others).
fn run_at(
    spec: &Spec,
    program: &HostProgram,
    bs: u32,
    n: usize,
    seed: u64,
    blocks: &str,
) -> Result<Vec<u8>, String> {
    let mut rng = Rng::new(seed);
    let mut env = Env {
        names: HashMap::new(),
        rng: &mut rng,
        target: None,
        results: HashMap::new(),
    };
    let size = |v: usize| Val::int(v as i64);
    env.names.insert("n".to_string(), size(n));
    env.names.insert("bs".to_string(), size(bs as usize));
    let blocks = eval(&mut env, 0, blocks)?.as_usize("BLOCKS")?;
    let grid_cols = match &spec.grid_cols {
        Some(text) => Some(eval(&mut env, 0, text)?.as_usize("GRID-COLS")? as u32),
        None => None,
    };
    env.names.insert("blocks".to_string(), size(blocks));
    let mut args: Vec<Arg> = Vec::new();
    for step in &spec.steps {
        match step {
            Step::Let { name, expr, line } => {
                let v = eval(&mut env, *line, expr)?;
                env.names.insert(name.clone(), v);
            }
            Step::Arg {
                name,
                ty,
                len,
                expr,
                line,
            } => {
                let len = match len {
                    Some(text) => Some(eval(&mut env, *line, text)?.as_usize("a length")?),
                    None => None,
                };
                env.target = Some((*ty, len));
                let drawn = eval(&mut env, *line, expr);
                env.target = None;
                let mut v = drawn?.cast(*ty);
                match len {
                    Some(len) => {
                        v = v
                            .spread(len)
                            .map_err(|e| format!("line {line}: `{name}`: {e}"))?
                    }
                    None if !v.scalar => {
                        return Err(format!("line {line}: `{name}` is a scalar, not an array"))
                    }
                    None => {}
                }
                match name.split_once('.') {
                    Some((record, _)) => add_field(&mut args, record, v.bytes(*ty)),
                    None => args.push(Arg {
                        name: name.clone(),
                        ty: *ty,
                        array: len.is_some(),
                        buffer: Buffer::new(&v.bytes(*ty)),
                        record: None,
                    }),
                }
                env.names.insert(name.clone(), v);
            }
            Step::Range {
                name,
                start,
                end,
                line,
            } => {
                for (field, text) in [("start", start), ("end", end)] {
                    env.target = Some((Ty::I32, None));
                    let drawn = eval(&mut env, *line, text);
                    env.target = None;
                    let v = drawn?.cast(Ty::I32);
                    if !v.scalar {
                        return Err(format!("line {line}: `{name}.{field}` is a scalar"));
                    }
                    add_field(&mut args, name, v.bytes(Ty::I32));
                    env.names.insert(format!("{name}.{field}"), v);
                }
            }
            Step::Launch {
                kernel,
                args: passed,
                blocks: launch_blocks,
                line,
            } => {
                let launch_blocks = match launch_blocks {
                    Some(text) => eval(&mut env, *line, text)?.as_usize("blocks")?,
                    None => blocks,
                };
                // A record's size is a multiple of its alignment (C's tail padding).
                for a in args.iter_mut() {
                    if let Some((packed, align)) = &mut a.record {
                        packed.resize(packed.len().next_multiple_of(*align), 0);
                    }
                }
                let mut slots: Vec<Option<HostArg>> = args
                    .iter_mut()
                    .map(|a| {
                        Some(match (&a.record, a.array) {
                            (Some((packed, _)), _) => HostArg::Record(packed),
                            (None, true) => HostArg::Array {
                                name: a.name.clone(),
                                data: a.buffer.bytes(),
                                elem_size: a.ty.size(),
                            },
                            (None, false) => scalar_arg(a.ty, a.buffer.bytes()),
                        })
                    })
                    .collect();
                let names: Vec<&str> = spec_arg_names(&spec.steps);
                let mut host_args = Vec::new();
                for p in passed {
                    let i = names
                        .iter()
                        .position(|a| a == p)
                        .ok_or(format!("line {line}: no `ARG` `{p}`"))?;
                    host_args.push(
                        slots[i]
                            .take()
                            .ok_or(format!("line {line}: `{p}` passed twice to one launch"))?,
                    );
                }
                drop(slots);
                program
                    .launch(
                        kernel,
                        &LaunchShape {
                            blocks: launch_blocks as u32,
                            grid_cols,
                            block_size: None,
                            dynamic_shared_bytes: 0,
                            progress: None,
                        },
                        &mut host_args,
                    )
                    .map_err(|e| match line {
                        0 => e.to_string(),
                        _ => format!("line {line}: {kernel}: {e}"),
                    })?;
                drop(host_args);
                for a in args.iter_mut().filter(|a| a.array) {
                    let v = Val::from_bytes(a.ty, a.buffer.bytes());
                    env.results.insert(a.name.clone(), v);
                }
            }
            Step::Expect(expect) => {
                let a = args
                    .iter_mut()
                    .find(|a| a.name == expect.name)
                    .expect("checked when parsed");
                let (ty, got) = (a.ty, Val::from_bytes(a.ty, a.buffer.bytes()));
                let expected = eval(&mut env, expect.line, &expect.expr)?;
                let tol = match &expect.tol {
                    Some(text) => Some(eval(&mut env, expect.line, text)?),
                    None => None,
                };
                compare(expect, ty, &got, &expected, tol.as_ref())
                    .map_err(|e| format!("line {}: {e}", expect.line))?;
            }
        }
    }
    let expects = || {
        spec.steps.iter().filter_map(|s| match s {
            Step::Expect(e) => Some(e),
            _ => None,
        })
    };
    let mut bytes = Vec::new();
    for a in args.iter_mut().filter(|a| a.array) {
        let mine = || expects().filter(|e| e.name == a.name);
        if mine().any(|e| reference::parse(&e.expr).is_ok_and(|x| reads_results(&x))) {
            continue;
        }
        let size = a.ty.size();
        let multiset = mine().any(|e| e.check == Check::Multiset);
        let data = a.buffer.bytes();
        if multiset {
            let mut elements: Vec<&[u8]> = data.chunks(size).collect();
            elements.sort_unstable();
            elements.into_iter().for_each(|e| bytes.extend(e));
        } else {
            bytes.extend_from_slice(data);
        }
    }
    Ok(bytes)
}

/// The names of the case's parameters, in order (the `i`th is `run_at`'s `args[i]`): an
/// `ARG`'s, a `Range`'s, and once a record's (`p` for the consecutive `p.x`, `p.y`).
fn spec_arg_names(steps: &[Step]) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for step in steps {
        let name = match step {
            Step::Arg { name, .. } => match name.split_once('.') {
                Some((record, _)) if names.last() == Some(&record) => continue,
                Some((record, _)) => record,
                None => name.as_str(),
            },
            Step::Range { name, .. } => name.as_str(),
            _ => continue,
        };
        names.push(name);
    }
    names
}

/// The same elements as the reference (converted to the array's type), in any order: compared
/// sorted, integers exactly, floats by their bits.
fn same_multiset(what: &str, ty: Ty, got: &Val, expected: &Val) -> Result<(), String> {
    let sorted = |v: &Val| -> Vec<(i64, u64)> {
        let mut keys: Vec<(i64, u64)> = match &v.cast(ty).data {
            reference::Data::I(xs) => xs.iter().map(|x| (*x, 0)).collect(),
            reference::Data::F(xs) => xs.iter().map(|x| (0, x.to_bits())).collect(),
        };
        keys.sort_unstable();
        keys
    };
    let (g, e) = (sorted(got), sorted(expected));
    match (0..g.len()).find(|i| g[*i] != e[*i]) {
        None => Ok(()),
        Some(i) => {
            let show = |k: (i64, u64)| match ty.is_float() {
                true => format!("{}", f64::from_bits(k.1)),
                false => format!("{}", k.0),
            };
            Err(format!(
                "`{what}` sorted: element {i} is {}, expected {} (not the same multiset)",
                show(g[i]),
                show(e[i])
            ))
        }
    }
}

/// Exactly: the reference converted to the array's type, equal as numbers (`-0.0 = 0.0`), or
/// with the same bits. Within a tolerance: `|got - expected| <= max(abs, rel * max(|got|,
/// |expected|), tol[i])`, the reference in full precision.
fn compare(
    expect: &Expect,
    ty: Ty,
    got: &Val,
    expected: &Val,
    tol: Option<&Val>,
) -> Result<(), String> {
    let what = &expect.name;
    let len = got.len();
    let expected = expected
        .spread(len)
        .map_err(|e| format!("`{what}` has {len} elements; the reference: {e}"))?;
    if expect.check == Check::Multiset {
        return same_multiset(what, ty, got, &expected);
    }
    let tol = match tol {
        Some(t) => Some(
            t.spread(len)
                .map_err(|e| format!("the tolerance of `{what}`: {e}"))?
                .as_f64s(),
        ),
        None => None,
    };
    if !expect.close {
        let expected = expected.cast(ty);
        let (g, e) = (got.as_f64s(), expected.as_f64s());
        if let (reference::Data::I(g), reference::Data::I(e)) = (&got.data, &expected.data) {
            if let Some(i) = (0..len).find(|i| g[*i] != e[*i]) {
                return Err(format!("{what}[{i}] = {}, expected {}", g[i], e[i]));
            }
            return Ok(());
        }
        return match (0..len).find(|i| g[*i] != e[*i] && g[*i].to_bits() != e[*i].to_bits()) {
            None => Ok(()),
            Some(i) => Err(format!("{what}[{i}] = {}, expected {}", g[i], e[i])),
        };
    }
    let (g, e) = (got.as_f64s(), expected.as_f64s());
    for i in 0..len {
        let mut tolerance = expect.abs.max(expect.rel * g[i].abs().max(e[i].abs()));
        if let Some(t) = &tol {
            tolerance = tolerance.max(t[i]);
        }
        if (g[i] - e[i]).is_nan() || (g[i] - e[i]).abs() > tolerance {
            return Err(format!(
                "{what}[{i}] = {}, expected {} (tolerance {tolerance:e})",
                g[i], e[i]
            ));
        }
    }
    Ok(())
}

/// The runner's own checks, on values made here: each check kind rejects a wrong result, and
/// the file format's mistakes are errors.
pub fn self_tests() -> Vec<Trial> {
    let t = |name: &str, f: fn() -> Result<(), String>| {
        Trial::test(format!("files/{name}"), move || Ok(f()?))
    };
    vec![
        t(
            "multiset_rejects_other_elements",
            multiset_rejects_other_elements,
        ),
        t(
            "result_reads_the_launched_array",
            result_reads_the_launched_array,
        ),
        t("reference_functions", reference_functions),
        t("malformed_cases_are_errors", malformed_cases_are_errors),
    ]
}

fn expect(check: Check, name: &str) -> Expect {
    Expect {
        check,
        name: name.to_string(),
        expr: String::new(),
        rel: 0.0,
        abs: 0.0,
        tol: None,
        close: false,
        line: 1,
    }
}

fn value(env: &mut Env, text: &str) -> Result<Val, String> {
    reference::parse(text).and_then(|e| env.eval(&e))
}

fn new_env(rng: &mut Rng) -> Env<'_> {
    Env {
        names: HashMap::new(),
        rng,
        target: None,
        results: HashMap::new(),
    }
}

/// `EXPECT-MULTISET` takes any order of the same elements, and nothing else: not an element
/// replaced, not one repeated in place of another.
fn multiset_rejects_other_elements() -> Result<(), String> {
    let mut rng = Rng::new(0);
    let mut env = new_env(&mut rng);
    let e = expect(Check::Multiset, "order");
    let reference = value(&mut env, "iota(4)")?;
    let got = |v: &[i32]| {
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        Val::from_bytes(Ty::I32, &bytes)
    };
    compare(&e, Ty::I32, &got(&[2, 0, 3, 1]), &reference, None)
        .map_err(|e| format!("a permutation rejected: {e}"))?;
    for wrong in [[2, 0, 3, 3], [0, 1, 2, 4], [1, 1, 1, 1]] {
        if compare(&e, Ty::I32, &got(&wrong), &reference, None).is_ok() {
            return Err(format!("{wrong:?} accepted as a permutation of 0..4"));
        }
    }
    // The same with floats, by their bits.
    let bytes: Vec<u8> = [1.5f32, -1.0]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let floats = Val::from_bytes(Ty::F32, &bytes);
    let e = expect(Check::Multiset, "f");
    compare(
        &e,
        Ty::F32,
        &floats,
        &value(&mut env, "f32(list(-1, 1.5))")?,
        None,
    )?;
    if compare(
        &e,
        Ty::F32,
        &floats,
        &value(&mut env, "f32(list(-1, 2.5))")?,
        None,
    )
    .is_ok()
    {
        return Err("[1.5, -1] accepted as the multiset {-1, 2.5}".to_string());
    }
    Ok(())
}

/// `result(name)` reads the array after the launch (the `slot` a race decided), not the input.
fn result_reads_the_launched_array() -> Result<(), String> {
    let mut rng = Rng::new(0);
    let mut env = new_env(&mut rng);
    let before = value(&mut env, "list(-7, -7, -7)")?;
    env.names.insert("won".to_string(), before);
    if value(&mut env, "find(result(won))").is_ok() {
        return Err("`result` read an array before any launch".to_string());
    }
    let after = value(&mut env, "i32(list(0, 0, 1))")?;
    env.results.insert("won".to_string(), after);
    let e = expect(Check::Equal, "slot");
    let slot = |v: i32| Val::from_bytes(Ty::I32, &v.to_le_bytes());
    let reference = value(&mut env, "find(result(won))")?;
    compare(&e, Ty::I32, &slot(2), &reference, None)?;
    if compare(&e, Ty::I32, &slot(0), &reference, None).is_ok() {
        return Err("slot 0 accepted where block 2 won".to_string());
    }
    Ok(())
}

/// The reference functions the case files use, on small arrays worked out by hand.
fn reference_functions() -> Result<(), String> {
    let mut rng = Rng::new(0);
    let mut env = new_env(&mut rng);
    let x = "i32(list(0, 3, 0, -2, 5, 0, 0))";
    let cases = [
        (format!("rowfirst({x}, 3)"), "list(3, -2, 0)"),
        (format!("scanfirst({x}, 3)"), "list(0, 3, 3, -2, -2, -2, 0)"),
        (format!("rscanfirst({x}, 3)"), "list(3, 3, 0, -2, 5, 0, 0)"),
        (format!("scanmax({x}, 3)"), "list(0, 3, 3, -2, 5, 5, 0)"),
        (format!("rscanmin({x}, 3)"), "list(0, 0, 0, -2, 0, 0, 0)"),
        (format!("sortrows({x}, 3)"), "list(0, 0, 3, -2, 0, 5, 0)"),
        (format!("rowargmax({x}, 3)"), "list(1, 1, 0)"),
        (format!("count({x}, 4)"), "list(4, 0, 0, 1)"),
        (format!("filter({x}, {x} != 0)"), "list(3, -2, 5)"),
        (format!("find({x})"), "1"),
        (
            "scatter(list(7, 8, 9), list(2, -1, 0), 0)".to_string(),
            "list(9, 0, 7)",
        ),
        ("andof(u8(list(6, 3)))".to_string(), "2"),
        ("bitxor(u8(list(6, 3)), 5)".to_string(), "list(3, 6)"),
        ("bitnot(u8(list(0, 255)))".to_string(), "list(255, 0)"),
        ("shl(i8(list(100)), 1)".to_string(), "list(-56)"),
        ("shr(i16(list(-16, 16)), 3)".to_string(), "list(-2, 2)"),
        ("shr(u16(list(65520)), 3)".to_string(), "list(8190)"),
        ("div0(list(7, 7), list(2, 0))".to_string(), "list(3, 0)"),
        // Saturating, as Rust's `as`: not the low bits of an `i64`.
        (
            "i8(list(1e10, -1e10, nan))".to_string(),
            "list(127, -128, 0)",
        ),
        // The reduction's order: threads 0 and 1 hold 1 - 1e8 and 1e8 + 1, both rounded to
        // -1e8 and 1e8 in f32; adding in turn (`rowsum`) gives 1.
        (
            "blocksum(f32(list(1, 100000000, -100000000, 1)), 4, 2)".to_string(),
            "0",
        ),
        (
            "rowsum(f32(list(1, 100000000, -100000000, 1)), 4)".to_string(),
            "1",
        ),
        (
            "collatz(list(1, 2, 3, 27))".to_string(),
            "list(0, 1, 7, 111)",
        ),
        // One rounding, as Rust's `as`: not 2^60 (through `f64`, then a tie to even).
        (
            "f64(f32(i64(1152921573326323713)))".to_string(),
            "1152921642045800448",
        ),
    ];
    for (text, want) in cases {
        let (got, want) = (value(&mut env, &text)?, value(&mut env, want)?);
        if got.as_f64s() != want.as_f64s() {
            return Err(format!(
                "`{text}` = {:?}, expected {:?}",
                got.as_f64s(),
                want.as_f64s()
            ));
        }
    }
    Ok(())
}

/// A case the runner cannot run as written is an error, not a case that checks less.
fn malformed_cases_are_errors() -> Result<(), String> {
    let head = "-- ARG: n: i32 = n\n-- ARG: x: i32[n] = 0\n";
    let bad = [
        (
            "an unknown directive",
            format!("-- KERNEL: k\n{head}-- EXPECT-SORTED: x = 0\n"),
        ),
        (
            "KERNEL and LAUNCH",
            format!("-- KERNEL: k\n{head}-- LAUNCH: k(n, x)\n-- EXPECT: x = 0\n"),
        ),
        ("no launch", format!("{head}-- EXPECT: x = 0\n")),
        (
            "a launch of an undeclared ARG",
            format!("{head}-- LAUNCH: k(n, y)\n-- EXPECT: x = 0\n"),
        ),
        (
            "an EXPECT before the launch",
            format!("{head}-- EXPECT: x = 0\n-- LAUNCH: k(n, x)\n"),
        ),
        (
            "two ARGs of one name",
            format!("{head}-- ARG: x: i32[n] = 1\n-- LAUNCH: k(n, x)\n-- EXPECT: x = 0\n"),
        ),
        (
            "a multiset within a tolerance",
            format!("{head}-- LAUNCH: k(n, x)\n-- EXPECT-MULTISET: x = 0 within rel 1e-6\n"),
        ),
        (
            "a LAUNCH without its list",
            format!("{head}-- LAUNCH: k n x\n-- EXPECT: x = 0\n"),
        ),
        ("no check", format!("{head}-- LAUNCH: k(n, x)\n")),
    ];
    for (what, source) in bad {
        if parse("case.loom", &source).is_ok() {
            return Err(format!("{what}: accepted:\n{source}"));
        }
    }
    parse("case.loom", &format!("{head}-- LAUNCH: k(n, x) blocks 3\n-- EXPECT: x = 0\n-- LAUNCH: k(n, x)\n-- EXPECT-MULTISET: x = 0\n"))?;
    Ok(())
}
