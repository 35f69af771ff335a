; Bug twin of uniform_branch_separates_accesses.ll: the branch tests a value each thread loads
; from its own element of `out`, so thread 1 can read s[0] while thread 0 writes it, if the data
; lets thread 1 take one arm and thread 0 the other. A conflict that needs particular data is a
; warning, not a proven race (it was once an error).
; WARNING: thread 1 and thread 0 conflict unless a branch condition the analysis cannot express
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [4 x i32] undef, align 4

define void @k(i32 %n, ptr addrspace(1) noalias %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %low = icmp ult i32 %t, 16
  br i1 %low, label %mark, label %marked
mark:
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %t
  store i32 1, ptr addrspace(1) %p, align 4
  br label %marked
marked:
  %mine = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %t
  %m = load i32, ptr addrspace(1) %mine, align 4
  %positive = icmp sgt i32 %m, 0
  br i1 %positive, label %read, label %other
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
