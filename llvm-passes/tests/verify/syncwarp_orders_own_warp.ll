; Benign: `s[tid] = x; __syncwarp(); y = s[tid ^ 1];`. The partner tid ^ 1 is in the same warp,
; and __syncwarp orders the accesses of a warp's threads. No finding.
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [512 x float] undef, align 4

define void @k(ptr addrspace(1) noalias %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds float, ptr addrspace(3) @s, i64 %i
  store float 1.0, ptr addrspace(3) %p, align 4
  call void @llvm.nvvm.bar.warp.sync(i32 -1)
  %x = xor i32 %t, 1
  %j = zext i32 %x to i64
  %q = getelementptr inbounds float, ptr addrspace(3) @s, i64 %j
  %v = load float, ptr addrspace(3) %q, align 4
  %out.slot1 = getelementptr inbounds float, ptr addrspace(1) %out, i32 %t
  store float %v, ptr addrspace(1) %out.slot1, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.bar.warp.sync(i32)

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
