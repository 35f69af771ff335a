//! Reads an LLVM module into the snapshot of `ir.rs`. The only unsafe code of the crate: every
//! call here is a read-only query of LLVM's C API on a module that inkwell keeps alive for the
//! duration of [`read_module`], and for as long as the snapshot, which prints the instructions'
//! text from it when first asked ([`PrintedInstructions`]).

use super::{
    Argument, BinOp, Block, BlockId, Callee, CastOp, DebugLoc, Function, FunctionInfo, GepIndex,
    Global, Inst, InstId, Module, Op, Pred, Ty, Val,
};
use crate::fast_hash::HashMap;
use llvm_sys::core::*;
use llvm_sys::debuginfo::{
    LLVMDIFileGetDirectory, LLVMDIFileGetFilename, LLVMDILocationGetColumn,
    LLVMDILocationGetInlinedAt, LLVMDILocationGetLine, LLVMDILocationGetScope, LLVMDIScopeGetFile,
    LLVMInstructionGetDebugLoc,
};
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMMetadataRef, LLVMTypeRef, LLVMValueRef};
use llvm_sys::target::{
    LLVMABISizeOfType, LLVMGetModuleDataLayout, LLVMOffsetOfElement, LLVMStoreSizeOfType,
    LLVMTargetDataRef,
};
use llvm_sys::{LLVMAtomicOrdering, LLVMIntPredicate, LLVMOpcode, LLVMTypeKind, LLVMValueKind};
use std::ffi::{c_char, CStr};

/// Reads every global and every defined function of `module`. The snapshot must not outlive
/// `module`, nor see it changed: it reads the instructions' text from it later. (The crate reads
/// one in `run` alone, and drops it there, with the module borrowed all that time.)
pub(crate) fn read_module(module: &inkwell::module::Module<'_>) -> Module {
    let raw = module.as_mut_ptr();
    // SAFETY: `raw` is a live module owned by `module`, which outlives this call; the reader only
    // queries it.
    unsafe {
        let data_layout = LLVMGetModuleDataLayout(raw);
        let mut globals = Vec::new();
        let mut global_ids: HashMap<LLVMValueRef, usize> = HashMap::default();
        let convergent = attribute_kind("convergent");

        let mut function = LLVMGetFirstFunction(raw);
        let mut defined = Vec::new();
        while !function.is_null() {
            let is_defined = LLVMCountBasicBlocks(function) > 0;
            let attribute = LLVMGetEnumAttributeAtIndex(function, u32::MAX, convergent);
            global_ids.insert(function, globals.len());
            if is_defined {
                defined.push((function, globals.len()));
            }
            globals.push(Global {
                name: value_name(function),
                addrspace: pointer_addrspace(LLVMTypeOf(function)),
                function: Some(FunctionInfo {
                    defined: is_defined,
                    convergent: !attribute.is_null(),
                }),
                dynamic_shared: false,
            });
            function = LLVMGetNextFunction(function);
        }
        let mut variable = LLVMGetFirstGlobal(raw);
        while !variable.is_null() {
            global_ids.insert(variable, globals.len());
            let addrspace = pointer_addrspace(LLVMTypeOf(variable));
            globals.push(Global {
                name: value_name(variable),
                addrspace,
                function: None,
                dynamic_shared: addrspace == 3 && LLVMIsDeclaration(variable) != 0,
            });
            variable = LLVMGetNextGlobal(variable);
        }

        let functions = defined
            .into_iter()
            .map(|(f, global)| {
                FunctionReader {
                    data_layout,
                    global_ids: &global_ids,
                    blocks: HashMap::default(),
                    insts: HashMap::default(),
                    args: HashMap::default(),
                    out: Vec::new(),
                }
                .read(f, global)
            })
            .collect();
        Module { globals, functions }
    }
}

struct FunctionReader<'a> {
    data_layout: LLVMTargetDataRef,
    global_ids: &'a HashMap<LLVMValueRef, usize>,
    blocks: HashMap<LLVMBasicBlockRef, BlockId>,
    /// Instructions and constant expressions already given an id.
    insts: HashMap<LLVMValueRef, InstId>,
    args: HashMap<LLVMValueRef, usize>,
    out: Vec<Inst>,
}

