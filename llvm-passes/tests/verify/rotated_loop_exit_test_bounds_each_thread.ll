; Benign: the shape LLVM's loop peeling and rotation give a distributed statement over a row of 91
; elements in a block of 16 threads (fuzz seed 16016049300 of issue 16): the first iteration,
; peeled, stores element (k + 75) % 91 = tid + 75; the loop stores element i - 16 for
; i = tid + 16, tid + 32, ..., and tests i < 75 at its latch, after the store. Thread 0 goes
; round five times (i up to 80, element 64); thread 11 four times (i up to 75, element 59): its
; own exit test stops it before i = 91, which would store thread 0's element 75. The iteration
; count's bound is the largest over the threads (thread 0's), so without the exit test read for
; each thread's own counter (every value below 75 + 16) the verifier paired thread 11 at i = 91
; with thread 0's peeled store (E0851 on loomc's output). No finding.
; CHECK: access write %out by 16 threads: store i64 1, ptr addrspace(1) %peeled
; CHECK: access write %out by 16 threads: store i64 2, ptr addrspace(1) %p
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr addrspace(1) %out) {
entry:
  %t = call range(i32 0, 16) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext nneg i32 %t to i64
  %pt = getelementptr inbounds i64, ptr addrspace(1) %out, i64 %t64
  %peeled = getelementptr inbounds i8, ptr addrspace(1) %pt, i64 600
  store i64 1, ptr addrspace(1) %peeled, align 8
  %first = or disjoint i32 %t, 16
  %base = getelementptr i8, ptr addrspace(1) %out, i64 -128
  br label %loop
loop:
  %i = phi i32 [ %first, %entry ], [ %next, %loop ]
  %i64 = zext nneg i32 %i to i64
  %p = getelementptr i64, ptr addrspace(1) %base, i64 %i64
  store i64 2, ptr addrspace(1) %p, align 8
  %next = add nuw nsw i32 %i, 16
  %more = icmp ult i32 %i, 75
  br i1 %more, label %loop, label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 16}
