; `if (asm("mov.u32 $0, %tid.x;") == 0) __syncthreads();`: inline assembly that names a special
; register is not a function of its operands; the barrier may not be reached by every thread.
; Expected: the warning that convergence could not be proven (the analysis does not read PTX).
; WARNING: could not prove that every thread reaches the barrier
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k() {
entry:
  %t = call i32 asm "mov.u32 $0, %tid.x;", "=r"()
  %c = icmp eq i32 %t, 0
  br i1 %c, label %then, label %end
then:
  call void @llvm.nvvm.barrier0()
  br label %end
end:
  ret void
}

declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
