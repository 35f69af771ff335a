; Divergence through control dependence: `x = (threadIdx.x < 16) ? p : q` written as a branch and
; a phi, with kernel parameters p and q; then `if (x) __syncthreads();`. The phi merges values
; chosen by a divergent branch, so it is divergent although both incoming values are uniform.
; Expected: a divergent barrier; the dump shows the phi as divergent.
; ERROR: divergent barrier in `k`
; CHECK: divergent %x = phi i32 [ %p, %a ], [ %q, %b ]
; CHECK: branch divergent in %merge
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(i32 %p, i32 %q) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp ult i32 %t, 16
  br i1 %c, label %a, label %b
a:
  br label %merge
b:
  br label %merge
merge:
  %x = phi i32 [ %p, %a ], [ %q, %b ]
  %d = icmp ne i32 %x, 0
  br i1 %d, label %then, label %end
then:
  call void @llvm.nvvm.barrier0()
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
