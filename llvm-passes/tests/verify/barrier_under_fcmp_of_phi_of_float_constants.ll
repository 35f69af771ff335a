; `w = tid == 0 ? 1.0 : 2.0; if (w == 1.0) barrier`: the phi of two different float constants
; after a branch on the thread id differs between threads (thread 0 has 1.0, the others 2.0), so
; the barrier under the `fcmp` on it is divergent; @iphi is the same with integers. Float
; constants once collapsed into one abstract value, which made @fphi's phi look uniform.
; ERROR: divergent barrier in `fphi`
; ERROR: divergent barrier in `iphi`
; OPTIONS: block-size=32
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define void @fphi(ptr %A) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c0 = icmp eq i32 %t, 0
  br i1 %c0, label %a, label %b
a:
  br label %join
b:
  br label %join
join:
  %v = phi float [ 1.0, %a ], [ 2.0, %b ]
  %c = fcmp oeq float %v, 1.0
  br i1 %c, label %bar, label %exit
bar:
  call void @llvm.nvvm.barrier0()
  br label %exit
exit:
  ret void
}
define void @iphi(ptr %A) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c0 = icmp eq i32 %t, 0
  br i1 %c0, label %a, label %b
a:
  br label %join
b:
  br label %join
join:
  %v = phi i32 [ 1, %a ], [ 2, %b ]
  %c = icmp eq i32 %v, 1
  br i1 %c, label %bar, label %exit
bar:
  call void @llvm.nvvm.barrier0()
  br label %exit
exit:
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
!nvvm.annotations = !{!0, !1}
!0 = !{ptr @fphi, !"kernel", i32 1}
!1 = !{ptr @iphi, !"kernel", i32 1}
