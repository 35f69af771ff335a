; `if (opaque()) __syncthreads();` where `opaque` is an external function: its result may or may
; not differ between threads. Expected: a warning that the convergence could not be proven, not an
; error.
; WARNING: could not prove that every thread reaches the barrier
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k() {
entry:
  %v = call i32 @opaque()
  %c = icmp ne i32 %v, 0
  br i1 %c, label %then, label %end
then:
  call void @llvm.nvvm.barrier0()
  br label %end
end:
  ret void
}

declare void @llvm.nvvm.barrier0()
declare i32 @opaque()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
