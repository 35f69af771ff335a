//! Kernels as the host sees them: found through `!nvvm.annotations` (`kernel`, `reqntidx`), each
//! given an entry function `loom.entry.<name>(ptr params)` that loads parameter `i` from
//! `*params[i]` and calls the kernel: the `cuLaunchKernel` convention, so the runtime can launch
//! any signature through one function type.

use super::error::HostError;
use super::ir::{self, Builder};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMTypeKind;
use std::collections::BTreeMap;

/// A kernel parameter's type at the calling convention.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamType {
    /// An integer of this many bits (`Bool` is 8).
    Int(u32),
    /// `half`.
    F16,
    /// `bfloat`.
    BF16,
    F32,
    F64,
    /// A pointer into this address space (1: global memory).
    Pointer(u32),
    /// A record passed by value (`ptr byval(%record) align A`): `size` bytes at alignment
    /// `align`. `params[i]` points at the bytes themselves, as for `cuLaunchKernel`.
    ByVal {
        size: u64,
        align: u64,
    },
}

impl ParamType {
    pub fn describe(self) -> String {
        match self {
            ParamType::Int(bits) => format!("i{bits}"),
            ParamType::F16 => "half".to_string(),
            ParamType::BF16 => "bfloat".to_string(),
            ParamType::F32 => "float".to_string(),
            ParamType::F64 => "double".to_string(),
            ParamType::Pointer(0) => "ptr".to_string(),
            ParamType::Pointer(space) => format!("ptr addrspace({space})"),
            ParamType::ByVal { size, align } => {
                format!("a record by value ({size} bytes, align {align})")
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelSignature {
    pub name: String,
    pub params: Vec<ParamType>,
    /// The block size the kernel requires, if it says (`reqntidx`, times `reqntidy`).
    pub block_size: Option<u32>,
    /// `reqntidx` when the kernel also gives `reqntidy`: a two-dimensional block's columns.
    pub block_x: Option<u32>,
}

pub const ENTRY_PREFIX: &str = "loom.entry.";

/// The kernels of the module, by name, from `!nvvm.annotations`.
///
/// # Safety
/// `module` must be live.
pub unsafe fn kernels(module: LLVMModuleRef) -> Result<Vec<KernelSignature>, HostError> {
    let name = ir::c_name("nvvm.annotations");
    let count = LLVMGetNamedMetadataNumOperands(module, name.as_ptr());
    let mut nodes = vec![std::ptr::null_mut(); count as usize];
    LLVMGetNamedMetadataOperands(module, name.as_ptr(), nodes.as_mut_ptr());
    let mut found: BTreeMap<String, (bool, Option<u32>, ir::Value, Option<u32>)> = BTreeMap::new();
    for node in nodes {
        let n = LLVMGetMDNodeNumOperands(node);
        if n < 3 {
            continue;
        }
        let mut fields = vec![std::ptr::null_mut(); n as usize];
        LLVMGetMDNodeOperands(node, fields.as_mut_ptr());
        let (function, key, value) = (fields[0], fields[1], fields[2]);
        if function.is_null() || LLVMIsAFunction(function).is_null() || key.is_null() {
            continue;
        }
        let mut len = 0u32;
        let key = LLVMGetMDString(key, &mut len);
        if key.is_null() {
            continue;
        }
        let key =
            String::from_utf8_lossy(std::slice::from_raw_parts(key as *const u8, len as usize))
                .into_owned();
        let value = if value.is_null() || LLVMIsAConstantInt(value).is_null() {
            0
        } else {
            LLVMConstIntGetZExtValue(value)
        };
        let entry = found
            .entry(ir::name(function))
            .or_insert((false, None, function, None));
        match key.as_str() {
            "kernel" if value == 1 => entry.0 = true,
            "reqntidx" => entry.1 = u32::try_from(value).ok(),
            "reqntidy" => entry.3 = u32::try_from(value).ok(),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for (name, (is_kernel, x, function, y)) in found {
        if !is_kernel {
            continue;
        }
        // A two-dimensional block: `x * y` threads, numbered x fastest.
        let (block_size, block_x) = match (x, y) {
            (Some(x), Some(y)) if y > 1 => (x.checked_mul(y), Some(x)),
            (x, _) => (x, None),
        };
        let fn_type = LLVMGlobalGetValueType(function);
        let n = LLVMCountParamTypes(fn_type) as usize;
        let mut types = vec![std::ptr::null_mut(); n];
        LLVMGetParamTypes(fn_type, types.as_mut_ptr());
        let mut params = Vec::with_capacity(n);
        for (i, ty) in types.into_iter().enumerate() {
            if let Some(by_value) = by_value(module, function, i as u32) {
                params.push(by_value);
                continue;
            }
            params.push(match ir::type_kind(ty) {
                LLVMTypeKind::LLVMIntegerTypeKind => ParamType::Int(LLVMGetIntTypeWidth(ty)),
                LLVMTypeKind::LLVMHalfTypeKind => ParamType::F16,
                LLVMTypeKind::LLVMBFloatTypeKind => ParamType::BF16,
                LLVMTypeKind::LLVMFloatTypeKind => ParamType::F32,
                LLVMTypeKind::LLVMDoubleTypeKind => ParamType::F64,
                LLVMTypeKind::LLVMPointerTypeKind => {
                    ParamType::Pointer(LLVMGetPointerAddressSpace(ty))
                }
                _ => {
                    return Err(HostError::UnsupportedSignature {
                        name,
                        why: "a kernel parameter that is not an integer, a float or a pointer"
                            .to_string(),
                    })
                }
            });
        }
        out.push(KernelSignature {
            name,
            params,
            block_size,
            block_x,
        });
    }
    Ok(out)
}

/// `byval` on parameter `index` of `function`: the record's type.
unsafe fn byval_type(function: LLVMValueRef, index: u32) -> Option<LLVMTypeRef> {
    let kind = LLVMGetEnumAttributeKindForName(c"byval".as_ptr(), 5);
    let attribute = LLVMGetEnumAttributeAtIndex(function, index + 1, kind);
    if attribute.is_null() {
        return None;
    }
    let ty = LLVMGetTypeAttributeValue(attribute);
    (!ty.is_null()).then_some(ty)
}

/// Parameter `index` of `function` as a record by value, if it is one: its size in the
/// module's data layout and its alignment (the parameter's `align`, else the type's).
unsafe fn by_value(module: LLVMModuleRef, function: LLVMValueRef, index: u32) -> Option<ParamType> {
    use inkwell::llvm_sys::target::{
        LLVMABIAlignmentOfType, LLVMABISizeOfType, LLVMGetModuleDataLayout,
    };
    let ty = byval_type(function, index)?;
    let layout = LLVMGetModuleDataLayout(module);
    let size = LLVMABISizeOfType(layout, ty);
    let align_kind = LLVMGetEnumAttributeKindForName(c"align".as_ptr(), 5);
    let attribute = LLVMGetEnumAttributeAtIndex(function, index + 1, align_kind);
    let align = if attribute.is_null() {
        u64::from(LLVMABIAlignmentOfType(layout, ty))
    } else {
        LLVMGetEnumAttributeValue(attribute)
    };
    Some(ParamType::ByVal { size, align })
}

/// Adds `loom.entry.<kernel>` for `kernel`, and returns it.
///
/// # Safety
/// `context` and `module` must be live, the module owned by `context`, and `kernel` one of its
/// kernels.
pub unsafe fn add_entry(
    context: LLVMContextRef,
    module: LLVMModuleRef,
    kernel: &KernelSignature,
) -> Result<LLVMValueRef, HostError> {
    let c_kernel = ir::c_name(&kernel.name);
    let function = LLVMGetNamedFunction(module, c_kernel.as_ptr());
    if function.is_null() {
        return Err(HostError::NoSuchKernel {
            name: kernel.name.clone(),
            known: Vec::new(),
        });
    }
    let ptr = LLVMPointerTypeInContext(context, 0);
    let i64t = LLVMInt64TypeInContext(context);
    let mut entry_params = [ptr];
    let entry_type = LLVMFunctionType(
        LLVMVoidTypeInContext(context),
        entry_params.as_mut_ptr(),
        1,
        0,
    );
    let entry_name = ir::c_name(&format!("{ENTRY_PREFIX}{}", kernel.name));
    let entry = LLVMAddFunction(module, entry_name.as_ptr(), entry_type);
    let block = LLVMAppendBasicBlockInContext(context, entry, c"entry".as_ptr());
    let builder = Builder::new(context);
    LLVMPositionBuilderAtEnd(builder.raw(), block);
    let b = builder.raw();
    let params = LLVMGetParam(entry, 0);
    let fn_type = LLVMGlobalGetValueType(function);
    let n = LLVMCountParamTypes(fn_type) as usize;
    let mut types = vec![std::ptr::null_mut(); n];
    LLVMGetParamTypes(fn_type, types.as_mut_ptr());
    let mut args = Vec::with_capacity(n);
    let mut by_value = Vec::new();
    for (i, ty) in types.into_iter().enumerate() {
        let mut index = [LLVMConstInt(i64t, i as u64, 0)];
        let slot = LLVMBuildInBoundsGEP2(b, ptr, params, index.as_mut_ptr(), 1, c"".as_ptr());
        let value_ptr = LLVMBuildLoad2(b, ptr, slot, c"".as_ptr());
        // A record by value: `params[i]` is the address of its bytes, which is what the
        // `byval` parameter takes (the call copies them, as a launch does).
        if let Some(record) = byval_type(function, i as u32) {
            ir::set_invariant_load(context, value_ptr);
            by_value.push((i as u32, record));
            args.push(value_ptr);
            continue;
        }
        let value = LLVMBuildLoad2(b, ty, value_ptr, c"".as_ptr());
        // A launch's parameters do not change while it runs: a loop over threads may read them
        // once (`thread_loop.rs`), and its bounds checks may be tested before it
        // (`versioning.rs`).
        for load in [value_ptr, value] {
            ir::set_invariant_load(context, load);
        }
        args.push(value);
    }
    let call = builder.call(fn_type, function, &mut args);
    for (i, record) in by_value {
        let kind = LLVMGetEnumAttributeKindForName(c"byval".as_ptr(), 5);
        let attribute = LLVMCreateTypeAttribute(context, kind, record);
        LLVMAddCallSiteAttribute(call, i + 1, attribute);
    }
    LLVMBuildRetVoid(b);
    Ok(entry)
}
