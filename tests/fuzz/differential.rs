//! Differential testing of one generated program: it must pass the checker, give PTX that
//! ptxas accepts, and give the same results on the CPU backend at `-O0` and `-O3` (exactly) and at
//! two block sizes (integers exactly, floats within a tolerance: reductions and scans may group
//! differently at another block size).

use crate::generator::{Field, RecordType, Shape, Ty, KERNEL, RECORD_NAME};
use crate::gpu::ArrayArg;
use fastrand::Rng;
use loom_runtime::metadata::ParamKind;
use loom_runtime::{ModuleMetadata, RecordArg, Scalar};
use loomc::diagnostics::{SourceFiles, INTERNAL_ERROR};
use loomc::driver::{self, Emit, Options};
use loomc::target::host::{HostArg, HostOptions, HostProgram, LaunchShape};
use loomc::target::{Libdevice, OptLevel};

const GUARD: u8 = 0xa5;
/// A row's worth of the widest type, at the longest row.
const GUARD_BYTES: usize = 8 * 512;

/// Rows of the launch (= `BLOCKS`): more than one, so that `B` matters.
pub const BLOCKS: usize = 3;

/// What went wrong, by kind: minimisation keeps a shrunk program only if it fails the same way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// The checker (or code generation, with a documented limit) rejected a generated program:
    /// a bug in the generator, or a checker that rejects a valid program.
    Rejected,
    /// A panic or an internal error in the compiler or the CPU backend.
    Crash,
    Ptxas,
    /// `-O0` and `-O3` disagree.
    OptMismatch,
    /// Two block sizes disagree.
    BlockSizeMismatch,
    /// The launch failed (a deadlock, a host error).
    Run,
    /// The kernel verifier found a barrier or warp collective not reached by every thread
    /// (E0850) or a race (E0851) in loomc's own output: a loomc bug, in code generation or in
    /// the verifier. Open ones are listed in docs/testing.md.
    Verifier,
    /// The CPU backend's sanitizer, its bounds checks, the red zones around shared memory or
    /// the guard zones after each array found an out-of-bounds access, or the sanitizer a
    /// shared-memory race, in loomc's output.
    Sanitizer,
    /// The GPU (when there is one) and the CPU backend disagree, or the GPU run failed.
    GpuMismatch,
    /// The record parameter's layout in the compiler's metadata is not the C layout the
    /// harness packs for the CPU backend, or the runtime's packing (for the GPU) differs.
    Layout,
}

#[derive(Debug, Clone)]
pub struct Failure {
    pub kind: Kind,
    pub message: String,
}

impl Failure {
    /// What a shrunk program must still show: the kind, and the first diagnostic code.
    /// The kind and the diagnostic codes of a failure (in order, each once): a shrunk program
    /// fails the same way when these are equal. Every code counts, not only the first: a
    /// candidate that lost a `func` adds E0101 to the error it shares with the original.
    pub fn signature(&self) -> (Kind, Option<String>) {
        let mut codes: Vec<String> = Vec::new();
        for (at, _) in self.message.match_indices("[E") {
            let code: String = self.message[at + 1..].chars().take(5).collect();
            if !codes.contains(&code) {
                codes.push(code);
            }
        }
        let codes = (!codes.is_empty()).then(|| codes.join(","));
        (self.kind.clone(), codes)
    }
}

fn fail<T>(kind: Kind, message: impl Into<String>) -> Result<T, Failure> {
    Err(Failure {
        kind,
        message: message.into(),
    })
}

pub struct Config {
    pub block_sizes: [u32; 2],
    /// Run ptxas on the `-O3` PTX.
    pub ptxas: bool,
    /// Seed of the inputs.
    pub input_seed: u64,
}

/// The block sizes to compare for program `seed`: two different powers of two (reductions and
/// scans need one), one at most a warp half the time, and below a warp (1 to 16 threads, where
/// collectives must keep their shuffles to the block's own lanes) a quarter of the time.
pub fn block_sizes(seed: u64) -> [u32; 2] {
    const SIZES: [u32; 11] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];
    let mut rng = Rng::with_seed(seed ^ 0x5eed_b10c);
    let first = match rng.usize(..4) {
        0 => SIZES[rng.usize(..5)],
        1 => 32,
        _ => SIZES[rng.usize(6..8)],
    };
    let mut second = SIZES[rng.usize(3..SIZES.len())];
    if second == first {
        second = if first == 32 { 128 } else { 32 };
    }
    [first, second]
}

