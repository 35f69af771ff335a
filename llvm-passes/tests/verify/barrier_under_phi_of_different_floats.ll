; Bug twin of barrier_under_phi_of_recomputed_float.ll: one side converts the thread id, not
; the block id, so the phi differs between threads and the barrier under a branch on it may be
; reached by some threads only.
; ERROR: divergent barrier in `k`
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr addrspace(1) noalias %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %low = icmp ult i32 %t, 7
  br i1 %low, label %left, label %right
left:
  %bl = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %fl = uitofp i32 %bl to double
  %p = getelementptr inbounds double, ptr addrspace(1) %out, i32 %t
  store double %fl, ptr addrspace(1) %p, align 8
  br label %join
right:
  %fr = uitofp i32 %t to double
  br label %join
join:
  %row = phi double [ %fl, %left ], [ %fr, %right ]
  %c = fcmp ogt double %row, 1.5
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
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 32}
