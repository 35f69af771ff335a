//! A kernel that synchronises (barriers, warp collectives), outside sanitizer mode, compiled
//! into an LLVM coroutine per thread, so that a thread waiting at a barrier or a shuffle is a
//! small frame the optimiser laid out instead of a stack of its own: `loom.coro.<kernel>(params)`
//! runs a thread until its first synchronisation and returns its frame; `loom.coro.resume(frame)`
//! runs it on to the next. The runtime's scheduler (`loom-simt`) completes the barriers and
//! collectives between resumptions, as it does for the stackful coroutines: only the way a thread
//! stops and goes on changes. With a stack per thread, the suspensions were most of the time of a
//! kernel such as sumOfSquares (perf: the stack switch in `context::wait` and the scheduler).
//!
//! How a synchronisation becomes a suspension: after the kernel is inlined into its coroutine,
//! each call of a runtime function that suspends (`loom_simt::suspends`) becomes a call of an
//! `alwaysinline` wrapper: call the runtime function (which, for a thread of a compiled
//! coroutine, records what the thread waits for and returns at once), `llvm.coro.suspend`, and on
//! resumption call it again with the same arguments (which returns what the completed collective
//! gave the thread). Inlining the wrappers splits the blocks at the suspension points (LLVM's C
//! API cannot split a block); a marker call on the path that leaves the coroutine is then
//! replaced by a branch to its return block. LLVM's coroutine passes (`coro-early`, `coro-split`,
//! `coro-cleanup`) then build the frame and the resume function.

use super::error::HostError;
use super::ir::{self, Builder};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMAttributeFunctionIndex, LLVMIntPredicate};
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::TargetMachine;
use std::collections::HashMap;

pub const CORO_PREFIX: &str = "loom.coro.";
pub const RESUME: &str = "loom.coro.resume";
const WRAPPER_PREFIX: &str = "loom.suspend.";
const LEAVE_MARKER: &str = "loom.coro.leave";
const FRAME: &str = "loom_simt_frame";
const EXIT: &str = "loom_simt_exit";

/// The name of `kernel`'s coroutine.
pub fn function_name(kernel: &str) -> String {
    format!("{CORO_PREFIX}{kernel}")
}

unsafe fn enum_attribute(context: LLVMContextRef, function: LLVMValueRef, name: &str) {
    let kind = LLVMGetEnumAttributeKindForName(name.as_ptr() as *const _, name.len());
    let attribute = LLVMCreateEnumAttribute(context, kind, 0);
    LLVMAddAttributeAtIndex(function, LLVMAttributeFunctionIndex, attribute);
}