/// Runs the whole check on `source`, whose kernel has `shape`.
pub fn check(source: &str, shape: &Shape, config: &Config) -> Result<(), Failure> {
    let inputs = Inputs::new(shape.clone(), config.input_seed);
    // Three runs, not four: `-O0` and `-O3` at the first block size, `-O3` at the second.
    let [first, second] = config.block_sizes;
    let mut results = Vec::new();
    let on_gpu = crate::gpu::present();
    let mut gpu_code = None;
    let mut o3_ir = None;
    for (block_size, opt) in [
        (first, OptLevel::O0),
        (first, OptLevel::O3),
        (second, OptLevel::O3),
    ] {
        let want_ptx = (config.ptxas || on_gpu) && block_size == first && opt == OptLevel::O3;
        // The metadata of a program with a record parameter, once: its layout must be the one
        // the harness packs.
        let want_metadata = inputs.record.is_some() && block_size == first && opt == OptLevel::O0;
        let (ir, ptx, metadata) = compile(source, block_size, opt, want_ptx, want_metadata)?;
        if let (Some(record), Some(metadata)) = (&inputs.record, &metadata) {
            record
                .check_against(metadata)
                .or_else(|e| fail(Kind::Layout, e))?;
        }
        if let (Some((ptx, _)), true) = (&ptx, config.ptxas) {
            crate::support::assemble(ptx, "sm_80").or_else(|e| fail(Kind::Ptxas, e))?;
        }
        if on_gpu {
            gpu_code = gpu_code.or(ptx);
        }
        let result = run_on_cpu(&ir, &inputs, false).map_err(|f| Failure {
            kind: f.kind,
            message: format!("block size {block_size}, {opt:?}: {}", f.message),
        });
        results.push(result?);
        if block_size == first && opt == OptLevel::O3 {
            o3_ir = Some(ir);
        }
    }
    // The runs above are the CPU backend's fast modes, as `loomc run` runs them (a kernel cut
    // into loops over a block's threads, compiled coroutines where it cannot be); out-of-bounds
    // global accesses stop them, and a write outside shared memory is found in the red zones
    // around it. The faithful mode, every thread a stackful coroutine under the sanitizer
    // (out-of-bounds reads, races, barriers), runs the `-O3` build at the first block size and
    // must give the same bits. Its build is the cheap one: the JIT compiles only the kernel's
    // entry (`host/prune.rs`), while a fast build's loops over threads are vectorised and
    // versioned; on 60 programs it was 3% of the slice's time.
    if let Some(ir) = o3_ir {
        let faithful = run_on_cpu(&ir, &inputs, true).map_err(|f| Failure {
            kind: f.kind,
            message: format!("block size {first}, O3 under the sanitizer: {}", f.message),
        })?;
        compare(shape.ty, &results[1], &faithful, 0.0).or_else(|e| {
            fail(
                Kind::OptMismatch,
                format!("block size {first}, -O3: with and without the sanitizer: {e}"),
            )
        })?;
    }
    compare(shape.ty, &results[0], &results[1], 0.0).or_else(|e| {
        fail(
            Kind::OptMismatch,
            format!("block size {first}: -O0 vs -O3: {e}"),
        )
    })?;
    results.remove(0);
    let tolerance = match shape.ty {
        Ty::F32 => 1e-3,
        Ty::F64 => 1e-9,
        // Each operation rounds to 11 or 8 bits: a different grouping of a sum moves the result
        // by several of their ulps.
        Ty::F16 => 1e-2,
        Ty::BF16 => 5e-2,
        _ => 0.0,
    };
    if let Some((ptx, metadata)) = gpu_code {
        let on_device = inputs.run_on_gpu(&ptx, &metadata)?;
        compare(shape.ty, &results[0], &on_device, tolerance).or_else(|e| {
            fail(
                Kind::GpuMismatch,
                format!("-O3, block size {first}: CPU backend vs GPU: {e}"),
            )
        })?;
    }
    if shape.block_size_dependent {
        return Ok(());
    }
    compare(shape.ty, &results[0], &results[1], tolerance).or_else(|e| {
        fail(
            Kind::BlockSizeMismatch,
            format!(
                "-O3, block size {} vs {}: {e}",
                config.block_sizes[0], config.block_sizes[1]
            ),
        )
    })
}

