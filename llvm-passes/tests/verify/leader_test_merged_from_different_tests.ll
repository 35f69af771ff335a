; Bug twin of leader_test_merged_from_two_copies.ll: one side tests `tid < 2`, so when `d` is false
; threads 0 and 1 both store.
; ERROR: data race (write-after-write)
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(i1 %c, i1 %d, i64 %v, ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %leader = icmp eq i32 %t, 0
  %two = icmp ult i32 %t, 2
  br i1 %d, label %left, label %right
left:
  %l = and i1 %leader, %c
  %lz = zext i1 %l to i64
  %slot = add i32 %t, 8
  %own = getelementptr inbounds i64, ptr addrspace(1) %out, i32 %slot
  store i64 %lz, ptr addrspace(1) %own, align 8
  br label %join
right:
  %r = and i1 %two, %c
  br label %join
join:
  %first = phi i1 [ %l, %left ], [ %r, %right ]
  br i1 %first, label %store, label %end
store:
  store i64 %v, ptr addrspace(1) %out, align 8
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 32}
