; Benign: GVN rewrites `tid` as `0` on the path where `tid == 0` is known, and merges the two with
; a phi: `p = phi [tid, ...], [0, under tid == 0]`. The phi is `tid` in every thread, so
; `if (p == 0) s[0] = v;` is a store by thread 0 alone. No finding.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [4 x i32] undef, align 4

define void @k(i1 %flag) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %others = icmp ne i32 %t, 0
  %skip = or i1 %others, %flag
  br i1 %skip, label %join, label %first
first:
  store i32 7, ptr addrspace(3) getelementptr inbounds ([4 x i32], ptr addrspace(3) @s, i32 0, i32 1), align 4
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
