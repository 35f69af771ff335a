; A well-formed kernel with exact launch bounds: no finding.
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr addrspace(1) %out) {
  store i32 1, ptr addrspace(1) %out
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @k, !"kernel", i32 1}
!1 = !{ptr @k, !"reqntidx", i32 256, !"maxntidx", i32 256}
