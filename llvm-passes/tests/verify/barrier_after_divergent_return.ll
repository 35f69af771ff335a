; Barrier after a divergent early return: `if (threadIdx.x < 16) return; __syncthreads();`.
; Threads 0..15 have left the kernel when the others wait at the barrier. Expected: a divergent
; barrier after a divergent early return; thread 16 reaches it, thread 0 does not.
; ERROR: after a divergent early return
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k() {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp ult i32 %t, 16
  br i1 %c, label %early, label %rest
early:
  ret void
rest:
  call void @llvm.nvvm.barrier0()
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
