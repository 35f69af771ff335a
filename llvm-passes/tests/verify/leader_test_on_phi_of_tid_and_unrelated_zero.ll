; Bug twin of leader_test_on_phi_of_tid_and_zero.ll: the phi's 0 comes from the threads with
; tid >= 16, not from thread 0, so `if (p == 0) s[0] = 1;` runs in thread 0 and in threads 16..127.
; ERROR: data race (write-after-write)
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [4 x i32] undef, align 4

define void @k(i1 %flag) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %others = icmp ult i32 %t, 16
  %skip = or i1 %others, %flag
  br i1 %skip, label %join, label %first
first:
  br label %join
join:
  %p = phi i32 [ %t, %entry ], [ 0, %first ]
  %leader = icmp eq i32 %p, 0
  br i1 %leader, label %write, label %end
write:
  store i32 1, ptr addrspace(3) @s, align 4
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 128}
