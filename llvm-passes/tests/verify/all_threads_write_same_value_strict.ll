; All threads write the same constant to s[0]. By the memory model this is still a race, and the
; verifier is strict by default. Expected: a write-after-write race.
; ERROR: data race (write-after-write)
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [512 x i32] undef, align 4

define void @k() {
entry:
  store i32 7, ptr addrspace(3) @s, align 4
  ret void
}


!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
