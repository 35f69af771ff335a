; Bug twin of reconverged_threads_take_uniform_branches_together.ll: the read of s[0] is inside
; the divergent branch (only threads 0..15 run it), where the threads have not met again: thread 1
; can read s[0] while thread 0, past the meeting point, writes it.
; ERROR: data race (write-after-read) on `s`
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [4 x i32] undef, align 4

define void @k(i32 %n, i32 %m, ptr addrspace(1) noalias %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %low = icmp ult i32 %t, 16
  br i1 %low, label %mark, label %marked
mark:
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %t
  store i32 1, ptr addrspace(1) %p, align 4
  %early = load i32, ptr addrspace(3) @s, align 4
  store i32 %early, ptr addrspace(1) %p, align 4
  br label %marked
marked:
  %first.test = icmp sgt i32 %n, 0
  br i1 %first.test, label %end, label %second
second:
  %second.test = icmp sgt i32 %m, 0
  br i1 %second.test, label %end, label %other
read:
  %v = load i32, ptr addrspace(3) @s, align 4
  %q = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %t
  store i32 %v, ptr addrspace(1) %q, align 4
  br label %end
other:
  %first = icmp eq i32 %t, 0
  br i1 %first, label %write, label %end
write:
  store i32 2, ptr addrspace(3) @s, align 4
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 128}