/// The kernel of `ir` run on the CPU backend over `inputs` (`out` then `acc`): as `loomc run`
/// runs it, or with `sanitize` under the sanitizer.
fn run_on_cpu(ir: &str, inputs: &Inputs, sanitize: bool) -> Result<Vec<u8>, Failure> {
    let options = HostOptions {
        sanitize,
        workers: 1,
        ..HostOptions::default()
    };
    let program = HostProgram::compile(ir, &options).or_else(|e| {
        fail(
            Kind::Crash,
            format!("the CPU backend cannot compile the IR: {e}"),
        )
    })?;
    inputs.run(&program)
}

/// The PTX and its kernel metadata (JSON).
type GpuCode = Option<(String, String)>;

/// The optimised NVPTX IR, the PTX with its kernel metadata (JSON) if `ptx`, and the metadata
/// if `metadata` (or `ptx`).
fn compile(
    source: &str,
    block_size: u32,
    opt: OptLevel,
    ptx: bool,
    metadata: bool,
) -> Result<(String, GpuCode, Option<String>), Failure> {
    let mut emit = vec![Emit::Llvm];
    if ptx || metadata {
        emit.push(Emit::Metadata);
    }
    if ptx {
        emit.push(Emit::Ptx);
    }
    // The CPU backend's IR leaves libdevice's functions declared (it binds them to the host's),
    // as `loomc run --device cpu` does; the GPU's PTX links libdevice. One compilation gives
    // both unless the program calls libdevice (float `%` is `__nv_fmodf`): then the PTX comes
    // from a second one.
    let outputs = compile_with(source, block_size, opt, emit, Libdevice::Declare)?;
    let ir = output(&outputs, Emit::Llvm)?;
    let metadata = output(&outputs, Emit::Metadata).ok();
    if !(ptx && ir.contains("@__nv_")) {
        return Ok((ir, gpu_code(&outputs), metadata));
    }
    let linked = compile_with(
        source,
        block_size,
        opt,
        vec![Emit::Metadata, Emit::Ptx],
        Libdevice::Link,
    )?;
    Ok((ir, gpu_code(&linked), metadata))
}

/// The PTX and the metadata among `outputs`, when they are there.
fn gpu_code(outputs: &[(Emit, String)]) -> Option<(String, String)> {
    output(outputs, Emit::Ptx)
        .ok()
        .zip(output(outputs, Emit::Metadata).ok())
}

fn output(outputs: &[(Emit, String)], kind: Emit) -> Result<String, Failure> {
    outputs
        .iter()
        .find(|(e, _)| *e == kind)
        .map(|(_, text)| text.clone())
        .ok_or_else(|| Failure {
            kind: Kind::Crash,
            message: format!("no {kind:?} in the outputs"),
        })
}

/// The outputs `emit` of `source`, or the failure its diagnostics show.
fn compile_with(
    source: &str,
    block_size: u32,
    opt: OptLevel,
    emit: Vec<Emit>,
    libdevice: Libdevice,
) -> Result<Vec<(Emit, String)>, Failure> {
    let options = Options {
        emit,
        opt,
        block_size,
        libdevice,
        ..Options::default()
    };
    let mut files = SourceFiles::default();
    let compilation = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        driver::compile(&mut files, "generated.loom", source, &options)
    }))
    .or_else(|panic| {
        fail(
            Kind::Crash,
            format!("panic: {}", crate::pool::panic_message(&panic)),
        )
    })?;
    let messages: Vec<String> = compilation
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("[{}] {}", d.code, d.message))
        .collect();
    if compilation
        .diagnostics
        .iter()
        .any(|d| d.code == INTERNAL_ERROR)
    {
        return fail(Kind::Crash, messages.join("\n"));
    }
    let Some(outputs) = compilation.outputs else {
        let verifier = compilation
            .diagnostics
            .iter()
            .find(|d| d.is_error())
            .is_some_and(|d| d.code == "E0850" || d.code == "E0851");
        return fail(
            if verifier {
                Kind::Verifier
            } else {
                Kind::Rejected
            },
            format!("block size {block_size}, {opt:?}: {}", messages.join("\n")),
        );
    };
    Ok(outputs)
}

