//! A kernel that never suspends (no barrier, no warp collective) compiled as one loop over its
//! block's threads, in the manner of PoCL's work-group functions: `loom.threads.<kernel>(params,
//! ntid_x, ntid_y, ctaid_x, ctaid_y, count)` runs the kernel's body for `tid.y` in `0..ntid_y`
//! and `tid.x` in `0..ntid_x` (x fastest, as CUDA numbers threads), with the body inlined, the
//! thread's ids taken from the loop counters and the launch-wide ones read once before the
//! loops; and that for `count` blocks of one row of the grid, `ctaid.x` from `ctaid_x` on, so
//! that what does not depend on the block (the parameters, the array lengths, most of the
//! versioning test) is computed once per run of blocks rather than for each (saxpy's block is
//! four iterations of its vector loop). Without it every thread is one call of the entry, whose
//! ids are calls into the runtime; with it LLVM sees a loop it can optimise across threads.
//!
//! Two steps, around the always-inliner: [`add`] builds the loops around an `alwaysinline` call
//! of the kernel's entry; after inlining, [`specialise`] replaces the runtime calls in the body:
//! thread ids by the counters, block-wide values by one call each in the function's entry
//! block, and before each failing bounds check it names the thread (`loom_simt_thread`), so that
//! the report is right. A body that calls anything else of the runtime (nothing LOOM emits for
//! such kernels, but IR from elsewhere may) loses its loop function and runs one call per thread
//! as before.

use super::bounds::CHECK_BOUNDS;
use super::error::HostError;
use super::ir::{self, Builder};
use super::versioning;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMIntPredicate;
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::TargetMachine;
use inkwell::values::{AsValueRef, FunctionValue};
use std::collections::HashMap;

/// What the loops get from the optimiser, before [`versioning`]: the parameters and bounds read
/// once per block (`licm`: the parameter slots are `noalias`, their values and the lengths
/// `invariant.load`). No `instcombine`: it folds the bounds checks' `ptrtoint`/`inttoptr` pairs
/// into bitcasts between address spaces, which do not verify.
const LOOP_PASSES: &str = "function(simplifycfg,early-cse,loop-mssa(licm))";
/// After [`versioning`]: the checks it proved gone from the copy, those the thread ids' ranges
/// decide (`correlated-propagation`: a shared array's slot `tid >> 5` in a block of a known size,
/// which is not affine and stays out of the versioning), and vector code where the body allows
/// it.
const VECTOR_PASSES: &str = "function(instsimplify,correlated-propagation,simplifycfg,\
                             loop-mssa(licm),loop-vectorize,simplifycfg,dce)";

pub const THREADS_PREFIX: &str = "loom.threads.";
const SET_THREAD: &str = "loom_simt_thread";
/// The loop counters' names, found again after inlining.
const X: &str = "thread.x";
const Y: &str = "thread.y";
/// The block counter's name (`ctaid.x` of the block running), found again after inlining.
const BLOCK_X: &str = "block.x";
/// Names the block running before a failing check (`loom_simt_block(ctaid_x, ctaid_y)`).
const SET_BLOCK: &str = "loom_simt_block";
/// The runtime's block coordinates, which the loop over a run of blocks knows itself.
const CTAID_X: &str = "loom_simt_read_ptx_sreg_ctaid_x";
const CTAID_Y: &str = "loom_simt_read_ptx_sreg_ctaid_y";

/// Runtime reads that are the same for every thread of a block: read once per block.
pub(super) const BLOCK_WIDE: [&str; 13] = [
    "loom_simt_read_ptx_sreg_ntid_x",
    "loom_simt_read_ptx_sreg_ntid_y",
    "loom_simt_read_ptx_sreg_ntid_z",
    "loom_simt_read_ptx_sreg_ctaid_x",
    "loom_simt_read_ptx_sreg_ctaid_y",
    "loom_simt_read_ptx_sreg_ctaid_z",
    "loom_simt_read_ptx_sreg_nctaid_x",
    "loom_simt_read_ptx_sreg_nctaid_y",
    "loom_simt_read_ptx_sreg_nctaid_z",
    "loom_simt_read_ptx_sreg_nwarpid",
    "loom_simt_read_ptx_sreg_warpsize",
    "loom_simt_read_ptx_sreg_tid_z",
    "loom_simt_shared_base",
];

