; A global-memory pointer loaded from a table (`ptr addrspace(1)`), and a store through one of
; two parameters chosen by a parameter: which array either touches is unknown, so each store is
; a warning naming it (such accesses were once not tracked at all, and never reported).
; WARNING: `store i32 %t, ptr addrspace(1) %p, align 4` (cannot tell which array of global memory
; WARNING: `store i32 %t, ptr addrspace(1) %q, align 4` (cannot tell which array of global memory
; OPTIONS: block-size=32
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr addrspace(1) %table, ptr addrspace(1) %a, ptr addrspace(1) %b, i1 %which) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = load ptr addrspace(1), ptr addrspace(1) %table, align 8
  %p = getelementptr inbounds i32, ptr addrspace(1) %base, i32 %t
  store i32 %t, ptr addrspace(1) %p, align 4
  %either = select i1 %which, ptr addrspace(1) %a, ptr addrspace(1) %b
  %q = getelementptr inbounds i32, ptr addrspace(1) %either, i32 %t
  store i32 %t, ptr addrspace(1) %q, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
