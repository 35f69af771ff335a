; bench/verifier/corpus/odd_even_sort_ok.cu, clang 19 -O0: the odd-even sort with its barrier,
; race-free. The phase's parity at an interval's start is not expressible (E0852), and running
; block 0 on the inputs tried (races/simulate.rs) finds no conflict between barriers: no error.
; WARNING: could not prove race freedom
; WARNING: could not prove race freedom
; WARNING: could not prove race freedom
; OPTIONS: block-size=128
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.__cuda_builtin_threadIdx_t = type { i8 }
%struct.__cuda_builtin_blockIdx_t = type { i8 }

@_ZZ8odd_evenPiE1s = internal addrspace(3) global [128 x i32] undef, align 4
@threadIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_threadIdx_t, align 1
@blockIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_blockIdx_t, align 1

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define dso_local void @_Z8odd_evenPi(ptr noundef %0) #0 {
  %2 = alloca ptr, align 8
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  store ptr %0, ptr %2, align 8
  %7 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %7, ptr %3, align 4
  %8 = load ptr, ptr %2, align 8
  %9 = call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %10 = mul i32 %9, 128
  %11 = load i32, ptr %3, align 4
  %12 = add i32 %10, %11
  %13 = zext i32 %12 to i64
  %14 = getelementptr inbounds i32, ptr %8, i64 %13
  %15 = load i32, ptr %14, align 4
  %16 = load i32, ptr %3, align 4
  %17 = zext i32 %16 to i64
  %18 = getelementptr inbounds [128 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ8odd_evenPiE1s to ptr), i64 0, i64 %17
  store i32 %15, ptr %18, align 4
  call void @llvm.nvvm.bar.sync(i32 0)
  store i32 0, ptr %4, align 4
  br label %19

19:                                               ; preds = %57, %1
  %20 = load i32, ptr %4, align 4
  %21 = icmp ult i32 %20, 128
  br i1 %21, label %22, label %60

22:                                               ; preds = %19
  %23 = load i32, ptr %3, align 4
  %24 = and i32 %23, 1
  %25 = load i32, ptr %4, align 4
  %26 = and i32 %25, 1
  %27 = icmp eq i32 %24, %26
  br i1 %27, label %28, label %56

28:                                               ; preds = %22
  %29 = load i32, ptr %3, align 4
  %30 = add i32 %29, 1
  %31 = icmp ult i32 %30, 128
  br i1 %31, label %32, label %56

32:                                               ; preds = %28
  %33 = load i32, ptr %3, align 4
  %34 = zext i32 %33 to i64
  %35 = getelementptr inbounds [128 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ8odd_evenPiE1s to ptr), i64 0, i64 %34
  %36 = load i32, ptr %35, align 4
  store i32 %36, ptr %5, align 4
  %37 = load i32, ptr %3, align 4
  %38 = add i32 %37, 1
  %39 = zext i32 %38 to i64
  %40 = getelementptr inbounds [128 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ8odd_evenPiE1s to ptr), i64 0, i64 %39
  %41 = load i32, ptr %40, align 4
  store i32 %41, ptr %6, align 4
  %42 = load i32, ptr %5, align 4
  %43 = load i32, ptr %6, align 4
  %44 = icmp sgt i32 %42, %43
  br i1 %44, label %45, label %55

45:                                               ; preds = %32
  %46 = load i32, ptr %6, align 4
  %47 = load i32, ptr %3, align 4
  %48 = zext i32 %47 to i64
  %49 = getelementptr inbounds [128 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ8odd_evenPiE1s to ptr), i64 0, i64 %48
  store i32 %46, ptr %49, align 4
  %50 = load i32, ptr %5, align 4
  %51 = load i32, ptr %3, align 4
  %52 = add i32 %51, 1
  %53 = zext i32 %52 to i64
  %54 = getelementptr inbounds [128 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ8odd_evenPiE1s to ptr), i64 0, i64 %53
  store i32 %50, ptr %54, align 4
  br label %55

55:                                               ; preds = %45, %32
  br label %56

56:                                               ; preds = %55, %28, %22
  call void @llvm.nvvm.bar.sync(i32 0)
  br label %57

57:                                               ; preds = %56
  %58 = load i32, ptr %4, align 4
  %59 = add i32 %58, 1
  store i32 %59, ptr %4, align 4
  br label %19, !llvm.loop !5

60:                                               ; preds = %19
  %61 = load i32, ptr %3, align 4
  %62 = zext i32 %61 to i64
  %63 = getelementptr inbounds [128 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ8odd_evenPiE1s to ptr), i64 0, i64 %62
  %64 = load i32, ptr %63, align 4
  %65 = load ptr, ptr %2, align 8
  %66 = call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %67 = mul i32 %66, 128
  %68 = load i32, ptr %3, align 4
  %69 = add i32 %67, %68
  %70 = zext i32 %69 to i64
  %71 = getelementptr inbounds i32, ptr %65, i64 %70
  store i32 %64, ptr %71, align 4
  ret void
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.bar.sync(i32) #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #2

attributes #0 = { convergent mustprogress noinline norecurse nounwind optnone "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+ptx70,+sm_80" "uniform-work-group-size"="true" }
attributes #1 = { convergent nocallback nounwind }
attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!nvvm.annotations = !{!0}
!llvm.module.flags = !{!1, !2, !3}
!llvm.ident = !{!4}

!0 = !{ptr @_Z8odd_evenPi, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = distinct !{!5, !6}
!6 = !{!"llvm.loop.mustprogress"}
