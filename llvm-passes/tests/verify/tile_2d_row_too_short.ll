; A 2-D tile indexed `s[ty * 8 + tx]` in a 16x16 block: rows of 8 elements for 16 threads per row,
; so thread (8, 0) and thread (0, 1) both write s[8]. Expected: a write-after-write race.
; ERROR: data race (write-after-write) on `s`
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [512 x float] undef, align 4

define void @k() {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %y = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %row = shl i32 %y, 3
  %idx = add i32 %row, %x
  %i = zext i32 %idx to i64
  %p = getelementptr inbounds float, ptr addrspace(3) @s, i64 %i
  store float 2.0, ptr addrspace(3) %p, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 16, !"reqntidy", i32 16}
