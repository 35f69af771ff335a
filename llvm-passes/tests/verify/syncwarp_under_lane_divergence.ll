; `__syncwarp()` (full mask) under `if (laneid < 16)`: half of every warp never arrives. Expected: a
; divergent warp barrier.
; ERROR: divergent full-mask warp barrier
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k() {
entry:
  %l = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %c = icmp ult i32 %l, 16
  br i1 %c, label %then, label %end
then:
  call void @llvm.nvvm.bar.warp.sync(i32 -1)
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare void @llvm.nvvm.bar.warp.sync(i32)

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
