; Bug twin of leader_test_merged_with_its_branch_outcomes.ll: the edge taken where `tid != 0`
; carries `true`, so when `c` holds every thread but thread 0 takes the phi as true and writes
; acc[0].
; ERROR: data race (write-after-write)
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(i1 %c, i32 %v, ptr addrspace(1) %out, ptr addrspace(1) %acc) {
entry:
  br i1 %c, label %inner, label %around
around:
  %t1 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t0 = icmp eq i32 %t1, 0
  br label %join
inner:
  %t2 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %leader = icmp eq i32 %t2, 0
  br i1 %leader, label %store, label %join
store:
  store i32 %v, ptr addrspace(1) %out, align 4
  br label %join
join:
  %first = phi i1 [ %t0, %around ], [ true, %inner ], [ true, %store ]
  call void @llvm.nvvm.barrier0()
  br i1 %first, label %write, label %end
write:
  store i32 %v, ptr addrspace(1) %acc, align 4
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 128}
