; Bug twin of barrier_under_phi_of_recomputed_value.ll: the two sides of the divergent branch
; compute different values (blockIdx.x * 31 and blockIdx.x * 32), so the phi differs between
; threads and the barrier under a branch on it may be reached by some of them only.
; ERROR: divergent barrier in `k`
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr addrspace(1) noalias %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %low = icmp ult i32 %t, 16
  br i1 %low, label %left, label %right
left:
  %bl = zext i32 %b to i64
  %rl = mul nuw nsw i64 %bl, 31
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %t
  store i32 1, ptr addrspace(1) %p, align 4
  br label %join
right:
  %br = zext i32 %b to i64
  %rr = mul nuw nsw i64 %br, 32
  br label %join
join:
  %row = phi i64 [ %rl, %left ], [ %rr, %right ]
  %c = icmp eq i64 %row, 62
  br i1 %c, label %then, label %end
then:
  call void @llvm.nvvm.barrier0()
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
