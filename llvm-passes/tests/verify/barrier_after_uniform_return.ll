; Benign twin: `if (n == 0) return; __syncthreads();` returns early in every thread of the block or
; in none. No finding.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(i32 %n) {
entry:
  %c = icmp eq i32 %n, 0
  br i1 %c, label %early, label %rest
early:
  ret void
rest:
  call void @llvm.nvvm.barrier0()
  ret void
}

declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
