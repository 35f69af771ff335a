; Benign: GVN writes `tid` as `0` on the edge where InstCombine's `(tid | ctaid) == 0` holds, so
; `p = phi [0, that edge], [tid, the other]` is `tid` in every thread, and each thread stores its
; own shared slot `s[p]` (the CI slice's seed 1857 had such a phi under its leader test). No
; finding.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [64 x float] undef, align 4

define void @k(float %v) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %both = or i32 %t, %b
  %first = icmp eq i32 %both, 0
  br i1 %first, label %lead, label %join
lead:
  br label %join
join:
  %p = phi i32 [ 0, %lead ], [ %t, %entry ]
  %slot = getelementptr inbounds [64 x float], ptr addrspace(3) @s, i32 0, i32 %p
  store float %v, ptr addrspace(3) %slot, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 64}
