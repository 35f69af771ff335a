//! The CPU backend: the optimised NVPTX module, retargeted to the host and JIT-compiled, run by
//! the SIMT executor (`loom-simt`).
//!
//! The lowering, in order (each step needs the one before):
//! 1. parse the IR (the same text `--emit=llvm` prints) into a fresh context;
//! 2. find the kernels (`!nvvm.annotations`);
//! 3. give the module the host's triple and data layout, and drop NVPTX's CPU attributes;
//! 4. rewrite NVVM intrinsic calls into runtime calls (`intrinsics.rs`), and the 16-bit
//!    `llvm.fma` calls into calls of helpers that round once (`libcalls.rs`);
//! 5. move shared globals into the per-block buffer (`shared.rs`);
//! 6. check the bounds of every global access, in every mode (`bounds.rs`), so that a kernel
//!    indexing past its arrays stops with a report instead of corrupting the host;
//! 7. in sanitizer mode, instrument memory accesses (`sanitize.rs`): after 5, so that shared
//!    accesses are seen at their per-block addresses, and after 6, whose checks it leaves alone;
//! 8. add one entry function per kernel (`entry.rs`), and, outside sanitizer mode, around it a
//!    loop over a block's threads for kernels that never suspend (`thread_loop.rs`), a coroutine
//!    per thread for the others (`coro.rs`);
//! 9. inline (the bounds checks, and each entry into its loop or coroutine), give the loops
//!    their threads' ids (`thread_loop::specialise`), version each loop so that blocks whose
//!    bounds checks cannot fail run a copy without them (`versioning.rs`), vectorise the loops,
//!    split the coroutines at their synchronisations (`coro::split`);
//! 10. JIT-compile for this machine's CPU with every runtime function bound to its address.
//!
//! Address spaces stay as they are: on x86-64 every address space below 256 is an ordinary
//! 64-bit pointer, so `addrspace(1)` and `addrspace(3)` loads and stores compile as plain ones.

mod bounds;
mod coro;
mod cut;
mod entry;
mod error;
mod intrinsics;
pub(crate) mod ir;
mod libcalls;
mod locations;
mod prune;
mod sanitize;
mod shared;
mod thread_loop;
mod versioning;

pub use entry::{KernelSignature, ParamType};
pub use error::HostError;
pub use loom_simt::{SimtError, SourceLocation, Whereabouts};
pub use shared::SharedLayout;

use inkwell::context::Context;
use inkwell::execution_engine::ExecutionEngine;
use inkwell::llvm_sys::core::LLVMRemoveStringAttributeAtIndex;
use inkwell::llvm_sys::execution_engine::LLVMGetGlobalValueAddress;
use inkwell::llvm_sys::target::LLVMABISizeOfType;
use inkwell::llvm_sys::LLVMAttributeFunctionIndex;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{
    CodeModel, InitializationConfig, RelocMode, Target, TargetData, TargetMachine,
};
use inkwell::OptimizationLevel;
use loom_simt::{Buffer, LaunchConfig};
use std::collections::{HashMap, HashSet};
use std::ffi::c_void;
use std::fmt;

#[derive(Debug, Clone, Default)]
pub struct HostOptions {
    /// Instrument memory accesses and check barriers and collectives while running.
    pub sanitize: bool,
    /// OS threads to run blocks on; 0: one per core.
    pub workers: usize,
    /// Run each thread as its own call of the kernel (with a stack of its own where the kernel
    /// synchronises) even where the kernel has a compiled loop over its block's threads
    /// (`host/thread_loop.rs`) or compiled coroutines (`host/coro.rs`): the mode before those,
    /// which the tests compare them with.
    pub per_thread_calls: bool,
    /// Leave out the bounds checks of global accesses: only for measuring what they cost
    /// (`bench/cpu_backend.rs`). An out-of-bounds access then corrupts the host's memory.
    pub skip_bounds_checks: bool,
    /// Keep every bounds check inside the loops over threads (a cut kernel's too), never
    /// versioning them (`host/versioning.rs`): only for measuring what the versioning gains
    /// (`bench/cpu_backend.rs`).
    pub unversioned_loops: bool,
    /// Run kernels that synchronise as compiled coroutines (`host/coro.rs`) even where they could
    /// be cut at their synchronisations into loops over the threads (`host/cut.rs`): the mode
    /// before the cut, for the tests and the benchmark to compare it with.
    pub no_cut: bool,
}

