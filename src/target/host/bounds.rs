//! Bounds checks, in every mode: every access to global memory is checked before it happens.
//!
//! - An address that derives (through GEPs and casts) from a kernel's array parameter is checked
//!   inline against that parameter: `address - param <= len && address - param + size <= len`
//!   (unsigned, so an address before the array fails too), with `len` read from the kernel's
//!   `loom.bounds.<kernel>` global, which the launch fills with each array parameter's byte
//!   length. Only a failing check calls the runtime (`loom_simt_check_bounds`, which reports and
//!   stops the block). The check is an `alwaysinline` function (`loom.check.param`) that the
//!   always-inliner then splits into the access's block, as LLVM's C API cannot split blocks.
//!   An index past one array that happens to land in another is caught too.
//! - Any other global access (address space 1, origin unknown) calls the runtime, which checks
//!   it against every buffer of the launch.
//! - An access to shared memory (address space 3) that derives from a `shared` variable (its
//!   address in the block's buffer, `shared.rs`) is checked inline against that variable, whose
//!   size is a constant; any other (a launch's dynamic shared memory) calls the runtime, which
//!   checks it against the running block's shared memory (`BOUNDS_SHARED`). An index past a
//!   `shared` array would otherwise read or write the host's heap, or another array unnoticed:
//!   the red zones around a block's shared memory only catch what lands near, after the block.
//!
//! A generic pointer of unknown origin may point at the thread's stack, which has no buffer: it
//! is not checked (nothing LOOM emits makes one).

use super::entry::KernelSignature;
use super::error::HostError;
use super::ir::{self, Builder};
use super::locations::Locations;
use super::sanitize::{accesses, size_value};
use super::shared::{SharedLayout, SHARED_ADDRESS_SPACE, SHARED_BASE};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::target::{LLVMABISizeOfType, LLVMTargetDataRef};
use inkwell::llvm_sys::{LLVMAttributeFunctionIndex, LLVMIntPredicate, LLVMLinkage, LLVMOpcode};
use loom_simt::{BOUNDS_PARAM_SHIFT, BOUNDS_SHARED};

pub const CHECK_BOUNDS: &str = "loom_simt_check_bounds";
/// The inline check of an access through a kernel parameter.
const CHECK_PARAM: &str = "loom.check.param";
/// The inline check of an access by its offset in its array.
const CHECK_OFFSET: &str = "loom.check.offset";
/// `loom.bounds.<kernel>`: one `i64` per parameter, the byte length of the array passed there.
pub const LENGTHS_PREFIX: &str = "loom.bounds.";

/// Address space 1: global memory.
const GLOBAL: u32 = 1;

