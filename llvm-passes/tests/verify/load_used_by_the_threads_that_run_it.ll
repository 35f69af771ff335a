; Bug twin of load_unused_by_the_threads_that_run_it.ll: every thread writes the phi, so the
; other threads use the s[0] they read while thread 0 stores it.
; ERROR: data race (write-after-read)
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
  %i = zext i32 %t to i64
  %o = getelementptr inbounds i64, ptr addrspace(1) %out, i64 %i
  store i64 %x, ptr addrspace(1) %o, align 8
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 32}