/// Adds `loom.coro.<kernel>` around an `alwaysinline` call of the kernel's entry (`entry`), and
/// `loom.coro.resume` once per module.
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
    let ptr = LLVMPointerTypeInContext(context, 0);
    let i1 = LLVMInt1TypeInContext(context);
    let i32t = LLVMInt32TypeInContext(context);
    let i64t = LLVMInt64TypeInContext(context);
    let token = LLVMTokenTypeInContext(context);
    let void = LLVMVoidTypeInContext(context);
    let builder = Builder::new(context);
    let b = builder.raw();

    let coro_id = ir::declare(
        module,
        "llvm.coro.id",
        LLVMFunctionType(token, [i32t, ptr, ptr, ptr].as_mut_ptr(), 4, 0),
    );
    let coro_align = ir::declare(
        module,
        "llvm.coro.align.i64",
        LLVMFunctionType(i64t, [].as_mut_ptr(), 0, 0),
    );
    let coro_size = ir::declare(
        module,
        "llvm.coro.size.i64",
        LLVMFunctionType(i64t, [].as_mut_ptr(), 0, 0),
    );
    let coro_begin = ir::declare(
        module,
        "llvm.coro.begin",
        LLVMFunctionType(ptr, [token, ptr].as_mut_ptr(), 2, 0),
    );
    let coro_end = ir::declare(
        module,
        "llvm.coro.end",
        LLVMFunctionType(i1, [ptr, i1, token].as_mut_ptr(), 3, 0),
    );
    let frame = ir::declare(
        module,
        FRAME,
        LLVMFunctionType(ptr, [i64t, i64t].as_mut_ptr(), 2, 0),
    );
    let exit = ir::declare(module, EXIT, LLVMFunctionType(void, [].as_mut_ptr(), 0, 0));

    let fn_type = LLVMFunctionType(ptr, [ptr].as_mut_ptr(), 1, 0);
    let name = ir::c_name(&function_name(kernel));
    let function = LLVMAddFunction(module, name.as_ptr(), fn_type);
    enum_attribute(context, function, "presplitcoroutine");
    let start = LLVMAppendBasicBlockInContext(context, function, c"entry".as_ptr());
    let leave = LLVMAppendBasicBlockInContext(context, function, c"leave".as_ptr());
    LLVMPositionBuilderAtEnd(b, start);
    let null = LLVMConstNull(ptr);
    let id = builder.call(
        LLVMGlobalGetValueType(coro_id),
        coro_id,
        &mut [LLVMConstInt(i32t, 0, 0), null, null, null],
    );
    let size = builder.call(LLVMGlobalGetValueType(coro_size), coro_size, &mut []);
    let align = builder.call(LLVMGlobalGetValueType(coro_align), coro_align, &mut []);
    let memory = builder.call(LLVMGlobalGetValueType(frame), frame, &mut [size, align]);
    let handle = builder.call(
        LLVMGlobalGetValueType(coro_begin),
        coro_begin,
        &mut [id, memory],
    );
    let call = builder.call(
        LLVMGlobalGetValueType(entry),
        entry,
        &mut [LLVMGetParam(function, 0)],
    );
    ir::always_inline_call(context, call);
    builder.call(LLVMGlobalGetValueType(exit), exit, &mut []);
    LLVMBuildBr(b, leave);
    LLVMPositionBuilderAtEnd(b, leave);
    builder.call(
        LLVMGlobalGetValueType(coro_end),
        coro_end,
        &mut [handle, LLVMConstInt(i1, 0, 0), LLVMConstNull(token)],
    );
    LLVMBuildRet(b, handle);
    for inst in ir::instructions(entry) {
        if ir::is_call(inst) {
            ir::always_inline_call(context, inst);
        }
    }

    let resume_name = ir::c_name(RESUME);
    if LLVMGetNamedFunction(module, resume_name.as_ptr()).is_null() {
        let coro_resume = ir::declare(
            module,
            "llvm.coro.resume",
            LLVMFunctionType(void, [ptr].as_mut_ptr(), 1, 0),
        );
        let resume = LLVMAddFunction(
            module,
            resume_name.as_ptr(),
            LLVMFunctionType(void, [ptr].as_mut_ptr(), 1, 0),
        );
        let block = LLVMAppendBasicBlockInContext(context, resume, c"entry".as_ptr());
        LLVMPositionBuilderAtEnd(b, block);
        builder.call(
            LLVMGlobalGetValueType(coro_resume),
            coro_resume,
            &mut [LLVMGetParam(resume, 0)],
        );
        LLVMBuildRetVoid(b);
    }
}

/// Deletes the coroutines of `kernels` (cut into loops over threads instead, `cut.rs`), and
/// the resume function where no coroutine is left.
///
/// # Safety
/// `module` must be live.
pub unsafe fn remove(module: LLVMModuleRef, kernels: &[String]) {
    for kernel in kernels {
        let f = LLVMGetNamedFunction(module, ir::c_name(&function_name(kernel)).as_ptr());
        if !f.is_null() {
            LLVMDeleteFunction(f);
        }
    }
    let left = ir::functions(module).into_iter().any(|f| {
        let name = ir::name(f);
        name.starts_with(CORO_PREFIX) && name != RESUME
    });
    let resume = LLVMGetNamedFunction(module, ir::c_name(RESUME).as_ptr());
    if !left && !resume.is_null() {
        LLVMDeleteFunction(resume);
    }
}

