//! `--emit=metadata`: the calling convention of every kernel as JSON (docs/abi.md), so that any
//! host can launch it: parameters in ABI order with their types, address spaces and dimension
//! expressions, the block size, static shared memory and the PTX target. The types are
//! `loom-runtime`'s, the crate that reads them.

use crate::check::types::{Scalar, Ty};
use crate::check::Checked;
use crate::syntax::ast::{BinaryOp, Expr};
use crate::syntax::ast::{ExprKind, Item, TypeExpr, UnaryOp};
use crate::target::ARCHS;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::target::LLVMABISizeOfType;
use inkwell::module::Module;
use inkwell::targets::TargetData;
use loom_runtime::metadata::{
    BinOp, Dim, DimExpr, FieldMetadata, KernelMetadata, ModuleMetadata, ParamKind, ParamMetadata,
    PtxTarget, ScalarType, FORMAT,
};

/// The address space of global memory, where array parameters point.
const GLOBAL: u32 = 1;
const SHARED: u32 = 3;

/// Metadata for every kernel of `checked`, compiled into `module` (optimised) for `arch`.
/// `source` is the user's file, for the dimensions' text.
pub fn module_metadata(
    checked: &Checked,
    module: &Module<'_>,
    target_data: &TargetData,
    arch: &str,
    source_name: &str,
    source: &str,
) -> ModuleMetadata {
    let ptx_version = ARCHS
        .iter()
        .find(|a| a.name == arch)
        .and_then(|a| a.ptx_feature.strip_prefix("+ptx"))
        .map(|digits| {
            let (major, minor) = digits.split_at(digits.len().saturating_sub(1));
            format!("{major}.{minor}")
        })
        .unwrap_or_default();
    let kir = crate::kir::build(checked);
    let kernels = checked
        .kernels
        .iter()
        .filter_map(|facts| match checked.program.items.get(facts.item) {
            Some(Item::Kernel(decl)) => Some(KernelMetadata {
                name: facts.name.clone(),
                block_size: facts.block_size,
                block_shape: (facts.block_rows > 1)
                    .then(|| [facts.block_rows, facts.block_size / facts.block_rows]),
                grid_dims: kir
                    .kernel(facts.item)
                    .and_then(|k| k.grid_2d)
                    .filter(|two_d| *two_d)
                    .map(|_| 2),
                static_shared_bytes: static_shared_bytes(module, target_data, &facts.name),
                params: decl
                    .params
                    .iter()
                    .map(|p| ParamMetadata {
                        name: p.name.name.clone(),
                        kind: match param_kind(checked, &p.ty, source) {
                            ParamKind::Array {
                                element,
                                address_space,
                                dims,
                            } if p.scratch => {
                                scratch_kind(checked, p, element, address_space, dims)
                            }
                            kind => kind,
                        },
                    })
                    .collect(),
            }),
            _ => None,
        })
        .collect();
    ModuleMetadata {
        format: FORMAT,
        source: source_name.to_string(),
        target: PtxTarget {
            arch: arch.to_string(),
            ptx_version,
        },
        kernels,
    }
}

fn scalar(checked: &Checked, ty: &TypeExpr) -> Option<ScalarType> {
    let TypeExpr::Named { name } = ty else {
        return None;
    };
    let alias = checked.program.items.iter().find_map(|item| match item {
        Item::TypeAlias(a) if a.name.name == name.name => Some(&a.ty),
        _ => None,
    });
    if let Some(aliased) = alias {
        return scalar(checked, aliased);
    }
    Some(match name.name.as_str() {
        "Int8" => ScalarType::Int8,
        "Int16" => ScalarType::Int16,
        "UInt8" => ScalarType::UInt8,
        "UInt16" => ScalarType::UInt16,
        "Int32" => ScalarType::Int32,
        "Int64" => ScalarType::Int64,
        "UInt32" => ScalarType::UInt32,
        "UInt64" => ScalarType::UInt64,
        "Float16" => ScalarType::Float16,
        "BFloat16" => ScalarType::BFloat16,
        "Float32" => ScalarType::Float32,
        "Float64" => ScalarType::Float64,
        "Bool" => ScalarType::Bool,
        _ => return None,
    })
}

