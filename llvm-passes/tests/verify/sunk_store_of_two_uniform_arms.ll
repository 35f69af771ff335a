; Benign: SimplifyCFG sank the stores of both arms of a uniform `if` into one store whose index is
; a phi: the `then` arm has threads below 2 write out[tid], the `else` arm has thread 0 write
; out[1]. All threads take the same arm, so thread 0's out[1] (else) never meets thread 1's
; out[1] (then). The phi is decided edge by edge, each edge with its own conditions (seed 135,
; and seed 5248937359979590889 of the one-hour campaign). No finding.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(i1 %c, i32 %v, ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br i1 %c, label %then, label %else
then:
  %few = icmp ult i32 %t, 2
  br i1 %few, label %mine, label %end
mine:
  br label %sink
else:
  %leader = icmp eq i32 %t, 0
  br i1 %leader, label %lead, label %end
lead:
  br label %sink
sink:
  %i = phi i32 [ %t, %mine ], [ 1, %lead ]
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %i
  store i32 %v, ptr addrspace(1) %p, align 4
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 32}