/// Runtime calls a loop over threads keeps as they are.
pub(super) const KEPT: [&str; 3] = [
    "loom_simt_membar_cta",
    "loom_simt_membar_gl",
    "loom_simt_membar_sys",
];

/// Adds `loom.threads.<kernel>`, calling the kernel's entry (`entry`) once per thread.
///
/// # Safety
/// `context` and `module` must be live, the module owned by `context`; `entry` is the kernel's
/// entry function, `fn(ptr)`.
pub unsafe fn add(
    context: LLVMContextRef,
    module: LLVMModuleRef,
    kernel: &str,
    entry: LLVMValueRef,
) {
    let function = ir::add_block_function(context, module, &function_name(kernel));
    let i32t = LLVMInt32TypeInContext(context);
    let [args, nx, ny, first_x, _, count] = [0, 1, 2, 3, 4, 5].map(|i| LLVMGetParam(function, i));
    let block =
        |name: &std::ffi::CStr| LLVMAppendBasicBlockInContext(context, function, name.as_ptr());
    let (start, blocks, rows, body, row_end, block_end, done) = (
        block(c"entry"),
        block(c"blocks"),
        block(c"rows"),
        block(c"threads"),
        block(c"row.end"),
        block(c"block.end"),
        block(c"done"),
    );
    let builder = Builder::new(context);
    let b = builder.raw();
    let zero = LLVMConstInt(i32t, 0, 0);
    let one = LLVMConstInt(i32t, 1, 0);
    LLVMPositionBuilderAtEnd(b, start);
    // The runtime gives at least one block, all in one row of the grid: `ctaid.x + count`
    // does not overflow.
    let end_x = LLVMBuildNUWAdd(b, first_x, count, c"".as_ptr());
    LLVMBuildBr(b, blocks);

    LLVMPositionBuilderAtEnd(b, blocks);
    let block_x = LLVMBuildPhi(b, i32t, ir::c_name(BLOCK_X).as_ptr());
    LLVMBuildBr(b, rows);

    LLVMPositionBuilderAtEnd(b, rows);
    let y = LLVMBuildPhi(b, i32t, ir::c_name(Y).as_ptr());
    LLVMBuildBr(b, body);

    LLVMPositionBuilderAtEnd(b, body);
    let x = LLVMBuildPhi(b, i32t, ir::c_name(X).as_ptr());
    let entry_type = LLVMGlobalGetValueType(entry);
    let call = builder.call(entry_type, entry, &mut [args]);
    ir::always_inline_call(context, call);
    let next_x = LLVMBuildAdd(b, x, one, c"".as_ptr());
    let more_x = LLVMBuildICmp(b, LLVMIntPredicate::LLVMIntULT, next_x, nx, c"".as_ptr());
    LLVMBuildCondBr(b, more_x, body, row_end);

    LLVMPositionBuilderAtEnd(b, row_end);
    let next_y = LLVMBuildAdd(b, y, one, c"".as_ptr());
    let more_y = LLVMBuildICmp(b, LLVMIntPredicate::LLVMIntULT, next_y, ny, c"".as_ptr());
    LLVMBuildCondBr(b, more_y, rows, block_end);

    LLVMPositionBuilderAtEnd(b, block_end);
    let next_block = LLVMBuildNUWAdd(b, block_x, one, c"".as_ptr());
    let more_blocks = LLVMBuildICmp(
        b,
        LLVMIntPredicate::LLVMIntULT,
        next_block,
        end_x,
        c"".as_ptr(),
    );
    LLVMBuildCondBr(b, more_blocks, blocks, done);

    LLVMPositionBuilderAtEnd(b, done);
    LLVMBuildRetVoid(b);

    LLVMAddIncoming(x, [zero, next_x].as_mut_ptr(), [rows, body].as_mut_ptr(), 2);
    LLVMAddIncoming(
        y,
        [zero, next_y].as_mut_ptr(),
        [blocks, row_end].as_mut_ptr(),
        2,
    );
    LLVMAddIncoming(
        block_x,
        [first_x, next_block].as_mut_ptr(),
        [start, block_end].as_mut_ptr(),
        2,
    );

    // The entry's call of the kernel is inlined too, so that the loop holds the body itself.
    for inst in ir::instructions(entry) {
        if ir::is_call(inst) {
            ir::always_inline_call(context, inst);
        }
    }
}