fn param_kind(checked: &Checked, ty: &TypeExpr, source: &str) -> ParamKind {
    match ty {
        TypeExpr::Array { elem, dims, .. } => ParamKind::Array {
            // Code generation accepts only scalar elements for kernel arrays.
            element: scalar(checked, elem).unwrap_or(ScalarType::Int32),
            address_space: GLOBAL,
            dims: dims
                .iter()
                .map(|d| Dim {
                    text: source
                        .get(d.span.start as usize..d.span.end as usize)
                        .unwrap_or("?")
                        .to_string(),
                    expr: dim_expr(d),
                })
                .collect(),
        },
        other => match record_kind(checked, other) {
            Some(kind) => kind,
            None => ParamKind::Scalar {
                ty: scalar(checked, other).unwrap_or(ScalarType::Int32),
            },
        },
    }
}

/// A scratch array loomc added (`check/scratch_rows.rs`): its dimensions' text is their
/// expressions as source (they were never written), and it names the variable it holds.
fn scratch_kind(
    checked: &Checked,
    param: &crate::syntax::ast::Param,
    element: ScalarType,
    address_space: u32,
    dims: Vec<Dim>,
) -> ParamKind {
    let variable = checked
        .scratch_rows
        .iter()
        .find(|r| r.name_span == param.name.span)
        .map_or_else(|| param.name.name.clone(), |r| r.name.clone());
    let made: Vec<String> = match &param.ty {
        TypeExpr::Array { dims, .. } => dims.iter().map(Expr::made_text).collect(),
        _ => Vec::new(),
    };
    ParamKind::Scratch {
        variable,
        element,
        address_space,
        dims: dims
            .into_iter()
            .zip(made)
            .map(|(d, text)| Dim { text, expr: d.expr })
            .collect(),
    }
}

/// A `Range` or record parameter: its C layout (`check::types::c_layout`), named by the type
/// name it is declared with (`Range`, an alias), if any.
fn record_kind(checked: &Checked, ty: &TypeExpr) -> Option<ParamKind> {
    let mut resolver = crate::codegen::types::TypeResolver::new(&checked.program, &checked.records);
    let resolved = resolver
        .resolve(ty, crate::check::types::Space::Global)
        .ok()?;
    if !matches!(resolved, Ty::Range | Ty::Record(_)) {
        return None;
    }
    let layout = crate::check::types::c_layout(&resolved, &resolver.records)?;
    Some(ParamKind::Record {
        record: match ty {
            TypeExpr::Named { name } => Some(name.name.clone()),
            _ => None,
        },
        size: layout.size,
        align: layout.align,
        fields: layout
            .fields
            .into_iter()
            .map(|(name, s, offset)| FieldMetadata {
                name,
                ty: scalar_type(s),
                offset,
            })
            .collect(),
    })
}

fn scalar_type(s: Scalar) -> ScalarType {
    match s {
        Scalar::Int8 => ScalarType::Int8,
        Scalar::Int16 => ScalarType::Int16,
        Scalar::UInt8 => ScalarType::UInt8,
        Scalar::UInt16 => ScalarType::UInt16,
        Scalar::Int32 => ScalarType::Int32,
        Scalar::Int64 => ScalarType::Int64,
        Scalar::UInt32 => ScalarType::UInt32,
        Scalar::UInt64 => ScalarType::UInt64,
        Scalar::Float16 => ScalarType::Float16,
        Scalar::BFloat16 => ScalarType::BFloat16,
        Scalar::Float32 => ScalarType::Float32,
        Scalar::Float64 => ScalarType::Float64,
        Scalar::Bool => ScalarType::Bool,
    }
}

