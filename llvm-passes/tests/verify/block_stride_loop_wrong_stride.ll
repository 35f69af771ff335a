; A block-stride loop with the wrong stride: `for (k = tid; k < n; k += 128)` in a block of 256
; threads. Thread 128 writes s[128] in its first iteration, thread 0 in its second. Expected: a
; write-after-write race (for n large enough, which the parameter allows).
; ERROR: data race (write-after-write) on `s`
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [512 x float] undef, align 4

define void @k(i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %header
header:
  %k = phi i32 [ %t, %entry ], [ %k.next, %body ]
  %more = icmp slt i32 %k, %n
  br i1 %more, label %body, label %end
body:
  %i = sext i32 %k to i64
  %p = getelementptr inbounds float, ptr addrspace(3) @s, i64 %i
  store float 3.0, ptr addrspace(3) %p, align 4
  %k.next = add nsw i32 %k, 128
  br label %header
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
