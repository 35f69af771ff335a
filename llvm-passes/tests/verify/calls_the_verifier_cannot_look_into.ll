; Calls whose memory accesses the verifier cannot see are warnings naming the call, never
; silence: a recursive device function (the copy cannot inline it) given a shared pointer, an
; indirect call given a shared pointer, and an external function given a global pointer. A call
; to a defined function that touches no memory (@twice) and an external one given no pointer
; (@ext_math) are not.
; WARNING: the call to `walk` is not inlined
; WARNING: an indirect call
; WARNING: the call to `ext_store` receives a pointer to shared or global memory
; OPTIONS: block-size=32
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [32 x i32] undef, align 4

define internal void @walk(ptr addrspace(3) %p, i32 %n) {
entry:
  store i32 %n, ptr addrspace(3) %p, align 4
  %more = icmp sgt i32 %n, 0
  br i1 %more, label %again, label %done
again:
  %m = sub i32 %n, 1
  call void @walk(ptr addrspace(3) %p, i32 %m)
  br label %done
done:
  ret void
}

define internal i32 @twice(i32 %x) {
  %y = shl i32 %x, 1
  ret i32 %y
}

define void @recursive(i32 %n) {
entry:
  call void @walk(ptr addrspace(3) @s, i32 %n)
  ret void
}

define void @indirect(ptr %f) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr inbounds [32 x i32], ptr addrspace(3) @s, i32 0, i32 %t
  call void %f(ptr addrspace(3) %p)
  ret void
}

define void @external(ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %d = call i32 @twice(i32 %t)
  %e = call i32 @ext_math(i32 %d)
  call void @ext_store(ptr addrspace(1) %out, i32 %e)
  ret void
}

declare void @ext_store(ptr addrspace(1), i32)
declare i32 @ext_math(i32)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @recursive, !"kernel", i32 1}
!1 = !{ptr @indirect, !"kernel", i32 1}
!2 = !{ptr @external, !"kernel", i32 1}
