//! Bounds checks, in every mode: before every access to global memory, a call of
//! `loom_simt_check_bounds(address, size, kind | (param + 1) << 8, location)`. When the address
//! derives from a kernel's array parameter (through GEPs and casts), the runtime checks it
//! against that parameter's buffer, so an index past one array that happens to land in another
//! is still caught; otherwise (0) against every buffer of the launch.
//!
//! Which accesses: those in address space 1 (global), and generic ones whose address derives
//! from a kernel parameter. A generic pointer of unknown origin may point at the thread's stack,
//! which has no buffer: it is not checked (nothing LOOM emits makes one).

use super::entry::KernelSignature;
use super::error::HostError;
use super::ir;
use super::locations::Locations;
use super::sanitize::Instrumentation;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::target::LLVMTargetDataRef;
use inkwell::llvm_sys::LLVMOpcode;
use loom_simt::BOUNDS_PARAM_SHIFT;

pub const CHECK_BOUNDS: &str = "loom_simt_check_bounds";

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
) -> Result<(), HostError> {
    let mut instrumentation = Instrumentation {
        context,
        module,
        target_data,
        locations,
    };
    instrumentation.instrument(CHECK_BOUNDS, |function, address, access| {
        let is_kernel = kernels.iter().any(|k| k.name == ir::name(function));
        let param = if is_kernel {
            param_index(function, underlying(address))
        } else {
            None
        };
        let space = ir::address_space(LLVMTypeOf(address)).unwrap_or(0);
        match param {
            Some(p) => Some(access.kind | (p + 1) << BOUNDS_PARAM_SHIFT),
            None if space == GLOBAL => Some(access.kind),
            None => None,
        }
    })
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

/// The index of `value` among `function`'s parameters, if it is one.
unsafe fn param_index(function: LLVMValueRef, value: LLVMValueRef) -> Option<u32> {
    if LLVMIsAArgument(value).is_null() {
        return None;
    }
    (0..LLVMCountParams(function)).find(|&i| LLVMGetParam(function, i) == value)
}
