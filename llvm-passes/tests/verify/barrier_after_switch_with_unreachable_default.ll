; Benign: the shape SimplifyCFG gives the divergent steps of a scan in a block of 4 threads (the
; canonical copy of loomc's -O0 output, fuzz finding of issue 16): a chain of branches on the
; thread id becomes a `switch` whose cases cover every thread id `range(i32 0, 4)` allows, and
; its default goes to a block that holds only `unreachable`. Reaching `unreachable` is undefined
; behaviour, so no thread takes that edge: the threads part at the switch and meet again at
; %join, before the barrier, which every thread reaches. The dead default must not count as a
; way out of the kernel (it made the switch's post-dominator the virtual exit and the barrier
; "controlled" by it: E0850, "some threads may already have returned"). No finding.
; CHECK: branch divergent in %entry: switch
; CHECK-SAME: controls %then{{$}}
; CHECK: interval 1 after call void @llvm.nvvm.barrier0(): %join.1
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr addrspace(1) %out) {
entry:
  %t = call range(i32 0, 4) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  switch i32 %t, label %dead [
    i32 3, label %join
    i32 1, label %join
    i32 0, label %join
    i32 2, label %then
  ]
then:
  %p = getelementptr inbounds float, ptr addrspace(1) %out, i32 %b
  store float 1.0, ptr addrspace(1) %p, align 4
  br label %join
dead:
  unreachable
join:
  call void @llvm.nvvm.barrier0()
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 4}
