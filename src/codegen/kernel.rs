//! A kernel: its PTX entry point, parameters, launch bounds, and body.
//!
//! Calling convention (what a host passes, in order): one PTX parameter per LOOM parameter, in
//! declaration order. Scalars by value (integers at their width: `Int8`/`UInt8` as 8-bit, up to
//! `Int64`/`UInt64` as 64-bit; `Float32`/`Float64`, `Bool` as one byte: non-zero is true); arrays as a 64-bit
//! pointer to global memory (`ptr addrspace(1)`; arrays never overlap, and the ones the kernel
//! only reads are marked `noalias`), elements
//! contiguous and row-major. Array dimensions are not passed: the kernel computes them from their
//! expressions (literals, `BLOCKSIZE`, `BLOCKS`, `THREADS`, scalar parameters). The launch must
//! use exactly `BLOCKSIZE` threads per block (`.reqntid`) and any number of blocks (`BLOCKS`).
//! Records and `Range`s by value, as clang passes a CUDA kernel's `struct` argument: LLVM
//! `ptr byval(%record) align A`, which the NVPTX back end lowers to `.param .align A .b8
//! k_param_i[S]` read with `ld.param` at each field's offset (the C layout: LLVM's struct
//! layout of the fields' memory types, `check::types::c_layout`); the body loads every field
//! once, at entry, into the record's value.

use super::body::{ArrayRef, Body, Mode, Result, Var};
use super::error::CodegenError;
use super::Cx;
use crate::check::types::{Scalar, Space, Ty};
use crate::check::KernelFacts;
use crate::syntax::ast::{KernelDecl, TypeExpr};
use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::types::{AnyType, BasicMetadataTypeEnum, BasicTypeEnum};
use inkwell::values::{
    BasicMetadataValueEnum, BasicValue, BasicValueEnum, FunctionValue, PointerValue,
};
use inkwell::AddressSpace;

/// A value of type `ty` read from `ptr` one scalar at a time (a struct field by field,
/// recursively): the `ld.param`s of a byval record, each once.
fn load_fields<'ctx>(
    body: &Body<'_, 'ctx>,
    ptr: PointerValue<'ctx>,
    ty: BasicTypeEnum<'ctx>,
    name: &str,
) -> Result<BasicValueEnum<'ctx>> {
    let BasicTypeEnum::StructType(record) = ty else {
        return Ok(body.b.build_load(ty, ptr, name)?);
    };
    let mut value: inkwell::values::AggregateValueEnum = record.get_undef().into();
    for (k, field) in record.get_field_types().into_iter().enumerate() {
        let at = body.b.build_struct_gep(record, ptr, k as u32, name)?;
        let v = load_fields(body, at, field, name)?;
        value = body.b.build_insert_value(value, v, k as u32, name)?;
    }
    Ok(value.as_basic_value_enum())
}

pub struct KernelLowering<'a, 'ctx> {
    cx: &'a Cx<'a, 'ctx>,
    facts: &'a KernelFacts,
    decl: &'a KernelDecl,
}

impl<'a, 'ctx> KernelLowering<'a, 'ctx> {
    pub fn new(
        cx: &'a Cx<'a, 'ctx>,
        facts: &'a KernelFacts,
        decl: &'a KernelDecl,
    ) -> KernelLowering<'a, 'ctx> {
        KernelLowering { cx, facts, decl }
    }

