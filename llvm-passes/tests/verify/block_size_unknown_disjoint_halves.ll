; No block size and a 2-D thread index: threads cannot be enumerated, and the GCD and bounds test
; works alone. It proves the read of `s[2 * (ty * 16 + tx) + 1]` disjoint from the write of
; `s[2 * (ty * 16 + tx)]` in every block (an odd element is never an even one), but whether two
; threads write the same even element depends on the block's width. Expected: one warning, about
; the store against itself, that asks for the block size; none about the load.
; WARNING: could not prove race freedom in `k`: `store i32 %v, ptr addrspace(3) %p, align 4` (the block size is unknown
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [8192 x i32] undef, align 4

define void @k(ptr addrspace(1) noalias %out) {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %y = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %row = shl i32 %y, 4
  %idx = add i32 %row, %x
  %i = zext i32 %idx to i64
  %e = shl i64 %i, 1
  %o = add i64 %e, 1
  %p = getelementptr inbounds i32, ptr addrspace(3) @s, i64 %e
  %q = getelementptr inbounds i32, ptr addrspace(3) @s, i64 %o
  %v = load i32, ptr addrspace(3) %q, align 4
  store i32 %v, ptr addrspace(3) %p, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
