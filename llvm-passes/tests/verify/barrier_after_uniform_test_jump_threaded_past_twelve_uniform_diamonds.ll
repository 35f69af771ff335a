; The shape of barrier_after_uniform_test_jump_threaded_into_divergent_arm (fuzz seed 1349: a
; uniform test jump-threaded into one arm of a divergent `if`, the barrier after the join), with
; twelve more uniform `if (n > i)` diamonds between the join and the barrier: fourteen uniform
; conditions in the divergent branch's region. They still decide who reaches the barrier (all
; threads or none), so there is no finding. The barrier check once enumerated at most 10 such
; conditions and reported this barrier (E0850, a false alarm); its bound is now the work, the
; region's blocks times 2^conditions at most 2^22 (and at most 20 conditions).
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr addrspace(1) noalias %y, ptr addrspace(1) noalias %out, ptr addrspace(1) noalias %side, i32 %n) {
entry:
  %nb = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %inside = icmp ult i32 %b, %nb
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %valid = icmp ult i32 %t, 33
  br i1 %valid, label %arm, label %after
arm:
  br i1 %inside, label %store, label %end
store:
  %small = icmp ult i32 %t, 11
  br i1 %small, label %inner, label %stored
inner:
  br label %stored
stored:
  %v = phi i32 [ 1, %inner ], [ 2, %store ]
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %t
  store i32 %v, ptr addrspace(1) %p, align 4
  br label %after
after:
  br label %c0
c0:
  %u0 = icmp ugt i32 %n, 0
  br i1 %u0, label %d0, label %c1
d0:
  %o0 = add i32 %t, 0
  %s0 = getelementptr inbounds i32, ptr addrspace(1) %side, i32 %o0
  store i32 %b, ptr addrspace(1) %s0, align 4
  br label %c1
c1:
  %u1 = icmp ugt i32 %n, 1
  br i1 %u1, label %d1, label %c2
d1:
  %o1 = add i32 %t, 64
  %s1 = getelementptr inbounds i32, ptr addrspace(1) %side, i32 %o1
  store i32 %b, ptr addrspace(1) %s1, align 4
  br label %c2
c2:
  %u2 = icmp ugt i32 %n, 2
  br i1 %u2, label %d2, label %c3
d2:
  %o2 = add i32 %t, 128
  %s2 = getelementptr inbounds i32, ptr addrspace(1) %side, i32 %o2
  store i32 %b, ptr addrspace(1) %s2, align 4
  br label %c3
c3:
  %u3 = icmp ugt i32 %n, 3
  br i1 %u3, label %d3, label %c4
d3:
  %o3 = add i32 %t, 192
  %s3 = getelementptr inbounds i32, ptr addrspace(1) %side, i32 %o3
  store i32 %b, ptr addrspace(1) %s3, align 4
  br label %c4
c4:
  %u4 = icmp ugt i32 %n, 4
  br i1 %u4, label %d4, label %c5
d4:
  %o4 = add i32 %t, 256
  %s4 = getelementptr inbounds i32, ptr addrspace(1) %side, i32 %o4
  store i32 %b, ptr addrspace(1) %s4, align 4
  br label %c5
c5:
  %u5 = icmp ugt i32 %n, 5
  br i1 %u5, label %d5, label %c6
d5:
  %o5 = add i32 %t, 320
  %s5 = getelementptr inbounds i32, ptr addrspace(1) %side, i32 %o5
  store i32 %b, ptr addrspace(1) %s5, align 4
  br label %c6
c6:
  %u6 = icmp ugt i32 %n, 6
  br i1 %u6, label %d6, label %c7
d6:
  %o6 = add i32 %t, 384
  %s6 = getelementptr inbounds i32, ptr addrspace(1) %side, i32 %o6
  store i32 %b, ptr addrspace(1) %s6, align 4
  br label %c7
c7:
  %u7 = icmp ugt i32 %n, 7
  br i1 %u7, label %d7, label %c8
d7:
  %o7 = add i32 %t, 448
  %s7 = getelementptr inbounds i32, ptr addrspace(1) %side, i32 %o7
  store i32 %b, ptr addrspace(1) %s7, align 4
  br label %c8
c8:
  %u8 = icmp ugt i32 %n, 8
  br i1 %u8, label %d8, label %c9
d8:
  %o8 = add i32 %t, 512
  %s8 = getelementptr inbounds i32, ptr addrspace(1) %side, i32 %o8
  store i32 %b, ptr addrspace(1) %s8, align 4
  br label %c9
c9:
  %u9 = icmp ugt i32 %n, 9
  br i1 %u9, label %d9, label %c10
d9:
  %o9 = add i32 %t, 576
  %s9 = getelementptr inbounds i32, ptr addrspace(1) %side, i32 %o9
  store i32 %b, ptr addrspace(1) %s9, align 4
  br label %c10
c10:
  %u10 = icmp ugt i32 %n, 10
  br i1 %u10, label %d10, label %c11
d10:
  %o10 = add i32 %t, 640
  %s10 = getelementptr inbounds i32, ptr addrspace(1) %side, i32 %o10
  store i32 %b, ptr addrspace(1) %s10, align 4
  br label %c11
c11:
  %u11 = icmp ugt i32 %n, 11
  br i1 %u11, label %d11, label %tail
d11:
  %o11 = add i32 %t, 704
  %s11 = getelementptr inbounds i32, ptr addrspace(1) %side, i32 %o11
  store i32 %b, ptr addrspace(1) %s11, align 4
  br label %tail
tail:
  br i1 %inside, label %load, label %end
load:
  %q = getelementptr inbounds i32, ptr addrspace(1) %y, i32 %b
  %loaded = load i32, ptr addrspace(1) %q, align 4
  %zero = icmp eq i32 %loaded, 0
  br i1 %zero, label %end, label %sync
sync:
  call void @llvm.nvvm.barrier0()
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 64}