    pub fn run(self) -> Result<FunctionValue<'ctx>> {
        let mut param_tys = Vec::with_capacity(self.decl.params.len());
        for param in &self.decl.params {
            param_tys.push(
                self.cx
                    .resolver
                    .borrow_mut()
                    .resolve(&param.ty, Space::Global)?,
            );
        }
        let mut llvm_params: Vec<BasicMetadataTypeEnum> = Vec::with_capacity(param_tys.len());
        // The byval records: (parameter index, the record's LLVM type, its alignment).
        let mut by_value = Vec::new();
        for (i, (param, ty)) in self.decl.params.iter().zip(&param_tys).enumerate() {
            llvm_params.push(match ty {
                Ty::Scalar(Scalar::Bool) => self.cx.context.i8_type().into(),
                Ty::Scalar(s) => self.cx.types.scalar(*s).into(),
                Ty::Array { dims, .. } if dims.len() <= 2 => self.cx.types.global_ptr().into(),
                Ty::Range | Ty::Record(_) => {
                    let resolver = self.cx.resolver.borrow();
                    let records = &resolver.records;
                    let (Some(record), Some(layout)) = (
                        self.cx.types.mem(ty, records),
                        crate::check::types::c_layout(ty, records),
                    ) else {
                        return Err(CodegenError::internal(
                            "a record parameter without a C layout",
                            param.span,
                        ));
                    };
                    by_value.push((i as u32, record, layout.align));
                    self.cx.context.ptr_type(AddressSpace::default()).into()
                }
                // The checker accepts no other parameter type.
                _ => {
                    return Err(CodegenError::internal(
                        "a kernel parameter that is not a scalar, an array or a record",
                        param.span,
                    ))
                }
            });
        }
        let fn_type = self.cx.context.void_type().fn_type(&llvm_params, false);
        let function = self.cx.module.add_function(&self.facts.name, fn_type, None);
        for (i, record, align) in &by_value {
            let byval = self.cx.context.create_type_attribute(
                Attribute::get_named_enum_kind_id("byval"),
                record.as_any_type_enum(),
            );
            let align = self
                .cx
                .context
                .create_enum_attribute(Attribute::get_named_enum_kind_id("align"), *align);
            function.add_attribute(AttributeLoc::Param(*i), byval);
            function.add_attribute(AttributeLoc::Param(*i), align);
        }
        let noalias = self
            .cx
            .context
            .create_enum_attribute(Attribute::get_named_enum_kind_id("noalias"), 0);
        // `noalias` only on the arrays the kernel never writes (`kir-written-arrays` says why):
        // read-only arrays keep it, nobody writes them and their loads may use the non-coherent
        // cache.
        let kernel_ir = self.cx.kir.kernel(self.facts.item).ok_or_else(|| {
            CodegenError::internal("a kernel without kernel IR", self.decl.name.span)
        })?;
        for (i, (param, decided)) in self.decl.params.iter().zip(&kernel_ir.params).enumerate() {
            if let Some(value) = function.get_nth_param(i as u32) {
                value.set_name(&param.name.name);
            }
            if decided.written == Some(false) {
                function.add_attribute(AttributeLoc::Param(i as u32), noalias);
            }
        }
        self.annotate(function)?;

