; Threads 0 and 1 store `phi [2.0, thread 1], [1.0, thread 0]` (float, i64, double) to one
; location: the values differ, so even with `--tolerate-same-value-writes` these are races. The
; float and double forms were once tolerated (every float constant was one abstract value).
; ERROR: data race (write-after-write) on `%A` in
; ERROR: data race (write-after-write) on `%A` in
; ERROR: data race (write-after-write) on `%A` in
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: block-size=32 tolerate-same-value-writes single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @h5(ptr %A) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  switch i32 %t, label %exit [
    i32 0, label %join
    i32 1, label %mid
  ]
mid:
  br label %join
join:
  %v = phi float [ 2.0, %mid ], [ 1.0, %entry ]
  store float %v, ptr %A
  br label %exit
exit:
  ret void
}
define void @h6(ptr %A) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  switch i32 %t, label %exit [
    i32 0, label %join
    i32 1, label %mid
  ]
mid:
  br label %join
join:
  %v = phi i64 [ 2, %mid ], [ 1, %entry ]
  store i64 %v, ptr %A
  br label %exit
exit:
  ret void
}
define void @h7(ptr %A) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  switch i32 %t, label %exit [
    i32 0, label %join
    i32 1, label %mid
  ]
mid:
  br label %join
join:
  %v = phi double [ 2.0, %mid ], [ 1.0, %entry ]
  store double %v, ptr %A
  br label %exit
exit:
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @h5, !"kernel", i32 1}
!1 = !{ptr @h6, !"kernel", i32 1}
!2 = !{ptr @h7, !"kernel", i32 1}
