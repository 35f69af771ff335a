//! `loomc run FILE.loom --kernel NAME --blocks N`: compile one kernel, run it on the CPU backend
//! or a GPU, with scalar arguments from the command line and arrays from and to `.npy` files.
//! Every argument is checked against the kernel's metadata before the launch.

mod bytes;
mod memory;
mod npy;
mod output;
mod timing;

use super::{print_plain_error, ErrorFormat, EXIT_INTERNAL_ERROR, EXIT_PROGRAM_ERRORS, EXIT_USAGE};
use clap::{Args, ValueEnum};
use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};
use loom_runtime::args::{self, ArgShape, PackedRecord, Scalar};
use loom_runtime::{Gpu, GpuArg, KernelMetadata, ModuleMetadata, ParamKind, ScalarType};
use loomc::diagnostics::SourceFiles;
use loomc::driver::{self, Emit, Options};
use loomc::target::host::{HostArg, HostOptions, HostProgram, LaunchShape, RunError};
use loomc::target::{Libdevice, OptLevel};
use npy::Array;
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct RunArgs {
    /// The .loom source file.
    file: PathBuf,
    /// The kernel to run.
    #[arg(long)]
    kernel: String,
    /// Blocks in the grid (`BLOCKS`): 1 to 2^31 - 1, as on a GPU; `ROWSxCOLS` (`4x8`) for a
    /// two-dimensional grid of ROWS rows of COLS blocks (a kernel that names `BROW`, `BCOL`,
    /// `GRIDROWS` or `GRIDCOLS`).
    // Negative numbers reach the parser (not clap's "unexpected argument '-1'"), which says why.
    #[arg(long, allow_negative_numbers = true, value_parser = parse_grid)]
    blocks: Grid,
    /// Where to run: the CPU backend, or the first CUDA GPU.
    #[arg(long, value_enum, default_value = "cpu")]
    device: Device,
    /// A scalar argument: `--arg n=1000` (repeat for each); a `Range` as `--arg r=3..20`, a
    /// record's fields one by one, `--arg p.x=1.5 --arg p.y=2`.
    #[arg(long = "arg", value_name = "NAME=VALUE")]
    scalars: Vec<String>,
    /// An input array: `--in x=x.npy` (also written back with `--out` to the same name).
    #[arg(long = "in", value_name = "NAME=FILE.npy")]
    inputs: Vec<String>,
    /// An array to write after the run: `--out y=y.npy`. Without `--in`, it starts as zeros.
    #[arg(long = "out", value_name = "NAME=FILE.npy")]
    outputs: Vec<String>,
    /// Check shared-memory races, barriers and out-of-bounds accesses while running (CPU only).
    #[arg(long)]
    sanitize: bool,
    /// Run every GPU thread as its own call of the kernel, with a stack of its own where the
    /// kernel synchronises (CPU only), not a block's threads as one compiled loop (kernels
    /// without barriers and warp collectives) or as compiled coroutines (the others): slower;
    /// for comparing the two.
    #[arg(long)]
    one_call_per_thread: bool,
    /// Optimisation level, -O0 to -O3.
    #[arg(short = 'O', value_name = "LEVEL", default_value = "3", value_parser = ["0", "1", "2", "3"])]
    opt_level: String,
    /// BLOCKSIZE of kernels without `@blocksize(N)`.
    #[arg(long, default_value_t = 256, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    block_size: u32,
    /// The GPU architecture of the PTX (`--device cuda`).
    #[arg(long, default_value = "sm_80", value_name = "sm_XX")]
    arch: String,
    /// How errors are printed: for people, or one JSON object per line for tools (compile
    /// diagnostics as `loomc FILE.loom` prints them; launch and argument errors with a null
    /// code).
    #[arg(long, value_enum, default_value = "human")]
    error_format: ErrorFormat,
    /// Skip the kernel verifier (barrier placement, shared-memory races).
    #[arg(long)]
    no_verify: bool,
    /// Run the kernel N times (each on the same inputs) and print the best and mean times; the
    /// outputs are the last run's.
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = parse_repeat)]
    repeat: u32,
}

