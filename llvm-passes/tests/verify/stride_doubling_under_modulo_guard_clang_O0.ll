; clang 19 -O0 output of (CUDA, 256 threads a block):
;     __global__ void reduce0(const float *in, float *out) {
;       __shared__ float s[256];
;       unsigned t = threadIdx.x;
;       s[t] = in[blockIdx.x * blockDim.x + t];
;       __syncthreads();
;       for (unsigned d = 1; d < blockDim.x; d *= 2) {
;         if (t % (2 * d) == 0) s[t] += s[t + d];
;         __syncthreads();
;       }
;       if (t == 0) out[blockIdx.x] = s[0];
;     }
; The CUDA samples' reduce0, race-free: the active threads are chosen by `t % (2 * d) == 0`,
; not affine in t, but with the case's value of d (1, 2, ..., 128, one for both threads between
; two barriers) it is computed thread by thread, and it keeps thread 1 from writing s[1] that
; thread 0 reads. No finding (without the guard it would be a false race).
; Launched as one block (`single-block`): this case is about threads of one block.
; OPTIONS: block-size=256 single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.__cuda_builtin_threadIdx_t = type { i8 }
%struct.__cuda_builtin_blockIdx_t = type { i8 }
%struct.__cuda_builtin_blockDim_t = type { i8 }

@_ZZ7reduce0PKfPfE1s = internal addrspace(3) global [256 x float] undef, align 4
@threadIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_threadIdx_t, align 1
@blockIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_blockIdx_t, align 1
@blockDim = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_blockDim_t, align 1

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define dso_local void @_Z7reduce0PKfPf(ptr noundef %0, ptr noundef %1) #0 {
  %3 = alloca ptr, align 8
  %4 = alloca ptr, align 8
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  store ptr %0, ptr %3, align 8
  store ptr %1, ptr %4, align 8
  %7 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %7, ptr %5, align 4
  %8 = load ptr, ptr %3, align 8
  %9 = call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %10 = call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %11 = mul i32 %9, %10
  %12 = load i32, ptr %5, align 4
  %13 = add i32 %11, %12
  %14 = zext i32 %13 to i64
  %15 = getelementptr inbounds float, ptr %8, i64 %14
  %16 = load float, ptr %15, align 4
  %17 = load i32, ptr %5, align 4
  %18 = zext i32 %17 to i64
  %19 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ7reduce0PKfPfE1s to ptr), i64 0, i64 %18
  store float %16, ptr %19, align 4
  call void @llvm.nvvm.bar.sync(i32 0)
  store i32 1, ptr %6, align 4
  br label %20

20:                                               ; preds = %43, %2
  %21 = load i32, ptr %6, align 4
  %22 = call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %23 = icmp ult i32 %21, %22
  br i1 %23, label %24, label %46

24:                                               ; preds = %20
  %25 = load i32, ptr %5, align 4
  %26 = load i32, ptr %6, align 4
  %27 = mul i32 2, %26
  %28 = urem i32 %25, %27
  %29 = icmp eq i32 %28, 0
  br i1 %29, label %30, label %42

30:                                               ; preds = %24
  %31 = load i32, ptr %5, align 4
  %32 = load i32, ptr %6, align 4
  %33 = add i32 %31, %32
  %34 = zext i32 %33 to i64
  %35 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ7reduce0PKfPfE1s to ptr), i64 0, i64 %34
  %36 = load float, ptr %35, align 4
  %37 = load i32, ptr %5, align 4
  %38 = zext i32 %37 to i64
  %39 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ7reduce0PKfPfE1s to ptr), i64 0, i64 %38
  %40 = load float, ptr %39, align 4
  %41 = fadd contract float %40, %36
  store float %41, ptr %39, align 4
  br label %42

42:                                               ; preds = %30, %24
  call void @llvm.nvvm.bar.sync(i32 0)
  br label %43

43:                                               ; preds = %42
  %44 = load i32, ptr %6, align 4
  %45 = mul i32 %44, 2
  store i32 %45, ptr %6, align 4
  br label %20, !llvm.loop !5

46:                                               ; preds = %20
  %47 = load i32, ptr %5, align 4
  %48 = icmp eq i32 %47, 0
  br i1 %48, label %49, label %55

49:                                               ; preds = %46
  %50 = load float, ptr addrspacecast (ptr addrspace(3) @_ZZ7reduce0PKfPfE1s to ptr), align 4
  %51 = load ptr, ptr %4, align 8
  %52 = call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %53 = zext i32 %52 to i64
  %54 = getelementptr inbounds float, ptr %51, i64 %53
  store float %50, ptr %54, align 4
  br label %55

55:                                               ; preds = %49, %46
  ret void
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.bar.sync(i32) #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #2

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #2

attributes #0 = { convergent mustprogress noinline norecurse nounwind optnone "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+sm_80" "uniform-work-group-size"="true" }
attributes #1 = { convergent nocallback nounwind }
attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!nvvm.annotations = !{!0}
!llvm.module.flags = !{!1, !2, !3}
!llvm.ident = !{!4}

!0 = !{ptr @_Z7reduce0PKfPf, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = distinct !{!5, !6}
!6 = !{!"llvm.loop.mustprogress"}
