//! Access instrumentation: before a load, store, atomic or memory intrinsic, a call of a runtime
//! check `check(address, size, kind, location)` whose result replaces the access's address (the
//! runtime returns the same address, or a harmless scratch one after an error it could not stop
//! the thread for). Two checks use it: the sanitizer's (`loom_simt_check_access`, every access,
//! `kind | address_space << 8`) and the bounds check (`bounds.rs`, global accesses only).

use super::error::HostError;
use super::ir::{self, Builder};
use super::locations::Locations;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::target::{LLVMStoreSizeOfType, LLVMTargetDataRef};
use inkwell::llvm_sys::LLVMOpcode;
use loom_simt::{ACCESS_ATOMIC, ACCESS_READ, ACCESS_WRITE};

pub const CHECK_ACCESS: &str = "loom_simt_check_access";

/// One access to check: the operand index of its address, its size (a constant, or a value for
/// memory intrinsics) and its kind.
pub struct Access {
    pub address_operand: u32,
    pub size: Size,
    pub kind: u32,
}

pub enum Size {
    Type(LLVMTypeRef),
    Value(ir::Value),
}

/// The module, and the runtime check to call before the accesses `select` picks.
pub struct Instrumentation<'a> {
    pub context: LLVMContextRef,
    pub module: LLVMModuleRef,
    pub target_data: LLVMTargetDataRef,
    pub locations: &'a mut Locations,
}

impl Instrumentation<'_> {
    /// The sanitizer's instrumentation: every access.
    ///
    /// # Safety
    /// `context`, `module` and `target_data` must be live, the module owned by `context`.
    pub unsafe fn run(&mut self) -> Result<(), HostError> {
        self.instrument(CHECK_ACCESS, |_, address, access| {
            let space = ir::address_space(LLVMTypeOf(address)).unwrap_or(0);
            Some(access.kind | space << 8)
        })
    }

    /// Calls `check` before every access of every defined function for which `select(function,
    /// address, access)` gives the check's `kind` argument.
    ///
    /// # Safety
    /// As for `run`.
    pub unsafe fn instrument(
        &mut self,
        check: &str,
        mut select: impl FnMut(ir::Value, ir::Value, &Access) -> Option<u32>,
    ) -> Result<(), HostError> {
        let i32t = LLVMInt32TypeInContext(self.context);
        let i64t = LLVMInt64TypeInContext(self.context);
        let ptr = LLVMPointerTypeInContext(self.context, 0);
        let mut params = [ptr, i64t, i32t, i32t];
        let fn_type = LLVMFunctionType(ptr, params.as_mut_ptr(), 4, 0);
        let name = ir::c_name(check);
        let mut check = LLVMGetNamedFunction(self.module, name.as_ptr());
        if check.is_null() {
            check = LLVMAddFunction(self.module, name.as_ptr(), fn_type);
        }
        let builder = Builder::new(self.context);
        for function in ir::functions(self.module) {
            if ir::is_declaration(function) {
                continue;
            }
            for inst in ir::instructions(function) {
                for access in accesses(inst) {
                    let address = LLVMGetOperand(inst, access.address_operand);
                    let Some(kind) = select(function, address, &access) else {
                        continue;
                    };
                    let address_type = LLVMTypeOf(address);
                    builder.before(inst);
                    let b = builder.raw();
                    let size = size_value(b, &access, self.target_data, i64t);
                    // Through an integer: the runtime takes a generic pointer, and a cast between
                    // address spaces is not something every backend accepts.
                    let as_int = LLVMBuildPtrToInt(b, address, i64t, c"".as_ptr());
                    let generic = LLVMBuildIntToPtr(b, as_int, ptr, c"".as_ptr());
                    let kind = LLVMConstInt(i32t, kind as u64, 0);
                    let location = LLVMConstInt(i32t, self.locations.add(inst) as u64, 0);
                    let checked =
                        builder.call(fn_type, check, &mut [generic, size, kind, location]);
                    let back = LLVMBuildPtrToInt(b, checked, i64t, c"".as_ptr());
                    let back = LLVMBuildIntToPtr(b, back, address_type, c"".as_ptr());
                    LLVMSetOperand(inst, access.address_operand, back);
                }
            }
        }
        Ok(())
    }
}

/// The size of `access` in bytes, as an `i64` value built at `b`'s position.
pub unsafe fn size_value(
    b: LLVMBuilderRef,
    access: &Access,
    target_data: LLVMTargetDataRef,
    i64t: LLVMTypeRef,
) -> ir::Value {
    match access.size {
        Size::Type(ty) => LLVMConstInt(i64t, LLVMStoreSizeOfType(target_data, ty), 0),
        Size::Value(v) => LLVMBuildZExtOrBitCast(b, v, i64t, c"".as_ptr()),
    }
}

/// The memory accesses `inst` makes.
pub unsafe fn accesses(inst: ir::Value) -> Vec<Access> {
    let typed = |operand: u32, ty: LLVMTypeRef, kind: u32| Access {
        address_operand: operand,
        size: Size::Type(ty),
        kind,
    };
    match ir::opcode(inst) {
        LLVMOpcode::LLVMLoad => vec![typed(0, LLVMTypeOf(inst), ACCESS_READ)],
        LLVMOpcode::LLVMStore => {
            vec![typed(1, LLVMTypeOf(LLVMGetOperand(inst, 0)), ACCESS_WRITE)]
        }
        LLVMOpcode::LLVMAtomicRMW => vec![typed(0, LLVMTypeOf(inst), ACCESS_ATOMIC)],
        LLVMOpcode::LLVMAtomicCmpXchg => {
            vec![typed(0, LLVMTypeOf(LLVMGetOperand(inst, 1)), ACCESS_ATOMIC)]
        }
        LLVMOpcode::LLVMCall => memory_intrinsic(inst),
        _ => Vec::new(),
    }
}

/// `llvm.memcpy`/`memmove` (dst, src, len) and `llvm.memset` (dst, byte, len).
unsafe fn memory_intrinsic(call: ir::Value) -> Vec<Access> {
    let Some(callee) = ir::callee(call) else {
        return Vec::new();
    };
    let name = ir::name(callee);
    let len = LLVMGetOperand(call, 2);
    let ranged = |operand: u32, kind: u32| Access {
        address_operand: operand,
        size: Size::Value(len),
        kind,
    };
    if name.starts_with("llvm.memcpy") || name.starts_with("llvm.memmove") {
        vec![ranged(0, ACCESS_WRITE), ranged(1, ACCESS_READ)]
    } else if name.starts_with("llvm.memset") {
        vec![ranged(0, ACCESS_WRITE)]
    } else {
        Vec::new()
    }
}
