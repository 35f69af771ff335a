; clang 19 -O0 output of bench/verifier/corpus/barrier_in_uniform_branch_ok.cu (256 threads):
;     s[threadIdx.x] = threadIdx.x;
;     if (n > 4) __syncthreads();
;     if (n > 4) out[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
; Both branches test one condition, computed once: a thread that skips the barrier skips the
; read too, so the read never follows the store without the barrier between. Intervals follow
; only paths that take the same edge at every branch on one such condition (at -O0 clang keeps
; the two branches; the read was once paired with the store through the skipped barrier).
; No finding.
; OPTIONS: block-size=256
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.__cuda_builtin_threadIdx_t = type { i8 }
%struct.__cuda_builtin_blockIdx_t = type { i8 }

@_ZZ7uniformPfiE1s = internal addrspace(3) global [256 x float] undef, align 4
@threadIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_threadIdx_t, align 1
@blockIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_blockIdx_t, align 1

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define dso_local void @_Z7uniformPfi(ptr noundef %0, i32 noundef %1) #0 {
  %3 = alloca ptr, align 8
  %4 = alloca i32, align 4
  store ptr %0, ptr %3, align 8
  store i32 %1, ptr %4, align 4
  %5 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %6 = uitofp i32 %5 to float
  %7 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %8 = zext i32 %7 to i64
  %9 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ7uniformPfiE1s to ptr), i64 0, i64 %8
  store float %6, ptr %9, align 4
  %10 = load i32, ptr %4, align 4
  %11 = icmp sgt i32 %10, 4
  br i1 %11, label %12, label %13

12:                                               ; preds = %2
  call void @llvm.nvvm.bar.sync(i32 0)
  br label %13

13:                                               ; preds = %12, %2
  %14 = load i32, ptr %4, align 4
  %15 = icmp sgt i32 %14, 4
  br i1 %15, label %16, label %29

16:                                               ; preds = %13
  %17 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %18 = sub i32 255, %17
  %19 = zext i32 %18 to i64
  %20 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ7uniformPfiE1s to ptr), i64 0, i64 %19
  %21 = load float, ptr %20, align 4
  %22 = load ptr, ptr %3, align 8
  %23 = call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %24 = mul i32 %23, 256
  %25 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %26 = add i32 %24, %25
  %27 = zext i32 %26 to i64
  %28 = getelementptr inbounds float, ptr %22, i64 %27
  store float %21, ptr %28, align 4
  br label %29

29:                                               ; preds = %16, %13
  ret void
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.bar.sync(i32) #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #2

attributes #0 = { convergent mustprogress noinline norecurse nounwind optnone "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+sm_80" "uniform-work-group-size"="true" }
attributes #1 = { convergent nocallback nounwind }
attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!nvvm.annotations = !{!0}
!llvm.module.flags = !{!1, !2, !3}
!llvm.ident = !{!4}

!0 = !{ptr @_Z7uniformPfi, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
