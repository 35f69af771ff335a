//! A `func`: element-level code, an internal `alwaysinline` LLVM function. The optimiser inlines
//! it at every call at every `-O` level (the `O0` pipeline runs the always-inliner), so a `func`
//! never becomes a PTX function. An array parameter is passed as one value holding the array's
//! address and dimensions. The address is global (`addrspace(1)`) in the func as declared; a
//! call with a `shared` array gets a copy of the func specialised for it, its parameter in
//! `addrspace(3)` ([`Variant`]): PTX addresses the two spaces with different instructions, and
//! a generic pointer would cost a conversion at every access until the optimiser removes it
//! (which it does not at `-O0`).

use super::body::{Body, Mode, Result, Var};
use super::error::CodegenError;
use super::types::{GLOBAL, SHARED};
use super::Cx;
use crate::check::types::{Space, Ty};
use crate::syntax::ast::FuncDecl;
use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::module::Linkage;
use inkwell::types::{BasicMetadataTypeEnum, BasicType};
use inkwell::values::FunctionValue;

/// Which of a func's array parameters are `shared` arrays in one specialised copy, by position
/// (the func as declared has none).
pub type Variant = Vec<bool>;

/// The symbol of a specialised copy: the func's, then the positions of its `shared` array
/// parameters (`loom.func.lookup.shared0`).
pub fn variant_symbol(symbol: &str, variant: &[bool]) -> String {
    let mut name = symbol.to_string();
    for (i, _) in variant.iter().enumerate().filter(|(_, shared)| **shared) {
        name.push_str(&format!(".shared{i}"));
    }
    name
}

/// Declares `func` number `item` of the program; `symbol` is its LLVM name; `variant` says
/// which array parameters are `shared` (empty: none).
pub fn declare<'ctx>(
    cx: &Cx<'_, 'ctx>,
    decl: &FuncDecl,
    symbol: &str,
    variant: &[bool],
) -> Result<FunctionValue<'ctx>> {
    let mut params: Vec<BasicMetadataTypeEnum> = Vec::with_capacity(decl.params.len());
    for (i, param) in decl.params.iter().enumerate() {
        let ty = cx.resolver.borrow_mut().resolve(&param.ty, Space::Global)?;
        if let Ty::Array { dims, .. } = &ty {
            let space = if variant.get(i).copied().unwrap_or(false) {
                SHARED
            } else {
                GLOBAL
            };
            params.push(cx.types.array_arg(dims.len(), space).into());
            continue;
        }
        let llvm = cx
            .types
            .reg(&ty, &cx.resolver.borrow().records)
            .ok_or_else(|| {
                CodegenError::internal("a parameter type without a register form", param.span)
            })?;
        params.push(llvm.into());
    }
    let fn_type = match &decl.ret {
        Some(ret) => {
            let ty = cx.resolver.borrow_mut().resolve(ret, Space::Local)?;
            let llvm = cx
                .types
                .reg(&ty, &cx.resolver.borrow().records)
                .ok_or_else(|| {
                    // The checker lets a func return scalars, records and ranges only (E0215).
                    CodegenError::internal(
                        "a `func` returning a type without a register form",
                        ret.span(),
                    )
                })?;
            llvm.fn_type(&params, false)
        }
        None => cx.context.void_type().fn_type(&params, false),
    };
    let function = cx
        .module
        .add_function(symbol, fn_type, Some(Linkage::Internal));
    let always_inline = cx
        .context
        .create_enum_attribute(Attribute::get_named_enum_kind_id("alwaysinline"), 0);
    function.add_attribute(AttributeLoc::Function, always_inline);
    Ok(function)
}

pub struct FuncLowering<'a, 'ctx> {
    cx: &'a Cx<'a, 'ctx>,
    decl: &'a FuncDecl,
    function: FunctionValue<'ctx>,
}

impl<'a, 'ctx> FuncLowering<'a, 'ctx> {
    pub fn new(
        cx: &'a Cx<'a, 'ctx>,
        decl: &'a FuncDecl,
        function: FunctionValue<'ctx>,
    ) -> FuncLowering<'a, 'ctx> {
        FuncLowering { cx, decl, function }
    }

    pub fn run(self) -> Result<()> {
        let ret = match &self.decl.ret {
            Some(ret) => Some(self.cx.resolver.borrow_mut().resolve(ret, Space::Local)?),
            None => None,
        };
        let mut body = Body::new(self.cx, self.function, Mode::Func { ret });
        body.attach_debug(&self.decl.name.name, self.decl.name.span);
        for (i, param) in self.decl.params.iter().enumerate() {
            let ty = self
                .cx
                .resolver
                .borrow_mut()
                .resolve(&param.ty, Space::Global)?;
            let value = self
                .function
                .get_nth_param(i as u32)
                .ok_or_else(|| CodegenError::internal("parameter", param.span))?;
            value.set_name(&param.name.name);
            if let Ty::Array { elem, .. } = &ty {
                // Its address (global or shared) and dimensions travel together
                // (`Types::array_arg`).
                let array = body.unpack_array_arg(value, &param.name.name, elem)?;
                body.bind(&param.name.name, Var::Array(array));
                continue;
            }
            // Parameters are variables: they may be assigned.
            let ptr = body.alloca(value.get_type(), &param.name.name)?;
            body.b.build_store(ptr, value)?;
            body.bind(&param.name.name, Var::Local { ptr, ty });
        }
        body.block(&self.decl.body)?;
        body.finish(self.decl.span)
    }
}
