//! The few raw LLVM operations the host lowering needs beyond inkwell: walking uses and
//! operands, constant expressions, and building instructions from raw values. Every function
//! takes values of one live module and is unsafe only in that sense.

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMAttributeFunctionIndex, LLVMOpcode, LLVMTypeKind};
use std::ffi::{CStr, CString};

pub type Value = LLVMValueRef;

/// A value's name (empty for unnamed values).
pub unsafe fn name(value: Value) -> String {
    let mut len = 0usize;
    let ptr = LLVMGetValueName2(value, &mut len);
    if ptr.is_null() {
        return String::new();
    }
    let bytes = std::slice::from_raw_parts(ptr as *const u8, len);
    String::from_utf8_lossy(bytes).into_owned()
}

/// The instruction as LLVM prints it, trimmed, for reports.
pub unsafe fn text(value: Value) -> String {
    let raw = LLVMPrintValueToString(value);
    let text = CStr::from_ptr(raw).to_string_lossy().trim().to_string();
    LLVMDisposeMessage(raw);
    text
}

pub unsafe fn functions(module: LLVMModuleRef) -> Vec<Value> {
    let mut out = Vec::new();
    let mut f = LLVMGetFirstFunction(module);
    while !f.is_null() {
        out.push(f);
        f = LLVMGetNextFunction(f);
    }
    out
}

pub unsafe fn globals(module: LLVMModuleRef) -> Vec<Value> {
    let mut out = Vec::new();
    let mut g = LLVMGetFirstGlobal(module);
    while !g.is_null() {
        out.push(g);
        g = LLVMGetNextGlobal(g);
    }
    out
}

pub unsafe fn is_declaration(global: Value) -> bool {
    LLVMIsDeclaration(global) != 0
}

/// Every instruction of a function, in order, collected first so that callers may rewrite.
pub unsafe fn instructions(function: Value) -> Vec<Value> {
    blocks(function)
        .into_iter()
        .flat_map(|block| block_instructions(block))
        .collect()
}

/// Every instruction of a basic block, in order, collected first so that callers may rewrite.
pub unsafe fn block_instructions(block: LLVMBasicBlockRef) -> Vec<Value> {
    let mut out = Vec::new();
    let mut inst = LLVMGetFirstInstruction(block);
    while !inst.is_null() {
        out.push(inst);
        inst = LLVMGetNextInstruction(inst);
    }
    out
}

/// The phi named `name` among `instructions` (a loop counter the thread loop made).
pub unsafe fn phi_named(instructions: &[Value], name: &str) -> Option<Value> {
    instructions
        .iter()
        .copied()
        .find(|i| is_phi(*i) && self::name(*i) == name)
}

/// Asks the always-inliner to inline this call.
pub unsafe fn always_inline_call(context: LLVMContextRef, call: Value) {
    let kind = LLVMGetEnumAttributeKindForName(c"alwaysinline".as_ptr(), "alwaysinline".len());
    let attribute = LLVMCreateEnumAttribute(context, kind, 0);
    LLVMAddCallSiteAttribute(
        call,
        inkwell::llvm_sys::LLVMAttributeFunctionIndex,
        attribute,
    );
}

/// The module's function `name`, declared with `fn_type` if it has none.
pub unsafe fn declare(module: LLVMModuleRef, name: &str, fn_type: LLVMTypeRef) -> Value {
    let c_name = c_name(name);
    let existing = LLVMGetNamedFunction(module, c_name.as_ptr());
    if !existing.is_null() {
        return existing;
    }
    LLVMAddFunction(module, c_name.as_ptr(), fn_type)
}

/// The basic blocks of a function, in order.
/// The blocks `block`'s terminator branches to (none without one).
pub unsafe fn successors(block: LLVMBasicBlockRef) -> Vec<LLVMBasicBlockRef> {
    let term = LLVMGetBasicBlockTerminator(block);
    if term.is_null() {
        return Vec::new();
    }
    (0..LLVMGetNumSuccessors(term))
        .map(|i| LLVMGetSuccessor(term, i))
        .collect()
}

pub unsafe fn blocks(function: Value) -> Vec<LLVMBasicBlockRef> {
    let mut out = Vec::new();
    let mut block = LLVMGetFirstBasicBlock(function);
    while !block.is_null() {
        out.push(block);
        block = LLVMGetNextBasicBlock(block);
    }
    out
}

