; clang 19 -O0 output of (CUDA):
;     __global__ void k(float *out, float a) {
;       float w;
;       if (threadIdx.x == 0) w = 1.0f; else w = 2.0f;
;       out[threadIdx.x] = w;
;       if (w == 1.0f) { __syncthreads(); }
;     }
; After mem2reg `w` is `phi float [1.0], [2.0]` on a branch on `tid`: the barrier is reached by
; thread 0 only. This was passed without a word when float constants were one abstract value.
; ERROR: divergent barrier in `_Z1kPff`
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: block-size=32 single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.__cuda_builtin_threadIdx_t = type { i8 }

@threadIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_threadIdx_t, align 1

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define dso_local void @_Z1kPff(ptr noundef %0, float noundef %1) #0 {
  %3 = alloca ptr, align 8
  %4 = alloca float, align 4
  %5 = alloca float, align 4
  store ptr %0, ptr %3, align 8
  store float %1, ptr %4, align 4
  %6 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %7 = icmp eq i32 %6, 0
  br i1 %7, label %8, label %9

8:                                                ; preds = %2
  store float 1.000000e+00, ptr %5, align 4
  br label %10

9:                                                ; preds = %2
  store float 2.000000e+00, ptr %5, align 4
  br label %10

10:                                               ; preds = %9, %8
  %11 = load float, ptr %5, align 4
  %12 = load ptr, ptr %3, align 8
  %13 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %14 = zext i32 %13 to i64
  %15 = getelementptr inbounds float, ptr %12, i64 %14
  store float %11, ptr %15, align 4
  %16 = load float, ptr %5, align 4
  %17 = fcmp contract oeq float %16, 1.000000e+00
  br i1 %17, label %18, label %19

18:                                               ; preds = %10
  call void @llvm.nvvm.bar.sync(i32 0)
  br label %19

19:                                               ; preds = %18, %10
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

!0 = !{ptr @_Z1kPff, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
