//! Every call of an NVVM intrinsic becomes a call of the SIMT runtime: `llvm.nvvm.a.b.c` →
//! `loom_simt_a_b_c`. The x86 backend cannot lower NVVM intrinsics, and an intrinsic cannot be
//! bound to a host function, so the calls are rewritten into calls of plain declarations.
//!
//! The runtime's calling convention: the intrinsic's arguments, with `i1` zero-extended to
//! `i32` (a C `bool` argument's upper bits are not defined in LLVM's lowering), then an `i32`
//! location id; an `i1` result comes back as `i32`, a `{T, i1}` result (shuffles and matches with
//! a predicate) as an `i64` with `T`'s 32 bits low and the predicate at bit 32.

use super::error::HostError;
use super::ir::{self, Builder};
use super::locations::Locations;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMIntPredicate, LLVMTypeKind};
use std::collections::HashSet;

pub const NVVM_PREFIX: &str = "llvm.nvvm.";
pub const RUNTIME_PREFIX: &str = "loom_simt_";

/// The runtime function that implements an NVVM intrinsic.
pub fn runtime_name(intrinsic: &str) -> Option<String> {
    let rest = intrinsic.strip_prefix(NVVM_PREFIX)?;
    Some(format!("{RUNTIME_PREFIX}{}", rest.replace('.', "_")))
}

/// How a result travels back from the runtime.
enum ResultAbi {
    Same,
    /// `i1` as `i32`.
    Bool,
    /// `{T, i1}` as `i64`.
    Pair {
        first: LLVMTypeRef,
    },
}

pub struct IntrinsicRewriter<'a> {
    pub context: LLVMContextRef,
    pub module: LLVMModuleRef,
    pub runtime: &'a HashSet<&'static str>,
    pub locations: &'a mut Locations,
    /// The runtime functions the module now calls.
    pub used: Vec<String>,
}

