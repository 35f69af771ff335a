; Bug: the twin of barrier_after_uniform_test_jump_threaded_into_divergent_arm.ll whose divergent
; arm leaves for the end when `%inside` holds, where the other threads go on to the barrier: with
; `%inside` true, threads 0-32 skip the barrier and threads 33-63 wait at it. The uniform test
; decides the way differently on the two sides of the divergent branch, so the barrier is
; divergent.
; ERROR: divergent barrier in `k`
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr addrspace(1) noalias %y, ptr addrspace(1) noalias %out) {
entry:
  %nb = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %inside = icmp ult i32 %b, %nb
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %valid = icmp ult i32 %t, 33
  br i1 %valid, label %arm, label %after
arm:
  br i1 %inside, label %end, label %store
store:
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %t
  store i32 1, ptr addrspace(1) %p, align 4
  br label %after
after:
  br i1 %inside, label %sync, label %end
sync:
  call void @llvm.nvvm.barrier0()
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 64}
