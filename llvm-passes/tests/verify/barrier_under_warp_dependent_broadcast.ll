; Bug twin of barrier_under_block_reduction_broadcast.ll: each warp reads its *own* partial (slot
; warp), so the broadcast differs from warp to warp and `if (r > 5) __syncthreads();` may be
; reached by some warps only.
; ERROR: divergent barrier in `k`
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@partials = internal addrspace(3) global [8 x i32] undef, align 4

define void @k(ptr addrspace(1) noalias %x) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = and i32 %t, 31
  %warp = lshr i32 %t, 5
  %xp = getelementptr inbounds i32, ptr addrspace(1) %x, i32 %t
  %v = load i32, ptr addrspace(1) %xp, align 4
  %first = icmp eq i32 %lane, 0
  br i1 %first, label %write, label %written
write:
  %mine = getelementptr inbounds [8 x i32], ptr addrspace(3) @partials, i32 0, i32 %warp
  store i32 %v, ptr addrspace(3) %mine, align 4
  br label %written
written:
  call void @llvm.nvvm.barrier0()
  %slot = and i32 %warp, 7
  %theirs = getelementptr inbounds [8 x i32], ptr addrspace(3) @partials, i32 0, i32 %slot
  %p = load i32, ptr addrspace(3) %theirs, align 4
  %down = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %p, i32 1, i32 31)
  %sum = add i32 %p, %down
  %r = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %sum, i32 0, i32 31)
  %c = icmp sgt i32 %r, 5
  br i1 %c, label %then, label %end
then:
  call void @llvm.nvvm.barrier0()
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
