; No reqntid, no option, and the kernel reads threadIdx.y: threads cannot be enumerated. The GCD
; and bounds test cannot rule out that `s[ty * 16 + tx]` is written by two threads (it is, if the
; block is wider than 16). Expected: a warning that asks for the block size.
; WARNING: the block size is unknown
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [512 x float] undef, align 4

define void @k() {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %y = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %row = shl i32 %y, 4
  %idx = add i32 %row, %x
  %i = zext i32 %idx to i64
  %p = getelementptr inbounds float, ptr addrspace(3) @s, i64 %i
  store float 2.0, ptr addrspace(3) %p, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
