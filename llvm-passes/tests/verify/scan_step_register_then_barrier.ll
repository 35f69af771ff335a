; Benign twin of scan_in_place_no_double_buffer, as loomc emits scans: read s[tid - 1] and s[tid]
; into a register, barrier, then write s[tid]. No finding.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [512 x i32] undef, align 4

define void @k() {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr addrspace(3) @s, i64 %i
  %c = icmp uge i32 %t, 1
  br i1 %c, label %add, label %join
add:
  %q = getelementptr i32, ptr addrspace(3) %p, i64 -1
  %a = load i32, ptr addrspace(3) %q, align 4
  %b = load i32, ptr addrspace(3) %p, align 4
  %sum = add i32 %a, %b
  br label %join
join:
  %r = phi i32 [ %sum, %add ], [ undef, %entry ]
  call void @llvm.nvvm.barrier0()
  br i1 %c, label %write, label %end
write:
  store i32 %r, ptr addrspace(3) %p, align 4
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
