; A Hillis-Steele scan step done in place: `if (tid >= 1) s[tid] += s[tid - 1];` with no barrier
; between the reads and the writes. Thread 2 reads s[1] while thread 1 writes it. Expected: a race
; (loomc's scans keep the sum in a register and write after a barrier).
; ERROR: data race
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [512 x i32] undef, align 4

define void @k() {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr addrspace(3) @s, i64 %i
  %c = icmp uge i32 %t, 1
  br i1 %c, label %add, label %end
add:
  %q = getelementptr i32, ptr addrspace(3) %p, i64 -1
  %a = load i32, ptr addrspace(3) %q, align 4
  %b = load i32, ptr addrspace(3) %p, align 4
  %sum = add i32 %a, %b
  store i32 %sum, ptr addrspace(3) %p, align 4
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