impl FunctionReader<'_> {
    unsafe fn read(mut self, function: LLVMValueRef, global: usize) -> Function {
        let mut args = Vec::new();
        for index in 0..LLVMCountParams(function) {
            let param = LLVMGetParam(function, index);
            self.args.insert(param, index as usize);
            let byval = LLVMGetEnumAttributeAtIndex(function, index + 1, attribute_kind("byval"));
            args.push(Argument {
                name: value_name(param),
                ty: ty_of(LLVMTypeOf(param)),
                byval: !byval.is_null(),
            });
        }

        // Number blocks and instructions first: phis and branches refer forward.
        let mut raw_blocks = Vec::new();
        let mut block = LLVMGetFirstBasicBlock(function);
        while !block.is_null() {
            self.blocks.insert(block, raw_blocks.len());
            raw_blocks.push(block);
            block = LLVMGetNextBasicBlock(block);
        }
        let mut raw_insts = Vec::new();
        let mut blocks = Vec::new();
        for (id, raw_block) in raw_blocks.iter().enumerate() {
            let mut insts = Vec::new();
            let mut inst = LLVMGetFirstInstruction(*raw_block);
            while !inst.is_null() {
                let inst_id = raw_insts.len();
                self.insts.insert(inst, inst_id);
                raw_insts.push((inst, id));
                insts.push(inst_id);
                inst = LLVMGetNextInstruction(inst);
            }
            let name = CStr::from_ptr(LLVMGetBasicBlockName(*raw_block))
                .to_string_lossy()
                .into_owned();
            blocks.push(Block {
                name,
                insts,
                succs: Vec::new(),
                preds: Vec::new(),
            });
        }
        // Placeholders, replaced below; constant expressions are appended after them.
        self.out = raw_insts
            .iter()
            .map(|(_, block)| Inst {
                op: Op::Other("placeholder"),
                args: Vec::new(),
                ty: Ty::Other,
                block: Some(*block),
                text: None,
                loc: None,
            })
            .collect();
        for (id, (inst, block)) in raw_insts.iter().enumerate() {
            self.out[id] = self.read_inst(*inst, Some(*block));
        }
        for block in blocks.iter_mut() {
            let Some(terminator) = block.insts.last().map(|i| raw_insts[*i].0) else {
                continue;
            };
            for index in live_successors(terminator) {
                let successor = LLVMGetSuccessor(terminator, index);
                if let Some(s) = self.blocks.get(&successor) {
                    block.succs.push(*s);
                }
            }
        }
        for id in 0..blocks.len() {
            for s in blocks[id].succs.clone() {
                if !blocks[s].preds.contains(&id) {
                    blocks[s].preds.push(id);
                }
            }
        }
        Function {
            name: value_name(function),
            global,
            args,
            blocks,
            insts: self.out,
            printed: std::rc::Rc::new(PrintedInstructions {
                function,
                instructions: raw_insts.into_iter().map(|(inst, _)| inst).collect(),
                lines: std::cell::OnceCell::new(),
            }),
        }
    }

    /// The operand `value` as a [`Val`], reading constant expressions into new instructions.
    unsafe fn operand(&mut self, value: LLVMValueRef) -> Val {
        if let Some(id) = self.insts.get(&value) {
            return Val::Inst(*id);
        }
        if let Some(index) = self.args.get(&value) {
            return Val::Arg(*index);
        }
        if let Some(global) = self.global_ids.get(&value) {
            return Val::Global(*global);
        }
        match LLVMGetValueKind(value) {
            LLVMValueKind::LLVMConstantIntValueKind => {
                let bits = LLVMGetIntTypeWidth(LLVMTypeOf(value));
                if bits > 64 {
                    return Val::Other(value as usize);
                }
                Val::Int {
                    value: i128::from(LLVMConstIntGetSExtValue(value)),
                    bits,
                }
            }
            LLVMValueKind::LLVMConstantPointerNullValueKind => Val::Null,
            LLVMValueKind::LLVMUndefValueValueKind | LLVMValueKind::LLVMPoisonValueKind => {
                Val::Undef
            }
            LLVMValueKind::LLVMConstantExprValueKind => {
                let id = self.out.len();
                self.insts.insert(value, id);
                self.out.push(Inst {
                    op: Op::Other("placeholder"),
                    args: Vec::new(),
                    ty: Ty::Other,
                    block: None,
                    text: None,
                    loc: None,
                });
                let read = self.read_inst(value, None);
                self.out[id] = read;
                Val::Inst(id)
            }
            _ => Val::Other(value as usize),
        }
    }

    unsafe fn operands(&mut self, value: LLVMValueRef, range: std::ops::Range<u32>) -> Vec<Val> {
        range
            .map(|i| self.operand(LLVMGetOperand(value, i)))
            .collect()
    }

    unsafe fn read_inst(&mut self, value: LLVMValueRef, block: Option<BlockId>) -> Inst {
        let opcode = if block.is_some() {
            LLVMGetInstructionOpcode(value)
        } else {
            LLVMGetConstOpcode(value)
        };
        let count = LLVMGetNumOperands(value).max(0) as u32;
        let ty = ty_of(LLVMTypeOf(value));
        let store_size = |v: LLVMValueRef| LLVMStoreSizeOfType(self.data_layout, LLVMTypeOf(v));
        use LLVMOpcode::*;
        let (op, args) = match opcode {
            LLVMAdd | LLVMSub | LLVMMul | LLVMUDiv | LLVMSDiv | LLVMURem | LLVMSRem | LLVMShl
            | LLVMLShr | LLVMAShr | LLVMAnd | LLVMOr | LLVMXor => {
                let bin = match opcode {
                    LLVMAdd => BinOp::Add,
                    LLVMSub => BinOp::Sub,
                    LLVMMul => BinOp::Mul,
                    LLVMUDiv => BinOp::UDiv,
                    LLVMSDiv => BinOp::SDiv,
                    LLVMURem => BinOp::URem,
                    LLVMSRem => BinOp::SRem,
                    LLVMShl => BinOp::Shl,
                    LLVMLShr => BinOp::LShr,
                    LLVMAShr => BinOp::AShr,
                    LLVMAnd => BinOp::And,
                    LLVMOr => BinOp::Or {
                        disjoint: block.is_some() && LLVMGetIsDisjoint(value) != 0,
                    },
                    _ => BinOp::Xor,
                };
                (Op::Bin(bin), self.operands(value, 0..2))
            }
            LLVMICmp => {
                let pred = match LLVMGetICmpPredicate(value) {
                    LLVMIntPredicate::LLVMIntEQ => Pred::Eq,
                    LLVMIntPredicate::LLVMIntNE => Pred::Ne,
                    LLVMIntPredicate::LLVMIntUGT => Pred::Ugt,
                    LLVMIntPredicate::LLVMIntUGE => Pred::Uge,
                    LLVMIntPredicate::LLVMIntULT => Pred::Ult,
                    LLVMIntPredicate::LLVMIntULE => Pred::Ule,
                    LLVMIntPredicate::LLVMIntSGT => Pred::Sgt,
                    LLVMIntPredicate::LLVMIntSGE => Pred::Sge,
                    LLVMIntPredicate::LLVMIntSLT => Pred::Slt,
                    LLVMIntPredicate::LLVMIntSLE => Pred::Sle,
                };
                (Op::ICmp(pred), self.operands(value, 0..2))
            }
            LLVMSelect => (Op::Select, self.operands(value, 0..3)),
            LLVMPHI => {
                let incoming = LLVMCountIncoming(value);
                let mut blocks = Vec::new();
                let mut args = Vec::new();
                for i in 0..incoming {
                    let from = LLVMGetIncomingBlock(value, i);
                    blocks.push(self.blocks.get(&from).copied().unwrap_or(usize::MAX));
                    args.push(self.operand(LLVMGetIncomingValue(value, i)));
                }
                (Op::Phi(blocks), args)
            }
            LLVMTrunc | LLVMZExt | LLVMSExt | LLVMPtrToInt | LLVMIntToPtr | LLVMBitCast
            | LLVMAddrSpaceCast | LLVMFreeze => {
                let cast = match opcode {
                    LLVMTrunc => CastOp::Trunc,
                    LLVMZExt => CastOp::ZExt {
                        non_negative: block.is_some() && LLVMGetNNeg(value) != 0,
                    },
                    LLVMSExt => CastOp::SExt,
                    LLVMPtrToInt => CastOp::PtrToInt,
                    LLVMIntToPtr => CastOp::IntToPtr,
                    LLVMBitCast => CastOp::BitCast,
                    LLVMAddrSpaceCast => CastOp::AddrSpaceCast,
                    _ => CastOp::Freeze,
                };
                (Op::Cast(cast), self.operands(value, 0..1))
            }
            LLVMGetElementPtr => {
                let steps = self.gep_steps(value, count);
                (Op::Gep(steps), self.operands(value, 0..count))
            }
            LLVMLoad => {
                let atomic =
                    LLVMGetOrdering(value) != LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic;
                (
                    Op::Load {
                        bytes: store_size(value),
                        atomic,
                    },
                    self.operands(value, 0..1),
                )
            }
            LLVMStore => {
                let atomic =
                    LLVMGetOrdering(value) != LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic;
                (
                    Op::Store {
                        bytes: store_size(LLVMGetOperand(value, 0)),
                        atomic,
                    },
                    self.operands(value, 0..2),
                )
            }
            LLVMAtomicRMW => (
                Op::AtomicRmw {
                    bytes: store_size(LLVMGetOperand(value, 1)),
                },
                self.operands(value, 0..2),
            ),
            LLVMAtomicCmpXchg => (
                Op::CmpXchg {
                    bytes: store_size(LLVMGetOperand(value, 1)),
                },
                self.operands(value, 0..3),
            ),
            LLVMCall => {
                let called = LLVMGetCalledValue(value);
                let callee = if !LLVMIsAInlineAsm(called).is_null() {
                    Callee::InlineAsm
                } else {
                    match self.global_ids.get(&called) {
                        Some(g) => Callee::Function(*g),
                        None => Callee::Indirect,
                    }
                };
                let arguments = LLVMGetNumArgOperands(value);
                (Op::Call(callee), self.operands(value, 0..arguments))
            }
            LLVMAlloca => (Op::Alloca, self.operands(value, 0..count)),
            LLVMExtractValue => {
                let n = LLVMGetNumIndices(value) as usize;
                let pointer = LLVMGetIndices(value);
                let indices = if pointer.is_null() || n == 0 {
                    Vec::new()
                } else {
                    std::slice::from_raw_parts(pointer, n).to_vec()
                };
                (Op::ExtractValue(indices), self.operands(value, 0..1))
            }
            LLVMBr if LLVMIsConditional(value) != 0 => {
                let condition = self.operand(LLVMGetCondition(value));
                (Op::CondBr, vec![condition])
            }
            LLVMBr => (Op::Br, Vec::new()),
            LLVMSwitch => {
                // Operands: condition, default destination, then (value, destination) pairs.
                let mut args = vec![self.operand(LLVMGetOperand(value, 0))];
                let mut i = 2;
                while i < count {
                    args.push(self.operand(LLVMGetOperand(value, i)));
                    i += 2;
                }
                (Op::Switch, args)
            }
            LLVMRet => (Op::Ret, self.operands(value, 0..count)),
            LLVMUnreachable => (Op::Unreachable, Vec::new()),
            LLVMFence => (Op::Fence, Vec::new()),
            other => {
                // Keep the operands so that data dependence still flows through them.
                let operands = self.operands(value, 0..count);
                (Op::Other(opcode_name(other)), operands)
            }
        };
        Inst {
            op,
            args,
            ty,
            block,
            // An instruction's text is printed with its function's, when first asked for.
            text: block.is_none().then(|| printed(value)),
            loc: if block.is_some() {
                debug_loc(LLVMInstructionGetDebugLoc(value))
            } else {
                None
            },
        }
    }

    /// The byte scale of each index of a `getelementptr`.
    unsafe fn gep_steps(&self, value: LLVMValueRef, count: u32) -> Vec<GepIndex> {
        let mut ty = LLVMGetGEPSourceElementType(value);
        let mut steps = Vec::new();
        for index in 1..count {
            if index == 1 {
                steps.push(GepIndex::Scaled(
                    LLVMABISizeOfType(self.data_layout, ty) as i64
                ));
                continue;
            }
            match LLVMGetTypeKind(ty) {
                LLVMTypeKind::LLVMStructTypeKind => {
                    let operand = LLVMGetOperand(value, index);
                    let field = LLVMConstIntGetZExtValue(operand) as u32;
                    steps.push(GepIndex::Field(
                        LLVMOffsetOfElement(self.data_layout, ty, field) as i64,
                    ));
                    ty = LLVMStructGetTypeAtIndex(ty, field);
                }
                _ => {
                    ty = LLVMGetElementType(ty);
                    steps.push(GepIndex::Scaled(
                        LLVMABISizeOfType(self.data_layout, ty) as i64
                    ));
                }
            }
        }
        steps
    }
}

