; Benign: every thread does `atomicAdd(&s[0], 1)`. Atomics to one location do not race with each
; other. No finding.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [512 x i32] undef, align 4

define void @k() {
entry:
  %old = atomicrmw add ptr addrspace(3) @s, i32 1 monotonic
  ret void
}


!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
