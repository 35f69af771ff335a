//! 16-bit floats move through memory as `i16` in what the NVPTX back end compiles.
//!
//! LLVM's load-store vectoriser (part of the back end's pipeline) joins neighbouring loads of a
//! `half` and a `bfloat` (two fields of a record parameter, or of a record in an array) into
//! one `<2 x half>` load, and the NVPTX instruction selector of LLVM 19 cannot select the
//! `bfloat` element it then bitcasts out of it: it aborts ("Cannot select: bf16 = bitcast").
//! As `i16`s they join and split cleanly (`ld.param.u32`, then a move). The optimiser would fold
//! an `i16` load and a bitcast back into a `half` load, so this runs after it, just before PTX
//! is written.

use inkwell::module::Module;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValue, BasicValueEnum, InstructionOpcode, InstructionValue, Operand};
use inkwell::AtomicOrdering;

/// Rewrites every plain load and store of a `half` or `bfloat` in `module`'s functions into one
/// of an `i16` and a bitcast, keeping alignment and volatility.
pub fn as_integers(module: &Module<'_>) -> Result<(), String> {
    let context = module.get_context();
    let i16t = context.i16_type();
    let sixteen =
        |ty: BasicTypeEnum<'_>| ty == context.f16_type().into() || ty == context.bf16_type().into();
    let builder = context.create_builder();
    let fail = |e: inkwell::builder::BuilderError| e.to_string();
    for function in module.get_functions() {
        for block in function.get_basic_blocks() {
            let mut next = block.get_first_instruction();
            while let Some(inst) = next {
                next = inst.get_next_instruction();
                if !plain(inst) {
                    continue;
                }
                match inst.get_opcode() {
                    InstructionOpcode::Load => {
                        let Ok(ty) = BasicTypeEnum::try_from(inst.get_type()) else {
                            continue;
                        };
                        let Some(pointer) = operand(inst, 0) else {
                            continue;
                        };
                        if !sixteen(ty) {
                            continue;
                        }
                        builder.position_before(&inst);
                        let bits = builder
                            .build_load(i16t, pointer.into_pointer_value(), "bits")
                            .map_err(fail)?;
                        copy_access(inst, bits.as_instruction_value())?;
                        let value = builder.build_bit_cast(bits, ty, "").map_err(fail)?;
                        let Some(cast) = value.as_instruction_value() else {
                            return Err("a bitcast folded to a constant".to_string());
                        };
                        inst.replace_all_uses_with(&cast);
                        inst.erase_from_basic_block();
                    }
                    InstructionOpcode::Store => {
                        let (Some(value), Some(pointer)) = (operand(inst, 0), operand(inst, 1))
                        else {
                            continue;
                        };
                        if !sixteen(value.get_type()) {
                            continue;
                        }
                        builder.position_before(&inst);
                        let bits = builder.build_bit_cast(value, i16t, "bits").map_err(fail)?;
                        let store = builder
                            .build_store(pointer.into_pointer_value(), bits)
                            .map_err(fail)?;
                        copy_access(inst, Some(store))?;
                        inst.erase_from_basic_block();
                    }
                    _ => {}
                }
            }
        }
    }
    Ok(())
}

/// A load or store that is not atomic (atomic ones keep their type: they order memory).
fn plain(inst: InstructionValue<'_>) -> bool {
    matches!(
        inst.get_opcode(),
        InstructionOpcode::Load | InstructionOpcode::Store
    ) && inst
        .get_atomic_ordering()
        .is_ok_and(|o| o == AtomicOrdering::NotAtomic)
}

fn operand<'ctx>(inst: InstructionValue<'ctx>, index: u32) -> Option<BasicValueEnum<'ctx>> {
    match inst.get_operand(index)? {
        Operand::Value(value) => Some(value),
        Operand::Block(_) => None,
    }
}

/// The alignment and volatility of `from` on `to`.
fn copy_access(from: InstructionValue<'_>, to: Option<InstructionValue<'_>>) -> Result<(), String> {
    let Some(to) = to else {
        return Err("a memory access that is no instruction".to_string());
    };
    let text = |e: inkwell::values::InstructionValueError| e.to_string();
    to.set_alignment(from.get_alignment().map_err(text)?)
        .map_err(text)?;
    to.set_volatile(from.get_volatile().map_err(text)?)
        .map_err(text)?;
    Ok(())
}