/// The arrays and the scalar of one launch, as bytes.
struct Inputs {
    shape: Shape,
    s: u64,
    x: Vec<u8>,
    y: Vec<u8>,
    out: Vec<u8>,
    acc: Vec<u8>,
    /// The record parameter's value, where the kernel takes one.
    record: Option<RecordValue>,
}

impl Inputs {
    fn new(shape: Shape, seed: u64) -> Inputs {
        let mut rng = Rng::with_seed(seed);
        let n = BLOCKS * shape.len;
        let mut values = |count: usize| -> Vec<u8> {
            (0..count)
                .flat_map(|_| element(shape.ty, &mut rng))
                .collect()
        };
        let x = values(n);
        let y = values(n);
        let out = values(n);
        let acc = values(BLOCKS);
        // From a stream of its own: the other inputs are what the seed gave before.
        let record = shape
            .record_param
            .as_ref()
            .map(|r| RecordValue::new(r, &mut Rng::with_seed(seed ^ 0x7265_636f_7264)));
        let s = u64::from_le_bytes(
            element(shape.ty, &mut Rng::with_seed(seed ^ 1))
                .into_iter()
                .chain(std::iter::repeat(0))
                .take(8)
                .collect::<Vec<u8>>()
                .try_into()
                .unwrap_or([0; 8]),
        );
        Inputs {
            shape,
            s,
            x,
            y,
            out,
            acc,
            record,
        }
    }

    /// Runs the kernel; returns `out` then `acc`.
    fn run(&self, program: &HostProgram) -> Result<Vec<u8>, Failure> {
        // Each array is followed by a guard zone that the kernel must leave alone: an access past
        // the end lands there instead of corrupting the harness's heap.
        let guarded = |data: &Vec<u8>| {
            let mut v = data.clone();
            v.resize(data.len() + GUARD_BYTES, GUARD);
            v
        };
        let (mut x, mut y, mut out, mut acc) = (
            guarded(&self.x),
            guarded(&self.y),
            guarded(&self.out),
            guarded(&self.acc),
        );
        let (nx, ny, nout, nacc) = (self.x.len(), self.y.len(), self.out.len(), self.acc.len());
        let size = self.shape.ty.size();
        let scalar = match self.shape.ty {
            Ty::I8 | Ty::U8 => HostArg::I8(self.s as u8 as i8),
            Ty::I16 | Ty::U16 => HostArg::I16(self.s as u16 as i16),
            Ty::I32 | Ty::U32 => HostArg::I32(self.s as u32 as i32),
            Ty::I64 | Ty::U64 => HostArg::I64(self.s as i64),
            Ty::F32 => HostArg::F32(f32::from_bits(self.s as u32)),
            Ty::F64 => HostArg::F64(f64::from_bits(self.s)),
            Ty::F16 | Ty::BF16 => HostArg::F16(self.s as u16),
        };
        let range = range_bytes(self.shape.len);
        let mut args = vec![
            scalar,
            array("x", &mut x[..nx], size),
            array("y", &mut y[..ny], size),
            array("out", &mut out[..nout], size),
            array("acc", &mut acc[..nacc], size),
        ];
        if self.shape.range_param {
            args.push(HostArg::Record(&range));
        }
        if let Some(record) = &self.record {
            args.push(HostArg::Record(&record.bytes));
        }
        // The scratch arrays after the kernel's parameters (docs/abi.md), filled with
        // [`GUARD`] bytes: the kernel writes each row before it reads it.
        let scratch_len = BLOCKS * self.shape.len * size;
        let mut scratch: Vec<Vec<u8>> = (0..self.shape.scratch_rows)
            .map(|_| vec![GUARD; scratch_len + GUARD_BYTES])
            .collect();
        for rows in &mut scratch {
            args.push(array("scratch", &mut rows[..scratch_len], size));
        }
        program
            .launch(
                KERNEL,
                &LaunchShape {
                    blocks: BLOCKS as u32,
                    grid_cols: None,
                    block_size: None,
                    dynamic_shared_bytes: 0,
                    progress: None,
                },
                &mut args,
            )
            .or_else(|e| {
                let sanitizer = matches!(e, loomc::target::host::RunError::Kernel(_));
                fail(
                    if sanitizer {
                        Kind::Sanitizer
                    } else {
                        Kind::Run
                    },
                    format!("launch: {e}"),
                )
            })?;
        let scratch_guards = scratch
            .iter()
            .map(|rows| ("a scratch array", rows, scratch_len));
        for (name, array, len) in [
            ("x", &x, self.x.len()),
            ("y", &y, self.y.len()),
            ("out", &out, self.out.len()),
            ("acc", &acc, self.acc.len()),
        ]
        .into_iter()
        .chain(scratch_guards)
        {
            if array[len..].iter().any(|b| *b != GUARD) {
                return fail(
                    Kind::Sanitizer,
                    format!("out-of-bounds write past the end of `{name}`"),
                );
            }
        }
        out.truncate(self.out.len());
        out.extend_from_slice(&acc[..self.acc.len()]);
        Ok(out)
    }