/// # Safety
/// `context`, `module` and `target_data` must be live, the module owned by `context`.
pub unsafe fn run(
    context: LLVMContextRef,
    module: LLVMModuleRef,
    target_data: LLVMTargetDataRef,
    locations: &mut Locations,
    kernels: &[KernelSignature],
    shared: &SharedLayout,
) -> Result<(), HostError> {
    let i32t = LLVMInt32TypeInContext(context);
    let i64t = LLVMInt64TypeInContext(context);
    let ptr = LLVMPointerTypeInContext(context, 0);
    let mut runtime_params = [ptr, i64t, i32t, i32t];
    let runtime_type = LLVMFunctionType(ptr, runtime_params.as_mut_ptr(), 4, 0);
    let runtime = LLVMAddFunction(module, ir::c_name(CHECK_BOUNDS).as_ptr(), runtime_type);
    let (inline_type, inline) = add_check(context, module, runtime_type, runtime, CheckForm::Base);
    let (offset_check_type, offset_check) =
        add_check(context, module, runtime_type, runtime, CheckForm::Offset);
    let builder = Builder::new(context);
    for function in ir::functions(module) {
        if ir::is_declaration(function) || function == inline || function == offset_check {
            continue;
        }
        let name = ir::name(function);
        let lengths = kernels
            .iter()
            .find(|k| k.name == name)
            .map(|kernel| lengths_global(context, module, kernel));
        for inst in ir::instructions(function) {
            for access in accesses(inst) {
                let address = LLVMGetOperand(inst, access.address_operand);
                let address_type = LLVMTypeOf(address);
                let space = ir::address_space(address_type).unwrap_or(0);
                builder.before(inst);
                let b = builder.raw();
                if space == SHARED_ADDRESS_SPACE {
                    let size = size_value(b, &access, target_data, i64t);
                    let generic = to_generic(b, address, i64t, ptr);
                    let location = LLVMConstInt(i32t, locations.add(inst) as u64, 0);
                    let checked = match shared_variable(address, shared) {
                        Some((index, start, bytes)) => {
                            let kind =
                                access.kind | BOUNDS_SHARED | (index + 1) << BOUNDS_PARAM_SHIFT;
                            let kind = LLVMConstInt(i32t, kind as u64, 0);
                            let len = LLVMConstInt(i64t, bytes, 0);
                            match element_offset(b, address, start, target_data, i64t) {
                                // In the index's terms, so that the thread ids' ranges decide
                                // it (`thread_loop.rs`: `correlated-propagation`).
                                Some(offset) => builder.call(
                                    offset_check_type,
                                    offset_check,
                                    &mut [generic, size, kind, location, offset, len],
                                ),
                                None => {
                                    let start = to_generic(b, start, i64t, ptr);
                                    builder.call(
                                        inline_type,
                                        inline,
                                        &mut [generic, size, kind, location, start, len],
                                    )
                                }
                            }
                        }
                        None => {
                            let kind = LLVMConstInt(i32t, (access.kind | BOUNDS_SHARED) as u64, 0);
                            builder.call(
                                runtime_type,
                                runtime,
                                &mut [generic, size, kind, location],
                            )
                        }
                    };
                    let back = LLVMBuildPtrToInt(b, checked, i64t, c"".as_ptr());
                    let back = LLVMBuildIntToPtr(b, back, address_type, c"".as_ptr());
                    LLVMSetOperand(inst, access.address_operand, back);
                    continue;
                }
                let param = lengths.and_then(|(array_type, global)| {
                    param_index(function, underlying(address)).map(|p| (array_type, global, p))
                });
                if param.is_none() && space != GLOBAL {
                    continue;
                }
                let size = size_value(b, &access, target_data, i64t);
                let generic = to_generic(b, address, i64t, ptr);
                let location = LLVMConstInt(i32t, locations.add(inst) as u64, 0);
                let checked = match param {
                    Some((array_type, global, p)) => {
                        let kind = access.kind | (p + 1) << BOUNDS_PARAM_SHIFT;
                        let kind = LLVMConstInt(i32t, kind as u64, 0);
                        let base = to_generic(b, LLVMGetParam(function, p), i64t, ptr);
                        let mut index = [LLVMConstInt(i64t, 0, 0), LLVMConstInt(i64t, p as u64, 0)];
                        let slot = LLVMBuildInBoundsGEP2(
                            b,
                            array_type,
                            global,
                            index.as_mut_ptr(),
                            2,
                            c"".as_ptr(),
                        );
                        let len = LLVMBuildLoad2(b, i64t, slot, c"".as_ptr());
                        // A launch writes the lengths before the kernel starts; no store of the
                        // kernel's can change them, so a loop may read them once.
                        ir::set_invariant_load(context, len);
                        builder.call(
                            inline_type,
                            inline,
                            &mut [generic, size, kind, location, base, len],
                        )
                    }
                    None => {
                        let kind = LLVMConstInt(i32t, access.kind as u64, 0);
                        builder.call(runtime_type, runtime, &mut [generic, size, kind, location])
                    }
                };
                let back = LLVMBuildPtrToInt(b, checked, i64t, c"".as_ptr());
                let back = LLVMBuildIntToPtr(b, back, address_type, c"".as_ptr());
                LLVMSetOperand(inst, access.address_operand, back);
            }
        }
    }
    Ok(())
}

/// `address` as a generic pointer, through an integer (a cast between address spaces is not
/// something every backend accepts).
unsafe fn to_generic(
    b: LLVMBuilderRef,
    address: LLVMValueRef,
    i64t: LLVMTypeRef,
    ptr: LLVMTypeRef,
) -> LLVMValueRef {
    let as_int = LLVMBuildPtrToInt(b, address, i64t, c"".as_ptr());
    LLVMBuildIntToPtr(b, as_int, ptr, c"".as_ptr())
}