/// After inlining: gives each `loom.threads.*` function its threads' ids, or deletes it where
/// its body calls the runtime for something a loop over threads cannot do. Returns the kernels
/// that keep one.
///
/// # Safety
/// `context` and `module` must be live, the module owned by `context`, the always-inliner run.
pub unsafe fn specialise(context: LLVMContextRef, module: LLVMModuleRef) -> Vec<String> {
    let mut kept = Vec::new();
    for function in ir::functions(module) {
        let name = ir::name(function);
        let Some(kernel) = name.strip_prefix(THREADS_PREFIX) else {
            continue;
        };
        if specialise_one(context, module, function) {
            kept.push(kernel.to_string());
        } else {
            LLVMDeleteFunction(function);
        }
    }
    kept
}

unsafe fn specialise_one(
    context: LLVMContextRef,
    module: LLVMModuleRef,
    function: LLVMValueRef,
) -> bool {
    let instructions = ir::instructions(function);
    let counter = |name: &str| ir::phi_named(&instructions, name);
    let (Some(x), Some(y), Some(block_x)) = (counter(X), counter(Y), counter(BLOCK_X)) else {
        return false;
    };
    let block_y = LLVMGetParam(function, 4);
    // (call, callee, callee's name) of every call into the runtime.
    let calls: Vec<(LLVMValueRef, LLVMValueRef, String)> = instructions
        .iter()
        .copied()
        .filter(|i| ir::is_call(*i))
        .filter_map(|i| ir::callee(i).map(|f| (i, f, ir::name(f))))
        .filter(|(_, _, callee)| callee.starts_with("loom_simt_"))
        .collect();
    // A call the inliner left (a function with a body, or through a pointer) may read the
    // thread's ids in a frame of its own, where the counters do not reach.
    let all_direct = instructions
        .iter()
        .copied()
        .filter(|i| ir::is_call(*i))
        .all(|i| ir::callee(i).is_some_and(|f| ir::is_declaration(f)));
    if !all_direct {
        return false;
    }
    let thread_dependent = |callee: &str| thread_value(callee).is_some();
    if !calls.iter().all(|(_, _, callee)| {
        thread_dependent(callee)
            || BLOCK_WIDE.contains(&callee.as_str())
            || KEPT.contains(&callee.as_str())
            || callee == CHECK_BOUNDS
    }) {
        return false;
    }
    let builder = Builder::new(context);
    let b = builder.raw();
    let i32t = LLVMInt32TypeInContext(context);
    let entry_block = LLVMGetEntryBasicBlock(function);
    let first = LLVMGetFirstInstruction(entry_block);

    // The block's coordinates: the counter of the run's loop, and the run's row.
    for (call, _, callee) in &calls {
        let coordinate = match callee.as_str() {
            CTAID_X => block_x,
            CTAID_Y => block_y,
            _ => continue,
        };
        LLVMReplaceAllUsesWith(*call, coordinate);
        LLVMInstructionEraseFromParent(*call);
    }
    // Other block-wide values (the same in every block of the launch): one call each, at the
    // top.
    let mut once: HashMap<String, LLVMValueRef> = HashMap::new();
    for (call, f, callee) in &calls {
        if !BLOCK_WIDE.contains(&callee.as_str()) || [CTAID_X, CTAID_Y].contains(&callee.as_str()) {
            continue;
        }
        let hoisted = match once.get(callee) {
            Some(v) => *v,
            None => {
                builder.before(first);
                let mut args = ir::call_args(*call);
                let v = builder.call(LLVMGlobalGetValueType(*f), *f, &mut args);
                once.insert(callee.clone(), v);
                v
            }
        };
        LLVMReplaceAllUsesWith(*call, hoisted);
        LLVMInstructionEraseFromParent(*call);
    }
    let ntid_x = LLVMGetParam(function, 1);

    // Thread ids: from the counters, computed where each was read.
    let set_thread = set_thread_function(context, module);
    let set_block = set_block_function(context, module);
    for (call, _, callee) in &calls {
        if callee == CHECK_BOUNDS {
            builder.before(*call);
            builder.call(
                LLVMGlobalGetValueType(set_block),
                set_block,
                &mut [block_x, block_y],
            );
            let linear = linear_thread(b, x, y, ntid_x);
            builder.call(
                LLVMGlobalGetValueType(set_thread),
                set_thread,
                &mut [linear],
            );
            continue;
        }
        let Some(value) = thread_value(callee) else {
            continue;
        };
        builder.before(*call);
        let linear = linear_thread(b, x, y, ntid_x);
        let lane = LLVMBuildAnd(b, linear, LLVMConstInt(i32t, 31, 0), c"lane".as_ptr());
        let bit = LLVMBuildShl(b, LLVMConstInt(i32t, 1, 0), lane, c"".as_ptr());
        let below = LLVMBuildSub(b, bit, LLVMConstInt(i32t, 1, 0), c"".as_ptr());
        let v = match value {
            ThreadValue::TidX => x,
            ThreadValue::TidY => y,
            ThreadValue::Lane => lane,
            ThreadValue::Warp => LLVMBuildLShr(b, linear, LLVMConstInt(i32t, 5, 0), c"".as_ptr()),
            ThreadValue::MaskEq => bit,
            ThreadValue::MaskLt => below,
            ThreadValue::MaskLe => LLVMBuildOr(b, below, bit, c"".as_ptr()),
            ThreadValue::MaskGt => {
                let le = LLVMBuildOr(b, below, bit, c"".as_ptr());
                LLVMBuildNot(b, le, c"".as_ptr())
            }
            ThreadValue::MaskGe => LLVMBuildNot(b, below, c"".as_ptr()),
        };
        LLVMReplaceAllUsesWith(*call, v);
        LLVMInstructionEraseFromParent(*call);
    }
    true
}

