; `s[idx[tid]] = x`: the index is loaded from global memory, different in each thread, and nothing
; about it is known. The analysis cannot express the address. Expected: a warning naming the
; store. (All-zero indices would make it a race, but a plain store through loaded indices is a
; scatter, race-free whenever they are a permutation: it is not confirmed with an input, unlike
; the update of shared_bin_from_input_data_plain_increment.ll.)
; WARNING: could not prove race freedom in `k`: `store float 1.000000e+00
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [512 x float] undef, align 4

define void @k(ptr addrspace(1) noalias %idx) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %g = getelementptr inbounds i32, ptr addrspace(1) %idx, i64 %i
  %x = load i32, ptr addrspace(1) %g, align 4
  %j = sext i32 %x to i64
  %p = getelementptr inbounds float, ptr addrspace(3) @s, i64 %j
  store float 1.0, ptr addrspace(3) %p, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
