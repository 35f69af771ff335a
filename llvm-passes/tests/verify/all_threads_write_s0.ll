; All threads write s[0] with their own thread id: a write-after-write race (the result depends on
; the order). Expected: a write-after-write race between threads 0 and 1.
; ERROR: data race (write-after-write) on `s` in `k`: thread 0 writes byte 0
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [512 x i32] undef, align 4

define void @k() {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %t, ptr addrspace(3) @s, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
