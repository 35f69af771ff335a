; `bar.sync %id` with `%id = tid / 32 & 1`: warps 0 and 1 wait at different named barriers,
; each for the whole block, and neither fills: a deadlock. Every thread reaches the call, so
; only the id shows it. @uniform_id (the id from a parameter) is fine.
; ERROR: divergent barrier in `k`: `call void @llvm.nvvm.barrier.sync(i32 %id)`; its barrier id
; OPTIONS: block-size=64
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k() {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %w = lshr i32 %t, 5
  %id = and i32 %w, 1
  call void @llvm.nvvm.barrier.sync(i32 %id)
  ret void
}

define void @uniform_id(i32 %n) {
entry:
  %id = and i32 %n, 15
  call void @llvm.nvvm.barrier.sync(i32 %id)
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.sync(i32)

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @k, !"kernel", i32 1}
!1 = !{ptr @uniform_id, !"kernel", i32 1}
