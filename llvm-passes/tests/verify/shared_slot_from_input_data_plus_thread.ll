; `s[(data[tid] & 127) + tid] += 1`: with every element of `data` 0 each thread updates its own
; `s[tid]`, so that input gives no race; other inputs do (`data[0] = 1`, `data[1] = 0`: both
; update `s[1]`). An input without a race proves nothing: the pair test leaves the accesses
; undecided (warnings). Running block 0 on a descending input (races/simulate.rs) finds one:
; `data[0] = 1000000` and `data[1] = 999999` put threads 0 and 1 on `s[64]`.
; ERROR: data race (read-after-write) on `s`
; WARNING: could not prove race freedom
; WARNING: could not prove race freedom
; OPTIONS: block-size=64 single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [256 x i32] undef, align 4

define void @k(ptr addrspace(1) noalias %data) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr inbounds i32, ptr addrspace(1) %data, i32 %t
  %v = load i32, ptr addrspace(1) %p, align 4
  %small = and i32 %v, 127
  %i = add i32 %small, %t
  %q = getelementptr inbounds [256 x i32], ptr addrspace(3) @s, i32 0, i32 %i
  %old = load i32, ptr addrspace(3) %q, align 4
  %new = add i32 %old, 1
  store i32 %new, ptr addrspace(3) %q, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 64}
