; Thread 0 stores 1.0, thread 1 stores 2.0 to the same word (and the integer twin): different
; values, so a race even with `--tolerate-same-value-writes`.
; ERROR: data race (write-after-write) on `%A` in
; ERROR: data race (write-after-write) on `%A` in
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: block-size=32 tolerate-same-value-writes single-block
; thread 0 stores 1.0, thread 1 stores 2.0 to the same word: a race with different values
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define void @two_floats(ptr %A) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  switch i32 %t, label %exit [
    i32 0, label %a
    i32 1, label %b
  ]
a:
  store float 1.0, ptr %A
  br label %exit
b:
  store float 2.0, ptr %A
  br label %exit
exit:
  ret void
}
define void @two_ints(ptr %A) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  switch i32 %t, label %exit [
    i32 0, label %a
    i32 1, label %b
  ]
a:
  store i32 1, ptr %A
  br label %exit
b:
  store i32 2, ptr %A
  br label %exit
exit:
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
!nvvm.annotations = !{!0, !1}
!0 = !{ptr @two_floats, !"kernel", i32 1}
!1 = !{ptr @two_ints, !"kernel", i32 1}