/// Runs [`LOOP_PASSES`] over the loops alone: every other function is `optnone` meanwhile, so
/// that the kernels and entries stay the code the tests compare the loops with. Returns how many
/// loop nests [`versioning`] versioned.
pub fn optimise(
    module: &Module<'_>,
    machine: &TargetMachine,
    version: bool,
) -> Result<usize, HostError> {
    optimise_functions(module, machine, THREADS_PREFIX, version, |_| {
        vec![versioning::Counters {
            x: X.to_string(),
            y: Y.to_string(),
            block: Some(BLOCK_X.to_string()),
        }]
    })
}

/// [`optimise`] for the functions whose names start with `prefix`, versioning each loop nest
/// whose counters `counters` gives for the function (one per nest: a cut function, `cut.rs`,
/// has one nest per region). Returns how many nests it versioned.
pub fn optimise_functions(
    module: &Module<'_>,
    machine: &TargetMachine,
    prefix: &str,
    version: bool,
    counters: impl Fn(LLVMValueRef) -> Vec<versioning::Counters>,
) -> Result<usize, HostError> {
    only_in(
        module,
        |f| f.get_name().to_string_lossy().starts_with(prefix),
        || {
            let passes = |passes: &str| {
                module
                    .run_passes(passes, machine, PassBuilderOptions::create())
                    .map_err(|e| HostError::Llvm(format!("optimising the loops over threads: {e}")))
            };
            let mut versioned = 0;
            passes(LOOP_PASSES)?;
            let target_data = machine.get_target_data();
            for f in module.get_functions() {
                if version && f.get_name().to_string_lossy().starts_with(prefix) {
                    for nest in counters(f.as_value_ref()) {
                        // SAFETY: the function belongs to the module's context; the target
                        // data is the module's (`host_machine`).
                        let done = unsafe {
                            versioning::version(
                                module.get_context().raw(),
                                f.as_value_ref(),
                                target_data.as_mut_ptr(),
                                &nest,
                            )
                        };
                        versioned += usize::from(done);
                    }
                }
            }
            passes(VECTOR_PASSES)?;
            Ok(versioned)
        },
    )
}