/// After the first inlining: turns each suspending runtime call of every `loom.coro.*` into a
/// call of its wrapper, inlines those, sends the wrappers' leaving paths to the coroutine's
/// return block, and runs the coroutine passes. Returns the kernels that have a coroutine.
///
/// # Safety
/// `context` and `module` must be live, the module owned by `context`, the always-inliner run.
pub unsafe fn split(
    context: LLVMContextRef,
    module: &Module<'_>,
    machine: &TargetMachine,
) -> Result<Vec<String>, HostError> {
    let raw = module.as_mut_ptr();
    let coroutines: Vec<(LLVMValueRef, String)> = ir::functions(raw)
        .into_iter()
        .filter_map(|f| {
            let name = ir::name(f);
            let kernel = name.strip_prefix(CORO_PREFIX)?.to_string();
            (name != RESUME).then_some((f, kernel))
        })
        .collect();
    if coroutines.is_empty() {
        return Ok(Vec::new());
    }
    let mut wrappers: HashMap<String, LLVMValueRef> = HashMap::new();
    for (function, _) in &coroutines {
        for inst in ir::instructions(*function) {
            if !ir::is_call(inst) {
                continue;
            }
            let Some(callee) = ir::callee(inst) else {
                continue;
            };
            let name = ir::name(callee);
            if !loom_simt::suspends(&name) {
                continue;
            }
            let wrapper = match wrappers.get(&name) {
                Some(w) => *w,
                None => {
                    let w = wrapper(context, raw, callee, &name);
                    wrappers.insert(name.clone(), w);
                    w
                }
            };
            LLVMSetOperand(inst, LLVMGetNumOperands(inst) as u32 - 1, wrapper);
            ir::always_inline_call(context, inst);
        }
    }
    module
        .run_passes("always-inline", machine, PassBuilderOptions::create())
        .map_err(|e| HostError::Llvm(format!("inlining the suspension points: {e}")))?;
    let builder = Builder::new(context);
    for (function, _) in &coroutines {
        let leave = ir::blocks(*function)
            .into_iter()
            .find(|bb| ir::block_name(*bb) == "leave");
        let Some(leave) = leave else {
            return Err(HostError::Llvm(
                "a coroutine lost its return block".to_string(),
            ));
        };
        // Found first: each is followed by an `unreachable` that goes with it.
        let markers: Vec<LLVMValueRef> = ir::instructions(*function)
            .into_iter()
            .filter(|i| {
                ir::is_call(*i) && ir::callee(*i).is_some_and(|f| ir::name(f) == LEAVE_MARKER)
            })
            .collect();
        for inst in markers {
            let block = LLVMGetInstructionParent(inst);
            let unreachable = LLVMGetNextInstruction(inst);
            LLVMInstructionEraseFromParent(inst);
            if !unreachable.is_null() {
                LLVMInstructionEraseFromParent(unreachable);
            }
            LLVMPositionBuilderAtEnd(builder.raw(), block);
            LLVMBuildBr(builder.raw(), leave);
        }
    }
    for w in wrappers.values() {
        LLVMDeleteFunction(*w);
    }
    let marker = LLVMGetNamedFunction(raw, ir::c_name(LEAVE_MARKER).as_ptr());
    if !marker.is_null() && !ir::has_uses(marker) {
        LLVMDeleteFunction(marker);
    }
    module
        .run_passes(
            "coro-early,cgscc(coro-split),coro-cleanup,function(simplifycfg)",
            machine,
            PassBuilderOptions::create(),
        )
        .map_err(|e| HostError::Llvm(format!("splitting the coroutines: {e}")))?;
    Ok(coroutines.into_iter().map(|(_, k)| k).collect())
}

/// `loom.suspend.<runtime function>`: call it (the request), suspend, call it again (the
/// result).
unsafe fn wrapper(
    context: LLVMContextRef,
    module: LLVMModuleRef,
    runtime: LLVMValueRef,
    name: &str,
) -> LLVMValueRef {
    let fn_type = LLVMGlobalGetValueType(runtime);
    let w_name = ir::c_name(&format!("{WRAPPER_PREFIX}{name}"));
    let function = LLVMAddFunction(module, w_name.as_ptr(), fn_type);
    let void = LLVMVoidTypeInContext(context);
    let i1 = LLVMInt1TypeInContext(context);
    let i8t = LLVMInt8TypeInContext(context);
    let token = LLVMTokenTypeInContext(context);
    let suspend = ir::declare(
        module,
        "llvm.coro.suspend",
        LLVMFunctionType(i8t, [token, i1].as_mut_ptr(), 2, 0),
    );
    let marker = ir::declare(
        module,
        LEAVE_MARKER,
        LLVMFunctionType(void, [].as_mut_ptr(), 0, 0),
    );
    let builder = Builder::new(context);
    let b = builder.raw();
    let start = LLVMAppendBasicBlockInContext(context, function, c"entry".as_ptr());
    let out = LLVMAppendBasicBlockInContext(context, function, c"out".as_ptr());
    let resume = LLVMAppendBasicBlockInContext(context, function, c"resume".as_ptr());
    let count = LLVMCountParams(function);
    let mut args: Vec<LLVMValueRef> = (0..count).map(|i| LLVMGetParam(function, i)).collect();
    LLVMPositionBuilderAtEnd(b, start);
    builder.call(fn_type, runtime, &mut args);
    let state = builder.call(
        LLVMGlobalGetValueType(suspend),
        suspend,
        &mut [LLVMConstNull(token), LLVMConstInt(i1, 0, 0)],
    );
    let go_on = LLVMBuildICmp(
        b,
        LLVMIntPredicate::LLVMIntEQ,
        state,
        LLVMConstInt(i8t, 0, 0),
        c"".as_ptr(),
    );
    LLVMBuildCondBr(b, go_on, resume, out);
    LLVMPositionBuilderAtEnd(b, out);
    builder.call(LLVMGlobalGetValueType(marker), marker, &mut []);
    LLVMBuildUnreachable(b);
    LLVMPositionBuilderAtEnd(b, resume);
    let result = builder.call(fn_type, runtime, &mut args);
    if LLVMGetReturnType(fn_type) == void {
        LLVMBuildRetVoid(b);
    } else {
        LLVMBuildRet(b, result);
    }
    function
}
