; The loop of uniform_loop_counter_with_barrier without its second barrier, and writing to the
; same row in every iteration (`s[tid]`, read `s[(tid + 1) % 256]`): thread 1's write of iteration
; i + 1 can overtake thread 0's read of iteration i. Expected: a race across iterations.
; ERROR: data race
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
  %a64 = zext i32 %t to i64
  %p = getelementptr inbounds float, ptr addrspace(3) @s, i64 %a64
  store float 1.0, ptr addrspace(3) %p, align 4
  call void @llvm.nvvm.barrier0()
  %b64 = zext i32 %w to i64
  %q = getelementptr inbounds float, ptr addrspace(3) @s, i64 %b64
  %v = load float, ptr addrspace(3) %q, align 4
  %out.slot1 = getelementptr inbounds float, ptr addrspace(1) %out, i32 %t
  store float %v, ptr addrspace(1) %out.slot1, align 4
  %i.next = add nsw i32 %i, 1
  br label %header
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
