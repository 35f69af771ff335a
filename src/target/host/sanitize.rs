//! Sanitizer instrumentation: before every load, store, atomic and memory intrinsic, a call of
//! `loom_simt_check_access(address, size, kind | address_space << 8, location)`, whose result
//! replaces the access's address (the runtime returns the same address, or a harmless scratch
//! one after an error it could not stop the thread for).

use super::error::HostError;
use super::ir::{self, Builder};
use super::locations::Locations;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::target::{LLVMStoreSizeOfType, LLVMTargetDataRef};
use inkwell::llvm_sys::LLVMOpcode;
use loom_simt::{ACCESS_ATOMIC, ACCESS_READ, ACCESS_WRITE};

pub const CHECK_ACCESS: &str = "loom_simt_check_access";

pub struct Instrumentation<'a> {
    pub context: LLVMContextRef,
    pub module: LLVMModuleRef,
    pub target_data: LLVMTargetDataRef,
    pub locations: &'a mut Locations,
}

/// One access to check: the operand index of its address, its size (a constant, or a value for
/// memory intrinsics) and its kind.
struct Access {
    address_operand: u32,
    size: Size,
    kind: u32,
}

enum Size {
    Type(LLVMTypeRef),
    Value(ir::Value),
}

impl Instrumentation<'_> {
    /// # Safety
    /// `context`, `module` and `target_data` must be live, the module owned by `context`.
    pub unsafe fn run(&mut self) -> Result<(), HostError> {
        let i32t = LLVMInt32TypeInContext(self.context);
        let i64t = LLVMInt64TypeInContext(self.context);
        let ptr = LLVMPointerTypeInContext(self.context, 0);
        let mut params = [ptr, i64t, i32t, i32t];
        let fn_type = LLVMFunctionType(ptr, params.as_mut_ptr(), 4, 0);
        let name = ir::c_name(CHECK_ACCESS);
        let check = LLVMAddFunction(self.module, name.as_ptr(), fn_type);
        let builder = Builder::new(self.context);
        for function in ir::functions(self.module) {
            if ir::is_declaration(function) || function == check {
                continue;
            }
            for inst in ir::instructions(function) {
                for access in self.accesses(inst) {
                    let address = LLVMGetOperand(inst, access.address_operand);
                    let address_type = LLVMTypeOf(address);
                    let space = ir::address_space(address_type).unwrap_or(0);
                    builder.before(inst);
                    let b = builder.raw();
                    let size = match access.size {
                        Size::Type(ty) => {
                            LLVMConstInt(i64t, LLVMStoreSizeOfType(self.target_data, ty), 0)
                        }
                        Size::Value(v) => LLVMBuildZExtOrBitCast(b, v, i64t, c"".as_ptr()),
                    };
                    // Through an integer: the runtime takes a generic pointer, and a cast between
                    // address spaces is not something every backend accepts.
                    let as_int = LLVMBuildPtrToInt(b, address, i64t, c"".as_ptr());
                    let generic = LLVMBuildIntToPtr(b, as_int, ptr, c"".as_ptr());
                    let kind = LLVMConstInt(i32t, (access.kind | space << 8) as u64, 0);
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

    unsafe fn accesses(&self, inst: ir::Value) -> Vec<Access> {
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
            LLVMOpcode::LLVMCall => self.memory_intrinsic(inst),
            _ => Vec::new(),
        }
    }

    /// `llvm.memcpy`/`memmove` (dst, src, len) and `llvm.memset` (dst, byte, len).
    unsafe fn memory_intrinsic(&self, call: ir::Value) -> Vec<Access> {
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
}
