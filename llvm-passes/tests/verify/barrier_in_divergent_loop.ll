; Barrier in a loop with a thread-dependent trip count: `for (i = 0; i < threadIdx.x; i++)
; __syncthreads();`. Thread 0 never arrives, thread 5 arrives five times. Expected: a divergent
; barrier in a loop with a thread-dependent trip count.
; ERROR: divergent barrier in `k`: `call void @llvm.nvvm.barrier0()` in a loop with a thread-dependent trip count
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k() {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %more = icmp ult i32 %i, %t
  br i1 %more, label %body, label %end
body:
  call void @llvm.nvvm.barrier0()
  %next = add i32 %i, 1
  br label %header
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