unsafe fn attribute_kind(name: &str) -> u32 {
    LLVMGetEnumAttributeKindForName(name.as_ptr() as *const c_char, name.len())
}

unsafe fn value_name(value: LLVMValueRef) -> String {
    let mut length = 0usize;
    let pointer = LLVMGetValueName2(value, &mut length);
    text(pointer, length)
}

unsafe fn text(pointer: *const c_char, length: usize) -> String {
    if pointer.is_null() {
        return String::new();
    }
    let bytes = std::slice::from_raw_parts(pointer as *const u8, length);
    String::from_utf8_lossy(bytes).into_owned()
}

/// The text of a function's instructions, printed the first time any is asked for. Most
/// compilations need none (only a finding, a dump or an inline assembly's template reads one),
/// and printing a function costs more than reading it: some 13,000 instructions of the
/// processor per LLVM instruction, a fifth to a quarter of the kernel verifier's time on the
/// examples (argmax: 5.1 M of 18.3 M).
#[derive(Debug)]
pub(crate) struct PrintedInstructions {
    function: LLVMValueRef,
    /// The function's instructions, by [`InstId`].
    instructions: Vec<LLVMValueRef>,
    lines: std::cell::OnceCell<Vec<String>>,
}

impl PrintedInstructions {
    /// Instruction `id`'s text; empty for an id that is not an instruction of the function.
    pub(crate) fn line(&self, id: InstId) -> &str {
        // SAFETY: the function and its instructions are live and unchanged for as long as the
        // snapshot holding `self` (see [`read_module`]); printing only reads them.
        let lines = self.lines.get_or_init(|| unsafe { self.print() });
        lines.get(id).map_or("", String::as_str)
    }

