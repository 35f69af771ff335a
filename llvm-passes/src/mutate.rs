//! Seeded bugs, for testing the verifier on real compiler output: remove a barrier, or put it
//! under a branch that only one thread takes. A verifier that finds every seeded bug in the
//! programs a compiler really produces is worth more than one that passes hand-written cases.
//!
//! Barriers are numbered in module order (functions, blocks, instructions), counting only
//! barriers of the whole block.

use crate::nvvm::{self, BarrierKind, Intrinsic};
use inkwell::module::Module;
use inkwell::values::{AsValueRef, BasicValue, InstructionOpcode, InstructionValue};

/// The block barriers of `module`, in order.
fn barriers<'ctx>(module: &Module<'ctx>) -> Vec<InstructionValue<'ctx>> {
    let mut found = Vec::new();
    for function in module.get_functions() {
        for block in function.get_basic_block_iter() {
            for inst in block.get_instructions() {
                if is_block_barrier(inst) {
                    found.push(inst);
                }
            }
        }
    }
    found
}

fn is_block_barrier(inst: InstructionValue<'_>) -> bool {
    if inst.get_opcode() != InstructionOpcode::Call {
        return false;
    }
    let Some(callee) = called_name(inst) else {
        return false;
    };
    matches!(
        nvvm::classify(&callee),
        Intrinsic::Barrier(BarrierKind::Block)
    )
}

fn called_name(inst: InstructionValue<'_>) -> Option<String> {
    // SAFETY: `inst` is a live call instruction; the called value and its name are read only.
    unsafe {
        let called = llvm_sys::core::LLVMGetCalledValue(inst.as_value_ref());
        if called.is_null() {
            return None;
        }
        let mut length = 0usize;
        let pointer = llvm_sys::core::LLVMGetValueName2(called, &mut length);
        if pointer.is_null() {
            return None;
        }
        let bytes = std::slice::from_raw_parts(pointer as *const u8, length);
        Some(String::from_utf8_lossy(bytes).into_owned())
    }
}

/// How many block barriers `module` has.
pub fn count_barriers(module: &Module<'_>) -> usize {
    barriers(module).len()
}

/// Removes barrier number `index`.
pub fn remove_barrier(module: &Module<'_>, index: usize) -> Result<(), String> {
    let all = barriers(module);
    let barrier = all
        .get(index)
        .ok_or_else(|| format!("the module has {} barriers, not {}", all.len(), index + 1))?;
    barrier.erase_from_basic_block();
    Ok(())
}

/// The condition a guarded barrier is put under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Guard {
    /// `tid.x == 0`: only thread 0 reaches the barrier (a divergent barrier).
    FirstThread,
    /// A volatile load of 0 from private memory, compared with 0: every thread reaches the
    /// barrier, but no analysis can see through a volatile load (an undecidable barrier).
    Opaque,
}

/// Puts barrier number `index` under `if (tid.x == 0)`: only thread 0 reaches it.
pub fn guard_barrier(module: &Module<'_>, index: usize) -> Result<(), String> {
    guard_barrier_with(module, index, Guard::FirstThread)
}

