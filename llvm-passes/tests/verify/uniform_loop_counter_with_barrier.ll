; Benign: a uniform loop with a barrier in its body uses its counter in the addresses:
; `for (i = 0; i < n; i++) { s[i*256 + tid] = x; barrier; y = s[i*256 + (tid + 1) % 256];
; barrier; }`. Both threads of any pair are in the same iteration between two barriers, so the
; counter cancels out. No finding.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [65536 x float] undef, align 4

define void @k(i32 %n, ptr addrspace(1) noalias %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %u = add i32 %t, 1
  %w = and i32 %u, 255
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %end
body:
  %row = shl i32 %i, 8
  %a = add i32 %row, %t
  %a64 = sext i32 %a to i64
  %p = getelementptr inbounds float, ptr addrspace(3) @s, i64 %a64
  store float 1.0, ptr addrspace(3) %p, align 4
  call void @llvm.nvvm.barrier0()
  %b = add i32 %row, %w
  %b64 = sext i32 %b to i64
  %q = getelementptr inbounds float, ptr addrspace(3) @s, i64 %b64
  %v = load float, ptr addrspace(3) %q, align 4
  %out.slot1 = getelementptr inbounds float, ptr addrspace(1) %out, i32 %t
  store float %v, ptr addrspace(1) %out.slot1, align 4
  call void @llvm.nvvm.barrier0()
  %i.next = add nsw i32 %i, 1
  br label %header
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
