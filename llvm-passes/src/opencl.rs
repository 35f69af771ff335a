//! OpenCL C work-item functions, for kernels clang compiled from OpenCL C for NVPTX
//! (`clang -x cl -target nvptx64-nvidia-cuda`). Without libclc, clang leaves `get_local_id(d)`,
//! `barrier(flags)` and their kin as calls to external functions (`_Z12get_local_idj`), which
//! the analyses would read as opaque. The verifier's canonical copy gives each one a body in
//! NVVM's terms and inlines it: `get_local_id(d)` is `tid.d`, `get_global_id(d)` is
//! `ctaid.d * ntid.d + tid.d` (no global offset), `barrier` is `barrier0`.

use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::module::{Linkage, Module};
use inkwell::values::{FunctionValue, IntValue};
use inkwell::IntPredicate;

/// A work-item function: the NVVM registers it reads (x, y, z of each) and how it combines them.
#[derive(Clone, Copy)]
enum WorkItem {
    /// One register per dimension.
    Register(&'static str),
    /// `a.d * b.d + c.d`.
    MulAdd(&'static str, &'static str, &'static str),
    /// `a.d * b.d`.
    Mul(&'static str, &'static str),
    /// Always 0 (`get_global_offset`: NVPTX launches have none).
    Zero,
    /// A barrier of the whole work-group.
    Barrier,
}

/// The mangled names clang gives the OpenCL built-ins, and what each is.
const BUILTINS: [(&str, WorkItem); 10] = [
    ("_Z12get_local_idj", WorkItem::Register("tid")),
    ("_Z12get_group_idj", WorkItem::Register("ctaid")),
    ("_Z14get_local_sizej", WorkItem::Register("ntid")),
    ("_Z14get_num_groupsj", WorkItem::Register("nctaid")),
    ("_Z23get_enqueued_local_sizej", WorkItem::Register("ntid")),
    (
        "_Z13get_global_idj",
        WorkItem::MulAdd("ctaid", "ntid", "tid"),
    ),
    ("_Z15get_global_sizej", WorkItem::Mul("nctaid", "ntid")),
    ("_Z17get_global_offsetj", WorkItem::Zero),
    ("_Z7barrierj", WorkItem::Barrier),
    ("_Z18work_group_barrierj", WorkItem::Barrier),
];

/// Whether `name` is an OpenCL work-item function or barrier the copy can define.
pub fn is_builtin(name: &str) -> bool {
    BUILTINS.iter().any(|(n, _)| *n == name)
}

/// Gives every declared OpenCL built-in of `module` a body (to be inlined).
pub fn define_builtins(module: &Module<'_>) -> Result<(), String> {
    for (name, what) in BUILTINS {
        let Some(function) = module.get_function(name) else {
            continue;
        };
        if function.count_basic_blocks() > 0 {
            continue;
        }
        define(module, function, what).map_err(|e| format!("defining `{name}`: {e}"))?;
    }
    Ok(())
}

fn define(module: &Module<'_>, function: FunctionValue<'_>, what: WorkItem) -> Result<(), String> {
    let context = module.get_context();
    let builder = context.create_builder();
    let entry = context.append_basic_block(function, "entry");
    builder.position_at_end(entry);
    let i32_type = context.i32_type();
    let error = |e: inkwell::builder::BuilderError| e.to_string();
    // The dimension argument, if the function takes one.
    let dimension = function
        .get_first_param()
        .map(|p| p.into_int_value())
        .unwrap_or(i32_type.const_zero());
    let read = |register: &str| -> Result<IntValue<'_>, String> {
        // One value per dimension, chosen by the argument (folded once inlined with a
        // constant dimension).
        let mut values = Vec::new();
        for axis in ["x", "y", "z"] {
            let name = format!("llvm.nvvm.read.ptx.sreg.{register}.{axis}");
            let sreg = module
                .get_function(&name)
                .unwrap_or_else(|| module.add_function(&name, i32_type.fn_type(&[], false), None));
            let call = builder.build_call(sreg, &[], register).map_err(error)?;
            values.push(
                call.try_as_basic_value()
                    .basic()
                    .ok_or("a register read has no value")?
                    .into_int_value(),
            );
        }
        let is_y = builder
            .build_int_compare(
                IntPredicate::EQ,
                dimension,
                dimension.get_type().const_int(1, false),
                "is_y",
            )
            .map_err(error)?;
        let is_x = builder
            .build_int_compare(
                IntPredicate::EQ,
                dimension,
                dimension.get_type().const_zero(),
                "is_x",
            )
            .map_err(error)?;
        let yz = builder
            .build_select(is_y, values[1], values[2], "yz")
            .map_err(error)?
            .into_int_value();
        Ok(builder
            .build_select(is_x, values[0], yz, register)
            .map_err(error)?
            .into_int_value())
    };
    let result = match what {
        WorkItem::Barrier => {
            let barrier = module
                .get_function("llvm.nvvm.barrier0")
                .unwrap_or_else(|| {
                    module.add_function(
                        "llvm.nvvm.barrier0",
                        context.void_type().fn_type(&[], false),
                        None,
                    )
                });
            builder.build_call(barrier, &[], "").map_err(error)?;
            builder.build_return(None).map_err(error)?;
            None
        }
        WorkItem::Zero => Some(i32_type.const_zero()),
        WorkItem::Register(r) => Some(read(r)?),
        WorkItem::Mul(a, b) => {
            let (a, b) = (read(a)?, read(b)?);
            Some(builder.build_int_mul(a, b, "mul").map_err(error)?)
        }
        WorkItem::MulAdd(a, b, c) => {
            let (a, b, c) = (read(a)?, read(b)?, read(c)?);
            let product = builder.build_int_mul(a, b, "mul").map_err(error)?;
            Some(builder.build_int_add(product, c, "add").map_err(error)?)
        }
    };
    if let Some(value) = result {
        // `size_t` is 64 bits on nvptx64: widen the 32-bit register arithmetic.
        let returned = match function.get_type().get_return_type() {
            Some(ty) if ty.is_int_type() && ty.into_int_type().get_bit_width() > 32 => builder
                .build_int_z_extend(value, ty.into_int_type(), "wide")
                .map_err(error)?,
            _ => value,
        };
        builder.build_return(Some(&returned)).map_err(error)?;
    }
    function.set_linkage(Linkage::Internal);
    let always =
        context.create_enum_attribute(Attribute::get_named_enum_kind_id("alwaysinline"), 0);
    function.add_attribute(AttributeLoc::Function, always);
    Ok(())
}
