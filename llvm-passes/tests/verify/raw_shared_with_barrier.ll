; Benign twin of raw_shared_no_barrier: a barrier between the write of s[tid] and the read of
; s[tid + 1] orders them. No finding; the dump shows two intervals.
; CHECK: interval 0 at entry: %entry
; CHECK: interval 1 after call void @llvm.nvvm.barrier0(): %entry.1
; CHECK: access write @s by 256 threads: store float 1.000000e+00
; CHECK: access read @s by 256 threads
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
  %p = getelementptr inbounds [512 x float], ptr addrspace(3) @s, i64 0, i64 %i
  store float 1.0, ptr addrspace(3) %p, align 4
  call void @llvm.nvvm.barrier0()
  %j = add nuw nsw i64 %i, 1
  %q = getelementptr inbounds [512 x float], ptr addrspace(3) @s, i64 0, i64 %j
  %v = load float, ptr addrspace(3) %q, align 4
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %i
  store float %v, ptr addrspace(1) %o, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