/// `loom.bounds.<kernel>`: `[params x i64]`, zeros until a launch fills it.
unsafe fn lengths_global(
    context: LLVMContextRef,
    module: LLVMModuleRef,
    kernel: &KernelSignature,
) -> (LLVMTypeRef, LLVMValueRef) {
    let i64t = LLVMInt64TypeInContext(context);
    let array_type = LLVMArrayType2(i64t, kernel.params.len().max(1) as u64);
    let name = ir::c_name(&format!("{LENGTHS_PREFIX}{}", kernel.name));
    let mut global = LLVMGetNamedGlobal(module, name.as_ptr());
    if global.is_null() {
        global = LLVMAddGlobal(module, array_type, name.as_ptr());
        LLVMSetInitializer(global, LLVMConstNull(array_type));
    }
    (array_type, global)
}

/// The two inline checks, each `(ptr address, i64 size, i32 kind, i32 location, X, i64 len)`,
/// returning `address` when `[offset, offset + size)` lies in `[0, len)`, else what the
/// runtime's check says after reporting: `loom.check.param`, `X` the array's base (the offset is
/// `address - base`), and `loom.check.offset`, `X` the offset itself, in bytes.
#[derive(Clone, Copy, PartialEq)]
enum CheckForm {
    Base,
    Offset,
}

unsafe fn add_check(
    context: LLVMContextRef,
    module: LLVMModuleRef,
    runtime_type: LLVMTypeRef,
    runtime: LLVMValueRef,
    form: CheckForm,
) -> (LLVMTypeRef, LLVMValueRef) {
    let i32t = LLVMInt32TypeInContext(context);
    let i64t = LLVMInt64TypeInContext(context);
    let ptr = LLVMPointerTypeInContext(context, 0);
    let array_start = match form {
        CheckForm::Base => ptr,
        CheckForm::Offset => i64t,
    };
    let mut params = [ptr, i64t, i32t, i32t, array_start, i64t];
    let fn_type = LLVMFunctionType(ptr, params.as_mut_ptr(), 6, 0);
    let name = match form {
        CheckForm::Base => CHECK_PARAM,
        CheckForm::Offset => CHECK_OFFSET,
    };
    let function = LLVMAddFunction(module, ir::c_name(name).as_ptr(), fn_type);
    LLVMSetLinkage(function, LLVMLinkage::LLVMInternalLinkage);
    let kind = LLVMGetEnumAttributeKindForName(c"alwaysinline".as_ptr(), 12);
    let attribute = LLVMCreateEnumAttribute(context, kind, 0);
    LLVMAddAttributeAtIndex(function, LLVMAttributeFunctionIndex, attribute);
    let arg = |i| LLVMGetParam(function, i);
    let entry = LLVMAppendBasicBlockInContext(context, function, c"entry".as_ptr());
    let inside = LLVMAppendBasicBlockInContext(context, function, c"inside".as_ptr());
    let outside = LLVMAppendBasicBlockInContext(context, function, c"outside".as_ptr());
    let builder = Builder::new(context);
    let b = builder.raw();
    LLVMPositionBuilderAtEnd(b, entry);
    let offset = match form {
        CheckForm::Base => {
            let address = LLVMBuildPtrToInt(b, arg(0), i64t, c"".as_ptr());
            let base = LLVMBuildPtrToInt(b, arg(4), i64t, c"".as_ptr());
            LLVMBuildSub(b, address, base, c"".as_ptr())
        }
        CheckForm::Offset => arg(4),
    };
    let end = LLVMBuildAdd(b, offset, arg(1), c"".as_ptr());
    let len = arg(5);
    let start_ok = LLVMBuildICmp(b, LLVMIntPredicate::LLVMIntULE, offset, len, c"".as_ptr());
    let end_ok = LLVMBuildICmp(b, LLVMIntPredicate::LLVMIntULE, end, len, c"".as_ptr());
    let ok = LLVMBuildAnd(b, start_ok, end_ok, c"".as_ptr());
    LLVMBuildCondBr(b, ok, inside, outside);
    LLVMPositionBuilderAtEnd(b, inside);
    LLVMBuildRet(b, arg(0));
    LLVMPositionBuilderAtEnd(b, outside);
    let reported = builder.call(runtime_type, runtime, &mut [arg(0), arg(1), arg(2), arg(3)]);
    LLVMBuildRet(b, reported);
    (fn_type, function)
}

