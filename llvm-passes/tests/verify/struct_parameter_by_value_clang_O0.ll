; clang 19 -O0 output of (CUDA, 64 threads):
;     struct P { float *a; float *b; int n; };
;     __global__ void own(P p) { p.a[threadIdx.x] = p.b[threadIdx.x]; }
;     __global__ void all_write_first(P p) { p.a[0] = threadIdx.x; }
;     __global__ void own_copy(P p) { p.n = threadIdx.x; p.a[threadIdx.x] = p.n; }
; A struct passed by value is a `byval` pointer to the thread's own copy: storing into it (p.n)
; is private, no race. A pointer loaded from one of its fields is an array of global memory,
; one per field like a pointer parameter: all_write_first races on p.a[0], own and own_copy touch
; their own elements. (The loaded pointers were once shared accesses the verifier could not
; place, and the copy's fields global memory all threads share.)
; ERROR: data race (write-after-write) on `the array of the pointer at byte 0 of argument 0` in `_Z15all_write_first1P`
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: block-size=64 single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.__cuda_builtin_threadIdx_t = type { i8 }
%struct.P = type { ptr, ptr, i32 }

@threadIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_threadIdx_t, align 1

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define dso_local void @_Z3own1P(ptr noundef byval(%struct.P) align 8 %0) #0 {
  %2 = getelementptr inbounds %struct.P, ptr %0, i32 0, i32 1
  %3 = load ptr, ptr %2, align 8
  %4 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %5 = zext i32 %4 to i64
  %6 = getelementptr inbounds float, ptr %3, i64 %5
  %7 = load float, ptr %6, align 4
  %8 = getelementptr inbounds %struct.P, ptr %0, i32 0, i32 0
  %9 = load ptr, ptr %8, align 8
  %10 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %11 = zext i32 %10 to i64
  %12 = getelementptr inbounds float, ptr %9, i64 %11
  store float %7, ptr %12, align 4
  ret void
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define dso_local void @_Z15all_write_first1P(ptr noundef byval(%struct.P) align 8 %0) #0 {
  %2 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %3 = uitofp i32 %2 to float
  %4 = getelementptr inbounds %struct.P, ptr %0, i32 0, i32 0
  %5 = load ptr, ptr %4, align 8
  %6 = getelementptr inbounds float, ptr %5, i64 0
  store float %3, ptr %6, align 4
  ret void
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define dso_local void @_Z8own_copy1P(ptr noundef byval(%struct.P) align 8 %0) #0 {
  %2 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %3 = getelementptr inbounds %struct.P, ptr %0, i32 0, i32 2
  store i32 %2, ptr %3, align 8
  %4 = getelementptr inbounds %struct.P, ptr %0, i32 0, i32 2
  %5 = load i32, ptr %4, align 8
  %6 = sitofp i32 %5 to float
  %7 = getelementptr inbounds %struct.P, ptr %0, i32 0, i32 0
  %8 = load ptr, ptr %7, align 8
  %9 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %10 = zext i32 %9 to i64
  %11 = getelementptr inbounds float, ptr %8, i64 %10
  store float %6, ptr %11, align 4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

attributes #0 = { convergent mustprogress noinline norecurse nounwind optnone "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+sm_80" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!nvvm.annotations = !{!0, !1, !2}
!llvm.module.flags = !{!3, !4, !5}
!llvm.ident = !{!6}

!0 = !{ptr @_Z3own1P, !"kernel", i32 1}
!1 = !{ptr @_Z15all_write_first1P, !"kernel", i32 1}
!2 = !{ptr @_Z8own_copy1P, !"kernel", i32 1}
!3 = !{i32 1, !"wchar_size", i32 4}
!4 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!5 = !{i32 7, !"frame-pointer", i32 2}
!6 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