    /// Runs the kernel of `ptx` on the GPU; returns `out` then `acc`, as [`Inputs::run`] does.
    fn run_on_gpu(&self, ptx: &str, metadata: &str) -> Result<Vec<u8>, Failure> {
        let scalar = match self.shape.ty {
            Ty::I8 => Scalar::Int8(self.s as u8 as i8),
            Ty::U8 => Scalar::UInt8(self.s as u8),
            Ty::I16 => Scalar::Int16(self.s as u16 as i16),
            Ty::U16 => Scalar::UInt16(self.s as u16),
            Ty::I32 => Scalar::Int32(self.s as u32 as i32),
            Ty::U32 => Scalar::UInt32(self.s as u32),
            Ty::I64 => Scalar::Int64(self.s as i64),
            Ty::U64 => Scalar::UInt64(self.s),
            Ty::F32 => Scalar::Float32(f32::from_bits(self.s as u32)),
            Ty::F64 => Scalar::Float64(f64::from_bits(self.s)),
            Ty::F16 => Scalar::Float16(self.s as u16),
            Ty::BF16 => Scalar::BFloat16(self.s as u16),
        };
        let (mut x, mut y, mut out, mut acc) = (
            self.x.clone(),
            self.y.clone(),
            self.out.clone(),
            self.acc.clone(),
        );
        let row = vec![BLOCKS, self.shape.len];
        let arrays = vec![
            ArrayArg {
                data: &mut x,
                shape: row.clone(),
            },
            ArrayArg {
                data: &mut y,
                shape: row.clone(),
            },
            ArrayArg {
                data: &mut out,
                shape: row,
            },
            ArrayArg {
                data: &mut acc,
                shape: vec![BLOCKS],
            },
        ];
        let range = self.shape.range_param.then(|| {
            let (start, end) = crate::generator::range_argument(self.shape.len);
            loom_runtime::Range { start, end }.into()
        });
        // The record by its fields' names: the runtime packs it at the metadata's offsets.
        let records = range
            .into_iter()
            .chain(self.record.as_ref().map(RecordValue::arg))
            .collect();
        crate::gpu::launch(
            ptx,
            metadata,
            KERNEL,
            BLOCKS as u32,
            scalar,
            arrays,
            records,
        )
        .or_else(|e| fail(Kind::GpuMismatch, format!("the GPU run failed: {e}")))?;
        out.extend_from_slice(&acc);
        Ok(out)
    }
}

/// The value of a record parameter: each leaf's value, and the bytes the CPU backend gets.
#[derive(Clone)]
pub struct RecordValue {
    /// Dotted name, field (a number or `Bool`), offset, and the value's bytes.
    leaves: Vec<(String, Field, usize, Vec<u8>)>,
    size: usize,
    align: usize,
    /// The C layout ([`RecordType::layout`]), computed by the harness; padding is [`GUARD`],
    /// which a kernel must never read (the GPU's runtime packs zeros there).
    pub bytes: Vec<u8>,
}

