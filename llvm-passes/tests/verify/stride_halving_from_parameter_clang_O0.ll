; clang 19 -O0 output of (CUDA, 256 threads a block):
;     __global__ void reduce(float *out, unsigned n) {
;       __shared__ float s[256];
;       unsigned t = threadIdx.x;
;       for (unsigned d = n; d > 0; d >>= 1) {
;         if (t < d) s[t] += s[t + d];
;       }
;       if (t == 0) out[0] = s[0];
;     }
; The reduction without its barrier, the stride starting at a parameter `n`: its values are
; not known, so they cannot be enumerated. A warning naming the stride, never silence; and
; running block 0 with `n = 8` (races/simulate.rs; the loop tests `n`) shows the race: thread 4
; adds into `s[4]` while thread 0 reads it.
; ERROR: data race (read-after-write) on `_ZZ6reducePfjE1s`
; WARNING: could not prove race freedom in `_Z6reducePfj`: `%11 = load float, ptr %10, align 4` (`%.0 = phi i32 [ %1, %2 ], [ %17, %16 ]` changes from one iteration of a barrier-free loop to the next)
; Launched as one block (`single-block`): this case is about threads of one block.
; OPTIONS: block-size=256 single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.__cuda_builtin_threadIdx_t = type { i8 }

@_ZZ6reducePfjE1s = internal addrspace(3) global [256 x float] undef, align 4
@threadIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_threadIdx_t, align 1

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define dso_local void @_Z6reducePfj(ptr noundef %0, i32 noundef %1) #0 {
  %3 = alloca ptr, align 8
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  store ptr %0, ptr %3, align 8
  store i32 %1, ptr %4, align 4
  %7 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %7, ptr %5, align 4
  %8 = load i32, ptr %4, align 4
  store i32 %8, ptr %6, align 4
  br label %9

9:                                                ; preds = %29, %2
  %10 = load i32, ptr %6, align 4
  %11 = icmp ugt i32 %10, 0
  br i1 %11, label %12, label %32

12:                                               ; preds = %9
  %13 = load i32, ptr %5, align 4
  %14 = load i32, ptr %6, align 4
  %15 = icmp ult i32 %13, %14
  br i1 %15, label %16, label %28

16:                                               ; preds = %12
  %17 = load i32, ptr %5, align 4
  %18 = load i32, ptr %6, align 4
  %19 = add i32 %17, %18
  %20 = zext i32 %19 to i64
  %21 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ6reducePfjE1s to ptr), i64 0, i64 %20
  %22 = load float, ptr %21, align 4
  %23 = load i32, ptr %5, align 4
  %24 = zext i32 %23 to i64
  %25 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ6reducePfjE1s to ptr), i64 0, i64 %24
  %26 = load float, ptr %25, align 4
  %27 = fadd contract float %26, %22
  store float %27, ptr %25, align 4
  br label %28

28:                                               ; preds = %16, %12
  br label %29

29:                                               ; preds = %28
  %30 = load i32, ptr %6, align 4
  %31 = lshr i32 %30, 1
  store i32 %31, ptr %6, align 4
  br label %9, !llvm.loop !5

32:                                               ; preds = %9
  %33 = load i32, ptr %5, align 4
  %34 = icmp eq i32 %33, 0
  br i1 %34, label %35, label %39

35:                                               ; preds = %32
  %36 = load float, ptr addrspacecast (ptr addrspace(3) @_ZZ6reducePfjE1s to ptr), align 4
  %37 = load ptr, ptr %3, align 8
  %38 = getelementptr inbounds float, ptr %37, i64 0
  store float %36, ptr %38, align 4
  br label %39

39:                                               ; preds = %35, %32
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

attributes #0 = { convergent mustprogress noinline norecurse nounwind optnone "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+sm_80" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!nvvm.annotations = !{!0}
!llvm.module.flags = !{!1, !2, !3}
!llvm.ident = !{!4}

!0 = !{ptr @_Z6reducePfj, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = distinct !{!5, !6}
!6 = !{!"llvm.loop.mustprogress"}
