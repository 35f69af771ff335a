; `if (rcp(n) > 0.5f) __syncthreads();` with `rcp` the inline PTX `rcp.approx.ftz.f32` (as in
; libdevice's `__nv_fmodf`, inlined into loomc's kernels): no side effect, no memory, no special
; register, so a uniform operand gives a uniform result. No finding.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(float %n) {
entry:
  %r = call float asm "rcp.approx.ftz.f32 $0,$1;", "=f,f"(float %n)
  %c = fcmp ogt float %r, 5.000000e-01
  br i1 %c, label %then, label %end
then:
  call void @llvm.nvvm.barrier0()
  br label %end
end:
  ret void
}

declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
