//! Per-block shared memory: every `addrspace(3)` global gets an offset in one buffer, and every
//! use of it becomes "the running block's buffer + offset", with the buffer's address asked of
//! the runtime (`loom_simt_shared_base`) once at the entry of each function that uses shared
//! memory. On the GPU each block has its own copy of a `__shared__` variable; a host global would
//! be one copy for every block running in parallel.
//!
//! A constant expression over a shared global (`getelementptr (i8, ptr addrspace(3) @t, i64 4)`,
//! as the optimiser folds them) cannot refer to an instruction, so each one is rebuilt as
//! instructions where it is used. An `external` zero-sized shared array (CUDA's
//! `extern __shared__`) is placed after the static ones: the launch's dynamic shared memory.

use super::error::HostError;
use super::ir::{self, Builder};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::target::{LLVMABIAlignmentOfType, LLVMABISizeOfType, LLVMTargetDataRef};
use inkwell::llvm_sys::LLVMOpcode;
use std::collections::HashMap;

pub const SHARED_ADDRESS_SPACE: u32 = 3;
pub const SHARED_BASE: &str = "loom_simt_shared_base";

/// Where the shared globals went.
#[derive(Debug, Clone, Default)]
pub struct SharedLayout {
    /// `(name, offset, size)` of every static shared variable.
    pub variables: Vec<(String, u64, u64)>,
    /// Bytes of static shared memory per block; dynamic shared memory starts here (rounded up
    /// to 16).
    pub static_bytes: u64,
}

/// The name a `shared` global had in the source, for reports: loomc names them
/// `<kernel>.<name>.<n>` (`k.t.1` for `shared t` in kernel `k`); other names are kept.
pub fn source_name(global: &str) -> &str {
    let Some((_, rest)) = global.split_once('.') else {
        return global;
    };
    match rest.rsplit_once('.') {
        Some((name, n))
            if !name.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) =>
        {
            name
        }
        _ => global,
    }
}

pub struct SharedRelocation {
    pub context: LLVMContextRef,
    pub module: LLVMModuleRef,
    pub target_data: LLVMTargetDataRef,
}

impl SharedRelocation {
    /// # Safety
    /// `context`, `module` and `target_data` must be live, the module owned by `context`.
    pub unsafe fn run(&self) -> Result<SharedLayout, HostError> {
        let mut layout = SharedLayout::default();
        let mut offsets: HashMap<ir::Value, u64> = HashMap::new();
        let mut dynamic = Vec::new();
        for global in ir::globals(self.module) {
            if ir::address_space(LLVMTypeOf(global)) != Some(SHARED_ADDRESS_SPACE) {
                continue;
            }
            let ty = LLVMGlobalGetValueType(global);
            let size = LLVMABISizeOfType(self.target_data, ty);
            if ir::is_declaration(global) && size == 0 {
                dynamic.push(global);
                continue;
            }
            let align = (LLVMGetAlignment(global) as u64)
                .max(LLVMABIAlignmentOfType(self.target_data, ty) as u64)
                .max(1);
            let offset = layout.static_bytes.div_ceil(align) * align;
            layout.variables.push((ir::name(global), offset, size));
            layout.static_bytes = offset + size;
            offsets.insert(global, offset);
        }
        let dynamic_offset = layout.static_bytes.div_ceil(16) * 16;
        for global in dynamic {
            offsets.insert(global, dynamic_offset);
        }
        if offsets.is_empty() {
            return Ok(layout);
        }
        for function in ir::functions(self.module) {
            if !ir::is_declaration(function) {
                FunctionRewrite {
                    relocation: self,
                    offsets: &offsets,
                    function,
                    base: None,
                    addresses: HashMap::new(),
                }
                .run()?;
            }
        }
        for global in offsets.keys() {
            if live_use(*global) {
                return Err(HostError::SharedMemory(format!(
                    "`{}` is used outside a function's instructions (in another global's initializer?)",
                    ir::name(*global)
                )));
            }
            // What remains are dead constant expressions, which LLVM keeps until their last
            // referent goes: point them at null so the global can go.
            LLVMReplaceAllUsesWith(*global, LLVMConstPointerNull(LLVMTypeOf(*global)));
            LLVMDeleteGlobal(*global);
        }
        Ok(layout)
    }
}

/// Whether `value` is still used by an instruction or a global, directly or through constants.
unsafe fn live_use(value: ir::Value) -> bool {
    ir::users(value).into_iter().any(|user| {
        let is_plain_constant =
            !LLVMIsAConstant(user).is_null() && LLVMIsAGlobalValue(user).is_null();
        !is_plain_constant || live_use(user)
    })
}

struct FunctionRewrite<'a> {
    relocation: &'a SharedRelocation,
    offsets: &'a HashMap<ir::Value, u64>,
    function: ir::Value,
    /// The block's shared buffer, once asked for.
    base: Option<ir::Value>,
    /// Each shared global's address in this function.
    addresses: HashMap<ir::Value, ir::Value>,
}

