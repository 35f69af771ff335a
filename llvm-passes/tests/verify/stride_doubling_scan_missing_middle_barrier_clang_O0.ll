; clang 19 -O0 output of (CUDA, 256 threads a block):
;     __global__ void scan(float *out) {
;       __shared__ float s[256];
;       unsigned t = threadIdx.x;
;       for (unsigned d = 1; d < 256; d *= 2) {
;         float x = 0.0f;
;         if (t >= d) x = s[t - d];
;         s[t] += x;
;         __syncthreads();
;       }
;       out[t] = s[t];
;     }
; The scan with the barrier between the read and the write removed: the one at the end of the
; iteration keeps both threads in one iteration, so they see one value of d (shared, not one
; per thread): in the first iteration, d = 1, thread 1 reads s[0] while thread 0 writes it.
; ERROR: thread 1 reads byte 0 in `%10 = load float, ptr %9, align 4`, thread 0 writes byte 0 in `store float %15, ptr %13, align 4` (when %.010 = 1)
; Launched as one block (`single-block`): this case is about threads of one block.
; OPTIONS: block-size=256 single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.__cuda_builtin_threadIdx_t = type { i8 }

@_ZZ4scanPfE1s = internal addrspace(3) global [256 x float] undef, align 4
@threadIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_threadIdx_t, align 1

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define dso_local void @_Z4scanPf(ptr noundef %0) #0 {
  %2 = alloca ptr, align 8
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  %5 = alloca float, align 4
  store ptr %0, ptr %2, align 8
  %6 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %6, ptr %3, align 4
  store i32 1, ptr %4, align 4
  br label %7

7:                                                ; preds = %28, %1
  %8 = load i32, ptr %4, align 4
  %9 = icmp ult i32 %8, 256
  br i1 %9, label %10, label %31

10:                                               ; preds = %7
  store float 0.000000e+00, ptr %5, align 4
  %11 = load i32, ptr %3, align 4
  %12 = load i32, ptr %4, align 4
  %13 = icmp uge i32 %11, %12
  br i1 %13, label %14, label %21

14:                                               ; preds = %10
  %15 = load i32, ptr %3, align 4
  %16 = load i32, ptr %4, align 4
  %17 = sub i32 %15, %16
  %18 = zext i32 %17 to i64
  %19 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ4scanPfE1s to ptr), i64 0, i64 %18
  %20 = load float, ptr %19, align 4
  store float %20, ptr %5, align 4
  br label %21

21:                                               ; preds = %14, %10
  %22 = load float, ptr %5, align 4
  %23 = load i32, ptr %3, align 4
  %24 = zext i32 %23 to i64
  %25 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ4scanPfE1s to ptr), i64 0, i64 %24
  %26 = load float, ptr %25, align 4
  %27 = fadd contract float %26, %22
  store float %27, ptr %25, align 4
  call void @llvm.nvvm.bar.sync(i32 0)
  br label %28

28:                                               ; preds = %21
  %29 = load i32, ptr %4, align 4
  %30 = mul i32 %29, 2
  store i32 %30, ptr %4, align 4
  br label %7, !llvm.loop !5

31:                                               ; preds = %7
  %32 = load i32, ptr %3, align 4
  %33 = zext i32 %32 to i64
  %34 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ4scanPfE1s to ptr), i64 0, i64 %33
  %35 = load float, ptr %34, align 4
  %36 = load ptr, ptr %2, align 8
  %37 = load i32, ptr %3, align 4
  %38 = zext i32 %37 to i64
  %39 = getelementptr inbounds float, ptr %36, i64 %38
  store float %35, ptr %39, align 4
  ret void
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.bar.sync(i32) #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

attributes #0 = { convergent mustprogress noinline norecurse nounwind optnone "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+sm_80" "uniform-work-group-size"="true" }
attributes #1 = { convergent nocallback nounwind }
attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!nvvm.annotations = !{!0}
!llvm.module.flags = !{!1, !2, !3}
!llvm.ident = !{!4}

!0 = !{ptr @_Z4scanPf, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = distinct !{!5, !6}
!6 = !{!"llvm.loop.mustprogress"}
