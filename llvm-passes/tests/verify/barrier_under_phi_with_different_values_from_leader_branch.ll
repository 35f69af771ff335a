; Bug twin of barrier_under_phi_with_edge_from_uniform_arm.ll: thread 0's edge into the join
; carries a different value (`%u + 1`), so thread 0 and the others leave the `then` arm with
; different values of the phi, and the barrier under a branch on it may be reached by some
; threads only.
; ERROR: divergent barrier in `k`
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(i32 %u, i32 %v, i1 %c, ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %leader = icmp eq i32 %t, 0
  br i1 %c, label %then, label %else
then:
  br i1 %leader, label %store, label %join
store:
  store i32 %u, ptr addrspace(1) %out, align 4
  %u1 = add i32 %u, 1
  br label %join
else:
  br label %join
join:
  %w = phi i32 [ %u1, %store ], [ %u, %then ], [ %v, %else ]
  %big = icmp sgt i32 %w, 0
  br i1 %big, label %sync, label %end
sync:
  call void @llvm.nvvm.barrier0()
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 128}
