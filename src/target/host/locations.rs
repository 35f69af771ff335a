//! The location table: every instruction the lowering hands to the runtime (a barrier, a
//! collective, a checked access) gets an id, passed as the call's last argument, that the
//! runtime's reports turn back into a source location.

use super::ir;
use inkwell::llvm_sys::core::{
    LLVMGetBasicBlockParent, LLVMGetDebugLocColumn, LLVMGetDebugLocFilename, LLVMGetDebugLocLine,
    LLVMGetInstructionParent,
};
use loom_simt::SourceLocation;

#[derive(Default)]
pub struct Locations {
    table: Vec<SourceLocation>,
}

impl Locations {
    /// The id of `inst`'s location: its debug location if it has one, else its function and text.
    ///
    /// # Safety
    /// `inst` must be an instruction of a live module.
    pub unsafe fn add(&mut self, inst: ir::Value) -> u32 {
        let function = ir::name(LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst)));
        let line = LLVMGetDebugLocLine(inst);
        let location = if line != 0 {
            let mut len = 0u32;
            let file = LLVMGetDebugLocFilename(inst, &mut len);
            let file = if file.is_null() {
                String::new()
            } else {
                let bytes = std::slice::from_raw_parts(file as *const u8, len as usize);
                String::from_utf8_lossy(bytes).into_owned()
            };
            SourceLocation {
                function,
                file,
                line,
                column: LLVMGetDebugLocColumn(inst),
                instruction: String::new(),
            }
        } else {
            SourceLocation {
                function,
                instruction: ir::text(inst),
                ..SourceLocation::default()
            }
        };
        self.table.push(location);
        (self.table.len() - 1) as u32
    }

    pub fn into_table(self) -> Vec<SourceLocation> {
        self.table
    }
}
