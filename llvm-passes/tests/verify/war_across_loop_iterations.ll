; Write-after-read across loop iterations: `for (i = 0; i < n; i++) { v = s[tid + 1]; barrier;
; s[tid] = v; }`. The barrier orders the read before the write of the same iteration, but nothing
; orders the write of iteration i (thread 1 writes s[1]) after the read of iteration i + 1
; (thread 0 reads s[1]): the interval that starts at the barrier wraps around the back edge.
; Expected: a race between the store and the load.
; ERROR: data race
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [512 x float] undef, align 4

define void @k(i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i64 = zext i32 %t to i64
  %next.index = add nuw nsw i64 %i64, 1
  %mine = getelementptr inbounds [512 x float], ptr addrspace(3) @s, i64 0, i64 %i64
  %theirs = getelementptr inbounds [512 x float], ptr addrspace(3) @s, i64 0, i64 %next.index
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %end
body:
  %v = load float, ptr addrspace(3) %theirs, align 4
  call void @llvm.nvvm.barrier0()
  store float %v, ptr addrspace(3) %mine, align 4
  %i.next = add nsw i32 %i, 1
  br label %header
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
