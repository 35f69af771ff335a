; The same loop as loop_bounded_own_range but with `i < 5`: thread t's last element, s[4t + 4], is
; thread t + 1's first. Expected: a write-after-write race.
; ERROR: data race (write-after-write) on `s`
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [512 x float] undef, align 4

define void @k() {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = shl i32 %t, 2
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %more = icmp slt i32 %i, 5
  br i1 %more, label %body, label %end
body:
  %idx = add i32 %base, %i
  %w = sext i32 %idx to i64
  %p = getelementptr inbounds float, ptr addrspace(3) @s, i64 %w
  store float 3.0, ptr addrspace(3) %p, align 4
  %i.next = add nsw i32 %i, 1
  br label %header
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 100}
