; A real race next to a sunk store: thread 5 writes out[5] before a uniform `if` whose arms
; SimplifyCFG merged into one store, thread 0's out[5] (`then`) or out[7] (`else`), with no
; barrier between. The sunk store's `then` case adds its edge's conditions (`tid == 0`) to its
; own guards only: thread 5's store before the branch does not pass the phi. (Adding them to
; both sides would have made the pair look impossible.)
; ERROR: data race (write-after-write)
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(i1 %c, i32 %v, ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %five = icmp eq i32 %t, 5
  br i1 %five, label %early, label %test
early:
  %p5 = getelementptr inbounds i32, ptr addrspace(1) %out, i32 5
  store i32 %v, ptr addrspace(1) %p5, align 4
  br label %test
test:
  br i1 %c, label %then, label %else
then:
  %a = icmp eq i32 %t, 0
  br i1 %a, label %mine, label %end
mine:
  br label %sink
else:
  %b = icmp eq i32 %t, 0
  br i1 %b, label %lead, label %end
lead:
  br label %sink
sink:
  %i = phi i32 [ 5, %mine ], [ 7, %lead ]
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %i
  store i32 %v, ptr addrspace(1) %p, align 4
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 32}