impl RecordValue {
    /// A value of `record` drawn from `rng`: numbers as the arrays' elements are drawn, `Bool`s
    /// 0 or 1.
    pub fn new(record: &RecordType, rng: &mut Rng) -> RecordValue {
        let layout = record.layout();
        let mut bytes = vec![GUARD; layout.size];
        let mut leaves = Vec::new();
        for leaf in layout.leaves {
            let value = match leaf.field {
                Field::Num(ty) => element(ty, rng),
                _ => vec![u8::from(rng.bool())],
            };
            bytes[leaf.offset..leaf.offset + value.len()].copy_from_slice(&value);
            leaves.push((leaf.name, leaf.field, leaf.offset, value));
        }
        RecordValue {
            leaves,
            size: layout.size,
            align: layout.align,
            bytes,
        }
    }

    /// The argument for the GPU's runtime, field by field.
    pub fn arg(&self) -> RecordArg {
        self.leaves
            .iter()
            .fold(RecordArg::new(), |arg, (name, field, _, value)| {
                arg.field(name.clone(), scalar_of(field, value))
            })
    }

    /// Checks the harness's layout against the record parameter the compiler's `metadata`
    /// (JSON) describes: size, alignment, every leaf's name, type and offset; and the bytes the
    /// runtime packs from [`RecordValue::arg`] at the metadata's offsets against
    /// [`RecordValue::bytes`] (padding aside).
    pub fn check_against(&self, metadata: &str) -> Result<(), String> {
        let module = ModuleMetadata::from_json(metadata)?;
        let kernel = module
            .kernels
            .iter()
            .find(|k| k.name == KERNEL)
            .ok_or("no kernel `fuzz` in the metadata")?;
        let param = kernel
            .params
            .iter()
            .find(|p| p.name == RECORD_NAME)
            .ok_or("no record parameter `p` in the metadata")?;
        let ParamKind::Record {
            size,
            align,
            fields,
            ..
        } = &param.kind
        else {
            return Err("parameter `p` is not a record in the metadata".into());
        };
        let theirs: Vec<(String, String, u64)> = fields
            .iter()
            .map(|f| (f.name.clone(), f.ty.name().to_string(), f.offset))
            .collect();
        let ours: Vec<(String, String, u64)> = self
            .leaves
            .iter()
            .map(|(name, field, offset, _)| (name.clone(), field.name(), *offset as u64))
            .collect();
        if (*size, *align, &theirs) != (self.size as u64, self.align as u64, &ours) {
            return Err(format!(
                "the record parameter's layout: the metadata has size {size}, align {align}, \
                 fields {theirs:?}; the C layout is size {}, align {}, fields {ours:?}",
                self.size, self.align
            ));
        }
        let packed = self.arg().pack(RECORD_NAME, &param.kind)?;
        for (name, _, offset, value) in &self.leaves {
            let range = *offset..*offset + value.len();
            if packed.bytes()[range.clone()] != self.bytes[range] {
                return Err(format!(
                    "the record parameter's field `{name}`: the runtime packs {:?}, the harness {:?}",
                    &packed.bytes()[*offset..*offset + value.len()],
                    value
                ));
            }
        }
        Ok(())
    }
}

/// The packing of `record`, the record parameter of `source` (a generated program), checked
/// against the compiler's metadata ([`RecordValue::check_against`]) for a value drawn from
/// `seed`; and that the check is not vacuous: the value with any one leaf moved by a byte fails
/// it. Returns the number of leaves.
pub fn check_record_packing(source: &str, record: &RecordType, seed: u64) -> Result<usize, String> {
    let outputs = compile_with(
        source,
        32,
        OptLevel::O0,
        vec![Emit::Metadata],
        Libdevice::Declare,
    )
    .map_err(|f| format!("{:?}: {}", f.kind, f.message))?;
    let metadata = output(&outputs, Emit::Metadata).map_err(|f| f.message)?;
    let value = RecordValue::new(record, &mut Rng::with_seed(seed));
    value.check_against(&metadata)?;
    for i in 0..value.leaves.len() {
        let mut wrong = value.clone();
        wrong.leaves[i].2 += 1;
        if wrong.check_against(&metadata).is_ok() {
            return Err(format!(
                "a record whose field `{}` sits a byte late passes the layout check",
                value.leaves[i].0
            ));
        }
    }
    Ok(value.leaves.len())
}

