; Bug twin of sunk_store_and_a_store_in_the_other_arm.ll: threads 0 and 1 both take the `else`
; arm, so both write out[1] there and out[2] in the sunk store.
; ERROR: data race (write-after-write)
; ERROR: data race (write-after-write)
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
  %leader = icmp ult i32 %t, 2
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
