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
//! As for the cases in Rust (`run.rs`), `-O0` and `-O3` must give the same bits in every array
//! after the launch, and so must a call per thread where the kernel runs as compiled threads.

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
    "SIZES",
    "BLOCK-SIZES",
    "BLOCKS",
    "GRID-COLS",
    "LET",
    "ARG",
    "EXPECT",
];

const DEFAULT_SIZES: &[usize] = &[1, 31, 1000, 4097];

#[derive(Debug)]
enum Step {
    Let {
        name: String,
        expr: String,
        line: usize,
    },
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
}

#[derive(Debug)]
struct Expect {
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
    kernel: String,
    sizes: Vec<usize>,
    pub block_sizes: Vec<u32>,
    blocks: String,
    grid_cols: Option<String>,
    steps: Vec<Step>,
    expects: Vec<Expect>,
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
fn parse_expect(at: &str, value: &str, line: usize) -> Result<Expect, String> {
    let (name, rest) = value
        .split_once('=')
        .ok_or(format!("{at}: `EXPECT: array = expression`"))?;
    let (expr, within) = match rest.split_once(" within ") {
        Some((e, w)) => (e, Some(w)),
        None => (rest, None),
    };
    let mut expect = Expect {
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
    let kernel = one("KERNEL")?.ok_or(format!("{file}: no `-- KERNEL:` line"))?;
    let sizes = match header::single(file, &directives, "SIZES")? {
        Some(d) => words(&at(d.line), &d.value)?,
        None => DEFAULT_SIZES.to_vec(),
    };
    let block_sizes = match header::single(file, &directives, "BLOCK-SIZES")? {
        Some(d) => words(&at(d.line), &d.value)?,
        None => super::BLOCK_SIZES.to_vec(),
    };
    let mut steps = Vec::new();
    let mut expects = Vec::new();
    for d in &directives {
        match d.key.as_str() {
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
            "EXPECT" => expects.push(parse_expect(&at(d.line), &d.value, d.line)?),
            _ => {}
        }
    }
    if expects.is_empty() {
        return Err(format!(
            "{file}: no `-- EXPECT:` line: the case would check nothing"
        ));
    }
    for e in &expects {
        let is_array = steps
            .iter()
            .any(|s| matches!(s, Step::Arg { name, len: Some(_), .. } if *name == e.name));
        if !is_array {
            return Err(format!(
                "{}: `{}` is not an array `ARG`",
                at(e.line),
                e.name
            ));
        }
    }
    Ok(Spec {
        file: file.to_string(),
        program: one("PROGRAM")?.unwrap_or_else(|| file.to_string()),
        kernel,
        sizes,
        block_sizes,
        blocks: one("BLOCKS")?.unwrap_or_else(|| "max(cdiv(n, bs), 1)".to_string()),
        grid_cols: one("GRID-COLS")?,
        steps,
        expects,
    })
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

/// A parameter of a launch in order: `Ok(index into the scalars and arrays)`, or a record's
/// (name, packed bytes, alignment).
type Slot = Result<usize, (String, Vec<u8>, usize)>;

/// Draws the inputs, launches the kernel once, checks every `EXPECT`, and returns the bytes of
/// every array after the launch.
fn run(
    spec: &Spec,
    program: &HostProgram,
    bs: u32,
    n: usize,
    seed: u64,
) -> Result<Vec<u8>, String> {
    let mut rng = Rng::new(seed);
    let mut env = Env {
        names: HashMap::new(),
        rng: &mut rng,
        target: None,
    };
    let size = |v: usize| Val::int(v as i64);
    env.names.insert("n".to_string(), size(n));
    env.names.insert("bs".to_string(), size(bs as usize));
    let blocks = eval(&mut env, 0, &spec.blocks)?.as_usize("BLOCKS")?;
    let grid_cols = match &spec.grid_cols {
        Some(text) => Some(eval(&mut env, 0, text)?.as_usize("GRID-COLS")? as u32),
        None => None,
    };
    env.names.insert("blocks".to_string(), size(blocks));
    // (name, type, array?, bytes): scalars and arrays; a record's fields go into its `Record`.
    let mut args: Vec<(String, Ty, bool, Buffer)> = Vec::new();
    // In parameter order: `Ok(index into args)`, or a record's (name, bytes, alignment).
    let mut order: Vec<Slot> = Vec::new();
    // Field `field` of type `ty` appended to record `record`, at its natural alignment.
    let add_field = |order: &mut Vec<Slot>, record: &str, bytes: Vec<u8>| {
        let size = bytes.len();
        if !matches!(order.last(), Some(Err((name, ..))) if name == record) {
            order.push(Err((record.to_string(), Vec::new(), 1)));
        }
        if let Some(Err((_, packed, align))) = order.last_mut() {
            packed.resize(packed.len().next_multiple_of(size), 0);
            packed.extend(bytes);
            *align = (*align).max(size);
        }
    };
    for step in &spec.steps {
        match step {
            Step::Let { name, expr, line } => {
                let v = eval(&mut env, *line, expr)?;
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
                    add_field(&mut order, name, v.bytes(Ty::I32));
                    env.names.insert(format!("{name}.{field}"), v);
                }
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
                if let Some((record, _)) = name.split_once('.') {
                    add_field(&mut order, record, v.bytes(*ty));
                } else {
                    order.push(Ok(args.len()));
                    args.push((name.clone(), *ty, len.is_some(), Buffer::new(&v.bytes(*ty))));
                }
                env.names.insert(name.clone(), v);
            }
        }
    }
    // A record's size is a multiple of its alignment (C's tail padding).
    for record in order.iter_mut() {
        if let Err((_, packed, align)) = record {
            packed.resize(packed.len().next_multiple_of(*align), 0);
        }
    }
    let mut by_index: Vec<Option<HostArg>> = args
        .iter_mut()
        .map(|(name, ty, array, buffer)| {
            Some(match array {
                true => HostArg::Array {
                    name: name.clone(),
                    data: buffer.bytes(),
                    elem_size: ty.size(),
                },
                false => scalar_arg(*ty, buffer.bytes()),
            })
        })
        .collect();
    let mut host_args: Vec<HostArg> = order
        .iter()
        .map(|p| match p {
            Ok(i) => by_index[*i].take().expect("each argument once"),
            Err((_, packed, _)) => HostArg::Record(packed),
        })
        .collect();
    program
        .launch(
            &spec.kernel,
            &LaunchShape {
                blocks: blocks as u32,
                grid_cols,
                block_size: None,
                dynamic_shared_bytes: 0,
                progress: None,
            },
            &mut host_args,
        )
        .map_err(|e| e.to_string())?;
    drop(host_args);
    for expect in &spec.expects {
        let (_, ty, _, buffer) = args
            .iter_mut()
            .find(|(name, ..)| *name == expect.name)
            .expect("checked when parsed");
        let got = Val::from_bytes(*ty, buffer.bytes());
        let expected = eval(&mut env, expect.line, &expect.expr)?;
        let tol = match &expect.tol {
            Some(text) => Some(eval(&mut env, expect.line, text)?),
            None => None,
        };
        compare(expect, *ty, &got, &expected, tol.as_ref())
            .map_err(|e| format!("line {}: {e}", expect.line))?;
    }
    Ok(args
        .iter_mut()
        .filter(|(_, _, array, _)| *array)
        .flat_map(|(.., buffer)| buffer.bytes().to_vec())
        .collect())
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