pub unsafe fn block_name(block: LLVMBasicBlockRef) -> String {
    let name = LLVMGetBasicBlockName(block);
    if name.is_null() {
        return String::new();
    }
    std::ffi::CStr::from_ptr(name)
        .to_string_lossy()
        .into_owned()
}

/// The users of a value (instructions or constants), collected first.
pub unsafe fn users(value: Value) -> Vec<Value> {
    let mut out = Vec::new();
    let mut u = LLVMGetFirstUse(value);
    while !u.is_null() {
        out.push(LLVMGetUser(u));
        u = LLVMGetNextUse(u);
    }
    out
}

pub unsafe fn has_uses(value: Value) -> bool {
    !LLVMGetFirstUse(value).is_null()
}

pub unsafe fn operands(value: Value) -> Vec<Value> {
    let n = LLVMGetNumOperands(value);
    (0..n.max(0) as u32)
        .map(|i| LLVMGetOperand(value, i))
        .collect()
}

pub unsafe fn type_kind(ty: LLVMTypeRef) -> LLVMTypeKind {
    LLVMGetTypeKind(ty)
}

pub unsafe fn is_int(ty: LLVMTypeRef, bits: u32) -> bool {
    type_kind(ty) == LLVMTypeKind::LLVMIntegerTypeKind && LLVMGetIntTypeWidth(ty) == bits
}

pub unsafe fn address_space(ty: LLVMTypeRef) -> Option<u32> {
    (type_kind(ty) == LLVMTypeKind::LLVMPointerTypeKind).then(|| LLVMGetPointerAddressSpace(ty))
}

pub unsafe fn is_call(inst: Value) -> bool {
    !LLVMIsACallInst(inst).is_null()
}

/// The function a call calls directly, if it does.
pub unsafe fn callee(call: Value) -> Option<Value> {
    let called = LLVMGetCalledValue(call);
    (!called.is_null() && !LLVMIsAFunction(called).is_null()).then_some(called)
}

pub unsafe fn call_args(call: Value) -> Vec<Value> {
    let n = LLVMGetNumArgOperands(call);
    (0..n).map(|i| LLVMGetOperand(call, i)).collect()
}

pub unsafe fn opcode(inst: Value) -> LLVMOpcode {
    LLVMGetInstructionOpcode(inst)
}

pub unsafe fn is_constant_expr(value: Value) -> bool {
    !LLVMIsAConstantExpr(value).is_null()
}

pub unsafe fn is_phi(inst: Value) -> bool {
    !LLVMIsAPHINode(inst).is_null()
}

/// Marks `load` as reading memory that does not change while the kernel runs.
pub unsafe fn set_invariant_load(context: LLVMContextRef, load: Value) {
    let kind = LLVMGetMDKindIDInContext(
        context,
        c"invariant.load".as_ptr(),
        "invariant.load".len() as u32,
    );
    let empty = LLVMMDNodeInContext2(context, std::ptr::null_mut(), 0);
    LLVMSetMetadata(load, kind, LLVMMetadataAsValue(context, empty));
}

/// Adds `void name(ptr noalias args, i32 ntid_x, i32 ntid_y, i32 ctaid_x, i32 ctaid_y, i32
/// count)`: the function the CPU backend calls for blocks (`loom_simt::ThreadsFn`: the kernel's
/// packed arguments, the block's shape, and a run of blocks), without a body. Nothing the kernel
/// stores through its arrays lands in the parameter slots, so its loops may read the parameters
/// once.
pub unsafe fn add_block_function(
    context: LLVMContextRef,
    module: LLVMModuleRef,
    name: &str,
) -> Value {
    let ptr = LLVMPointerTypeInContext(context, 0);
    let i32t = LLVMInt32TypeInContext(context);
    let mut params = [ptr, i32t, i32t, i32t, i32t, i32t];
    let fn_type = LLVMFunctionType(
        LLVMVoidTypeInContext(context),
        params.as_mut_ptr(),
        params.len() as u32,
        0,
    );
    let function = LLVMAddFunction(module, c_name(name).as_ptr(), fn_type);
    let kind = LLVMGetEnumAttributeKindForName(c"noalias".as_ptr(), "noalias".len());
    LLVMAddAttributeAtIndex(function, 1, LLVMCreateEnumAttribute(context, kind, 0));
    function
}

/// The function attribute that records a block function's fixed shape, `"x,y"`, for the
/// passes that build code from its parameters after [`fix_block_shape`] (`versioning.rs`).
const BLOCK_SHAPE: &str = "loom-block-shape";

