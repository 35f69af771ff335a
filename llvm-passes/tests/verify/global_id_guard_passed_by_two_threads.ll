; Bug twin of global_thread_id_guard_clang_O2.ll: the guard is `2·blockIdx.x + tid / 2 == 7`,
; which threads 2 and 3 of block 3 both pass, and both store `p[0]`. The guard fixes the block
; id (3) for each thread; the two values agree, so the race is proven, with that block id.
; ERROR: data race (write-after-write) on `%p` in `k`
; OPTIONS: block-size=4
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr %p) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %half = lshr i32 %n, 1
  %bn = mul i32 %b, %half
  %th = lshr i32 %t, 1
  %g = add i32 %bn, %th
  %hit = icmp eq i32 %g, 7
  br i1 %hit, label %store, label %exit
store:
  store i32 %t, ptr %p, align 4
  br label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
