; Benign: thread 0 stores s[0] and later writes it to out; GVN's partial redundancy elimination
; also loads s[0] on the other threads' path, to merge it with thread 0's value in a phi that
; only thread 0's store reads. The other threads' load races with thread 0's store, but what
; they read is never used by them (seed 5368387327933419783). No finding.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [1 x i64] undef, align 16

define void @k(i64 %v, ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = icmp eq i32 %t, 0
  br i1 %first, label %store, label %others
others:
  %pre = load i64, ptr addrspace(3) @s, align 16
  br label %join
store:
  store i64 %v, ptr addrspace(3) @s, align 16
  br label %join
join:
  %x = phi i64 [ %pre, %others ], [ %v, %store ]
  br i1 %first, label %write, label %end
write:
  store i64 %x, ptr addrspace(1) %out, align 8
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 32}