    unsafe fn print(&self) -> Vec<String> {
        // Printing one instruction numbers the whole function (LLVM's SlotTracker), so printing
        // each would take time quadratic in the function's length: the function is printed
        // once and its instruction lines taken in order.
        let lines = instruction_lines(self.function);
        if lines.len() == self.instructions.len() {
            lines
        } else {
            self.instructions.iter().map(|i| printed(*i)).collect()
        }
    }
}

/// The text of each instruction of `function`, in order, as [`printed`] gives it: the lines of
/// the printed function that hold an instruction (two spaces, then not `]`), a `switch`'s case
/// lines joined to it.
unsafe fn instruction_lines(function: LLVMValueRef) -> Vec<String> {
    let pointer = LLVMPrintValueToString(function);
    if pointer.is_null() {
        return Vec::new();
    }
    let full = CStr::from_ptr(pointer).to_string_lossy().into_owned();
    LLVMDisposeMessage(pointer);
    let mut lines: Vec<String> = Vec::new();
    for line in full.lines() {
        let starts_instruction =
            line.starts_with("  ") && !line.starts_with("   ") && !line[2..].starts_with(']');
        if starts_instruction {
            lines.push(line.trim().to_string());
        } else if line.starts_with("   ") || line.starts_with("  ]") {
            if let Some(last) = lines.last_mut() {
                last.push(' ');
                last.push_str(line.trim());
            }
        }
    }
    lines
        .into_iter()
        .map(|text| match text.find(", !") {
            Some(at) => text[..at].to_string(),
            None => text,
        })
        .collect()
}