/// The most blocks a grid may have: CUDA's limit on `gridDim.x`.
const MAX_BLOCKS: i64 = i32::MAX as i64;

fn parse_count(text: &str, what: &str, max: i64) -> Result<u32, String> {
    let value: i64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{what} is a whole number from 1 to {max}, not `{text}`"))?;
    if value < 1 {
        return Err(format!("{what} must be at least 1, not {value}"));
    }
    if value > max {
        return Err(format!("{what} is at most {max}, not {value}"));
    }
    Ok(value as u32)
}

/// `--blocks`: a count of blocks, so a whole number from 1 (a negative one is named as such).
fn parse_blocks(text: &str) -> Result<u32, String> {
    parse_count(text, "a grid's number of blocks", MAX_BLOCKS).map_err(|e| {
        match text.trim().parse::<i64>() {
            Ok(n) if n < 0 => format!("a negative block count ({n}): {e}"),
            Ok(0) => format!("{e}: the grid needs at least 1 block"),
            _ => e,
        }
    })
}

/// `--blocks`: `N` blocks, or a two-dimensional grid `ROWSxCOLS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Grid {
    /// Blocks in the grid, all of them (`BLOCKS`).
    total: u32,
    /// The grid's columns (`GRIDCOLS`, CUDA's `gridDim.x`), for `ROWSxCOLS`.
    cols: Option<u32>,
}

fn parse_grid(text: &str) -> Result<Grid, String> {
    let Some((rows, cols)) = text.trim().split_once(['x', 'X']) else {
        return Ok(Grid {
            total: parse_blocks(text)?,
            cols: None,
        });
    };
    let rows = parse_count(rows, "a grid's number of rows", i64::from(u16::MAX))?;
    let cols = parse_count(cols, "a grid's number of columns", MAX_BLOCKS)?;
    let total = rows
        .checked_mul(cols)
        .filter(|t| i64::from(*t) <= MAX_BLOCKS)
        .ok_or_else(|| {
            format!("a grid of {rows}x{cols} blocks has more than {MAX_BLOCKS} blocks")
        })?;
    Ok(Grid {
        total,
        cols: Some(cols),
    })
}

fn parse_repeat(text: &str) -> Result<u32, String> {
    parse_count(text, "--repeat", 1_000_000)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Device {
    Cpu,
    Cuda,
}

/// What went wrong, and the exit status it earns.
enum Failure {
    Usage(String),
    Program(String),
    Internal(String),
}

pub fn run(cli: &RunArgs) -> ExitCode {
    let format = cli.error_format;
    match run_inner(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(m)) => {
            print_plain_error(format, &m, None);
            ExitCode::from(EXIT_USAGE)
        }
        Err(Failure::Program(m)) => {
            print_plain_error(format, &m, None);
            ExitCode::from(EXIT_PROGRAM_ERRORS)
        }
        Err(Failure::Internal(m)) => {
            print_plain_error(format, &format!("internal compiler error: {m}"), None);
            ExitCode::from(EXIT_INTERNAL_ERROR)
        }
    }
}

fn split_pair(text: &str, flag: &str) -> Result<(String, String), Failure> {
    text.split_once('=')
        .map(|(a, b)| (a.trim().to_string(), b.trim().to_string()))
        .ok_or_else(|| Failure::Usage(format!("`{flag} {text}`: expected NAME=VALUE")))
}

