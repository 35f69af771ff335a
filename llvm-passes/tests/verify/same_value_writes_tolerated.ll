; The same program as all_threads_write_same_value_strict, verified with the option that tolerates
; stores of one uniform value to one location. No finding.
; OPTIONS: tolerate-same-value-writes
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
