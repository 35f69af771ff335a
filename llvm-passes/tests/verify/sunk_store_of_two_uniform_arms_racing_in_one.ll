; Bug twin of sunk_store_of_two_uniform_arms.ll: the `else` arm lets threads below 2 write out[1],
; so threads 0 and 1 write the same element on the same path.
; ERROR: data race (write-after-write)
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(i1 %c, i32 %v, ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br i1 %c, label %then, label %else
then:
  %few = icmp ult i32 %t, 2
  br i1 %few, label %mine, label %end
mine:
  br label %sink
else:
  %two = icmp ult i32 %t, 2
  br i1 %two, label %lead, label %end
lead:
  br label %sink
sink:
  %i = phi i32 [ %t, %mine ], [ 1, %lead ]
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %i
  store i32 %v, ptr addrspace(1) %p, align 4
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 32}
