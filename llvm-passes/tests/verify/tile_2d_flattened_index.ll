; Benign 2-D tile with a hand-flattened index `s[ty * 16 + tx]` in a 16x16 block, written then
; read by the same thread. No finding.
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
  %v = load float, ptr addrspace(3) %p, align 4
  %w = fadd float %v, 1.0
  store float %w, ptr addrspace(3) %p, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 16, !"reqntidy", i32 16}
