; The unoptimised program of unoptimised_allocas_clang_style without its barrier: thread 1 writes
; s[1] in the loop while thread 0 reads s[(0 + 1) % 256]. Expected: a read-after-write race.
; ERROR: data race (read-after-write) on `s`
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [256 x float] undef, align 4

define void @k(i32 %n, ptr %out) {
entry:
  %n.addr = alloca i32, align 4
  %tid.addr = alloca i32, align 4
  %k = alloca i32, align 4
  store i32 %n, ptr %n.addr, align 4
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %t, ptr %tid.addr, align 4
  %t0 = load i32, ptr %tid.addr, align 4
  store i32 %t0, ptr %k, align 4
  br label %cond
cond:
  %k0 = load i32, ptr %k, align 4
  %n0 = load i32, ptr %n.addr, align 4
  %lt = icmp slt i32 %k0, %n0
  br i1 %lt, label %body, label %after
body:
  %k1 = load i32, ptr %k, align 4
  %idx = sext i32 %k1 to i64
  %p = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @s to ptr), i64 0, i64 %idx
  store float 1.0, ptr %p, align 4
  %k2 = load i32, ptr %k, align 4
  %k3 = add nsw i32 %k2, 256
  store i32 %k3, ptr %k, align 4
  br label %cond
after:
  %t1 = load i32, ptr %tid.addr, align 4
  %u = add i32 %t1, 1
  %w = urem i32 %u, 256
  %widx = zext i32 %w to i64
  %q = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @s to ptr), i64 0, i64 %widx
  %v = load float, ptr %q, align 4
  %out.slot1 = getelementptr inbounds float, ptr %out, i32 %t
  store float %v, ptr %out.slot1, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
