//! `loomc run FILE.loom --kernel NAME --blocks N`: compile one kernel, run it on the CPU backend
//! or a GPU, with scalar arguments from the command line and arrays from and to `.npy` files.
//! Every argument is checked against the kernel's metadata before the launch.

mod npy;

use super::{EXIT_INTERNAL_ERROR, EXIT_PROGRAM_ERRORS, EXIT_USAGE};
use clap::{Args, ValueEnum};
use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};
use loom_runtime::args::{self, ArgShape, Scalar};
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
    /// Blocks in the grid (`BLOCKS`).
    #[arg(long)]
    blocks: u32,
    /// Where to run: the CPU backend, or the first CUDA GPU.
    #[arg(long, value_enum, default_value = "cpu")]
    device: Device,
    /// A scalar argument: `--arg n=1000` (repeat for each).
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
    /// Optimisation level, -O0 to -O3.
    #[arg(short = 'O', value_name = "LEVEL", default_value = "3", value_parser = ["0", "1", "2", "3"])]
    opt_level: String,
    /// BLOCKSIZE of kernels without `@blocksize(N)`.
    #[arg(long, default_value_t = 256, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    block_size: u32,
    /// The GPU architecture of the PTX (`--device cuda`).
    #[arg(long, default_value = "sm_80", value_name = "sm_XX")]
    arch: String,
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
    match run_inner(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(m)) => {
            eprintln!("error: {m}");
            ExitCode::from(EXIT_USAGE)
        }
        Err(Failure::Program(m)) => {
            eprintln!("error: {m}");
            ExitCode::from(EXIT_PROGRAM_ERRORS)
        }
        Err(Failure::Internal(m)) => {
            eprintln!("error: internal compiler error: {m}");
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
    let (scalars, mut arrays) = gather_arguments(cli, &kernel)?;
    let shapes: Vec<ArgShape> = kernel
        .params
        .iter()
        .map(|p| match &p.kind {
            ParamKind::Scalar { .. } => ArgShape::Scalar(scalars[&p.name]),
            ParamKind::Array { element, .. } => ArgShape::Array {
                element: *element,
                shape: arrays[&p.name].shape.clone(),
            },
        })
        .collect();
    args::check(&kernel, cli.blocks, &shapes).map_err(Failure::Usage)?;
    let started = Instant::now();
    let what = match cli.device {
        Device::Cpu => {
            run_cpu(cli, &code, &kernel, &scalars, &mut arrays)?;
            "the CPU backend".to_string()
        }
        Device::Cuda => {
            let gpu = Gpu::open(0).map_err(Failure::Program)?;
            let module = gpu
                .load(&code, metadata.clone())
                .map_err(Failure::Program)?;
            let mut by_name: HashMap<&String, &mut Array> = arrays.iter_mut().collect();
            let mut gpu_args: Vec<GpuArg> = Vec::new();
            for p in &kernel.params {
                gpu_args.push(match &p.kind {
                    ParamKind::Scalar { .. } => GpuArg::Scalar(scalars[&p.name]),
                    ParamKind::Array { element, .. } => {
                        let array = by_name.remove(&p.name).ok_or_else(|| {
                            Failure::Internal(format!("no array for `{}`", p.name))
                        })?;
                        GpuArg::Array {
                            shape: array.shape.clone(),
                            element: *element,
                            data: &mut array.bytes,
                        }
                    }
                });
            }
            let timing = gpu
                .launch(&module, &kernel.name, cli.blocks, &mut gpu_args)
                .map_err(Failure::Program)?;
            format!("{} (kernel {:.3} ms)", gpu.name(), timing.kernel_ms)
        }
    };
    eprintln!(
        "ran `{}` on {what}: {} blocks of {} threads in {:.3} ms",
        kernel.name,
        cli.blocks,
        kernel.block_size,
        started.elapsed().as_secs_f64() * 1e3
    );
    for spec in &cli.outputs {
        let (name, path) = split_pair(spec, "--out")?;
        let element = element_of(&kernel, &name)?;
        let array = &arrays[&name];
        npy::write(&PathBuf::from(path), element, array).map_err(Failure::Program)?;
    }
    Ok(())
}

