; clang 19 -O0 output of (CUDA, 256 threads a block):
;     __global__ void reduce(float *out) {
;       __shared__ float s[256];
;       unsigned t = threadIdx.x;
;       for (unsigned d = 128; d > 0; d >>= 1) {
;         if (t < d) s[t] += s[t + d];
;       }
;       if (t == 0) out[0] = s[0];
;     }
; The tree reduction without its barrier in the loop. The stride `d` halves (128, 64, ..., 1):
; not affine, but a short known sequence, which the analysis enumerates. In one barrier-free
; loop two threads may be in different iterations: thread 1 adds s[2] into s[1] while d = 2,
; and thread 0 reads s[1] while d = 1. An error with the two values of d (it was a warning).
; ERROR: thread 0 reads byte 4 in `%10 = load float, ptr %9, align 4`, thread 1 writes byte 4 in `store float %14, ptr %12, align 4` (when %.0 on thread 0 = 1, %.0 on thread 1 = 2)
; Launched as one block (`single-block`): this case is about threads of one block.
; OPTIONS: block-size=256 single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.__cuda_builtin_threadIdx_t = type { i8 }

@_ZZ6reducePfE1s = internal addrspace(3) global [256 x float] undef, align 4
@threadIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_threadIdx_t, align 1

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define dso_local void @_Z6reducePf(ptr noundef %0) #0 {
  %2 = alloca ptr, align 8
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  store ptr %0, ptr %2, align 8
  %5 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %5, ptr %3, align 4
  store i32 128, ptr %4, align 4
  br label %6

6:                                                ; preds = %26, %1
  %7 = load i32, ptr %4, align 4
  %8 = icmp ugt i32 %7, 0
  br i1 %8, label %9, label %29

9:                                                ; preds = %6
  %10 = load i32, ptr %3, align 4
  %11 = load i32, ptr %4, align 4
  %12 = icmp ult i32 %10, %11
  br i1 %12, label %13, label %25

13:                                               ; preds = %9
  %14 = load i32, ptr %3, align 4
  %15 = load i32, ptr %4, align 4
  %16 = add i32 %14, %15
  %17 = zext i32 %16 to i64
  %18 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ6reducePfE1s to ptr), i64 0, i64 %17
  %19 = load float, ptr %18, align 4
  %20 = load i32, ptr %3, align 4
  %21 = zext i32 %20 to i64
  %22 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ6reducePfE1s to ptr), i64 0, i64 %21
  %23 = load float, ptr %22, align 4
  %24 = fadd contract float %23, %19
  store float %24, ptr %22, align 4
  br label %25

25:                                               ; preds = %13, %9
  br label %26

26:                                               ; preds = %25
  %27 = load i32, ptr %4, align 4
  %28 = lshr i32 %27, 1
  store i32 %28, ptr %4, align 4
  br label %6, !llvm.loop !5

29:                                               ; preds = %6
  %30 = load i32, ptr %3, align 4
  %31 = icmp eq i32 %30, 0
  br i1 %31, label %32, label %36

32:                                               ; preds = %29
  %33 = load float, ptr addrspacecast (ptr addrspace(3) @_ZZ6reducePfE1s to ptr), align 4
  %34 = load ptr, ptr %2, align 8
  %35 = getelementptr inbounds float, ptr %34, i64 0
  store float %33, ptr %35, align 4
  br label %36

36:                                               ; preds = %32, %29
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

attributes #0 = { convergent mustprogress noinline norecurse nounwind optnone "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+sm_80" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!nvvm.annotations = !{!0}
!llvm.module.flags = !{!1, !2, !3}
!llvm.ident = !{!4}

!0 = !{ptr @_Z6reducePf, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = distinct !{!5, !6}
!6 = !{!"llvm.loop.mustprogress"}