fn run_inner(cli: &RunArgs) -> Result<(), Failure> {
    let emit = match cli.device {
        Device::Cpu => Emit::Llvm,
        Device::Cuda => Emit::Ptx,
    };
    let (code, metadata) = compile(cli, emit)?;
    let kernel = metadata
        .kernel(&cli.kernel)
        .map_err(Failure::Usage)?
        .clone();
    let mut outputs = output::Outputs::prepare(cli, &kernel)?;
    let (values, mut arrays) = gather_arguments(cli, &kernel)?;
    let (scalars, records) = (&values.scalars, &values.records);
    let shapes: Vec<ArgShape> = kernel
        .params
        .iter()
        .filter_map(|p| match &p.kind {
            ParamKind::Scalar { .. } => Some(ArgShape::Scalar(scalars[&p.name])),
            ParamKind::Array { element, .. } => Some(ArgShape::Array {
                element: *element,
                shape: arrays[&p.name].shape.clone(),
            }),
            ParamKind::Record { .. } => Some(ArgShape::Record(records[&p.name].clone())),
            ParamKind::Scratch { .. } => None,
        })
        .collect();
    if cli.blocks.cols.is_some() && kernel.grid_dims.unwrap_or(1) < 2 {
        return Err(Failure::Usage(format!(
            "kernel `{}` runs on a one-dimensional grid (it names none of `BROW`, `BCOL`, `GRIDROWS`, `GRIDCOLS`): give `--blocks N`",
            kernel.name
        )));
    }
    args::check(&kernel, cli.blocks.total, &shapes).map_err(Failure::Usage)?;
    // Each repeat starts from the inputs, so that every run computes the same thing.
    let pristine = (cli.repeat > 1).then(|| arrays.clone());
    let (what, times) = match cli.device {
        Device::Cpu => run_cpu(cli, &code, &kernel, &values, &mut arrays, pristine.as_ref())?,
        Device::Cuda => run_cuda(
            cli,
            &code,
            &metadata,
            &kernel,
            &values,
            &mut arrays,
            pristine.as_ref(),
        )?,
    };
    // Under --error-format=json, standard error holds JSON only.
    if cli.error_format == ErrorFormat::Human {
        eprintln!(
            "ran `{}` on {what}: {} blocks of {} threads: {}",
            kernel.name,
            cli.blocks.total,
            kernel.block_size,
            timing::describe(&times)
        );
    }
    outputs.write(&kernel, &arrays)
}

fn run_cuda(
    cli: &RunArgs,
    ptx: &str,
    metadata: &ModuleMetadata,
    kernel: &KernelMetadata,
    values: &Values,
    arrays: &mut Arrays,
    pristine: Option<&Arrays>,
) -> Result<(String, Vec<f64>), Failure> {
    let (scalars, records) = (&values.scalars, &values.records);
    let gpu = Gpu::open(0).map_err(Failure::Program)?;
    let module = gpu.load(ptx, metadata.clone()).map_err(Failure::Program)?;
    let mut times = Vec::new();
    for _ in 0..cli.repeat {
        if let Some(inputs) = pristine {
            arrays.clone_from(inputs);
        }
        let mut by_name: HashMap<&String, &mut Array> = arrays.iter_mut().collect();
        let mut gpu_args: Vec<GpuArg> = Vec::new();
        // loom-runtime allocates the scratch arrays on the device.
        for p in kernel.params.iter().filter(|p| p.is_passed()) {
            gpu_args.push(match &p.kind {
                ParamKind::Scratch { .. } => continue,
                ParamKind::Scalar { .. } => GpuArg::Scalar(scalars[&p.name]),
                ParamKind::Record { .. } => GpuArg::Record(records[&p.name].clone()),
                ParamKind::Array { element, .. } => {
                    let array = by_name
                        .remove(&p.name)
                        .ok_or_else(|| Failure::Internal(format!("no array for `{}`", p.name)))?;
                    GpuArg::Array {
                        shape: array.shape.clone(),
                        element: *element,
                        data: &mut array.bytes,
                    }
                }
            });
        }
        let grid = match cli.blocks.cols {
            Some(cols) => loom_runtime::GridShape {
                rows: cli.blocks.total / cols.max(1),
                cols,
            },
            None => loom_runtime::GridShape::blocks(cli.blocks.total),
        };
        let timing = gpu
            .launch_grid(&module, &kernel.name, grid, &mut gpu_args)
            .map_err(Failure::Program)?;
        times.push(timing.kernel_ms as f64 / 1e3);
    }
    Ok((
        format!("{} (kernel time, without copies)", gpu.name()),
        times,
    ))
}

/// The compiler's options for a run: the device's code and the metadata.
fn driver_options(cli: &RunArgs, emit: Emit) -> Options {
    let mut options = Options {
        emit: vec![emit, Emit::Metadata],
        opt: match cli.opt_level.as_str() {
            "0" => OptLevel::O0,
            "1" => OptLevel::O1,
            "2" => OptLevel::O2,
            _ => OptLevel::O3,
        },
        arch: cli.arch.clone(),
        block_size: cli.block_size,
        libdevice: match cli.device {
            Device::Cpu => Libdevice::Declare,
            Device::Cuda => Libdevice::Link,
        },
        ..Options::default()
    };
    options.verify.enabled = !cli.no_verify;
    options
}

