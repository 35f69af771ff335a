; Bug twin of barrier_in_live_arm_of_constant_branch.ll: the arm the constant condition takes has
; no barrier (only the dead one does), so thread 7's write of out[7] races with thread 0's.
; ERROR: data race (write-after-write)
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(i32 %v, ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %leader = icmp eq i32 %t, 0
  br i1 %leader, label %first, label %test
first:
  %o7 = getelementptr inbounds i32, ptr addrspace(1) %out, i32 7
  store i32 %v, ptr addrspace(1) %o7, align 4
  br label %test
test:
  %always = icmp ne i32 19, 0
  br i1 %always, label %then, label %else
then:
  br label %join
else:
  call void @llvm.nvvm.barrier0()
  br label %join
join:
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %t
  store i32 %v, ptr addrspace(1) %o, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 32}
