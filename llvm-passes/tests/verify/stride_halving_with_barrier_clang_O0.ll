; clang 19 -O0 output of (CUDA, 256 threads a block):
;     __global__ void reduce(float *out) {
;       __shared__ float s[256];
;       unsigned t = threadIdx.x;
;       for (unsigned d = blockDim.x / 2; d > 0; d /= 2) {
;         if (t < d) s[t] += s[t + d];
;         __syncthreads();
;       }
;       if (t == 0) out[0] = s[0];
;     }
; The correct tree reduction, its stride starting at blockDim.x / 2 (128 with the block size
; given) and halving by a division. The barrier ends every iteration, so two threads between
; two barriers see one value of d: s[t] for t < d and s[t + d] never meet. No finding.
; Launched as one block (`single-block`): this case is about threads of one block.
; OPTIONS: block-size=256 single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.__cuda_builtin_threadIdx_t = type { i8 }
%struct.__cuda_builtin_blockDim_t = type { i8 }

@_ZZ6reducePfE1s = internal addrspace(3) global [256 x float] undef, align 4
@threadIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_threadIdx_t, align 1
@blockDim = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_blockDim_t, align 1

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define dso_local void @_Z6reducePf(ptr noundef %0) #0 {
  %2 = alloca ptr, align 8
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  store ptr %0, ptr %2, align 8
  %5 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %5, ptr %3, align 4
  %6 = call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %7 = udiv i32 %6, 2
  store i32 %7, ptr %4, align 4
  br label %8

8:                                                ; preds = %28, %1
  %9 = load i32, ptr %4, align 4
  %10 = icmp ugt i32 %9, 0
  br i1 %10, label %11, label %31

11:                                               ; preds = %8
  %12 = load i32, ptr %3, align 4
  %13 = load i32, ptr %4, align 4
  %14 = icmp ult i32 %12, %13
  br i1 %14, label %15, label %27

15:                                               ; preds = %11
  %16 = load i32, ptr %3, align 4
  %17 = load i32, ptr %4, align 4
  %18 = add i32 %16, %17
  %19 = zext i32 %18 to i64
  %20 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ6reducePfE1s to ptr), i64 0, i64 %19
  %21 = load float, ptr %20, align 4
  %22 = load i32, ptr %3, align 4
  %23 = zext i32 %22 to i64
  %24 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ6reducePfE1s to ptr), i64 0, i64 %23
  %25 = load float, ptr %24, align 4
  %26 = fadd contract float %25, %21
  store float %26, ptr %24, align 4
  br label %27

27:                                               ; preds = %15, %11
  call void @llvm.nvvm.bar.sync(i32 0)
  br label %28

28:                                               ; preds = %27
  %29 = load i32, ptr %4, align 4
  %30 = udiv i32 %29, 2
  store i32 %30, ptr %4, align 4
  br label %8, !llvm.loop !5

31:                                               ; preds = %8
  %32 = load i32, ptr %3, align 4
  %33 = icmp eq i32 %32, 0
  br i1 %33, label %34, label %38

34:                                               ; preds = %31
  %35 = load float, ptr addrspacecast (ptr addrspace(3) @_ZZ6reducePfE1s to ptr), align 4
  %36 = load ptr, ptr %2, align 8
  %37 = getelementptr inbounds float, ptr %36, i64 0
  store float %35, ptr %37, align 4
  br label %38

38:                                               ; preds = %34, %31
  ret void
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.bar.sync(i32) #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #2

attributes #0 = { convergent mustprogress noinline norecurse nounwind optnone "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+sm_80" "uniform-work-group-size"="true" }
attributes #1 = { convergent nocallback nounwind }
attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

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
