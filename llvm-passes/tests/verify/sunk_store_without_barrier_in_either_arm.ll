; Bug twin of sunk_store_after_barrier_in_one_arm.ll: the `then` arm has no barrier, so thread 20
; writes out[20] while thread 0 may still read it.
; ERROR: data race (write-after-read)
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
