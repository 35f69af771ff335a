; Bug twin of phi_of_tid_and_zero_under_an_or_test.ll: the test is `(tid & ctaid) == 0`, which
; holds in threads other than 0 (all of them in block 0), so they too store `s[0]`: the phi is not
; `tid`, and the stores are not proven free of races (E0852). Running block 0
; (races/simulate.rs) shows the race: every thread of it stores `s[0]` (the same `%v`: still a
; race under the strict default).
; ERROR: data race (write-after-write) on `s`
; WARNING: could not prove race freedom in `k`
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [64 x float] undef, align 4

define void @k(float %v) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %both = and i32 %t, %b
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
