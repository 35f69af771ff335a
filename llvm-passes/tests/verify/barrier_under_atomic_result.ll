; `if (atomicAdd(&counter, 1) == 0) __syncthreads();`: an atomic returns a different value to each
; thread. Expected: a divergent barrier.
; ERROR: divergent barrier in `k`
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr addrspace(1) noalias %counter) {
entry:
  %old = atomicrmw add ptr addrspace(1) %counter, i32 1 monotonic
  %c = icmp eq i32 %old, 0
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