/// The `Scalar` of a record leaf's little-endian bytes.
fn scalar_of(field: &Field, b: &[u8]) -> Scalar {
    let word = |n: usize| {
        let mut w = [0u8; 8];
        w[..n].copy_from_slice(&b[..n]);
        u64::from_le_bytes(w)
    };
    match field {
        Field::Bool => Scalar::Bool(b[0] != 0),
        Field::Num(ty) => match ty {
            Ty::I8 => Scalar::Int8(b[0] as i8),
            Ty::U8 => Scalar::UInt8(b[0]),
            Ty::I16 => Scalar::Int16(word(2) as u16 as i16),
            Ty::U16 => Scalar::UInt16(word(2) as u16),
            Ty::I32 => Scalar::Int32(word(4) as u32 as i32),
            Ty::U32 => Scalar::UInt32(word(4) as u32),
            Ty::I64 => Scalar::Int64(word(8) as i64),
            Ty::U64 => Scalar::UInt64(word(8)),
            Ty::F32 => Scalar::Float32(f32::from_bits(word(4) as u32)),
            Ty::F64 => Scalar::Float64(f64::from_bits(word(8))),
            Ty::F16 => Scalar::Float16(word(2) as u16),
            Ty::BF16 => Scalar::BFloat16(word(2) as u16),
        },
        Field::Record(_) => unreachable!("a leaf is a number or a Bool"),
    }
}

/// The bytes of the `w: Range` argument of a row of `len` (`{ Int32 start; Int32 end }`).
fn range_bytes(len: usize) -> Vec<u8> {
    let (start, end) = crate::generator::range_argument(len);
    [start.to_le_bytes(), end.to_le_bytes()].concat()
}

fn array<'a>(name: &str, data: &'a mut [u8], elem_size: usize) -> HostArg<'a> {
    HostArg::Array {
        name: name.to_string(),
        data,
        elem_size,
    }
}

/// One random element of `ty`, little-endian: integers mixed small, zero and full-range; floats
/// multiples of 1/8 in [-4, 4] (so that sums of them are exact at any grouping).
fn element(ty: Ty, rng: &mut Rng) -> Vec<u8> {
    let int = match rng.u32(0..10) {
        0 => 0i64,
        1 | 2 => rng.i64(..),
        3 => rng.i64(-1..=1),
        _ => rng.i64(-20..=20),
    };
    match ty {
        Ty::I8 | Ty::U8 => (int as i8).to_le_bytes().to_vec(),
        Ty::I16 | Ty::U16 => (int as i16).to_le_bytes().to_vec(),
        Ty::I32 | Ty::U32 => (int as i32).to_le_bytes().to_vec(),
        Ty::I64 | Ty::U64 => int.to_le_bytes().to_vec(),
        Ty::F32 => ((rng.i32(-32..=32) as f32) / 8.0).to_le_bytes().to_vec(),
        Ty::F64 => ((rng.i32(-32..=32) as f64) / 8.0).to_le_bytes().to_vec(),
        Ty::F16 | Ty::BF16 => format_of(ty)
            .from_f64(f64::from(rng.i32(-32..=32)) / 8.0)
            .to_le_bytes()
            .to_vec(),
    }
}