/// One argument of a launch, in parameter order.
#[derive(Debug)]
pub enum HostArg<'a> {
    I8(i8),
    I16(i16),
    /// A `Float16` or `BFloat16`, as its encoding.
    F16(u16),
    I32(i32),
    I64(i64),
    F32(f32),
    F64(f64),
    /// A record or `Range` by value: its bytes in the parameter's C layout (copied into an
    /// aligned buffer for the launch, whose address the kernel's `byval` parameter takes).
    Record(&'a [u8]),
    /// An array: the kernel reads and writes `data` in place. `name` and `elem_size` are for
    /// sanitizer reports.
    Array {
        name: String,
        data: &'a mut [u8],
        elem_size: usize,
    },
}

impl HostArg<'_> {
    fn describe(&self) -> &'static str {
        match self {
            HostArg::I8(_) => "an 8-bit integer",
            HostArg::I16(_) => "a 16-bit integer",
            HostArg::I32(_) => "a 32-bit integer",
            HostArg::I64(_) => "a 64-bit integer",
            HostArg::F16(_) => "a 16-bit float",
            HostArg::F32(_) => "a Float32",
            HostArg::F64(_) => "a Float64",
            HostArg::Array { .. } => "an array",
            HostArg::Record(_) => "a record",
        }
    }
}

/// The shape of a launch.
#[derive(Debug, Clone, Default)]
pub struct LaunchShape {
    /// Blocks in the grid, all of them.
    pub blocks: u32,
    /// The grid's columns (`%nctaid.x`) for a two-dimensional grid of `blocks / grid_cols`
    /// rows; `None` for a one-dimensional grid.
    pub grid_cols: Option<u32>,
    /// Threads per block; `None`: the kernel's `reqntidx`.
    pub block_size: Option<u32>,
    pub dynamic_shared_bytes: usize,
    /// Counts the blocks that have run, for a progress report from another thread.
    pub progress: Option<std::sync::Arc<std::sync::atomic::AtomicU32>>,
}

