; The annotation names a global variable, not a function: NVPTX would silently ignore it.
; FINDING: `kernel` entry does not name a function
target triple = "nvptx64-nvidia-cuda"

@g = global i32 0

!nvvm.annotations = !{!0}
!0 = !{ptr @g, !"kernel", i32 1}