/// Compiles to the device's code (LLVM IR or PTX) and the metadata.
fn compile(cli: &RunArgs, emit: Emit) -> Result<(String, ModuleMetadata), Failure> {
    let name = cli.file.display().to_string();
    let source = std::fs::read_to_string(&cli.file)
        .map_err(|e| Failure::Usage(format!("cannot read `{name}`: {e}")))?;
    let options = driver_options(cli, emit);
    let mut files = SourceFiles::default();
    let compilation = driver::compile(&mut files, &name, &source, &options);
    let mut stderr = StandardStream::stderr(ColorChoice::Never);
    for diagnostic in &compilation.diagnostics {
        match cli.error_format {
            ErrorFormat::Human => {
                let _ = files.render_human(diagnostic, &mut stderr);
            }
            ErrorFormat::Json => eprintln!("{}", files.render_json(diagnostic)),
        }
    }
    if compilation.has_internal_error() {
        return Err(Failure::Internal("see the diagnostics above".to_string()));
    }
    let outputs = compilation
        .outputs
        .ok_or_else(|| Failure::Program(format!("could not compile `{name}`")))?;
    let text = |kind: Emit| {
        outputs
            .iter()
            .find(|(e, _)| *e == kind)
            .map(|(_, t)| t.clone())
    };
    let code = text(emit).ok_or_else(|| Failure::Internal("no code".to_string()))?;
    let metadata = text(Emit::Metadata)
        .ok_or_else(|| Failure::Internal("no metadata".to_string()))
        .and_then(|m| ModuleMetadata::from_json(&m).map_err(Failure::Internal))?;
    Ok((code, metadata))
}

fn element_of(kernel: &KernelMetadata, name: &str) -> Result<ScalarType, Failure> {
    match kernel
        .params
        .iter()
        .find(|p| p.name == name)
        .map(|p| &p.kind)
    {
        Some(ParamKind::Array { element, .. }) => Ok(*element),
        Some(ParamKind::Scratch { variable, .. }) => Err(Failure::Usage(format!(
            "parameter `{name}` is the scratch array loomc added for the vector variable `{variable}`: the run allocates it"
        ))),
        Some(ParamKind::Scalar { .. }) => Err(Failure::Usage(format!(
            "parameter `{name}` is a scalar: pass it with --arg"
        ))),
        Some(ParamKind::Record { fields, .. }) => Err(Failure::Usage(format!(
            "parameter `{name}` is a record: pass its fields with --arg ({})",
            record_usage(name, fields)
        ))),
        None => Err(Failure::Usage(format!(
            "kernel `{}` has no parameter `{name}`",
            kernel.name
        ))),
    }
}

/// Scalar arguments by parameter name.
type Scalars = HashMap<String, Scalar>;
/// Array arguments by parameter name.
type Arrays = HashMap<String, Array>;
/// Record and `Range` arguments by parameter name, checked against the metadata.
type Records = HashMap<String, args::RecordArg>;

/// The arguments from `--arg`: scalars, and records field by field.
struct Values {
    scalars: Scalars,
    records: Records,
}