/// Compiles to the device's code (LLVM IR or PTX) and the metadata.
fn compile(cli: &RunArgs, emit: Emit) -> Result<(String, ModuleMetadata), Failure> {
    let name = cli.file.display().to_string();
    let source = std::fs::read_to_string(&cli.file)
        .map_err(|e| Failure::Usage(format!("cannot read `{name}`: {e}")))?;
    let options = Options {
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
    let mut files = SourceFiles::default();
    let compilation = driver::compile(&mut files, &name, &source, &options);
    let mut stderr = StandardStream::stderr(ColorChoice::Never);
    for diagnostic in &compilation.diagnostics {
        let _ = files.render_human(diagnostic, &mut stderr);
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
        Some(ParamKind::Scalar { .. }) => Err(Failure::Usage(format!(
            "parameter `{name}` is a scalar: pass it with --arg"
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

/// Scalars from `--arg`, arrays from `--in` (or zeros of the launch's shape for `--out` only).
fn gather_arguments(cli: &RunArgs, kernel: &KernelMetadata) -> Result<(Scalars, Arrays), Failure> {
    let mut scalars = HashMap::new();
    for spec in &cli.scalars {
        let (name, value) = split_pair(spec, "--arg")?;
        match kernel
            .params
            .iter()
            .find(|p| p.name == name)
            .map(|p| &p.kind)
        {
            Some(ParamKind::Scalar { ty }) => {
                let v = Scalar::parse(*ty, &value)
                    .map_err(|e| Failure::Usage(format!("parameter `{name}`: {e}")))?;
                scalars.insert(name, v);
            }
            Some(ParamKind::Array { .. }) => {
                return Err(Failure::Usage(format!(
                    "parameter `{name}` is an array: pass it with --in or --out"
                )))
            }
            None => {
                return Err(Failure::Usage(format!(
                    "kernel `{}` has no parameter `{name}`",
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
    }
    let mut arrays = HashMap::new();
    for spec in &cli.inputs {
        let (name, path) = split_pair(spec, "--in")?;
        let element = element_of(kernel, &name)?;
        let array = npy::read(&PathBuf::from(path), &name, element).map_err(Failure::Usage)?;
        arrays.insert(name, array);
    }
    let dims = args::array_dims(kernel, cli.blocks, &scalars).map_err(Failure::Usage)?;
    for spec in &cli.outputs {
        let (name, _) = split_pair(spec, "--out")?;
        let element = element_of(kernel, &name)?;
        if arrays.contains_key(&name) {
            continue;
        }
        let index = kernel
            .params
            .iter()
            .position(|p| p.name == name)
            .unwrap_or(0);
        let shape = dims.get(index).cloned().flatten().unwrap_or_default();
        let len: usize = shape.iter().product();
        arrays.insert(
            name,
            Array {
                shape,
                bytes: vec![0; len * element.size()],
            },
        );
    }
    for p in &kernel.params {
        if matches!(p.kind, ParamKind::Array { .. }) && !arrays.contains_key(&p.name) {
            return Err(Failure::Usage(format!(
                "array parameter `{}` needs --in {}=FILE.npy or --out {}=FILE.npy",
                p.name, p.name, p.name
            )));
        }
    }
    Ok((scalars, arrays))
}

fn run_cpu(
    cli: &RunArgs,
    ir: &str,
    kernel: &KernelMetadata,
    scalars: &HashMap<String, Scalar>,
    arrays: &mut HashMap<String, Array>,
) -> Result<(), Failure> {
    let program = HostProgram::compile(
        ir,
        &HostOptions {
            sanitize: cli.sanitize,
            workers: 0,
            ..HostOptions::default()
        },
    )
    .map_err(|e| Failure::Internal(e.to_string()))?;
    let mut by_name: HashMap<&String, &mut Array> = arrays.iter_mut().collect();
    let mut host_args = Vec::new();
    for p in &kernel.params {
        host_args.push(match &p.kind {
            ParamKind::Scalar { .. } => match scalars[&p.name] {
                Scalar::Int32(v) => HostArg::I32(v),
                Scalar::UInt32(v) => HostArg::I32(v as i32),
                Scalar::Int64(v) => HostArg::I64(v),
                Scalar::UInt64(v) => HostArg::I64(v as i64),
                Scalar::Float32(v) => HostArg::F32(v),
                Scalar::Float64(v) => HostArg::F64(v),
                Scalar::Bool(v) => HostArg::I8(v as i8),
            },
            ParamKind::Array { element, .. } => {
                let array = by_name
                    .remove(&p.name)
                    .ok_or_else(|| Failure::Internal(format!("no array for `{}`", p.name)))?;
                HostArg::Array {
                    name: p.name.clone(),
                    data: &mut array.bytes,
                    elem_size: element.size(),
                }
            }
        });
    }
    program
        .launch(
            &kernel.name,
            &LaunchShape {
                blocks: cli.blocks,
                block_size: Some(kernel.block_size),
                dynamic_shared_bytes: 0,
            },
            &mut host_args,
        )
        .map_err(|e| match e {
            RunError::Kernel(e) => {
                Failure::Program(format!("kernel `{}` stopped: {e}", kernel.name))
            }
            RunError::Host(e) => Failure::Program(e.to_string()),
        })
}
