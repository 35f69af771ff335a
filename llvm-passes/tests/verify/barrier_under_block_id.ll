; Benign twin: `if (blockIdx.x == 0) __syncthreads();`. Block ids are the same for every thread of
; a block, so either all threads of a block arrive or none do. No finding.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k() {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %c = icmp eq i32 %b, 0
  br i1 %c, label %then, label %end
then:
  call void @llvm.nvvm.barrier0()
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