/// Why a launch did not complete.
#[derive(Debug, Clone, PartialEq)]
pub enum RunError {
    /// The launch could not start.
    Host(HostError),
    /// The kernel ran into a problem (a sanitizer finding, a deadlock). Boxed: reports carry
    /// source locations, and a launch's result should stay small.
    Kernel(Box<SimtError>),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Host(e) => e.fmt(f),
            RunError::Kernel(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RunError {}

impl From<HostError> for RunError {
    fn from(e: HostError) -> RunError {
        RunError::Host(e)
    }
}

struct HostKernel {
    signature: KernelSignature,
    /// `loom.entry.<kernel>`, where this build's launches call it (`prune::Calls::Entry`).
    entry: Option<loom_simt::EntryFn>,
    /// `loom.threads.<kernel>` or `loom.cut.<kernel>`, where the kernel has one.
    threads: Option<loom_simt::ThreadsFn>,
    /// Whether `threads` is `loom.threads.<kernel>`, which runs the blocks it is given.
    threads_run_blocks: bool,
    /// `loom.coro.<kernel>` and the resume function, where the kernel has them.
    compiled: Option<loom_simt::CompiledCoroutine>,
    /// `loom.bounds.<kernel>` in the JIT's memory: one byte length per parameter, written by each
    /// launch for the inline bounds checks; null without them.
    lengths: *mut u64,
}

/// A module compiled for the host, ready to launch its kernels.
pub struct HostProgram {
    kernels: Vec<HostKernel>,
    locations: Vec<SourceLocation>,
    globals: Vec<Buffer>,
    shared: SharedLayout,
    /// `shared`'s variables, as launches report them.
    shared_variables: Vec<loom_simt::SharedVariable>,
    needs_coroutines: bool,
    /// Kernels that synchronise and were cut into loops over their threads (`host/cut.rs`).
    cut: Vec<String>,
    /// Kernels that synchronise and keep their coroutines, each with the reason.
    cut_fallbacks: Vec<(String, String)>,
    /// Loop nests whose bounds checks were versioned (`host/versioning.rs`).
    versioned_loops: usize,
    cut_vector_loops: usize,
    options: HostOptions,
    /// Launches write the kernels' `lengths` through `&self`: two at once would race, so a
    /// program is not `Sync` (inkwell's types already make it so; this says it).
    _one_launch_at_a_time: std::marker::PhantomData<std::cell::Cell<()>>,
    // Declared last, dropped last: the engine and the module live in `_context`.
    _engine: ExecutionEngine<'static>,
    _module: Module<'static>,
    _context: Box<Context>,
}

impl HostProgram {
    /// Compiles NVPTX-targeted LLVM IR (as `loomc --emit=llvm` prints it, or from another front
    /// end) for the host.
    pub fn compile(nvptx_ir: &str, options: &HostOptions) -> Result<HostProgram, HostError> {
        register_native_target()?;
        let context = Box::new(Context::create());
        // SAFETY: the context is boxed (its address never changes) and is dropped after every
        // value made from it: the module and engine are fields of the same struct, declared
        // before it, and nothing with this lifetime leaves the struct.
        let ctx: &'static Context = unsafe { &*(context.as_ref() as *const Context) };
        let buffer = MemoryBuffer::create_from_memory_range_copy(nvptx_ir.as_bytes(), "kernel.ll");
        let module = ctx
            .create_module_from_ir(buffer)
            .map_err(|e| HostError::Parse(e.to_string()))?;
        let sixteen_bit_floats = uses_16_bit_floats(&module);
        let machine = host_machine(sixteen_bit_floats)?;
        let target_data = machine.get_target_data();
        simplify(&module, &machine)?;
        let lowered = lower(ctx, &module, &target_data, options)?;
        // The inline bounds checks are `alwaysinline` functions: the inliner splits each access's
        // block around its check. Then the private variables of unoptimised IR (-O0: an
        // `alloca` for each local) become values, as -O1 and up leave them, so that such a
        // kernel too can be cut at its synchronisations (`cut.rs` does not keep private memory
        // across them) rather than run as coroutines, ten to a hundred times slower.
        module
            .run_passes(
                "always-inline,function(mem2reg)",
                &machine,
                PassBuilderOptions::create(),
            )
            .map_err(|e| HostError::Llvm(format!("inlining the bounds checks: {e}")))?;
        use_host_cpu(&module, sixteen_bit_floats);
        // SAFETY: the module belongs to `ctx`, and the inliner has run.
        // SAFETY: as below; the target data is the module's.
        let (cut, cut_fallbacks) = unsafe {
            cut::build(
                ctx.raw(),
                module.as_mut_ptr(),
                target_data.as_mut_ptr(),
                // loomc's verifier proved that every thread reaches every synchronisation.
                nvptx_ir.contains("producer: \"loomc\""),
            )
        };
        if std::env::var_os("LOOM_HOST_VERBOSE").is_some() {
            for kernel in &cut {
                eprintln!("loomc: kernel `{kernel}` runs cut at its synchronisations into loops over its threads");
            }
            for (kernel, why) in &cut_fallbacks {
                eprintln!("loomc: kernel `{kernel}` keeps its coroutines: {why}");
            }
        }
        if let Some(path) = std::env::var_os("LOOM_HOST_DUMP_CUT") {
            let _ = module.print_to_file(path);
        }
        // A kernel cut needs no coroutine.
        // SAFETY: the module belongs to `ctx`.
        unsafe { coro::remove(module.as_mut_ptr(), &cut) };
        let looped = unsafe { thread_loop::specialise(ctx.raw(), module.as_mut_ptr()) };
        for kernel in &lowered.kernels {
            let Some(block_size) = kernel.block_size else {
                continue;
            };
            let ntid_x = kernel.block_x.unwrap_or(block_size);
            let ntid_y = block_size / ntid_x.max(1);
            for name in [
                thread_loop::function_name(&kernel.name),
                cut::function_name(&kernel.name),
            ] {
                // SAFETY: the module belongs to `ctx`.
                unsafe { ir::fix_block_shape(module.as_mut_ptr(), &name, ntid_x, ntid_y) };
            }
        }
        let mut versioned_loops = 0;
        let mut cut_vector_loops = 0;
        if !looped.is_empty() {
            versioned_loops +=
                thread_loop::optimise(&module, &machine, !options.unversioned_loops)?;
        }
        if !cut.is_empty() {
            versioned_loops += cut::optimise(&module, &machine, !options.unversioned_loops)?;
            cut_vector_loops = cut::vector_loops(&module);
        }
        // SAFETY: as above.
        let coroutines = unsafe { coro::split(ctx.raw(), &module, &machine)? };
        // Again for what the coroutine passes made.
        use_host_cpu(&module, sixteen_bit_floats);
        let calls: Vec<prune::Calls> = lowered
            .kernels
            .iter()
            .map(|k| launch_calls(&k.name, &looped, &cut, &coroutines, options))
            .collect();
        let called: Vec<&str> = calls.iter().flat_map(prune::Calls::functions).collect();
        prune::keep_only(&module, &machine, &called)?;
        // After the pruning, which removes unused declarations: the code generator calls these.
        declare_libcalls(&module);
        if let Some(path) = std::env::var_os("LOOM_HOST_DUMP") {
            let _ = module.print_to_file(path);
        }
        module
            .verify()
            .map_err(|e| HostError::Llvm(format!("the lowered module does not verify: {e}")))?;
        let engine = module
            .create_jit_execution_engine(OptimizationLevel::Default)
            .map_err(|e| HostError::Llvm(e.to_string()))?;
        bind_runtime(&module, &engine)?;
        let mut kernels = Vec::new();
        for (signature, calls) in lowered.kernels.into_iter().zip(calls) {
            let address = |name: &str| {
                engine
                    .get_function_address(name)
                    .map_err(|e| HostError::Llvm(format!("{name}: {e}")))
            };
            let (mut entry, mut threads, mut compiled) = (None, None, None);
            let mut threads_run_blocks = false;
            match calls {
                prune::Calls::Entry(name) => {
                    // SAFETY: `entry::add_entry` built it with exactly this type.
                    entry = Some(unsafe {
                        std::mem::transmute::<usize, loom_simt::EntryFn>(address(&name)?)
                    });
                }
                prune::Calls::Threads(name) => {
                    threads_run_blocks = name.starts_with(thread_loop::THREADS_PREFIX);
                    // SAFETY: `thread_loop::add` (or `cut::build`) built it with this type.
                    threads = Some(unsafe {
                        std::mem::transmute::<usize, loom_simt::ThreadsFn>(address(&name)?)
                    });
                }
                prune::Calls::Coroutine { ramp, resume } => {
                    let ramp = address(&ramp)?;
                    let resume = address(&resume)?;
                    // SAFETY: `coro::add` built both with exactly these types.
                    compiled = Some(unsafe {
                        loom_simt::CompiledCoroutine {
                            ramp: std::mem::transmute::<
                                usize,
                                unsafe extern "C" fn(*const *mut c_void) -> *mut c_void,
                            >(ramp),
                            resume: std::mem::transmute::<usize, unsafe extern "C" fn(*mut c_void)>(
                                resume,
                            ),
                        }
                    });
                }
            }
            let lengths_name = ir::c_name(&format!("{}{}", bounds::LENGTHS_PREFIX, signature.name));
            // SAFETY: the engine has compiled the module; an absent global gives 0.
            let lengths =
                unsafe { LLVMGetGlobalValueAddress(engine.as_mut_ptr(), lengths_name.as_ptr()) }
                    as *mut u64;
            kernels.push(HostKernel {
                signature,
                entry,
                threads,
                threads_run_blocks,
                compiled,
                lengths,
            });
        }
        let globals = global_buffers(&module, &engine, &target_data);
        Ok(HostProgram {
            kernels,
            locations: lowered.locations,
            globals,
            shared_variables: lowered
                .shared
                .variables
                .iter()
                .map(|(name, offset, len)| loom_simt::SharedVariable {
                    name: shared::source_name(name).to_string(),
                    offset: *offset as usize,
                    len: *len as usize,
                })
                .collect(),
            shared: lowered.shared,
            needs_coroutines: lowered.needs_coroutines,
            cut,
            cut_fallbacks,
            versioned_loops,
            cut_vector_loops,
            options: options.clone(),
            _one_launch_at_a_time: std::marker::PhantomData,
            _engine: engine,
            _module: module,
            _context: context,
        })
    }

    pub fn kernels(&self) -> impl Iterator<Item = &KernelSignature> {
        self.kernels.iter().map(|k| &k.signature)
    }

    pub fn shared_layout(&self) -> &SharedLayout {
        &self.shared
    }

    /// Whether some kernel runs a block's threads as a compiled loop (unless `per_thread_calls`).
    pub fn has_thread_loops(&self) -> bool {
        self.kernels.iter().any(|k| k.threads.is_some())
    }

    /// The kernels that synchronise and run cut into loops over their threads (unless
    /// `per_thread_calls`; `host/cut.rs`).
    pub fn cut_kernels(&self) -> &[String] {
        &self.cut
    }

    /// How many loop nests over threads (a kernel's loop, or one region's of a cut kernel) had
    /// their bounds checks versioned out (`host/versioning.rs`).
    pub fn versioned_loops(&self) -> usize {
        self.versioned_loops
    }

    /// How many loops the vectoriser made in the cut kernels' regions (`host/cut.rs`).
    pub fn cut_vector_loops(&self) -> usize {
        self.cut_vector_loops
    }

    /// The kernels that synchronise and keep their coroutines, each with the reason
    /// (`LOOM_HOST_VERBOSE=1` prints them when compiling).
    pub fn cut_fallbacks(&self) -> &[(String, String)] {
        &self.cut_fallbacks
    }

    /// Whether some kernel runs its threads as compiled coroutines (unless `per_thread_calls`).
    pub fn has_compiled_coroutines(&self) -> bool {
        self.kernels.iter().any(|k| k.compiled.is_some())
    }

    /// Whether the kernels synchronise (barriers or warp collectives): they then run as
    /// coroutines.
    pub fn needs_coroutines(&self) -> bool {
        self.needs_coroutines
    }

    fn kernel(&self, name: &str) -> Result<&HostKernel, HostError> {
        self.kernels
            .iter()
            .find(|k| k.signature.name == name)
            .ok_or_else(|| HostError::NoSuchKernel {
                name: name.to_string(),
                known: self
                    .kernels
                    .iter()
                    .map(|k| k.signature.name.clone())
                    .collect(),
            })
    }

    /// Runs `kernel` over `shape.blocks` blocks with `args`; arrays are read and written in place.
    pub fn launch(
        &self,
        kernel: &str,
        shape: &LaunchShape,
        args: &mut [HostArg<'_>],
    ) -> Result<(), RunError> {
        let kernel = self.kernel(kernel)?;
        let signature = &kernel.signature;
        let block_size = match (shape.block_size, signature.block_size) {
            (Some(asked), Some(required)) if asked != required => {
                return Err(HostError::Launch(format!(
                    "kernel `{}` requires {required} threads per block (reqntid), not {asked}",
                    signature.name
                ))
                .into())
            }
            (Some(size), _) | (None, Some(size)) => size,
            (None, None) => {
                return Err(HostError::Launch(format!(
                    "kernel `{}` does not say its block size: give one",
                    signature.name
                ))
                .into())
            }
        };
        if !(1..=1024).contains(&block_size) {
            return Err(HostError::Launch(format!(
                "a block has 1 to 1024 threads, not {block_size}"
            ))
            .into());
        }
        if args.len() != signature.params.len() {
            return Err(HostError::Arguments(format!(
                "kernel `{}` takes {} arguments, not {}",
                signature.name,
                signature.params.len(),
                args.len()
            ))
            .into());
        }
        // One 8-byte slot per parameter, holding its value (a pointer for arrays); a record's
        // bytes in a buffer of their own, aligned to 8 (every field's alignment divides it),
        // whose address `params[i]` gives instead of its slot's.
        let mut slots = vec![0u64; args.len()];
        let mut records: Vec<(usize, Vec<u64>)> = Vec::new();
        let mut buffers = self.globals.clone();
        for (i, (arg, param)) in args.iter_mut().zip(&signature.params).enumerate() {
            slots[i] = match (param, arg) {
                (ParamType::Int(8), HostArg::I8(v)) => *v as u8 as u64,
                (ParamType::Int(16), HostArg::I16(v)) => *v as u16 as u64,
                (ParamType::Int(32), HostArg::I32(v)) => *v as u32 as u64,
                (ParamType::Int(64), HostArg::I64(v)) => *v as u64,
                (ParamType::F16 | ParamType::BF16, HostArg::F16(v)) => u64::from(*v),
                (ParamType::F32, HostArg::F32(v)) => v.to_bits() as u64,
                (ParamType::F64, HostArg::F64(v)) => v.to_bits(),
                (ParamType::ByVal { size, align }, HostArg::Record(bytes))
                    if bytes.len() as u64 == *size && *align <= 8 =>
                {
                    let mut words = vec![0u64; bytes.len().div_ceil(8).max(1)];
                    // SAFETY: `words` holds at least `bytes.len()` bytes.
                    unsafe {
                        std::ptr::copy_nonoverlapping(
                            bytes.as_ptr(),
                            words.as_mut_ptr() as *mut u8,
                            bytes.len(),
                        )
                    };
                    records.push((i, words));
                    0
                }
                (ParamType::ByVal { size, .. }, HostArg::Record(bytes)) => {
                    return Err(HostError::Arguments(format!(
                        "argument {} of `{}` is a record of {} bytes, but the parameter takes {size}",
                        i + 1,
                        signature.name,
                        bytes.len()
                    ))
                    .into())
                }
                (
                    ParamType::Pointer(_),
                    HostArg::Array {
                        name,
                        data,
                        elem_size,
                    },
                ) => {
                    buffers.push(Buffer {
                        name: name.clone(),
                        start: data.as_mut_ptr() as usize,
                        len: data.len(),
                        elem_size: *elem_size,
                        param: Some(i as u32),
                    });
                    data.as_mut_ptr() as u64
                }
                (param, arg) => {
                    return Err(HostError::Arguments(format!(
                        "argument {} of `{}` is {}, but the parameter is `{}`",
                        i + 1,
                        signature.name,
                        arg.describe(),
                        param.describe()
                    ))
                    .into())
                }
            };
        }
        if !kernel.lengths.is_null() {
            for (i, arg) in args.iter().enumerate() {
                // A record's accesses go through its parameter too: its size bounds them.
                let len = match arg {
                    HostArg::Array { data, .. } => data.len() as u64,
                    HostArg::Record(bytes) => bytes.len() as u64,
                    _ => 0,
                };
                // SAFETY: `lengths` is the kernel's `[params x i64]` global, and no launch of
                // this program runs now (it is not `Sync`, and this one has not started).
                unsafe { kernel.lengths.add(i).write(len) };
            }
        }
        // Little-endian: a value's bytes start at its slot's address, whatever its width.
        let mut params: Vec<*mut c_void> = slots
            .iter_mut()
            .map(|s| s as *mut u64 as *mut c_void)
            .collect();
        for (i, words) in &mut records {
            params[*i] = words.as_mut_ptr() as *mut c_void;
        }
        if let Some(cols) = shape.grid_cols {
            if cols == 0 || shape.blocks % cols != 0 {
                return Err(HostError::Launch(format!(
                    "a grid of {} blocks has no {cols} columns",
                    shape.blocks
                ))
                .into());
            }
        }
        let config = LaunchConfig {
            blocks: shape.blocks,
            block_size,
            block_x: signature.block_x.unwrap_or(0),
            grid_x: shape.grid_cols.unwrap_or(0),
            shared_bytes: (self.shared.static_bytes.div_ceil(16) * 16) as usize
                + shape.dynamic_shared_bytes,
            shared_variables: self.shared_variables.clone(),
            needs_coroutines: self.needs_coroutines,
            threads_entry: kernel.threads,
            threads_entry_runs_blocks: kernel.threads_run_blocks,
            compiled_coroutine: kernel.compiled,
            sanitize: self.options.sanitize,
            workers: self.options.workers,
            progress: shape.progress.clone(),
        };
        // SAFETY: the entry was compiled for this signature, every slot holds a value of its
        // parameter's type, and each array pointer is a live, exclusively borrowed slice.
        unsafe { loom_simt::launch(kernel.entry, &params, &config, &buffers, &self.locations) }
            .map_err(|e| RunError::Kernel(Box::new(e)))
    }
}

/// What a launch of kernel `name` calls in a build with `options`: under the sanitizer or with
/// a call per thread, its entry; else its loop over a block's threads or its cut where it has
/// one (`looped`, `cut`), its compiled coroutine where it keeps one, and its entry where it has
/// neither.
fn launch_calls(
    name: &str,
    looped: &[String],
    cut: &[String],
    coroutines: &[String],
    options: &HostOptions,
) -> prune::Calls {
    let has = |kernels: &[String]| kernels.iter().any(|k| k == name);
    let entry = || prune::Calls::Entry(format!("{}{name}", entry::ENTRY_PREFIX));
    if options.sanitize || options.per_thread_calls {
        entry()
    } else if has(looped) {
        prune::Calls::Threads(thread_loop::function_name(name))
    } else if has(cut) {
        prune::Calls::Threads(cut::function_name(name))
    } else if has(coroutines) {
        prune::Calls::Coroutine {
            ramp: coro::function_name(name),
            resume: coro::RESUME.to_string(),
        }
    } else {
        entry()
    }
}

/// Registers LLVM's target for the host, once per process (not safe from two threads at once:
/// see `NvptxTarget::new`).
fn register_native_target() -> Result<(), HostError> {
    static NATIVE_REGISTERED: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    NATIVE_REGISTERED
        .get_or_init(|| Target::initialize_native(&InitializationConfig::default()))
        .clone()
        .map_err(HostError::Llvm)
}

/// Unoptimised IR (-O0) computes every thread id and length again wherever it is used: a
/// recomputed vector of 4,000 nodes reads `ctaid` and takes a `min` of its operands' lengths
/// 2,000 times, a function of 26,000 instructions whose host code took minutes to generate
/// (tripled by its entry and its coroutine). While the thread ids are still NVVM's intrinsics,
/// which read no memory, each value is computed once and the trivial folds are made. Nothing
/// changes what the kernel computes (no arithmetic is reassociated), and optimised IR has
/// nothing left for these passes to do. Only in functions that do not synchronise: there a
/// value computed once before a barrier and used after it would live across the barrier, in a
/// per-thread array of the cut (`cut.rs`), where computing it again is cheaper and keeps the
/// region's bounds checks versionable.
fn simplify(module: &Module<'_>, machine: &TargetMachine) -> Result<(), HostError> {
    thread_loop::only_in(
        module,
        |f| !synchronises(f),
        || {
            module
                .run_passes(
                    "function(early-cse,instsimplify)",
                    machine,
                    PassBuilderOptions::create(),
                )
                .map_err(|e| HostError::Llvm(format!("simplifying the kernel: {e}")))
        },
    )
}

/// Whether `f` calls one of NVVM's barriers or warp collectives: an intrinsic whose runtime
/// function may suspend the thread (`loom_simt::suspends`).
fn synchronises(f: &inkwell::values::FunctionValue<'_>) -> bool {
    // SAFETY: `f` is a live function of its module.
    unsafe {
        ir::instructions(inkwell::values::AsValueRef::as_value_ref(f))
            .into_iter()
            .filter(|&i| ir::is_call(i))
            .filter_map(|i| ir::callee(i))
            .filter_map(|callee| intrinsics::runtime_name(&ir::name(callee)))
            .any(|runtime| loom_simt::suspends(&runtime))
    }
}

struct Lowered {
    kernels: Vec<KernelSignature>,
    locations: Vec<SourceLocation>,
    shared: SharedLayout,
    needs_coroutines: bool,
}

/// Steps 2 to 8 of the module comment.
fn lower(
    context: &Context,
    module: &Module<'_>,
    target_data: &TargetData,
    options: &HostOptions,
) -> Result<Lowered, HostError> {
    let raw_context = context.raw();
    let raw_module = module.as_mut_ptr();
    let td = target_data.as_mut_ptr();
    let runtime: HashSet<&'static str> = loom_simt::all_symbols()
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    let mut locations = locations::Locations::default();
    // SAFETY: context, module and target data are live for the whole lowering, and the module
    // belongs to the context.
    unsafe {
        let kernels = entry::kernels(raw_module)?;
        module.set_triple(&TargetMachine::get_default_triple());
        module.set_data_layout(&target_data.get_data_layout());
        for function in ir::functions(raw_module) {
            for key in ["target-cpu", "target-features"] {
                LLVMRemoveStringAttributeAtIndex(
                    function,
                    LLVMAttributeFunctionIndex,
                    key.as_ptr() as *const _,
                    key.len() as u32,
                );
            }
        }
        let mut rewriter = intrinsics::IntrinsicRewriter {
            context: raw_context,
            module: raw_module,
            runtime: &runtime,
            locations: &mut locations,
            used: Vec::new(),
        };
        rewriter.run()?;
        libcalls::replace_half_fmas(module);
        let needs_coroutines = rewriter.used.iter().any(|name| loom_simt::suspends(name));
        let shared = shared::SharedRelocation {
            context: raw_context,
            module: raw_module,
            target_data: td,
        }
        .run()?;
        if !options.skip_bounds_checks {
            bounds::run(
                raw_context,
                raw_module,
                td,
                &mut locations,
                &kernels,
                &shared,
            )?;
        }
        if options.sanitize {
            sanitize::Instrumentation {
                context: raw_context,
                module: raw_module,
                target_data: td,
                locations: &mut locations,
            }
            .run()?;
        }
        for kernel in &kernels {
            let entry = entry::add_entry(raw_context, raw_module, kernel)?;
            if options.sanitize {
                continue;
            }
            if needs_coroutines {
                coro::add(raw_context, raw_module, &kernel.name, entry);
                if !options.no_cut {
                    cut::add(raw_context, raw_module, &kernel.name, entry);
                }
            } else {
                thread_loop::add(raw_context, raw_module, &kernel.name, entry);
            }
        }
        Ok(Lowered {
            kernels,
            locations: locations.into_table(),
            shared,
            needs_coroutines,
        })
    }
}

/// This machine's CPU and its features, as LLVM names them, less the conversions to BFloat16
/// (AVX-512 BF16's and AVX-NE-CONVERT's `vcvtneps2bf16` flushes subnormal results to zero;
/// `tests/run/programs/half_floats.loom` fails with them), and less AVX-512 for a module that
/// computes with 16-bit floats: LLVM 19's AVX-512 code for `half` comparisons miscompiled a
/// kernel at -O3 (a block-uniform `Float16(s) <= Float16(B)` under an `and`, in a loop with a
/// reduction, came out inverted in some iterations: fuzz seed 7000330,
/// tests/regressions/cpu_half_compare_without_avx512.loom); without AVX-512 (F16C and AVX2
/// stay) it is right.
fn host_cpu(sixteen_bit_floats: bool) -> (String, String) {
    // `LLVMString`'s `Display` quotes it.
    let text = |s: inkwell::support::LLVMString| s.to_string_lossy().into_owned();
    let without_avx512 = if sixteen_bit_floats { ",-avx512f" } else { "" };
    (
        text(TargetMachine::get_host_cpu_name()),
        format!(
            "{},-avx512bf16,-avxneconvert,-amx-bf16{without_avx512}",
            text(TargetMachine::get_host_cpu_features())
        ),
    )
}

/// Whether anything in `module` is a 16-bit float (`half` or `bfloat`, alone or in a vector):
/// a parameter or an instruction's value.
fn uses_16_bit_floats(module: &Module<'_>) -> bool {
    use inkwell::types::{AnyType, AnyTypeEnum, BasicTypeEnum};
    let context = module.get_context();
    let (half, bfloat) = (context.f16_type(), context.bf16_type());
    let sixteen = |ty: AnyTypeEnum<'_>| {
        let scalar = match ty {
            AnyTypeEnum::VectorType(v) => match v.get_element_type() {
                BasicTypeEnum::FloatType(f) => f,
                _ => return false,
            },
            AnyTypeEnum::FloatType(f) => f,
            _ => return false,
        };
        scalar == half || scalar == bfloat
    };
    module.get_functions().any(|f| {
        f.get_param_iter()
            .any(|p| sixteen(p.get_type().as_any_type_enum()))
            || f.get_basic_block_iter()
                .any(|bb| bb.get_instructions().any(|inst| sixteen(inst.get_type())))
    })
}

/// Gives every function of the module this machine's CPU and features (`target-cpu`,
/// `target-features`), which the optimiser's cost models and the JIT's code generator read per
/// function: the loops over threads are vectorised for the vector registers there are (AVX2's
/// or AVX-512's masked loads and stores let a loop whose threads test `i < n` vectorise at all).
/// IEEE arithmetic gives the same bits on any of them; every function of a program gets the same
/// attributes, so its modes (compiled loops, a call per thread, the sanitizer) compare alike.
fn use_host_cpu(module: &Module<'_>, sixteen_bit_floats: bool) {
    let (cpu, features) = host_cpu(sixteen_bit_floats);
    let context = module.get_context();
    let index = inkwell::attributes::AttributeLoc::Function;
    for f in module.get_functions() {
        if f.count_basic_blocks() == 0 {
            continue;
        }
        f.add_attribute(index, context.create_string_attribute("target-cpu", &cpu));
        f.add_attribute(
            index,
            context.create_string_attribute("target-features", &features),
        );
    }
}

fn host_machine(sixteen_bit_floats: bool) -> Result<TargetMachine, HostError> {
    let host_cpu = host_cpu(sixteen_bit_floats);
    let triple = TargetMachine::get_default_triple();
    let target = Target::from_triple(&triple).map_err(|e| HostError::Llvm(e.to_string()))?;
    target
        .create_target_machine(
            &triple,
            &host_cpu.0,
            &host_cpu.1,
            OptimizationLevel::Default,
            RelocMode::Default,
            CodeModel::JITDefault,
        )
        .ok_or_else(|| HostError::Llvm("no target machine for the host".to_string()))
}

/// Declares the conversion helpers the x86 backend may call (`libcalls.rs`), so that
/// `bind_runtime` binds them by name: a call the backend makes up is resolved through the
/// engine's mappings like any other (an unused declaration costs nothing).
fn declare_libcalls(module: &Module<'_>) {
    let context = module.get_context();
    let f32t = context.f32_type();
    let fn_type = f32t.fn_type(&[f32t.into()], false);
    for (name, _) in libcalls::symbols() {
        if module.get_function(name).is_none() {
            module.add_function(name, fn_type, None);
        }
    }
}

/// Binds every runtime function the module declares to its address; any other declared
/// function that is not an LLVM intrinsic is an error now, rather than a crash when the JIT
/// cannot resolve it.
fn bind_runtime(module: &Module<'_>, engine: &ExecutionEngine<'_>) -> Result<(), HostError> {
    let table: HashMap<&'static str, usize> = loom_simt::all_symbols()
        .into_iter()
        .chain(libcalls::symbols())
        .chain(libcalls::fma_symbols())
        .collect();
    let mut function = module.get_first_function();
    while let Some(f) = function {
        function = f.get_next_function();
        if f.count_basic_blocks() > 0 {
            continue;
        }
        let name = f.get_name().to_string_lossy().into_owned();
        if name.starts_with("llvm.") {
            continue;
        }
        match table.get(name.as_str()) {
            Some(address) => engine.add_global_mapping(&f, *address),
            None => return Err(HostError::UnresolvedFunction { name }),
        }
    }
    Ok(())
}

/// Global variables of the module, as buffers the sanitizer lets kernels access.
fn global_buffers(
    module: &Module<'_>,
    engine: &ExecutionEngine<'_>,
    target_data: &TargetData,
) -> Vec<Buffer> {
    let mut out = Vec::new();
    // SAFETY: the module and engine are live; the engine has compiled the module.
    unsafe {
        for global in ir::globals(module.as_mut_ptr()) {
            let name = ir::name(global);
            if name.starts_with(bounds::LENGTHS_PREFIX) {
                continue;
            }
            let c_name = ir::c_name(&name);
            let address = LLVMGetGlobalValueAddress(engine.as_mut_ptr(), c_name.as_ptr()) as usize;
            if address == 0 {
                continue;
            }
            let ty = inkwell::llvm_sys::core::LLVMGlobalGetValueType(global);
            let len = LLVMABISizeOfType(target_data.as_mut_ptr(), ty) as usize;
            out.push(Buffer {
                name,
                start: address,
                len,
                elem_size: 1,
                param: None,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests;
