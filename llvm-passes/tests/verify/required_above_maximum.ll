; Exactly 512 threads and at most 128 threads cannot both hold.
; FINDING: reqntidx 512 exceeds maxntidx 128
target triple = "nvptx64-nvidia-cuda"

define void @k() {
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 512, !"maxntidx", i32 128}
