; Benign: as barrier_under_phi_of_recomputed_value.ll, with a float: GVN leaves
; `uitofp(blockIdx.x)` computed on both sides of a divergent branch (`tid < 7`) and merged by a
; phi. Float conversions and arithmetic compute the same from the same operands, so the phi is
; uniform and the barrier under a branch on it is reached by all threads of the block or none
; (seed 5238319585050361778 of the one-hour campaign). No finding.
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
  %br = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %fr = uitofp i32 %br to double
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
