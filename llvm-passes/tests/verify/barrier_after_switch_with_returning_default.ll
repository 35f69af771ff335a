; The twin of barrier_after_switch_with_unreachable_default.ll: the same switch on the thread id,
; but in a block of 8 threads, and its default (threads 4 to 7) returns. Those threads have left
; the kernel when threads 0 to 3 wait at the barrier. Expected: a divergent barrier after a
; divergent early return.
; ERROR: after a divergent early return
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr addrspace(1) %out) {
entry:
  %t = call range(i32 0, 8) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  switch i32 %t, label %early [
    i32 3, label %join
    i32 1, label %join
    i32 0, label %join
    i32 2, label %then
  ]
then:
  %p = getelementptr inbounds float, ptr addrspace(1) %out, i32 %b
  store float 1.0, ptr addrspace(1) %p, align 4
  br label %join
early:
  ret void
join:
  call void @llvm.nvvm.barrier0()
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 8}