        let mode = Mode::Kernel {
            name: self.facts.name.clone(),
            block_size: self.facts.block_size,
            block_rows: self.facts.block_rows,
            grid_2d: kernel_ir.grid_2d.unwrap_or(false),
        };
        let mut body = Body::new(self.cx, function, mode);
        body.attach_debug(&self.facts.name, self.decl.name.span);
        body.recomputed = kernel_ir
            .recomputed_vectors
            .clone()
            .ok_or_else(|| {
                CodegenError::internal(
                    "kernel IR without its recomputed vectors (kir-recomputed-vectors did not run)",
                    self.decl.name.span,
                )
            })?
            .into_iter()
            .collect();
        body.registers = kernel_ir
            .register_vectors
            .clone()
            .ok_or_else(|| {
                CodegenError::internal(
                    "kernel IR without its register vectors (kir-register-vectors did not run)",
                    self.decl.name.span,
                )
            })?
            .into_iter()
            .collect();
        body.sweeps = kernel_ir.sweeps.clone().ok_or_else(|| {
            CodegenError::internal(
                "kernel IR without its sweeps (kir-sweeps did not run)",
                self.decl.name.span,
            )
        })?;
        body.collectives = Some(kernel_ir.collectives.as_ref().ok_or_else(|| {
            CodegenError::internal(
                "kernel IR without its collectives' expansion (kir-collectives did not run)",
                self.decl.name.span,
            )
        })?);
        body.merged_guards = kernel_ir.merged_guards.clone().ok_or_else(|| {
            CodegenError::internal(
                "kernel IR without its merged guards (kir-guards did not run)",
                self.decl.name.span,
            )
        })?;
        body.store_orders = kernel_ir.store_orders.clone().ok_or_else(|| {
            CodegenError::internal(
                "kernel IR without its store orders (kir-accesses did not run)",
                self.decl.name.span,
            )
        })?;
        body.sync
            .follow(kernel_ir.barriers.as_ref())
            .map_err(|(message, span)| {
                CodegenError::internal(message, span.unwrap_or(self.decl.name.span))
            })?;
        body.indexed_vectors = kernel_ir
            .indexed_copies
            .clone()
            .ok_or_else(|| {
                CodegenError::internal(
                    "kernel IR without its indexed copies (kir-indexed-copies did not run)",
                    self.decl.name.span,
                )
            })?
            .into_iter()
            .collect();
        // Scalars first: array dimensions may use any scalar parameter.
        for (i, (param, ty)) in self.decl.params.iter().zip(&param_tys).enumerate() {
            let Ty::Scalar(s) = ty else { continue };
            let value = function
                .get_nth_param(i as u32)
                .ok_or_else(|| CodegenError::internal("parameter", param.span))?;
            let value = body.to_reg(value, ty)?;
            let ptr = body.alloca(self.cx.types.scalar(*s), &param.name.name)?;
            body.b.build_store(ptr, value)?;
            body.bind(
                &param.name.name,
                Var::Local {
                    ptr,
                    ty: ty.clone(),
                },
            );
        }
        // Records: every field loaded once, here, into the record's value (records are
        // read-only, so the `.param` space is read nowhere else).
        for (i, (param, ty)) in self.decl.params.iter().zip(&param_tys).enumerate() {
            if !matches!(ty, Ty::Range | Ty::Record(_)) {
                continue;
            }
            let ptr = function
                .get_nth_param(i as u32)
                .ok_or_else(|| CodegenError::internal("parameter", param.span))?
                .into_pointer_value();
            let llvm = self
                .cx
                .types
                .reg(ty, &self.cx.resolver.borrow().records)
                .ok_or_else(|| CodegenError::internal("a record's type", param.span))?;
            let value = load_fields(&body, ptr, llvm, &param.name.name)?;
            let slot = body.alloca(llvm, &param.name.name)?;
            body.b.build_store(slot, value)?;
            body.bind(
                &param.name.name,
                Var::Local {
                    ptr: slot,
                    ty: ty.clone(),
                },
            );
        }
        for (i, (param, ty)) in self.decl.params.iter().zip(&param_tys).enumerate() {
            let Ty::Array { elem, .. } = ty else { continue };
            let TypeExpr::Array {
                dims: dim_exprs, ..
            } = &param.ty
            else {
                return Err(CodegenError::internal(
                    "an array parameter without dimensions",
                    param.span,
                ));
            };
            let mut dims = Vec::with_capacity(dim_exprs.len());
            for dim in dim_exprs {
                let v = body.expr(dim)?.into_int_value();
                let v =
                    body.b
                        .build_int_cast_sign_flag(v, self.cx.context.i32_type(), true, "dim")?;
                dims.push(v);
            }
            // The checker rejects a kernel array parameter without dimensions (E0502).
            if dims.is_empty() {
                return Err(CodegenError::internal(
                    "an array parameter without a length",
                    param.span,
                ));
            }
            let ptr = function
                .get_nth_param(i as u32)
                .ok_or_else(|| CodegenError::internal("parameter", param.span))?
                .into_pointer_value();
            let array = ArrayRef {
                name: param.name.name.clone(),
                ptr,
                elem: (**elem).clone(),
                dims,
            };
            body.bind(&param.name.name, Var::Array(array));
        }
        body.kernel_block(&kernel_ir.body, &self.decl.body)?;
        body.finish(self.decl.span)?;
        body.sync.finish();
        body.check_barriers(self.decl.name.span)?;
        let remarks = std::mem::take(&mut body.sync.remarks);
        let shared = std::mem::take(&mut body.shared_decls);
        let register_vectors = body.registers.len();
        let counted = kernel_ir.shared_bytes();
        drop(body);
        self.cx.remarks.borrow_mut().extend(remarks);
        let facts = super::limits::check(
            self.cx,
            &self.facts.name,
            self.decl.name.span,
            (self.facts.block_size, self.facts.block_rows),
            &shared,
            counted,
            register_vectors,
        )?;
        self.cx.remarks.borrow_mut().push(facts);
        Ok(function)
    }

    /// `!nvvm.annotations`: the function is a kernel (`.entry`), launched with exactly
    /// `BLOCKSIZE` threads (`.reqntid N, 1, 1`; it also bounds ptxas's register budget as
    /// `.maxntid` would, and ptxas rejects a kernel that has both directives).
    fn annotate(&self, function: FunctionValue<'ctx>) -> Result<()> {
        let context = self.cx.context;
        let i32t = context.i32_type();
        let rows = u64::from(self.facts.block_rows.max(1));
        let cols = u64::from(self.facts.block_size) / rows;
        let mut entries: Vec<(&str, u64)> = vec![("kernel", 1), ("reqntidx", cols)];
        // A two-dimensional block (`@blocksize(R, C)`): `.reqntid C, R, 1`, x the columns.
        if rows > 1 {
            entries.push(("reqntidy", rows));
        }
        for (key, value) in entries {
            let fields: [BasicMetadataValueEnum; 3] = [
                function.as_global_value().as_pointer_value().into(),
                context.metadata_string(key).into(),
                i32t.const_int(value, false).into(),
            ];
            let node = context.metadata_node(&fields);
            self.cx
                .module
                .add_global_metadata("nvvm.annotations", &node)
                .map_err(|e| CodegenError::Internal {
                    message: format!("nvvm.annotations: {e}"),
                    span: None,
                })?;
        }
        Ok(())
    }
}
