; clang 19 -O0 output of (CUDA, 256 threads a block):
;     __global__ void reduce3(const float *in, float *out) {
;       __shared__ float s[256];
;       unsigned t = threadIdx.x;
;       unsigned i = blockIdx.x * (blockDim.x * 2) + t;
;       s[t] = in[i] + in[i + blockDim.x];
;       for (unsigned d = blockDim.x / 2; d > 0; d >>= 1) {
;         if (t < d) s[t] += s[t + d];
;         __syncthreads();
;       }
;       if (t == 0) out[blockIdx.x] = s[0];
;     }
; The CUDA samples' reduce3 without the barrier after its load. InstCombine indexes with
; `d >> 1` of a phi that starts at blockDim.x (256) and tests the phi itself: the index is the
; phi's value shifted. The interval from the kernel's start enters the loop afresh and ends at
; the loop's barrier, so only the first value is seen: thread 0 reads s[0 + 128] while thread
; 128 stores s[128] (a witness with a later stride would be no execution).
; ERROR: thread 128 writes byte 512 in `store float %16, ptr %18, align 4`, thread 0 reads byte 512 in `%26 = load float, ptr %25, align 4` (when %.0.in = 256)
; Launched as one block (`single-block`): this case is about threads of one block.
; OPTIONS: block-size=256 single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.__cuda_builtin_threadIdx_t = type { i8 }
%struct.__cuda_builtin_blockIdx_t = type { i8 }
%struct.__cuda_builtin_blockDim_t = type { i8 }

@_ZZ7reduce3PKfPfE1s = internal addrspace(3) global [256 x float] undef, align 4
@threadIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_threadIdx_t, align 1
@blockIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_blockIdx_t, align 1
@blockDim = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_blockDim_t, align 1

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define dso_local void @_Z7reduce3PKfPf(ptr noundef %0, ptr noundef %1) #0 {
  %3 = alloca ptr, align 8
  %4 = alloca ptr, align 8
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  store ptr %0, ptr %3, align 8
  store ptr %1, ptr %4, align 8
  %8 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %8, ptr %5, align 4
  %9 = call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %10 = call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %11 = mul i32 %10, 2
  %12 = mul i32 %9, %11
  %13 = load i32, ptr %5, align 4
  %14 = add i32 %12, %13
  store i32 %14, ptr %6, align 4
  %15 = load ptr, ptr %3, align 8
  %16 = load i32, ptr %6, align 4
  %17 = zext i32 %16 to i64
  %18 = getelementptr inbounds float, ptr %15, i64 %17
  %19 = load float, ptr %18, align 4
  %20 = load ptr, ptr %3, align 8
  %21 = load i32, ptr %6, align 4
  %22 = call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %23 = add i32 %21, %22
  %24 = zext i32 %23 to i64
  %25 = getelementptr inbounds float, ptr %20, i64 %24
  %26 = load float, ptr %25, align 4
  %27 = fadd contract float %19, %26
  %28 = load i32, ptr %5, align 4
  %29 = zext i32 %28 to i64
  %30 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ7reduce3PKfPfE1s to ptr), i64 0, i64 %29
  store float %27, ptr %30, align 4
  %31 = call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %32 = udiv i32 %31, 2
  store i32 %32, ptr %7, align 4
  br label %33

33:                                               ; preds = %53, %2
  %34 = load i32, ptr %7, align 4
  %35 = icmp ugt i32 %34, 0
  br i1 %35, label %36, label %56

36:                                               ; preds = %33
  %37 = load i32, ptr %5, align 4
  %38 = load i32, ptr %7, align 4
  %39 = icmp ult i32 %37, %38
  br i1 %39, label %40, label %52

40:                                               ; preds = %36
  %41 = load i32, ptr %5, align 4
  %42 = load i32, ptr %7, align 4
  %43 = add i32 %41, %42
  %44 = zext i32 %43 to i64
  %45 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ7reduce3PKfPfE1s to ptr), i64 0, i64 %44
  %46 = load float, ptr %45, align 4
  %47 = load i32, ptr %5, align 4
  %48 = zext i32 %47 to i64
  %49 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ7reduce3PKfPfE1s to ptr), i64 0, i64 %48
  %50 = load float, ptr %49, align 4
  %51 = fadd contract float %50, %46
  store float %51, ptr %49, align 4
  br label %52

52:                                               ; preds = %40, %36
  call void @llvm.nvvm.bar.sync(i32 0)
  br label %53

53:                                               ; preds = %52
  %54 = load i32, ptr %7, align 4
  %55 = lshr i32 %54, 1
  store i32 %55, ptr %7, align 4
  br label %33, !llvm.loop !5

56:                                               ; preds = %33
  %57 = load i32, ptr %5, align 4
  %58 = icmp eq i32 %57, 0
  br i1 %58, label %59, label %65

59:                                               ; preds = %56
  %60 = load float, ptr addrspacecast (ptr addrspace(3) @_ZZ7reduce3PKfPfE1s to ptr), align 4
  %61 = load ptr, ptr %4, align 8
  %62 = call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %63 = zext i32 %62 to i64
  %64 = getelementptr inbounds float, ptr %61, i64 %63
  store float %60, ptr %64, align 4
  br label %65

65:                                               ; preds = %59, %56
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

!0 = !{ptr @_Z7reduce3PKfPf, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = distinct !{!5, !6}
!6 = !{!"llvm.loop.mustprogress"}
