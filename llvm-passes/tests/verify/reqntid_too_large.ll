; No NVIDIA GPU runs blocks of more than 1024 threads, so this kernel could never be launched.
; FINDING: `reqntidx` is 2048, outside 1..=1024
target triple = "nvptx64-nvidia-cuda"

define void @k() {
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 2048}
