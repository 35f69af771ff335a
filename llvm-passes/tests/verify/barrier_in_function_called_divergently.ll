; A device function that calls __syncthreads(), itself called under `if (threadIdx.x < 16)` (as
; clang leaves it at -O0, without inlining). The verifier's copy inlines the function, so its
; barrier is the kernel's own, under the divergent branch. Expected: a divergent barrier.
; ERROR: divergent barrier in `k`: `call void @llvm.nvvm.barrier0()`
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define internal void @sync() {
  call void @llvm.nvvm.barrier0()
  ret void
}

define void @k() {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp ult i32 %t, 16
  br i1 %c, label %then, label %end
then:
  call void @sync()
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