/// `address - start` in bytes, as the index arithmetic computes it, where `address` is one GEP
/// with one index off `start` (`t[i]` of a `shared` array `t`): `sext(i) * size of the element`.
unsafe fn element_offset(
    b: LLVMBuilderRef,
    address: LLVMValueRef,
    start: LLVMValueRef,
    target_data: LLVMTargetDataRef,
    i64t: LLVMTypeRef,
) -> Option<LLVMValueRef> {
    if LLVMIsAGetElementPtrInst(address).is_null()
        || LLVMGetNumOperands(address) != 2
        || LLVMGetOperand(address, 0) != start
    {
        return None;
    }
    let element = LLVMGetGEPSourceElementType(address);
    let size = LLVMABISizeOfType(target_data, element);
    let index = LLVMGetOperand(address, 1);
    let index = LLVMBuildSExtOrBitCast(b, index, i64t, c"".as_ptr());
    Some(LLVMBuildMul(
        b,
        index,
        LLVMConstInt(i64t, size, 0),
        c"".as_ptr(),
    ))
}

/// The value `address` is computed from through GEPs and pointer casts.
unsafe fn underlying(mut address: LLVMValueRef) -> LLVMValueRef {
    loop {
        let through = if !LLVMIsAGetElementPtrInst(address).is_null()
            || !LLVMIsABitCastInst(address).is_null()
            || !LLVMIsAAddrSpaceCastInst(address).is_null()
        {
            true
        } else if ir::is_constant_expr(address) {
            matches!(
                LLVMGetConstOpcode(address),
                LLVMOpcode::LLVMGetElementPtr
                    | LLVMOpcode::LLVMBitCast
                    | LLVMOpcode::LLVMAddrSpaceCast
            )
        } else {
            false
        };
        if !through {
            return address;
        }
        address = LLVMGetOperand(address, 0);
    }
}

/// The `shared` variable `address` derives from, through GEPs and casts: its index in `layout`,
/// its address in the block's buffer (`shared.rs`: `gep i8, base, offset`) and its size.
unsafe fn shared_variable(
    mut address: LLVMValueRef,
    layout: &SharedLayout,
) -> Option<(u32, LLVMValueRef, u64)> {
    loop {
        let through = !LLVMIsAGetElementPtrInst(address).is_null()
            || !LLVMIsABitCastInst(address).is_null()
            || !LLVMIsAAddrSpaceCastInst(address).is_null();
        if !through {
            return None;
        }
        let pointer = LLVMGetOperand(address, 0);
        let is_base =
            ir::is_call(pointer) && ir::callee(pointer).is_some_and(|f| ir::name(f) == SHARED_BASE);
        if is_base
            && !LLVMIsAGetElementPtrInst(address).is_null()
            && LLVMGetNumOperands(address) == 2
        {
            let offset = LLVMGetOperand(address, 1);
            if LLVMIsAConstantInt(offset).is_null() {
                return None;
            }
            let offset = LLVMConstIntGetZExtValue(offset);
            let name = ir::name(address);
            return layout
                .variables
                .iter()
                .enumerate()
                .find(|(_, (variable, at, size))| {
                    *at == offset && *size > 0 && name.starts_with(variable.as_str())
                })
                .map(|(index, (_, _, size))| (index as u32, address, *size));
        }
        address = pointer;
    }
}

/// The index of `value` among `function`'s parameters, if it is one.
unsafe fn param_index(function: LLVMValueRef, value: LLVMValueRef) -> Option<u32> {
    if LLVMIsAArgument(value).is_null() {
        return None;
    }
    (0..LLVMCountParams(function)).find(|&i| LLVMGetParam(function, i) == value)
}
