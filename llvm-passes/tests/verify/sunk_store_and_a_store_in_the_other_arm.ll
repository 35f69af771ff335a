; Benign: sunk_store_of_two_uniform_arms.ll with a store of its own in the `else` arm: thread 0
; writes out[1] there, and the sunk store's `then` case has thread 1 write out[1]. The two are on
; different sides of the uniform branch; under that case the sunk store is reached through the
; `then` arm's block, and the separation test starts there (seed 5339188446878039317 of the
; one-hour campaign). No finding.
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
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
  %p1 = getelementptr inbounds i32, ptr addrspace(1) %out, i32 1
  store i32 %v, ptr addrspace(1) %p1, align 4
  br label %sink
sink:
  %i = phi i32 [ %t, %mine ], [ 2, %lead ]
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %i
  store i32 %v, ptr addrspace(1) %p, align 4
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 32}
