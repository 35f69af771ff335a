; `!"texture"` (and `surface`, `sampler`, `managed`) entries annotate global variables, not
; functions: they are NVPTX's business and no problem. The kernel beside them is still verified:
; every thread writes `s[0]`, a race, which shows the kernel was analysed.
; ERROR: data race (write-after-write) on `s` in `k`
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tex = addrspace(1) externally_initialized global i64 0, align 8
@surf = addrspace(1) externally_initialized global i64 0, align 8
@s = internal addrspace(3) global [32 x i32] undef, align 4

define void @k() {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %t, ptr addrspace(3) @s, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr addrspace(1) @tex, !"texture", i32 1}
!1 = !{ptr addrspace(1) @surf, !"surface", i32 1}
!2 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 32}
