//! The LLVM targets that LOOM links: NVPTX (its output) and X86 (the CPU backend's JIT), and
//! nothing else.
//!
//! inkwell refers to llvm-sys's C wrappers `LLVM_InitializeAll*` and `LLVM_InitializeNative*`
//! (its `Target::initialize_all` and `initialize_native`, and the JIT engine calls the latter).
//! llvm-sys's own wrappers name every target LLVM was built with, so linking them pulls AMDGPU,
//! ARM, RISC-V and a dozen more into every LOOM binary, and their static initializers into every
//! start of the process (a third of all of them). LOOM builds llvm-sys with
//! `disable-alltargets-init` and defines the wrappers here instead, over the two targets it uses;
//! they live in this crate because every LOOM binary and test that links inkwell links it.

use llvm_sys::target::*;

/// `LLVM_InitializeAllTargetInfos`: the linked targets' descriptions.
#[no_mangle]
pub extern "C" fn LLVM_InitializeAllTargetInfos() {
    // SAFETY: LLVM's registration functions take no arguments and may run more than once.
    unsafe {
        LLVMInitializeNVPTXTargetInfo();
        LLVMInitializeX86TargetInfo();
    }
}

#[no_mangle]
pub extern "C" fn LLVM_InitializeAllTargets() {
    // SAFETY: as above.
    unsafe {
        LLVMInitializeNVPTXTarget();
        LLVMInitializeX86Target();
    }
}

#[no_mangle]
pub extern "C" fn LLVM_InitializeAllTargetMCs() {
    // SAFETY: as above.
    unsafe {
        LLVMInitializeNVPTXTargetMC();
        LLVMInitializeX86TargetMC();
    }
}

#[no_mangle]
pub extern "C" fn LLVM_InitializeAllAsmPrinters() {
    // SAFETY: as above.
    unsafe {
        LLVMInitializeNVPTXAsmPrinter();
        LLVMInitializeX86AsmPrinter();
    }
}

/// NVPTX has no assembly parser: only X86's.
#[no_mangle]
pub extern "C" fn LLVM_InitializeAllAsmParsers() {
    // SAFETY: as above.
    unsafe { LLVMInitializeX86AsmParser() }
}

/// NVPTX has no disassembler: only X86's.
#[no_mangle]
pub extern "C" fn LLVM_InitializeAllDisassemblers() {
    // SAFETY: as above.
    unsafe { LLVMInitializeX86Disassembler() }
}

/// `LLVM_InitializeNativeTarget` (true on failure, as in llvm-c): the host is X86-64, the only
/// host LOOM builds for (`scripts/setup`, the Dockerfile).
#[no_mangle]
pub extern "C" fn LLVM_InitializeNativeTarget() -> llvm_sys::prelude::LLVMBool {
    // SAFETY: as above.
    unsafe {
        LLVMInitializeX86TargetInfo();
        LLVMInitializeX86Target();
        LLVMInitializeX86TargetMC();
    }
    0
}

#[no_mangle]
pub extern "C" fn LLVM_InitializeNativeAsmParser() -> llvm_sys::prelude::LLVMBool {
    // SAFETY: as above.
    unsafe { LLVMInitializeX86AsmParser() };
    0
}

#[no_mangle]
pub extern "C" fn LLVM_InitializeNativeAsmPrinter() -> llvm_sys::prelude::LLVMBool {
    // SAFETY: as above.
    unsafe { LLVMInitializeX86AsmPrinter() };
    0
}

#[no_mangle]
pub extern "C" fn LLVM_InitializeNativeDisassembler() -> llvm_sys::prelude::LLVMBool {
    // SAFETY: as above.
    unsafe { LLVMInitializeX86Disassembler() };
    0
}
