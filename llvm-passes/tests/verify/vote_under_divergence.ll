; A full-mask `__any_sync(0xffffffff, p)` under `if (threadIdx.x % 2 == 0)`. Expected: a divergent
; warp collective.
; ERROR: divergent full-mask warp collective
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %r = urem i32 %t, 2
  %c = icmp eq i32 %r, 0
  br i1 %c, label %then, label %end
then:
  %p = icmp ugt i32 %t, 7
  %v = call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 %p)
  %z = zext i1 %v to i32
  %out.slot1 = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %t
  store i32 %z, ptr addrspace(1) %out.slot1
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i1 @llvm.nvvm.vote.any.sync(i32, i1)

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
