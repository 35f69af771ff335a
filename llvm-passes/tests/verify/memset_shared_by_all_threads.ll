; Every thread clears the whole array with `memset(s, 0, 1024)`: the writes of all threads overlap.
; Expected: a write-after-write race.
; ERROR: data race (write-after-write)
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [512 x i32] undef, align 4

define void @k() {
entry:
  call void @llvm.memset.p3.i64(ptr addrspace(3) @s, i8 0, i64 1024, i1 false)
  ret void
}

declare void @llvm.memset.p3.i64(ptr addrspace(3), i8, i64, i1)

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