/// Compares two runs' bytes element by element. Floats: equal as numbers (`-0.0 == 0.0`, NaN
/// equals NaN: the library's float `min`/`max` may return either zero), or within `tolerance`
/// relative to the larger magnitude (absolute near zero); a non-finite value against anything
/// else is skipped only when comparing with a tolerance (a different grouping can overflow).
pub fn compare(ty: Ty, a: &[u8], b: &[u8], tolerance: f64) -> Result<(), String> {
    if a.len() != b.len() {
        return Err(format!("{} bytes against {}", a.len(), b.len()));
    }
    let size = ty.size();
    let elements = a.len() / size;
    let place = |i: usize| {
        let rows = elements - BLOCKS;
        if i < rows {
            let len = rows / BLOCKS;
            format!("out[{}, {}]", i / len, i % len)
        } else {
            format!("acc[{}]", i - rows)
        }
    };
    // Every differing element is counted and the first few named: where they lie (one column
    // of every block, one block, one thread's elements) is the first clue to the cause.
    let mut differing = Vec::new();
    for i in 0..elements {
        let (ea, eb) = (&a[i * size..(i + 1) * size], &b[i * size..(i + 1) * size]);
        let same = match ty {
            Ty::F32 | Ty::F64 | Ty::F16 | Ty::BF16 => {
                let (fa, fb) = if matches!(ty, Ty::F16 | Ty::BF16) {
                    let f = format_of(ty);
                    (
                        f.to_f64(u16::from_le_bytes(ea.try_into().unwrap())),
                        f.to_f64(u16::from_le_bytes(eb.try_into().unwrap())),
                    )
                } else if ty == Ty::F32 {
                    (
                        f32::from_le_bytes(ea.try_into().unwrap()) as f64,
                        f32::from_le_bytes(eb.try_into().unwrap()) as f64,
                    )
                } else {
                    (
                        f64::from_le_bytes(ea.try_into().unwrap()),
                        f64::from_le_bytes(eb.try_into().unwrap()),
                    )
                };
                fa == fb
                    || (fa.is_nan() && fb.is_nan())
                    || (tolerance > 0.0
                        && (!fa.is_finite()
                            || !fb.is_finite()
                            || (fa - fb).abs() <= tolerance * fa.abs().max(fb.abs()).max(1.0)))
            }
            _ => ea == eb,
        };
        if !same {
            differing.push(i);
        }
    }
    let Some(&first) = differing.first() else {
        return Ok(());
    };
    let at = |i: usize| &a[i * size..(i + 1) * size];
    let at_b = |i: usize| &b[i * size..(i + 1) * size];
    let mut message = format!(
        "{}: {} against {}",
        place(first),
        show(ty, at(first)),
        show(ty, at_b(first))
    );
    if differing.len() > 1 {
        let more: Vec<String> = differing[1..differing.len().min(7)]
            .iter()
            .map(|&i| {
                format!(
                    "{} ({} against {})",
                    place(i),
                    show(ty, at(i)),
                    show(ty, at_b(i))
                )
            })
            .collect();
        message += &format!(
            "; {} of {elements} elements differ, also {}{}",
            differing.len(),
            more.join(", "),
            if differing.len() > 7 { ", ..." } else { "" }
        );
    }
    Err(message)
}

fn show(ty: Ty, bytes: &[u8]) -> String {
    match ty {
        Ty::I8 => i8::from_le_bytes(bytes.try_into().unwrap()).to_string(),
        Ty::U8 => u8::from_le_bytes(bytes.try_into().unwrap()).to_string(),
        Ty::I16 => i16::from_le_bytes(bytes.try_into().unwrap()).to_string(),
        Ty::U16 => u16::from_le_bytes(bytes.try_into().unwrap()).to_string(),
        Ty::I32 => i32::from_le_bytes(bytes.try_into().unwrap()).to_string(),
        Ty::U32 => u32::from_le_bytes(bytes.try_into().unwrap()).to_string(),
        Ty::I64 => i64::from_le_bytes(bytes.try_into().unwrap()).to_string(),
        Ty::U64 => u64::from_le_bytes(bytes.try_into().unwrap()).to_string(),
        Ty::F32 => format!("{:?}", f32::from_le_bytes(bytes.try_into().unwrap())),
        Ty::F64 => format!("{:?}", f64::from_le_bytes(bytes.try_into().unwrap())),
        Ty::F16 | Ty::BF16 => {
            let bits = u16::from_le_bytes(bytes.try_into().unwrap());
            format!("{:?} ({bits:#06x})", format_of(ty).to_f64(bits))
        }
    }
}

/// The encoding of a 16-bit float element type.
fn format_of(ty: Ty) -> loom_runtime::half::Format {
    if ty == Ty::BF16 {
        loom_runtime::half::BF16
    } else {
        loom_runtime::half::F16
    }
}