fn dim_expr(e: &Expr) -> DimExpr {
    let boxed = |e: &Expr| Box::new(dim_expr(e));
    match &e.kind {
        ExprKind::Int(v) => {
            i64::try_from(*v).map_or(DimExpr::Opaque, |value| DimExpr::Const { value })
        }
        ExprKind::Name(id) => match id.name.as_str() {
            "BLOCKS" => DimExpr::Blocks,
            "BLOCKSIZE" => DimExpr::BlockSize,
            "THREADS" => DimExpr::Threads,
            name => DimExpr::Param {
                name: name.to_string(),
            },
        },
        ExprKind::Unary {
            op: UnaryOp::Neg,
            operand,
            ..
        } => DimExpr::Neg {
            arg: boxed(operand),
        },
        ExprKind::Binary { op, lhs, rhs, .. } => {
            let bin = match op {
                BinaryOp::Add => BinOp::Add,
                BinaryOp::Sub => BinOp::Sub,
                BinaryOp::Mul => BinOp::Mul,
                BinaryOp::Div => BinOp::Div,
                BinaryOp::Rem => BinOp::Rem,
                BinaryOp::Shl => BinOp::Shl,
                BinaryOp::Shr => BinOp::Shr,
                BinaryOp::BitAnd => BinOp::And,
                BinaryOp::BitOr => BinOp::Or,
                BinaryOp::BitXor => BinOp::Xor,
                _ => return DimExpr::Opaque,
            };
            DimExpr::Binary {
                bin,
                lhs: boxed(lhs),
                rhs: boxed(rhs),
            }
        }
        ExprKind::Call { callee, args } if args.len() == 1 => {
            let to = match callee.name.as_str() {
                "Int8" => ScalarType::Int8,
                "Int16" => ScalarType::Int16,
                "UInt8" => ScalarType::UInt8,
                "UInt16" => ScalarType::UInt16,
                "Int32" => ScalarType::Int32,
                "Int64" => ScalarType::Int64,
                "UInt32" => ScalarType::UInt32,
                "UInt64" => ScalarType::UInt64,
                _ => return DimExpr::Opaque,
            };
            DimExpr::Cast {
                to,
                arg: boxed(&args[0]),
            }
        }
        _ => DimExpr::Opaque,
    }
}

/// Bytes of the shared globals `kernel` uses, each at its alignment, as ptxas lays them out.
fn static_shared_bytes(module: &Module<'_>, target_data: &TargetData, kernel: &str) -> u64 {
    let mut total = 0u64;
    // SAFETY: the module and target data are live; this only reads them.
    unsafe {
        let mut global = LLVMGetFirstGlobal(module.as_mut_ptr());
        while !global.is_null() {
            let ty = LLVMTypeOf(global);
            let shared = LLVMGetTypeKind(ty)
                == inkwell::llvm_sys::LLVMTypeKind::LLVMPointerTypeKind
                && LLVMGetPointerAddressSpace(ty) == SHARED;
            if shared && used_in(global, kernel) {
                let size =
                    LLVMABISizeOfType(target_data.as_mut_ptr(), LLVMGlobalGetValueType(global));
                let align = (LLVMGetAlignment(global) as u64).max(1);
                total = total.div_ceil(align) * align + size;
            }
            global = LLVMGetNextGlobal(global);
        }
    }
    total
}

/// Whether an instruction of function `kernel` uses `value`, directly or through constants.
unsafe fn used_in(value: inkwell::llvm_sys::prelude::LLVMValueRef, kernel: &str) -> bool {
    let mut u = LLVMGetFirstUse(value);
    while !u.is_null() {
        let user = LLVMGetUser(u);
        let found = if !LLVMIsAInstruction(user).is_null() {
            let function = LLVMGetBasicBlockParent(LLVMGetInstructionParent(user));
            let mut len = 0usize;
            let name = LLVMGetValueName2(function, &mut len);
            !name.is_null()
                && std::slice::from_raw_parts(name as *const u8, len) == kernel.as_bytes()
        } else {
            !LLVMIsAConstantExpr(user).is_null() && used_in(user, kernel)
        };
        if found {
            return true;
        }
        u = LLVMGetNextUse(u);
    }
    false
}
