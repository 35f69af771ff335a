; clang 19 -O0 output of (CUDA, 64 threads), device functions not inlined:
;     __device__ __attribute__((noinline)) int foo(int *p) { return p[threadIdx.x]; }
;     __global__ void k(int *out) {
;       __shared__ int s[64];
;       out[threadIdx.x] = foo(s);      // thread t+1 reads s[t+1] ...
;       s[threadIdx.x + 1] = 1;         // ... which thread t writes: no barrier between
;     }
;     __device__ __attribute__((noinline)) void bar(int *p) { p[0] = threadIdx.x; }
;     __global__ void k2(int *out) {    // every thread writes s[0] inside bar
;       __shared__ int s[64];
;       bar(s);
;       __syncthreads();
;       out[threadIdx.x] = s[0];
;     }
;     __global__ void k3(int *out) {    // threads 0 and 2 write s[0] inside bar
;       __shared__ int s[64];
;       int *q = s + threadIdx.x % 2;
;       bar(q);
;       __syncthreads();
;       out[threadIdx.x] = s[0];
;     }
; The verifier's copy inlines every device function, so the accesses inside foo and bar are the
; kernels' own: three races. (They were once passed without a word: a shared pointer handed to
; a call was neither analysed nor warned about.)
; ERROR: data race (write-after-read) on `_ZZ1kPiE1s` in `_Z1kPi`
; ERROR: data race (write-after-write) on `_ZZ2k2PiE1s` in `_Z2k2Pi`
; ERROR: data race (write-after-write) on `_ZZ2k3PiE1s` in `_Z2k3Pi`
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: block-size=64 single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.__cuda_builtin_threadIdx_t = type { i8 }

@threadIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_threadIdx_t, align 1
@_ZZ1kPiE1s = internal addrspace(3) global [64 x i32] undef, align 4
@_ZZ2k2PiE1s = internal addrspace(3) global [64 x i32] undef, align 4
@_ZZ2k3PiE1s = internal addrspace(3) global [64 x i32] undef, align 4

; Function Attrs: convergent mustprogress noinline nounwind optnone
define dso_local noundef i32 @_Z3fooPi(ptr noundef %0) #0 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
  %3 = load ptr, ptr %2, align 8
  %4 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %5 = zext i32 %4 to i64
  %6 = getelementptr inbounds i32, ptr %3, i64 %5
  %7 = load i32, ptr %6, align 4
  ret i32 %7
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define dso_local void @_Z1kPi(ptr noundef %0) #1 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
  %3 = call noundef i32 @_Z3fooPi(ptr noundef addrspacecast (ptr addrspace(3) @_ZZ1kPiE1s to ptr)) #4
  %4 = load ptr, ptr %2, align 8
  %5 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %6 = zext i32 %5 to i64
  %7 = getelementptr inbounds i32, ptr %4, i64 %6
  store i32 %3, ptr %7, align 4
  %8 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %9 = add i32 %8, 1
  %10 = zext i32 %9 to i64
  %11 = getelementptr inbounds [64 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ1kPiE1s to ptr), i64 0, i64 %10
  store i32 1, ptr %11, align 4
  ret void
}

; Function Attrs: convergent mustprogress noinline nounwind optnone
define dso_local void @_Z3barPi(ptr noundef %0) #0 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
  %3 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %4 = load ptr, ptr %2, align 8
  %5 = getelementptr inbounds i32, ptr %4, i64 0
  store i32 %3, ptr %5, align 4
  ret void
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define dso_local void @_Z2k2Pi(ptr noundef %0) #1 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
  call void @_Z3barPi(ptr noundef addrspacecast (ptr addrspace(3) @_ZZ2k2PiE1s to ptr)) #4
  call void @llvm.nvvm.bar.sync(i32 0)
  %3 = load i32, ptr addrspacecast (ptr addrspace(3) @_ZZ2k2PiE1s to ptr), align 4
  %4 = load ptr, ptr %2, align 8
  %5 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %6 = zext i32 %5 to i64
  %7 = getelementptr inbounds i32, ptr %4, i64 %6
  store i32 %3, ptr %7, align 4
  ret void
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.bar.sync(i32) #2

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define dso_local void @_Z2k3Pi(ptr noundef %0) #1 {
  %2 = alloca ptr, align 8
  %3 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
  %4 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %5 = urem i32 %4, 2
  %6 = zext i32 %5 to i64
  %7 = getelementptr inbounds i32, ptr addrspacecast (ptr addrspace(3) @_ZZ2k3PiE1s to ptr), i64 %6
  store ptr %7, ptr %3, align 8
  %8 = load ptr, ptr %3, align 8
  call void @_Z3barPi(ptr noundef %8) #4
  call void @llvm.nvvm.bar.sync(i32 0)
  %9 = load i32, ptr addrspacecast (ptr addrspace(3) @_ZZ2k3PiE1s to ptr), align 4
  %10 = load ptr, ptr %2, align 8
  %11 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %12 = zext i32 %11 to i64
  %13 = getelementptr inbounds i32, ptr %10, i64 %12
  store i32 %9, ptr %13, align 4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #3

attributes #0 = { convergent mustprogress noinline nounwind optnone "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+sm_80" }
attributes #1 = { convergent mustprogress noinline norecurse nounwind optnone "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+sm_80" "uniform-work-group-size"="true" }
attributes #2 = { convergent nocallback nounwind }
attributes #3 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { convergent nounwind }

!nvvm.annotations = !{!0, !1, !2}
!llvm.module.flags = !{!3, !4, !5}
!llvm.ident = !{!6}

!0 = !{ptr @_Z1kPi, !"kernel", i32 1}
!1 = !{ptr @_Z2k2Pi, !"kernel", i32 1}
!2 = !{ptr @_Z2k3Pi, !"kernel", i32 1}
!3 = !{i32 1, !"wchar_size", i32 4}
!4 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!5 = !{i32 7, !"frame-pointer", i32 2}
!6 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
