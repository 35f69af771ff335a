//! Code generation: a checked program to an LLVM module for `nvptx64-nvidia-cuda`, with NVVM
//! intrinsics for thread and block ids and barriers, and kernels annotated for NVPTX.
//!
//! - `kernel.rs`: a kernel's entry point, calling convention and launch bounds;
//! - `func.rs`: `func`s, as internal `alwaysinline` functions;
//! - `body.rs`: the lowering of one body (scopes, variables, loops, barriers);
//! - `stmt.rs`, `expr.rs`, `memory.rs`, `vector.rs`: statements, uniform expressions, arrays,
//!   block vectors and collectives;
//! - `hazards.rs`: where once-per-block stores need barriers;
//! - `types.rs`, `intrinsics.rs`: LLVM types and NVVM intrinsics.
//!
//! Execution model (design §1): every thread of a block runs the kernel body. Uniform values are
//! computed redundantly by every thread; a uniform store happens once per block (thread 0); a
//! block vector's element `k` is handled by thread `k mod BLOCKSIZE`.

mod body;
mod error;
mod expr;
mod func;
mod hazards;
mod intrinsics;
mod kernel;
mod memory;
mod stmt;
mod types;
mod vector;

#[cfg(test)]
pub(crate) mod tests;

use crate::check::{Callee, Checked};
use crate::diagnostics::Diagnostic;
use crate::syntax::ast::{ExprKind, Item};
use crate::target::NvptxTarget;
use inkwell::context::Context;
use inkwell::module::Module;
use inkwell::values::FunctionValue;
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};

pub use error::{CodegenError, CODES};
pub use intrinsics::Intrinsic;

#[derive(Debug, Clone)]
pub struct CodegenOptions {
    /// Name of the module (the source file's name).
    pub module_name: String,
}

/// What every body's lowering shares: the module, the checker's facts, types, declared `func`s.
pub struct Cx<'a, 'ctx> {
    pub context: &'ctx Context,
    pub module: &'a Module<'ctx>,
    pub checked: &'a Checked,
    pub types: types::Types<'ctx>,
    pub resolver: RefCell<types::TypeResolver>,
    /// `func`s by item index, declared before any body is lowered.
    pub funcs: HashMap<usize, FunctionValue<'ctx>>,
}

/// Lowers every kernel (and the `func`s they call) of `checked` into one module, verified.
pub fn lower<'ctx>(
    context: &'ctx Context,
    checked: &Checked,
    target: &NvptxTarget,
    options: &CodegenOptions,
) -> Result<Module<'ctx>, Vec<Diagnostic>> {
    let module = lower_unverified(context, checked, target, options)?;
    verify(&module).map_err(|d| vec![d])?;
    Ok(module)
}

/// [`lower`] without LLVM's verifier, so that a broken module can still be printed.
pub fn lower_unverified<'ctx>(
    context: &'ctx Context,
    checked: &Checked,
    target: &NvptxTarget,
    options: &CodegenOptions,
) -> Result<Module<'ctx>, Vec<Diagnostic>> {
    let module = context.create_module(&options.module_name);
    target.configure(&module);
    let mut errors: Vec<CodegenError> = Vec::new();
    let mut cx = Cx {
        context,
        module: &module,
        checked,
        types: types::Types::new(context),
        resolver: RefCell::new(types::TypeResolver::new(&checked.program, &checked.records)),
        funcs: HashMap::new(),
    };
    let used = used_funcs(checked);
    for &item in &used {
        let Some(Item::Func(decl)) = checked.program.items.get(item) else {
            continue;
        };
        match func::declare(&cx, decl, &func_symbol(checked, item)) {
            Ok(function) => {
                cx.funcs.insert(item, function);
            }
            Err(e) => errors.push(e),
        }
    }
    for &item in &used {
        let (Some(Item::Func(decl)), Some(function)) =
            (checked.program.items.get(item), cx.funcs.get(&item))
        else {
            continue;
        };
        if let Err(e) = func::FuncLowering::new(&cx, decl, *function).run() {
            errors.push(e);
        }
    }
    for facts in &checked.kernels {
        let Some(Item::Kernel(decl)) = checked.program.items.get(facts.item) else {
            errors.push(CodegenError::Internal {
                message: format!("kernel `{}` is not an item", facts.name),
                span: None,
            });
            continue;
        };
        if let Err(e) = kernel::KernelLowering::new(&cx, facts, decl).run() {
            errors.push(e);
        }
    }
    drop(cx);
    if errors.is_empty() {
        Ok(module)
    } else {
        Err(errors.into_iter().map(Diagnostic::from).collect())
    }
}

/// LLVM's verifier; a failure is a loomc bug.
pub fn verify(module: &Module<'_>) -> Result<(), Diagnostic> {
    module.verify().map_err(|e| {
        CodegenError::InvalidModule {
            llvm_message: e.to_string(),
        }
        .into()
    })
}

/// The LLVM name of a `func`: its own name, with the item index when it is overloaded.
fn func_symbol(checked: &Checked, item: usize) -> String {
    let name = &checked.program.items[item].name().name;
    let overloaded = checked.program.items.iter().enumerate().any(|(i, other)| {
        i != item && matches!(other, Item::Func(_)) && other.name().name == *name
    });
    if overloaded {
        format!("{name}.{item}")
    } else {
        name.clone()
    }
}

/// The `func`s the kernels call, directly or through other `func`s (item indices, sorted).
fn used_funcs(checked: &Checked) -> BTreeSet<usize> {
    let mut used = BTreeSet::new();
    let mut work: Vec<usize> = checked.kernels.iter().map(|k| k.item).collect();
    while let Some(item) = work.pop() {
        let mut found = Vec::new();
        let mut note = |e: &crate::syntax::ast::Expr| {
            if matches!(e.kind, ExprKind::Call { .. } | ExprKind::Collective { .. }) {
                if let Some(Callee::Func(f)) = checked.callees.get(&e.id) {
                    found.push(*f);
                }
            }
        };
        match checked.program.items.get(item) {
            Some(Item::Kernel(k)) => {
                k.params
                    .iter()
                    .for_each(|p| hazards::visit_type_dims(&p.ty, &mut note));
                hazards::visit_block(&k.body, &mut note);
            }
            Some(Item::Func(f)) => hazards::visit_block(&f.body, &mut note),
            _ => {}
        }
        for f in found {
            if used.insert(f) {
                work.push(f);
            }
        }
    }
    used
}
