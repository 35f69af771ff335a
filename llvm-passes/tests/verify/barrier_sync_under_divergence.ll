; `barrier.sync 0` (what `__syncthreads()` becomes in newer clang) under `if (threadIdx.x >= 128)`.
; Expected: a divergent barrier.
; ERROR: divergent barrier in `k`
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k() {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp uge i32 %t, 128
  br i1 %c, label %then, label %end
then:
  call void @llvm.nvvm.barrier.sync(i32 0)
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.sync(i32)

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