/// The instruction (or constant expression) as LLVM prints it, without its metadata attachments.
unsafe fn printed(value: LLVMValueRef) -> String {
    let pointer = LLVMPrintValueToString(value);
    if pointer.is_null() {
        return String::new();
    }
    let full = CStr::from_ptr(pointer).to_string_lossy().into_owned();
    LLVMDisposeMessage(pointer);
    let trimmed = full.trim();
    // `, !dbg !12, !llvm.loop !3`: attachments follow the first ", !".
    match trimmed.find(", !") {
        Some(at) => trimmed[..at].to_string(),
        None => trimmed.to_string(),
    }
}

unsafe fn ty_of(ty: LLVMTypeRef) -> Ty {
    match LLVMGetTypeKind(ty) {
        LLVMTypeKind::LLVMIntegerTypeKind => Ty::Int(LLVMGetIntTypeWidth(ty)),
        LLVMTypeKind::LLVMPointerTypeKind => Ty::Ptr(LLVMGetPointerAddressSpace(ty)),
        LLVMTypeKind::LLVMVoidTypeKind => Ty::Void,
        _ => Ty::Other,
    }
}

unsafe fn pointer_addrspace(ty: LLVMTypeRef) -> u32 {
    match LLVMGetTypeKind(ty) {
        LLVMTypeKind::LLVMPointerTypeKind => LLVMGetPointerAddressSpace(ty),
        _ => 0,
    }
}

