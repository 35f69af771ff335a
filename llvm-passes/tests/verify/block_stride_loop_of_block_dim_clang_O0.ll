; clang 19 -O0 output of (CUDA, 64 threads a block):
;     __global__ void k1(float *out, int n) {
;       __shared__ float s[4096];
;       for (int i = threadIdx.x; i < 4096; i += blockDim.x) s[i] = 1.0f;
;       __syncthreads();
;       out[threadIdx.x] = s[threadIdx.x];
;     }
;     (k2: the same with `i += blockDim.x * blockDim.y`)
; With the block size given, `blockDim.x` (and `blockDim.x * blockDim.y`) is the constant 64:
; the loop is a block-stride loop, `tid + 64·j`, and threads write disjoint elements. No
; finding (it was once a warning that the counter changes from one iteration to the next).
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: block-size=64 single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.__cuda_builtin_threadIdx_t = type { i8 }
%struct.__cuda_builtin_blockDim_t = type { i8 }

@_ZZ2k1PfiE1s = internal addrspace(3) global [4096 x float] undef, align 4
@threadIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_threadIdx_t, align 1
@blockDim = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_blockDim_t, align 1
@_ZZ2k2PfiE1s = internal addrspace(3) global [4096 x float] undef, align 4

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define dso_local void @_Z2k1Pfi(ptr noundef %0, i32 noundef %1) #0 {
  %3 = alloca ptr, align 8
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  store ptr %0, ptr %3, align 8
  store i32 %1, ptr %4, align 4
  %6 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %6, ptr %5, align 4
  br label %7

7:                                                ; preds = %14, %2
  %8 = load i32, ptr %5, align 4
  %9 = icmp slt i32 %8, 4096
  br i1 %9, label %10, label %18

10:                                               ; preds = %7
  %11 = load i32, ptr %5, align 4
  %12 = sext i32 %11 to i64
  %13 = getelementptr inbounds [4096 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ2k1PfiE1s to ptr), i64 0, i64 %12
  store float 1.000000e+00, ptr %13, align 4
  br label %14

14:                                               ; preds = %10
  %15 = call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %16 = load i32, ptr %5, align 4
  %17 = add i32 %16, %15
  store i32 %17, ptr %5, align 4
  br label %7, !llvm.loop !6

18:                                               ; preds = %7
  call void @llvm.nvvm.bar.sync(i32 0)
  %19 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %20 = zext i32 %19 to i64
  %21 = getelementptr inbounds [4096 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ2k1PfiE1s to ptr), i64 0, i64 %20
  %22 = load float, ptr %21, align 4
  %23 = load ptr, ptr %3, align 8
  %24 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %25 = zext i32 %24 to i64
  %26 = getelementptr inbounds float, ptr %23, i64 %25
  store float %22, ptr %26, align 4
  ret void
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.bar.sync(i32) #1

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define dso_local void @_Z2k2Pfi(ptr noundef %0, i32 noundef %1) #0 {
  %3 = alloca ptr, align 8
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  store ptr %0, ptr %3, align 8
  store i32 %1, ptr %4, align 4
  %6 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %6, ptr %5, align 4
  br label %7

7:                                                ; preds = %14, %2
  %8 = load i32, ptr %5, align 4
  %9 = icmp slt i32 %8, 4096
  br i1 %9, label %10, label %20

10:                                               ; preds = %7
  %11 = load i32, ptr %5, align 4
  %12 = sext i32 %11 to i64
  %13 = getelementptr inbounds [4096 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ2k2PfiE1s to ptr), i64 0, i64 %12
  store float 1.000000e+00, ptr %13, align 4
  br label %14

14:                                               ; preds = %10
  %15 = call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %16 = call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %17 = mul i32 %15, %16
  %18 = load i32, ptr %5, align 4
  %19 = add i32 %18, %17
  store i32 %19, ptr %5, align 4
  br label %7, !llvm.loop !8

20:                                               ; preds = %7
  call void @llvm.nvvm.bar.sync(i32 0)
  %21 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %22 = zext i32 %21 to i64
  %23 = getelementptr inbounds [4096 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ2k2PfiE1s to ptr), i64 0, i64 %22
  %24 = load float, ptr %23, align 4
  %25 = load ptr, ptr %3, align 8
  %26 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %27 = zext i32 %26 to i64
  %28 = getelementptr inbounds float, ptr %25, i64 %27
  store float %24, ptr %28, align 4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #2

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.y() #2

attributes #0 = { convergent mustprogress noinline norecurse nounwind optnone "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+sm_80" "uniform-work-group-size"="true" }
attributes #1 = { convergent nocallback nounwind }
attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!nvvm.annotations = !{!0, !1}
!llvm.module.flags = !{!2, !3, !4}
!llvm.ident = !{!5}

!0 = !{ptr @_Z2k1Pfi, !"kernel", i32 1}
!1 = !{ptr @_Z2k2Pfi, !"kernel", i32 1}
!2 = !{i32 1, !"wchar_size", i32 4}
!3 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!4 = !{i32 7, !"frame-pointer", i32 2}
!5 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!6 = distinct !{!6, !7}
!7 = !{!"llvm.loop.mustprogress"}
!8 = distinct !{!8, !7}
