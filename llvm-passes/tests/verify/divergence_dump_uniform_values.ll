; The divergence analysis, printed: block ids, block dimensions and parameters are uniform, so
; nothing but the thread-id read and what depends on it is listed. No finding.
; CHECK: kernel @k
; CHECK-NOT: %base
; CHECK-NOT: %lim
; CHECK: divergent %t = call
; CHECK-NEXT: divergent %g = add i32 %base, %t
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

define void @k(i32 %n, ptr addrspace(1) noalias %out) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %d = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %b, %d
  %lim = add i32 %base, %n
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %g = add i32 %base, %t
  %i = zext i32 %g to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %i
  store i32 %lim, ptr addrspace(1) %p, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