/// Runs `run` (which runs passes over the whole module) with every function that has a body and
/// is not `chosen` marked `optnone` and `noinline` meanwhile, so that only the chosen ones
/// change; then the marks go again.
pub fn only_in<T>(
    module: &Module<'_>,
    chosen: impl Fn(&FunctionValue<'_>) -> bool,
    run: impl FnOnce() -> Result<T, HostError>,
) -> Result<T, HostError> {
    let context = module.get_context();
    let kind = |name: &str| inkwell::attributes::Attribute::get_named_enum_kind_id(name);
    let (optnone, noinline) = (kind("optnone"), kind("noinline"));
    let index = inkwell::attributes::AttributeLoc::Function;
    let mut added = Vec::new();
    for f in module.get_functions() {
        if f.count_basic_blocks() == 0 || chosen(&f) {
            continue;
        }
        let had_noinline = f.get_enum_attribute(index, noinline).is_some();
        f.add_attribute(index, context.create_enum_attribute(optnone, 0));
        if !had_noinline {
            f.add_attribute(index, context.create_enum_attribute(noinline, 0));
        }
        added.push((f, had_noinline));
    }
    let result = run();
    for (f, had_noinline) in added {
        f.remove_enum_attribute(index, optnone);
        if !had_noinline {
            f.remove_enum_attribute(index, noinline);
        }
    }
    result
}

/// `y * ntid_x + x`: the thread's index in its block.
pub(super) unsafe fn linear_thread(
    b: LLVMBuilderRef,
    x: LLVMValueRef,
    y: LLVMValueRef,
    ntid_x: LLVMValueRef,
) -> LLVMValueRef {
    let row = LLVMBuildMul(b, y, ntid_x, c"".as_ptr());
    LLVMBuildAdd(b, row, x, c"thread".as_ptr())
}

pub(super) unsafe fn set_thread_function(
    context: LLVMContextRef,
    module: LLVMModuleRef,
) -> LLVMValueRef {
    let mut params = [LLVMInt32TypeInContext(context)];
    let fn_type = LLVMFunctionType(LLVMVoidTypeInContext(context), params.as_mut_ptr(), 1, 0);
    ir::declare(module, SET_THREAD, fn_type)
}

unsafe fn set_block_function(context: LLVMContextRef, module: LLVMModuleRef) -> LLVMValueRef {
    let i32t = LLVMInt32TypeInContext(context);
    let mut params = [i32t, i32t];
    let fn_type = LLVMFunctionType(LLVMVoidTypeInContext(context), params.as_mut_ptr(), 2, 0);
    ir::declare(module, SET_BLOCK, fn_type)
}

#[derive(Clone, Copy)]
pub(super) enum ThreadValue {
    TidX,
    TidY,
    Lane,
    Warp,
    MaskEq,
    MaskLt,
    MaskLe,
    MaskGt,
    MaskGe,
}

pub(super) fn thread_value(callee: &str) -> Option<ThreadValue> {
    let sreg = callee.strip_prefix("loom_simt_read_ptx_sreg_")?;
    Some(match sreg {
        "tid_x" => ThreadValue::TidX,
        "tid_y" => ThreadValue::TidY,
        "laneid" => ThreadValue::Lane,
        "warpid" => ThreadValue::Warp,
        "lanemask_eq" => ThreadValue::MaskEq,
        "lanemask_lt" => ThreadValue::MaskLt,
        "lanemask_le" => ThreadValue::MaskLe,
        "lanemask_gt" => ThreadValue::MaskGt,
        "lanemask_ge" => ThreadValue::MaskGe,
        _ => return None,
    })
}

/// The name of `kernel`'s loop over its threads.
pub fn function_name(kernel: &str) -> String {
    format!("{THREADS_PREFIX}{kernel}")
}