/// Makes the block function `name` (see [`add_block_function`]), if the module has it, run for
/// blocks of `ntid_x` by `ntid_y` threads only: its shape parameters become those constants. A
/// kernel that requires its block size (`reqntid`) is launched with no other (`HostProgram::
/// launch`), and its loops over threads then have constant trip counts, which the optimiser uses
/// (no remainder loops, the ranges of the thread ids known).
pub unsafe fn fix_block_shape(module: LLVMModuleRef, name: &str, ntid_x: u32, ntid_y: u32) {
    let function = LLVMGetNamedFunction(module, c_name(name).as_ptr());
    if function.is_null() || LLVMCountParams(function) < 3 {
        return;
    }
    for (index, value) in [(1, ntid_x), (2, ntid_y)] {
        let param = LLVMGetParam(function, index);
        let constant = LLVMConstInt(LLVMTypeOf(param), u64::from(value), 0);
        LLVMReplaceAllUsesWith(param, constant);
    }
    let shape = format!("{ntid_x},{ntid_y}");
    let attribute = LLVMCreateStringAttribute(
        LLVMGetModuleContext(module),
        BLOCK_SHAPE.as_ptr().cast(),
        BLOCK_SHAPE.len() as u32,
        shape.as_ptr().cast(),
        shape.len() as u32,
    );
    LLVMAddAttributeAtIndex(function, LLVMAttributeFunctionIndex, attribute);
}

/// `ntid.x` and `ntid.y` of a block function: the constants [`fix_block_shape`] gave it, else
/// its parameters.
pub unsafe fn block_shape(function: LLVMValueRef) -> (LLVMValueRef, LLVMValueRef) {
    let params = (LLVMGetParam(function, 1), LLVMGetParam(function, 2));
    let attribute = LLVMGetStringAttributeAtIndex(
        function,
        LLVMAttributeFunctionIndex,
        BLOCK_SHAPE.as_ptr().cast(),
        BLOCK_SHAPE.len() as u32,
    );
    if attribute.is_null() {
        return params;
    }
    let mut len = 0;
    let text = LLVMGetStringAttributeValue(attribute, &mut len);
    let text = std::slice::from_raw_parts(text.cast::<u8>(), len as usize);
    let shape = std::str::from_utf8(text)
        .ok()
        .and_then(|t| t.split_once(','));
    let Some((Ok(x), Ok(y))) = shape.map(|(x, y)| (x.parse::<u64>(), y.parse::<u64>())) else {
        return params;
    };
    (
        LLVMConstInt(LLVMTypeOf(params.0), x, 0),
        LLVMConstInt(LLVMTypeOf(params.1), y, 0),
    )
}

pub fn c_name(name: &str) -> CString {
    CString::new(name.replace('\0', "")).unwrap_or_default()
}

/// A raw builder, disposed when dropped.
pub struct Builder(LLVMBuilderRef);

impl Builder {
    pub unsafe fn new(context: LLVMContextRef) -> Builder {
        Builder(LLVMCreateBuilderInContext(context))
    }

    pub fn raw(&self) -> LLVMBuilderRef {
        self.0
    }

    pub unsafe fn before(&self, inst: Value) {
        LLVMPositionBuilderBefore(self.0, inst);
    }

    /// A call of `function` (of type `fn_type`) with `args`.
    pub unsafe fn call(&self, fn_type: LLVMTypeRef, function: Value, args: &mut [Value]) -> Value {
        LLVMBuildCall2(
            self.0,
            fn_type,
            function,
            args.as_mut_ptr(),
            args.len() as u32,
            c"".as_ptr(),
        )
    }
}

impl Drop for Builder {
    fn drop(&mut self) {
        // SAFETY: the builder was created by `new` and is disposed once.
        unsafe { LLVMDisposeBuilder(self.0) }
    }
}

/// Where an instruction that computes an operand of `user` must go: before `user`, or, for a
/// phi's incoming value, before the terminator of the incoming block.
pub unsafe fn insertion_point(user: Value, operand: u32) -> Value {
    if is_phi(user) {
        let block = LLVMGetIncomingBlock(user, operand);
        LLVMGetBasicBlockTerminator(block)
    } else {
        user
    }
}

/// The first instruction of a function's entry block (where per-call values are computed).
pub unsafe fn entry_point(function: Value) -> Value {
    LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(function))
}
