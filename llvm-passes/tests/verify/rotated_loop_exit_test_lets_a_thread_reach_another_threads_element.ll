; The twin of rotated_loop_exit_test_bounds_each_thread.ll with the latch test i < 76: thread 11
; goes round once more (75 < 76), to i = 91, and stores element 75, which thread 0 stores in the
; peeled first iteration. Expected: a race between threads 0 and 11.
; ERROR: data race
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
  %more = icmp ult i32 %i, 76
  br i1 %more, label %loop, label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 16}
