; Benign twin: `for (i = 0; i < n; i++) __syncthreads();` with a parameter `n`: every thread runs
; the loop the same number of times. No finding.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(i32 %n) {
entry:
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %end
body:
  call void @llvm.nvvm.barrier0()
  %next = add i32 %i, 1
  br label %header
end:
  ret void
}

declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
