; A kernel cannot return a value: there is nobody to receive it.
; FINDING: kernel `k` must return void
target triple = "nvptx64-nvidia-cuda"

define i32 @k() {
  ret i32 0
}

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
