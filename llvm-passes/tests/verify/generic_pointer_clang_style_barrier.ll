; Benign twin of generic_pointer_clang_style with the barrier `__syncthreads()` between the write
; and the reversed read. The generic pointer `%out` is a kernel parameter: global memory, not
; checked. No finding.
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [256 x float] undef, align 4

define void @k(ptr %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @s to ptr), i64 0, i64 %i
  store float 1.0, ptr %p, align 4
  call void @llvm.nvvm.barrier0()
  %r = sub nsw i32 255, %t
  %j = sext i32 %r to i64
  %q = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @s to ptr), i64 0, i64 %j
  %v = load float, ptr %q, align 4
  %o = getelementptr inbounds float, ptr %out, i64 %i
  store float %v, ptr %o, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
