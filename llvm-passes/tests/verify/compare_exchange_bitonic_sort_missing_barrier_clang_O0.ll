; bench/verifier/corpus/bitonic_sort_missing_barrier.cu, clang 19 -O0: the bitonic sort without
; the barrier between compare-exchange steps. The inner stride starts at the outer one's half,
; which the address analysis cannot express (E0852); running block 0 on an all-zero input
; (races/simulate.rs) shows the race: thread 2's descending half exchanges equal values
; (`(t & k) == 0` is false, and so is `a > b`), writing s[2] while thread 0 reads it.
; ERROR: data race (read-after-write) on `_ZZ7bitonicPjE1s`
; WARNING: could not prove race freedom
; WARNING: could not prove race freedom
; OPTIONS: block-size=256
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.__cuda_builtin_threadIdx_t = type { i8 }
%struct.__cuda_builtin_blockIdx_t = type { i8 }

@_ZZ7bitonicPjE1s = internal addrspace(3) global [256 x i32] undef, align 4
@threadIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_threadIdx_t, align 1
@blockIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_blockIdx_t, align 1

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define dso_local void @_Z7bitonicPj(ptr noundef %0) #0 {
  %2 = alloca ptr, align 8
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  store ptr %0, ptr %2, align 8
  %9 = call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %9, ptr %3, align 4
  %10 = load ptr, ptr %2, align 8
  %11 = call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %12 = mul i32 %11, 256
  %13 = load i32, ptr %3, align 4
  %14 = add i32 %12, %13
  %15 = zext i32 %14 to i64
  %16 = getelementptr inbounds i32, ptr %10, i64 %15
  %17 = load i32, ptr %16, align 4
  %18 = load i32, ptr %3, align 4
  %19 = zext i32 %18 to i64
  %20 = getelementptr inbounds [256 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ7bitonicPjE1s to ptr), i64 0, i64 %19
  store i32 %17, ptr %20, align 4
  call void @llvm.nvvm.bar.sync(i32 0)
  store i32 2, ptr %4, align 4
  br label %21

21:                                               ; preds = %71, %1
  %22 = load i32, ptr %4, align 4
  %23 = icmp ule i32 %22, 256
  br i1 %23, label %24, label %74

24:                                               ; preds = %21
  %25 = load i32, ptr %4, align 4
  %26 = lshr i32 %25, 1
  store i32 %26, ptr %5, align 4
  br label %27

27:                                               ; preds = %67, %24
  %28 = load i32, ptr %5, align 4
  %29 = icmp ugt i32 %28, 0
  br i1 %29, label %30, label %70

30:                                               ; preds = %27
  %31 = load i32, ptr %3, align 4
  %32 = load i32, ptr %5, align 4
  %33 = xor i32 %31, %32
  store i32 %33, ptr %6, align 4
  %34 = load i32, ptr %6, align 4
  %35 = load i32, ptr %3, align 4
  %36 = icmp ugt i32 %34, %35
  br i1 %36, label %37, label %66

37:                                               ; preds = %30
  %38 = load i32, ptr %3, align 4
  %39 = zext i32 %38 to i64
  %40 = getelementptr inbounds [256 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ7bitonicPjE1s to ptr), i64 0, i64 %39
  %41 = load i32, ptr %40, align 4
  store i32 %41, ptr %7, align 4
  %42 = load i32, ptr %6, align 4
  %43 = zext i32 %42 to i64
  %44 = getelementptr inbounds [256 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ7bitonicPjE1s to ptr), i64 0, i64 %43
  %45 = load i32, ptr %44, align 4
  store i32 %45, ptr %8, align 4
  %46 = load i32, ptr %3, align 4
  %47 = load i32, ptr %4, align 4
  %48 = and i32 %46, %47
  %49 = icmp eq i32 %48, 0
  %50 = zext i1 %49 to i32
  %51 = load i32, ptr %7, align 4
  %52 = load i32, ptr %8, align 4
  %53 = icmp ugt i32 %51, %52
  %54 = zext i1 %53 to i32
  %55 = icmp eq i32 %50, %54
  br i1 %55, label %56, label %65

56:                                               ; preds = %37
  %57 = load i32, ptr %8, align 4
  %58 = load i32, ptr %3, align 4
  %59 = zext i32 %58 to i64
  %60 = getelementptr inbounds [256 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ7bitonicPjE1s to ptr), i64 0, i64 %59
  store i32 %57, ptr %60, align 4
  %61 = load i32, ptr %7, align 4
  %62 = load i32, ptr %6, align 4
  %63 = zext i32 %62 to i64
  %64 = getelementptr inbounds [256 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ7bitonicPjE1s to ptr), i64 0, i64 %63
  store i32 %61, ptr %64, align 4
  br label %65

65:                                               ; preds = %56, %37
  br label %66

66:                                               ; preds = %65, %30
  br label %67

67:                                               ; preds = %66
  %68 = load i32, ptr %5, align 4
  %69 = lshr i32 %68, 1
  store i32 %69, ptr %5, align 4
  br label %27, !llvm.loop !5

70:                                               ; preds = %27
  br label %71

71:                                               ; preds = %70
  %72 = load i32, ptr %4, align 4
  %73 = shl i32 %72, 1
  store i32 %73, ptr %4, align 4
  br label %21, !llvm.loop !7

74:                                               ; preds = %21
  call void @llvm.nvvm.bar.sync(i32 0)
  %75 = load i32, ptr %3, align 4
  %76 = zext i32 %75 to i64
  %77 = getelementptr inbounds [256 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ7bitonicPjE1s to ptr), i64 0, i64 %76
  %78 = load i32, ptr %77, align 4
  %79 = load ptr, ptr %2, align 8
  %80 = call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %81 = mul i32 %80, 256
  %82 = load i32, ptr %3, align 4
  %83 = add i32 %81, %82
  %84 = zext i32 %83 to i64
  %85 = getelementptr inbounds i32, ptr %79, i64 %84
  store i32 %78, ptr %85, align 4
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

!0 = !{ptr @_Z7bitonicPj, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = distinct !{!5, !6}
!6 = !{!"llvm.loop.mustprogress"}
!7 = distinct !{!7, !6}