impl IntrinsicRewriter<'_> {
    /// Rewrites every NVVM intrinsic call of the module.
    ///
    /// # Safety
    /// `context` and `module` must be live, the module owned by `context`.
    pub unsafe fn run(&mut self) -> Result<(), HostError> {
        for function in ir::functions(self.module) {
            let name = ir::name(function);
            let Some(runtime) = runtime_name(&name) else {
                continue;
            };
            if !ir::has_uses(function) {
                LLVMDeleteFunction(function);
                continue;
            }
            if !self.runtime.contains(runtime.as_str()) {
                let caller = ir::users(function)
                    .first()
                    .map(|u| ir::name(LLVMGetBasicBlockParent(LLVMGetInstructionParent(*u))))
                    .unwrap_or_default();
                return Err(HostError::UnsupportedIntrinsic {
                    name,
                    function: caller,
                });
            }
            self.rewrite_calls(function, &name, &runtime)?;
            LLVMDeleteFunction(function);
            self.used.push(runtime);
        }
        Ok(())
    }

    unsafe fn rewrite_calls(
        &mut self,
        intrinsic: ir::Value,
        name: &str,
        runtime: &str,
    ) -> Result<(), HostError> {
        let i32t = LLVMInt32TypeInContext(self.context);
        let i64t = LLVMInt64TypeInContext(self.context);
        let fn_type = LLVMGlobalGetValueType(intrinsic);
        let unsupported = |why: &str| HostError::UnsupportedSignature {
            name: name.to_string(),
            why: why.to_string(),
        };
        let n_params = LLVMCountParamTypes(fn_type) as usize;
        let mut params: Vec<LLVMTypeRef> = vec![std::ptr::null_mut(); n_params];
        LLVMGetParamTypes(fn_type, params.as_mut_ptr());
        let mut runtime_params: Vec<LLVMTypeRef> = params
            .iter()
            .map(|t| if ir::is_int(*t, 1) { i32t } else { *t })
            .collect();
        runtime_params.push(i32t);
        let result = LLVMGetReturnType(fn_type);
        let (result_abi, runtime_result) = match ir::type_kind(result) {
            LLVMTypeKind::LLVMIntegerTypeKind if ir::is_int(result, 1) => (ResultAbi::Bool, i32t),
            LLVMTypeKind::LLVMStructTypeKind => {
                let fields = LLVMCountStructElementTypes(result);
                let first = LLVMStructGetTypeAtIndex(result, 0);
                let second = LLVMStructGetTypeAtIndex(result, 1);
                let first_ok = ir::is_int(first, 32)
                    || ir::type_kind(first) == LLVMTypeKind::LLVMFloatTypeKind;
                if fields != 2 || !first_ok || !ir::is_int(second, 1) {
                    return Err(unsupported("a result other than {i32|float, i1}"));
                }
                (ResultAbi::Pair { first }, i64t)
            }
            LLVMTypeKind::LLVMVectorTypeKind | LLVMTypeKind::LLVMArrayTypeKind => {
                return Err(unsupported("a vector or array result"))
            }
            _ => (ResultAbi::Same, result),
        };
        let runtime_type = LLVMFunctionType(
            runtime_result,
            runtime_params.as_mut_ptr(),
            runtime_params.len() as u32,
            0,
        );
        let c_runtime = ir::c_name(runtime);
        let mut declaration = LLVMGetNamedFunction(self.module, c_runtime.as_ptr());
        if declaration.is_null() {
            declaration = LLVMAddFunction(self.module, c_runtime.as_ptr(), runtime_type);
        }
        let builder = Builder::new(self.context);
        for call in ir::users(intrinsic) {
            if !ir::is_call(call) || ir::callee(call) != Some(intrinsic) {
                return Err(unsupported(
                    "its address is taken (only direct calls can be rewritten)",
                ));
            }
            builder.before(call);
            let mut args: Vec<ir::Value> = ir::call_args(call)
                .into_iter()
                .map(|a| {
                    if ir::is_int(LLVMTypeOf(a), 1) {
                        LLVMBuildZExt(builder.raw(), a, i32t, c"".as_ptr())
                    } else {
                        a
                    }
                })
                .collect();
            args.push(LLVMConstInt(i32t, self.locations.add(call) as u64, 0));
            let new_call = builder.call(runtime_type, declaration, &mut args);
            let value = match &result_abi {
                ResultAbi::Same => new_call,
                ResultAbi::Bool => LLVMBuildICmp(
                    builder.raw(),
                    LLVMIntPredicate::LLVMIntNE,
                    new_call,
                    LLVMConstInt(i32t, 0, 0),
                    c"".as_ptr(),
                ),
                ResultAbi::Pair { first } => {
                    let low = LLVMBuildTrunc(builder.raw(), new_call, i32t, c"".as_ptr());
                    let low = if ir::is_int(*first, 32) {
                        low
                    } else {
                        LLVMBuildBitCast(builder.raw(), low, *first, c"".as_ptr())
                    };
                    let high = LLVMBuildLShr(
                        builder.raw(),
                        new_call,
                        LLVMConstInt(i64t, 32, 0),
                        c"".as_ptr(),
                    );
                    let pred = LLVMBuildTrunc(
                        builder.raw(),
                        high,
                        LLVMInt1TypeInContext(self.context),
                        c"".as_ptr(),
                    );
                    let pair = LLVMBuildInsertValue(
                        builder.raw(),
                        LLVMGetPoison(result),
                        low,
                        0,
                        c"".as_ptr(),
                    );
                    LLVMBuildInsertValue(builder.raw(), pair, pred, 1, c"".as_ptr())
                }
            };
            LLVMReplaceAllUsesWith(call, value);
            LLVMInstructionEraseFromParent(call);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runtime_names_follow_the_intrinsic() {
        assert_eq!(
            runtime_name("llvm.nvvm.read.ptx.sreg.tid.x").as_deref(),
            Some("loom_simt_read_ptx_sreg_tid_x")
        );
        assert_eq!(
            runtime_name("llvm.nvvm.shfl.sync.bfly.f32p").as_deref(),
            Some("loom_simt_shfl_sync_bfly_f32p")
        );
        assert_eq!(runtime_name("llvm.sqrt.f32"), None);
    }
}
