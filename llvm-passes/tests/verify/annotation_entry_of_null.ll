; An annotation entry whose first operand is `null`: it names no function, which is a finding
; like any other malformed entry (the reader once crashed on the null operand). The kernel the
; other entry names is still fine, but a module with a structural problem is not analysed.
; FINDING: `kernel` entry does not name a function
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k() {
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{null, !"kernel", i32 1}
!1 = !{ptr @k, !"kernel", i32 1}