/// Puts barrier number `index` under `guard`.
///
/// The barrier's block `B` is split in three: a new block `P` takes the instructions before the
/// barrier and branches on `tid.x == 0` to a block `G` holding the barrier, or straight to `B`,
/// which keeps the instructions after it. `B` keeps its name and terminator, so the phis of its
/// successors stay valid; its predecessors are sent to `P`, and its phis move to `P` with the
/// other leading instructions.
pub fn guard_barrier_with(module: &Module<'_>, index: usize, guard: Guard) -> Result<(), String> {
    let all = barriers(module);
    let barrier = *all
        .get(index)
        .ok_or_else(|| format!("the module has {} barriers, not {}", all.len(), index + 1))?;
    let block = barrier
        .get_parent()
        .ok_or("the barrier is not in a basic block")?;
    let function = block.get_parent().ok_or("the block is not in a function")?;
    let context = module.get_context();
    let builder = context.create_builder();
    let i32_type = context.i32_type();
    let tid = match module.get_function("llvm.nvvm.read.ptx.sreg.tid.x") {
        Some(f) => f,
        None => module.add_function(
            "llvm.nvvm.read.ptx.sreg.tid.x",
            i32_type.fn_type(&[], false),
            None,
        ),
    };

    let predecessors: Vec<_> = function
        .get_basic_block_iter()
        .filter_map(|b| b.get_terminator())
        .filter(|t| {
            (0..t.get_num_operands()).any(|i| {
                t.get_operand(i)
                    .and_then(|o| o.block())
                    .is_some_and(|target| target == block)
            })
        })
        .collect();
    let head = context.insert_basic_block_after(block, "mutation.head");
    let guarded = context.insert_basic_block_after(head, "mutation.barrier");
    // `head` must come before `block` in layout if `block` is the entry.
    head.move_before(block)
        .map_err(|_| "cannot move a block".to_string())?;
    guarded
        .move_before(block)
        .map_err(|_| "cannot move a block".to_string())?;

    // Move the instructions before the barrier into `head`.
    let mut leading = Vec::new();
    let mut cursor = block.get_first_instruction();
    while let Some(inst) = cursor {
        if inst == barrier {
            break;
        }
        leading.push(inst);
        cursor = inst.get_next_instruction();
    }
    for inst in leading {
        inst.remove_from_basic_block();
        builder.position_at_end(head);
        builder.insert_instruction(&inst, None);
    }
    builder.position_at_end(head);
    let value = match guard {
        Guard::FirstThread => builder
            .build_call(tid, &[], "mutation.tid")
            .map_err(|e| e.to_string())?
            .try_as_basic_value()
            .basic()
            .ok_or("tid.x returned nothing")?
            .into_int_value(),
        Guard::Opaque => {
            let slot = builder
                .build_alloca(i32_type, "mutation.slot")
                .map_err(|e| e.to_string())?;
            let store = builder
                .build_store(slot, i32_type.const_zero())
                .map_err(|e| e.to_string())?;
            store.set_volatile(true).map_err(|e| e.to_string())?;
            let load = builder
                .build_load(i32_type, slot, "mutation.opaque")
                .map_err(|e| e.to_string())?;
            if let Some(inst) = load.as_instruction_value() {
                inst.set_volatile(true).map_err(|e| e.to_string())?;
            }
            load.into_int_value()
        }
    };
    let first = builder
        .build_int_compare(
            inkwell::IntPredicate::EQ,
            value,
            i32_type.const_zero(),
            "mutation.first",
        )
        .map_err(|e| e.to_string())?;
    builder
        .build_conditional_branch(first, guarded, block)
        .map_err(|e| e.to_string())?;
    barrier.remove_from_basic_block();
    builder.position_at_end(guarded);
    builder.insert_instruction(&barrier, None);
    builder
        .build_unconditional_branch(block)
        .map_err(|e| e.to_string())?;
    // The new instructions take the barrier's source position, so that reports about them point
    // at the statement whose barrier was mutated.
    // SAFETY: reads the barrier's location and attaches it to instructions of the same function.
    unsafe {
        use llvm_sys::debuginfo::{LLVMInstructionGetDebugLoc, LLVMInstructionSetDebugLoc};
        let loc = LLVMInstructionGetDebugLoc(barrier.as_value_ref());
        if !loc.is_null() {
            for new_block in [head, guarded] {
                let mut inst = new_block.get_first_instruction();
                while let Some(i) = inst {
                    if LLVMInstructionGetDebugLoc(i.as_value_ref()).is_null() {
                        LLVMInstructionSetDebugLoc(i.as_value_ref(), loc);
                    }
                    inst = i.get_next_instruction();
                }
            }
        }
    }
    // Predecessors of the old block now enter through `head`.
    for terminator in predecessors {
        for i in 0..terminator.get_num_operands() {
            let is_target = terminator
                .get_operand(i)
                .and_then(|o| o.block())
                .is_some_and(|target| target == block);
            if is_target {
                // SAFETY: operand `i` of a terminator is a basic block; replacing it with another
                // block of the same function keeps the terminator well-formed.
                unsafe {
                    llvm_sys::core::LLVMSetOperand(
                        terminator.as_value_ref(),
                        i,
                        llvm_sys::core::LLVMBasicBlockAsValue(head.as_mut_ptr()),
                    );
                }
            }
        }
    }
    Ok(())
}
