; Benign: every thread reads out[20], then a uniform `if`: the `then` arm begins with a barrier
; and has threads below 64 write out[tid]; the `else` arm has thread 0 write out[50]; SimplifyCFG
; sank both stores into one whose index is a phi. In the interval that begins at the kernel's
; entry only the `else` edge into the sunk store can be taken: the `then` edge lies after the
; barrier (seed 5355115109271883116 of the one-hour campaign: the `then` edge's address was
; paired with the read). No finding.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(i1 %c, float %v, ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p20 = getelementptr inbounds float, ptr addrspace(1) %out, i32 20
  %x = load float, ptr addrspace(1) %p20, align 4
  %big = fcmp ogt float %x, 0.0
  %go = and i1 %big, %c
  br i1 %go, label %then, label %else
then:
  call void @llvm.nvvm.barrier0()
  %few = icmp ult i32 %t, 64
  br i1 %few, label %mine, label %end
mine:
  br label %sink
else:
  %leader = icmp eq i32 %t, 0
  br i1 %leader, label %lead, label %end
lead:
  br label %sink
sink:
  %i = phi i32 [ %t, %mine ], [ 50, %lead ]
  %p = getelementptr inbounds float, ptr addrspace(1) %out, i32 %i
  store float %v, ptr addrspace(1) %p, align 4
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 128}