unsafe fn debug_loc(location: LLVMMetadataRef) -> Option<DebugLoc> {
    if location.is_null() {
        return None;
    }
    let mut loc = debug_loc_single(location);
    let mut at = LLVMDILocationGetInlinedAt(location);
    // Bounded: a malformed module could chain call sites in a cycle.
    while !at.is_null() && loc.inlined_at.len() < 64 {
        loc.inlined_at.push(debug_loc_single(at));
        at = LLVMDILocationGetInlinedAt(at);
    }
    Some(loc)
}

/// One location, without its inlining chain.
unsafe fn debug_loc_single(location: LLVMMetadataRef) -> DebugLoc {
    let mut loc = DebugLoc {
        file: String::new(),
        directory: String::new(),
        line: LLVMDILocationGetLine(location),
        column: LLVMDILocationGetColumn(location),
        inlined_at: Vec::new(),
    };
    let scope = LLVMDILocationGetScope(location);
    if !scope.is_null() {
        let file_node = LLVMDIScopeGetFile(scope);
        if !file_node.is_null() {
            let mut length = 0u32;
            loc.file = text(
                LLVMDIFileGetFilename(file_node, &mut length),
                length as usize,
            );
            let mut length = 0u32;
            loc.directory = text(
                LLVMDIFileGetDirectory(file_node, &mut length),
                length as usize,
            );
        }
    }
    loc
}

fn opcode_name(opcode: LLVMOpcode) -> &'static str {
    use LLVMOpcode::*;
    match opcode {
        LLVMFNeg => "fneg",
        LLVMFAdd => "fadd",
        LLVMFSub => "fsub",
        LLVMFMul => "fmul",
        LLVMFDiv => "fdiv",
        LLVMFRem => "frem",
        LLVMFPToUI => "fptoui",
        LLVMFPToSI => "fptosi",
        LLVMUIToFP => "uitofp",
        LLVMSIToFP => "sitofp",
        LLVMFPTrunc => "fptrunc",
        LLVMFPExt => "fpext",
        LLVMFCmp => "fcmp",
        LLVMExtractElement => "extractelement",
        LLVMInsertElement => "insertelement",
        LLVMShuffleVector => "shufflevector",
        LLVMInsertValue => "insertvalue",
        LLVMInvoke => "invoke",
        LLVMIndirectBr => "indirectbr",
        LLVMCallBr => "callbr",
        LLVMVAArg => "va_arg",
        _ => "other",
    }
}

/// The successor indices of `terminator` that can be taken: both of a conditional branch, except
/// when its condition is a constant. The canonical copy's instcombine empties the blocks such a
/// branch never enters (a barrier among what it deletes) but leaves the branch, so the dead
/// edge would otherwise offer a barrier-free path that no thread takes.
///
/// # Safety
/// `terminator` must be a live terminator instruction.
unsafe fn live_successors(terminator: LLVMValueRef) -> Vec<u32> {
    let all = (0..LLVMGetNumSuccessors(terminator)).collect();
    if LLVMIsABranchInst(terminator).is_null() || LLVMIsConditional(terminator) == 0 {
        return all;
    }
    let condition = LLVMGetCondition(terminator);
    if LLVMIsAConstantInt(condition).is_null() {
        return all;
    }
    // `br i1 %c, label %then, label %else`: successor 0 is taken when the condition is true.
    match LLVMConstIntGetZExtValue(condition) {
        0 => vec![1],
        _ => vec![0],
    }
}