impl FunctionRewrite<'_> {
    unsafe fn run(&mut self) -> Result<(), HostError> {
        for inst in ir::instructions(self.function) {
            for (index, operand) in ir::operands(inst).into_iter().enumerate() {
                if operand.is_null() || !self.mentions_shared(operand) {
                    continue;
                }
                let at = ir::insertion_point(inst, index as u32);
                let replacement = self.materialise(operand, at)?;
                LLVMSetOperand(inst, index as u32, replacement);
            }
        }
        Ok(())
    }

    unsafe fn mentions_shared(&self, value: ir::Value) -> bool {
        if self.offsets.contains_key(&value) {
            return true;
        }
        ir::is_constant_expr(value)
            && ir::operands(value)
                .into_iter()
                .any(|o| self.mentions_shared(o))
    }

    /// The address of shared global `global` in this function: base + offset, computed at entry.
    unsafe fn address_of(&mut self, global: ir::Value) -> ir::Value {
        if let Some(address) = self.addresses.get(&global) {
            return *address;
        }
        let context = self.relocation.context;
        let builder = Builder::new(context);
        let i32t = LLVMInt32TypeInContext(context);
        let i64t = LLVMInt64TypeInContext(context);
        let i8t = LLVMInt8TypeInContext(context);
        let shared_ptr = LLVMPointerTypeInContext(context, SHARED_ADDRESS_SPACE);
        let base = match self.base {
            Some(base) => base,
            None => {
                let mut params = [i32t];
                let fn_type = LLVMFunctionType(shared_ptr, params.as_mut_ptr(), 1, 0);
                let name = ir::c_name(SHARED_BASE);
                let mut declaration = LLVMGetNamedFunction(self.relocation.module, name.as_ptr());
                if declaration.is_null() {
                    declaration = LLVMAddFunction(self.relocation.module, name.as_ptr(), fn_type);
                }
                builder.before(ir::entry_point(self.function));
                // The location id is unused: asking for the buffer cannot fail.
                let base = builder.call(fn_type, declaration, &mut [LLVMConstInt(i32t, 0, 0)]);
                self.base = Some(base);
                base
            }
        };
        // Right after the base: dominates every use.
        let next = LLVMGetNextInstruction(base);
        builder.before(next);
        let offset = self.offsets.get(&global).copied().unwrap_or(0);
        let mut index = [LLVMConstInt(i64t, offset, 0)];
        let name = ir::c_name(&ir::name(global));
        let address = LLVMBuildInBoundsGEP2(
            builder.raw(),
            i8t,
            base,
            index.as_mut_ptr(),
            1,
            name.as_ptr(),
        );
        self.addresses.insert(global, address);
        address
    }

    /// `value` (a shared global or a constant expression over one) as instructions before `at`.
    unsafe fn materialise(
        &mut self,
        value: ir::Value,
        at: ir::Value,
    ) -> Result<ir::Value, HostError> {
        if self.offsets.contains_key(&value) {
            return Ok(self.address_of(value));
        }
        let mut operands = Vec::new();
        for operand in ir::operands(value) {
            operands.push(if self.mentions_shared(operand) {
                self.materialise(operand, at)?
            } else {
                operand
            });
        }
        let builder = Builder::new(self.relocation.context);
        builder.before(at);
        let b = builder.raw();
        let ty = LLVMTypeOf(value);
        let opcode = LLVMGetConstOpcode(value);
        let first = operands.first().copied().ok_or_else(|| {
            HostError::SharedMemory(format!(
                "constant expression without operands: {}",
                ir::text(value)
            ))
        })?;
        let built = match opcode {
            LLVMOpcode::LLVMGetElementPtr => {
                let source = LLVMGetGEPSourceElementType(value);
                let mut indices = operands[1..].to_vec();
                if LLVMIsInBounds(value) != 0 {
                    LLVMBuildInBoundsGEP2(
                        b,
                        source,
                        first,
                        indices.as_mut_ptr(),
                        indices.len() as u32,
                        c"".as_ptr(),
                    )
                } else {
                    LLVMBuildGEP2(
                        b,
                        source,
                        first,
                        indices.as_mut_ptr(),
                        indices.len() as u32,
                        c"".as_ptr(),
                    )
                }
            }
            LLVMOpcode::LLVMBitCast
            | LLVMOpcode::LLVMAddrSpaceCast
            | LLVMOpcode::LLVMPtrToInt
            | LLVMOpcode::LLVMIntToPtr
            | LLVMOpcode::LLVMTrunc
            | LLVMOpcode::LLVMZExt
            | LLVMOpcode::LLVMSExt => LLVMBuildCast(b, opcode, first, ty, c"".as_ptr()),
            LLVMOpcode::LLVMAdd
            | LLVMOpcode::LLVMSub
            | LLVMOpcode::LLVMMul
            | LLVMOpcode::LLVMShl
            | LLVMOpcode::LLVMXor
            | LLVMOpcode::LLVMAnd
            | LLVMOpcode::LLVMOr
                if operands.len() == 2 =>
            {
                LLVMBuildBinOp(b, opcode, first, operands[1], c"".as_ptr())
            }
            _ => {
                return Err(HostError::SharedMemory(format!(
                    "unsupported constant expression over shared memory: {}",
                    ir::text(value)
                )))
            }
        };
        Ok(built)
    }
}

#[cfg(test)]
mod tests {
    use super::source_name;

    #[test]
    fn a_shared_global_is_reported_by_its_source_name() {
        assert_eq!(source_name("k.t.1"), "t");
        assert_eq!(
            source_name("sumOfSquares.reduce.partials.3"),
            "reduce.partials"
        );
        // Not loomc's naming: kept as it is.
        assert_eq!(source_name("_ZZ6kernelE4tile"), "_ZZ6kernelE4tile");
        assert_eq!(source_name("tile.x"), "tile.x");
        assert_eq!(source_name("k..2"), "k..2");
    }
}
