; The old "warp-synchronous" reduction tail: `if (tid < 32) { s[tid] += s[tid + 16]; s[tid] +=
; s[tid + 8]; }` with no __syncwarp, relying on lock-step warps. Since sm_70 threads of a warp are
; scheduled independently: thread 8 may write s[8] before thread 0 reads it for the second step.
; Expected: four races: each step's write of s[tid] against the other step's reads of s[tid + 16]
; and s[tid + 8] in other threads, and the second step's write against the first step's read.
; ERROR: data race (write-after-read)
; ERROR: data race (write-after-read)
; ERROR: data race (read-after-write)
; ERROR: data race
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [512 x i32] undef, align 4

define void @k() {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp ult i32 %t, 32
  br i1 %c, label %warp, label %end
warp:
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr addrspace(3) @s, i64 %i
  %o1 = add nuw nsw i64 %i, 16
  %q1 = getelementptr inbounds i32, ptr addrspace(3) @s, i64 %o1
  %a1 = load i32, ptr addrspace(3) %p, align 4
  %b1 = load i32, ptr addrspace(3) %q1, align 4
  %s1 = add i32 %a1, %b1
  store i32 %s1, ptr addrspace(3) %p, align 4
  %o2 = add nuw nsw i64 %i, 8
  %q2 = getelementptr inbounds i32, ptr addrspace(3) @s, i64 %o2
  %a2 = load i32, ptr addrspace(3) %p, align 4
  %b2 = load i32, ptr addrspace(3) %q2, align 4
  %s2 = add i32 %a2, %b2
  store i32 %s2, ptr addrspace(3) %p, align 4
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 32}