/// `--arg p.x=VALUE --arg p.y=VALUE`: how to pass record parameter `name`, every field named
/// with its type.
fn record_usage(name: &str, fields: &[loom_runtime::FieldMetadata]) -> String {
    fields
        .iter()
        .map(|f| format!("--arg {name}.{}={}", f.name, f.ty.name()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `3..20`: a `Range`'s start and end.
fn parse_range(text: &str) -> Option<(i32, i32)> {
    let (start, end) = text.split_once("..")?;
    Some((start.trim().parse().ok()?, end.trim().parse().ok()?))
}

/// Scalars and records from `--arg`, arrays from `--in` (or zeros of the launch's shape for
/// `--out` only).
fn gather_arguments(cli: &RunArgs, kernel: &KernelMetadata) -> Result<(Values, Arrays), Failure> {
    let mut scalars = HashMap::new();
    let mut records: Records = HashMap::new();
    for spec in &cli.scalars {
        let (name, value) = split_pair(spec, "--arg")?;
        // `p.x=VALUE`: a field of record parameter `p`.
        let (param_name, field) = match name.split_once('.') {
            Some((param, field)) => (param.trim().to_string(), Some(field.trim().to_string())),
            None => (name.clone(), None),
        };
        let kind = kernel
            .params
            .iter()
            .find(|p| p.name == param_name)
            .map(|p| &p.kind);
        if let Some(ParamKind::Record { record, fields, .. }) = kind {
            let usage = || record_usage(&param_name, fields);
            let entry = records.entry(param_name.clone()).or_default();
            match field {
                Some(field) => {
                    let Some(f) = fields.iter().find(|f| f.name == field) else {
                        return Err(Failure::Usage(format!(
                            "record parameter `{param_name}` has no field `{field}`: {}",
                            usage()
                        )));
                    };
                    let v = Scalar::parse(f.ty, &value).map_err(|e| {
                        Failure::Usage(format!(
                            "field `{param_name}.{field}`: {e}; the record's fields: {}",
                            usage()
                        ))
                    })?;
                    *entry = std::mem::take(entry).field(field, v);
                }
                None if record.as_deref() == Some("Range") => {
                    let (start, end) = parse_range(&value).ok_or_else(|| {
                        Failure::Usage(format!(
                            "parameter `{param_name}` is a Range: --arg {param_name}=START..END (two Int32s, `3..20` is range(3, 20)), not `{value}`"
                        ))
                    })?;
                    *entry = std::mem::take(entry)
                        .field("start", Scalar::Int32(start))
                        .field("end", Scalar::Int32(end));
                }
                None => {
                    return Err(Failure::Usage(format!(
                        "parameter `{param_name}` is a record: give each field, {}",
                        usage()
                    )))
                }
            }
            continue;
        }
        if field.is_some() && kind.is_some() {
            return Err(Failure::Usage(format!(
                "parameter `{param_name}` is not a record: `--arg {name}=...` names no field of it"
            )));
        }
        match kind {
            Some(ParamKind::Scalar { ty }) => {
                let v = Scalar::parse(*ty, &value)
                    .map_err(|e| Failure::Usage(format!("parameter `{name}`: {e}")))?;
                scalars.insert(name, v);
            }
            Some(ParamKind::Array { .. } | ParamKind::Scratch { .. }) => {
                return Err(Failure::Usage(format!(
                    "parameter `{name}` is an array: pass it with --in or --out"
                )))
            }
            Some(ParamKind::Record { .. }) => {}
            None => {
                return Err(Failure::Usage(format!(
                    "kernel `{}` has no parameter `{param_name}`",
                    kernel.name
                )))
            }
        }
    }
    for p in &kernel.params {
        if matches!(p.kind, ParamKind::Scalar { .. }) && !scalars.contains_key(&p.name) {
            return Err(Failure::Usage(format!(
                "parameter `{}` needs a value: --arg {}=VALUE",
                p.name, p.name
            )));
        }
        if let ParamKind::Record { record, fields, .. } = &p.kind {
            let given = records.entry(p.name.clone()).or_default();
            if given.fields().is_empty() {
                let range = if record.as_deref() == Some("Range") {
                    format!("--arg {}=START..END, or ", p.name)
                } else {
                    String::new()
                };
                return Err(Failure::Usage(format!(
                    "record parameter `{}` needs a value: {range}{}",
                    p.name,
                    record_usage(&p.name, fields)
                )));
            }
            // Every field given once, with its type.
            given.pack(&p.name, &p.kind).map_err(Failure::Usage)?;
        }
    }
    let mut arrays = HashMap::new();
    for spec in &cli.inputs {
        let (name, path) = split_pair(spec, "--in")?;
        let element = element_of(kernel, &name)?;
        let started = Instant::now();
        let array = npy::read(&PathBuf::from(path), &name, element).map_err(Failure::Usage)?;
        if timing::io_times() {
            timing::report_io("read", &name, array.bytes.len(), started.elapsed());
        }
        arrays.insert(name, array);
    }
    let dims = args::array_dims(kernel, cli.blocks.total, &scalars).map_err(Failure::Usage)?;
    let mut zeros = Vec::new();
    for spec in &cli.outputs {
        let (name, _) = split_pair(spec, "--out")?;
        let element = element_of(kernel, &name)?;
        if arrays.contains_key(&name) || zeros.iter().any(|(n, _, _)| *n == name) {
            continue;
        }
        let index = kernel
            .params
            .iter()
            .position(|p| p.name == name)
            .unwrap_or(0);
        let shape = dims.get(index).cloned().flatten().unwrap_or_default();
        zeros.push((name, element, shape));
    }
    // On the CPU backend the run allocates the scratch arrays (on a GPU, loom-runtime does).
    for (p, shape) in kernel.params.iter().zip(&dims) {
        if let (ParamKind::Scratch { element, .. }, Device::Cpu) = (&p.kind, cli.device) {
            let shape = shape.clone().unwrap_or_default();
            zeros.push((p.name.clone(), *element, shape));
        }
    }
    let read_bytes: usize = arrays.values().map(|a| a.bytes.len()).sum();
    arrays.extend(memory::allocate_zeros(kernel, &zeros, read_bytes)?);
    for p in &kernel.params {
        if matches!(p.kind, ParamKind::Array { .. }) && !arrays.contains_key(&p.name) {
            return Err(Failure::Usage(format!(
                "array parameter `{}` needs --in {}=FILE.npy or --out {}=FILE.npy",
                p.name, p.name, p.name
            )));
        }
    }
    Ok((Values { scalars, records }, arrays))
}

fn run_cpu(
    cli: &RunArgs,
    ir: &str,
    kernel: &KernelMetadata,
    values: &Values,
    arrays: &mut Arrays,
    pristine: Option<&Arrays>,
) -> Result<(String, Vec<f64>), Failure> {
    let (scalars, records) = (&values.scalars, &values.records);
    // Each record in its C layout (checked when gathered).
    let mut packed = HashMap::new();
    for p in &kernel.params {
        if let Some(record) = records.get(&p.name) {
            packed.insert(
                p.name.clone(),
                record.pack(&p.name, &p.kind).map_err(Failure::Usage)?,
            );
        }
    }
    let started = Instant::now();
    let program = HostProgram::compile(
        ir,
        &HostOptions {
            sanitize: cli.sanitize,
            per_thread_calls: cli.one_call_per_thread,
            workers: 0,
            ..HostOptions::default()
        },
    )
    .map_err(|e| Failure::Internal(e.to_string()))?;
    let jit = started.elapsed().as_secs_f64();
    let mut times = Vec::new();
    let progress = timing::Progress::new(
        &kernel.name,
        cli.blocks.total,
        cli.repeat,
        cli.error_format == ErrorFormat::Human,
    );
    // One watcher for every launch of the run: a thread spawned for each would compete with
    // the launch's workers for the cores as it starts.
    let run = Launches {
        kernel,
        program: &program,
        scalars,
        packed: &packed,
        progress: &progress,
    };
    progress.watch(|| run.all(cli, arrays, pristine, &mut times))?;
    Ok((
        format!(
            "the CPU backend (JIT compilation {:.1} ms, not counted)",
            jit * 1e3
        ),
        times,
    ))
}

/// What each launch of a `loomc run` on the CPU backend takes.
struct Launches<'a> {
    kernel: &'a KernelMetadata,
    program: &'a HostProgram,
    scalars: &'a Scalars,
    packed: &'a HashMap<String, PackedRecord>,
    progress: &'a timing::Progress,
}

impl Launches<'_> {
    /// The `--repeat` launches, each on a fresh copy of the inputs (`pristine`), their times in
    /// `times`.
    fn all(
        &self,
        cli: &RunArgs,
        arrays: &mut Arrays,
        pristine: Option<&Arrays>,
        times: &mut Vec<f64>,
    ) -> Result<(), Failure> {
        let Launches {
            kernel,
            program,
            scalars,
            packed,
            progress,
        } = *self;
        for _ in 0..cli.repeat {
            if let Some(inputs) = pristine {
                arrays.clone_from(inputs);
            }
            let mut by_name: HashMap<&String, &mut Array> = arrays.iter_mut().collect();
            let mut host_args = Vec::new();
            for p in &kernel.params {
                host_args.push(match &p.kind {
                    ParamKind::Scalar { .. } => match scalars[&p.name] {
                        Scalar::Int8(v) => HostArg::I8(v),
                        Scalar::UInt8(v) => HostArg::I8(v as i8),
                        Scalar::Int16(v) => HostArg::I16(v),
                        Scalar::UInt16(v) => HostArg::I16(v as i16),
                        Scalar::Int32(v) => HostArg::I32(v),
                        Scalar::UInt32(v) => HostArg::I32(v as i32),
                        Scalar::Int64(v) => HostArg::I64(v),
                        Scalar::UInt64(v) => HostArg::I64(v as i64),
                        Scalar::Float16(v) | Scalar::BFloat16(v) => HostArg::F16(v),
                        Scalar::Float32(v) => HostArg::F32(v),
                        Scalar::Float64(v) => HostArg::F64(v),
                        Scalar::Bool(v) => HostArg::I8(v as i8),
                    },
                    ParamKind::Record { .. } => HostArg::Record(
                        packed
                            .get(&p.name)
                            .ok_or_else(|| {
                                Failure::Internal(format!("no record for `{}`", p.name))
                            })?
                            .bytes(),
                    ),
                    ParamKind::Array { element, .. } | ParamKind::Scratch { element, .. } => {
                        let array = by_name.remove(&p.name).ok_or_else(|| {
                            Failure::Internal(format!("no array for `{}`", p.name))
                        })?;
                        HostArg::Array {
                            name: p.name.clone(),
                            data: &mut array.bytes,
                            elem_size: element.size(),
                        }
                    }
                });
            }
            let shape = LaunchShape {
                blocks: cli.blocks.total,
                grid_cols: cli.blocks.cols,
                block_size: Some(kernel.block_size),
                dynamic_shared_bytes: 0,
                progress: Some(progress.counter()),
            };
            let started = Instant::now();
            let result = program.launch(&kernel.name, &shape, &mut host_args);
            times.push(started.elapsed().as_secs_f64());
            result.map_err(|e| match e {
                RunError::Kernel(e) => {
                    Failure::Program(format!("kernel `{}` stopped: {e}", kernel.name))
                }
                RunError::Host(e) => Failure::Program(e.to_string()),
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Command {
        #[command(flatten)]
        run: RunArgs,
    }

    fn parse(args: &[&str]) -> Result<RunArgs, String> {
        let base = ["run", "k.loom", "--kernel", "k"];
        Command::try_parse_from(base.iter().chain(args))
            .map(|c| c.run)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn no_verify_turns_the_verifier_off() {
        let on = parse(&["--blocks", "2"]).unwrap();
        assert!(driver_options(&on, Emit::Llvm).verify.enabled);
        let off = parse(&["--blocks", "2", "--no-verify"]).unwrap();
        assert!(!driver_options(&off, Emit::Llvm).verify.enabled);
    }

    #[test]
    fn launch_sizes_are_checked_when_parsed() {
        assert_eq!(
            parse(&["--blocks", "2147483647"]).unwrap().blocks.total,
            i32::MAX as u32
        );
        let grid = parse(&["--blocks", "4x8"]).unwrap().blocks;
        assert_eq!((grid.total, grid.cols), (32, Some(8)));
        for (blocks, says) in [
            ("0", "must be at least 1, not 0"),
            ("-3", "must be at least 1, not -3"),
            ("2147483648", "is at most 2147483647"),
            ("0x4", "rows must be at least 1, not 0"),
            ("4x", "columns is a whole number"),
            ("65536x65536", "is at most 65535"),
            ("60000x60000", "more than 2147483647 blocks"),
        ] {
            let error = parse(&["--blocks", blocks]).err().unwrap_or_default();
            assert!(error.contains(says), "--blocks {blocks}: {error}");
        }
    }
}
