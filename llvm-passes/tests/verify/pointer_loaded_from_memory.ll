; A generic pointer loaded from memory may point into shared memory, and which variable is not
; known. Expected: a warning on the store through it.
; WARNING: could not prove race freedom in `k`
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr addrspace(1) noalias %table) {
entry:
  %ptr = load ptr, ptr addrspace(1) %table, align 8
  store float 1.0, ptr %ptr, align 4
  ret void
}


!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
