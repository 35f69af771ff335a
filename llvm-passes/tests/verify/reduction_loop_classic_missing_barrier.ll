; The classic reduction loop without its barrier: step d's writes of s[tid] race with step d/2's
; reads of s[tid + d/2] in other threads. The stride changes every iteration of a barrier-free
; loop, not affinely, but it halves from a constant until it is 0: the analysis tries each of its
; values (128, ..., 1) for each thread (this was once only a warning). Thread 1 writes s[1] with
; d = 2 while thread 0 reads it with d = 1.
; ERROR: data race (write-after-read) on `s` in `k`: thread 0 reads byte 4 in `%b = load i32, ptr addrspace(3) %q, align 4`, thread 1 writes byte 4 in `store i32 %sum, ptr addrspace(3) %p, align 4` (when %d on thread 0 = 1, %d on thread 1 = 2)
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [512 x i32] undef, align 4

define void @k() {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr addrspace(3) @s, i64 %i
  store i32 1, ptr addrspace(3) %p, align 4
  call void @llvm.nvvm.barrier0()
  br label %header
header:
  %d = phi i32 [ 128, %entry ], [ %d.next, %latch ]
  %active = icmp ult i32 %t, %d
  br i1 %active, label %add, label %latch
add:
  %o = add i32 %t, %d
  %o64 = zext i32 %o to i64
  %q = getelementptr inbounds i32, ptr addrspace(3) @s, i64 %o64
  %a = load i32, ptr addrspace(3) %p, align 4
  %b = load i32, ptr addrspace(3) %q, align 4
  %sum = add i32 %a, %b
  store i32 %sum, ptr addrspace(3) %p, align 4
  br label %latch
latch:
  %d.next = lshr i32 %d, 1
  %more = icmp ne i32 %d.next, 0
  br i1 %more, label %header, label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
