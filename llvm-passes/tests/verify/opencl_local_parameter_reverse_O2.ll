; clang 19 -O2 output of OpenCL C (`clang-19 -x cl -target nvptx64-nvidia-cuda -cl-std=CL1.2
; -Xclang -finclude-default-header`), 64 work-items a group:
;     __kernel void reverse(__global float *out, __global const float *in, __local float *tmp) {
;       size_t l = get_local_id(0), g = get_global_id(0), n = get_local_size(0);
;       tmp[l] = in[g];
;       barrier(CLK_LOCAL_MEM_FENCE);
;       out[g] = tmp[n - 1 - l];
;     }
;     (reverse_racy: the same without the barrier)
; The `__local` parameter is a shared buffer of its own (it was once a shared access the
; verifier could not place), and the work-item functions and `barrier`, external calls without
; libclc, are given their NVVM meaning (tid, ctaid * ntid + tid, ntid, barrier0) in the
; verifier's copy. reverse is race-free; reverse_racy reads tmp[63 - l] before thread 63 of the
; group has written it.
; ERROR: data race (read-after-write) on `argument 2` in `reverse_racy`
; OPTIONS: block-size=64
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @reverse(ptr addrspace(1) nocapture noundef writeonly align 4 %0, ptr addrspace(1) nocapture noundef readonly align 4 %1, ptr addrspace(3) nocapture noundef align 4 %2) local_unnamed_addr #0 !kernel_arg_addr_space !6 !kernel_arg_access_qual !7 !kernel_arg_type !8 !kernel_arg_base_type !8 !kernel_arg_type_qual !9 {
  %4 = tail call i64 @_Z12get_local_idj(i32 noundef 0) #4
  %5 = tail call i64 @_Z13get_global_idj(i32 noundef 0) #4
  %6 = tail call i64 @_Z14get_local_sizej(i32 noundef 0) #4
  %7 = getelementptr inbounds float, ptr addrspace(1) %1, i64 %5
  %8 = load float, ptr addrspace(1) %7, align 4, !tbaa !10
  %9 = getelementptr inbounds float, ptr addrspace(3) %2, i64 %4
  store float %8, ptr addrspace(3) %9, align 4, !tbaa !10
  tail call void @_Z7barrierj(i32 noundef 1) #5
  %10 = xor i64 %4, -1
  %11 = getelementptr float, ptr addrspace(3) %2, i64 %6
  %12 = getelementptr float, ptr addrspace(3) %11, i64 %10
  %13 = load float, ptr addrspace(3) %12, align 4, !tbaa !10
  %14 = getelementptr inbounds float, ptr addrspace(1) %0, i64 %5
  store float %13, ptr addrspace(1) %14, align 4, !tbaa !10
  ret void
}

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare dso_local i64 @_Z12get_local_idj(i32 noundef) local_unnamed_addr #1

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare dso_local i64 @_Z13get_global_idj(i32 noundef) local_unnamed_addr #1

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare dso_local i64 @_Z14get_local_sizej(i32 noundef) local_unnamed_addr #1

; Function Attrs: convergent nounwind
declare dso_local void @_Z7barrierj(i32 noundef) local_unnamed_addr #2

; Function Attrs: convergent mustprogress nofree noinline norecurse nounwind willreturn memory(argmem: readwrite)
define dso_local spir_kernel void @reverse_racy(ptr addrspace(1) nocapture noundef writeonly align 4 %0, ptr addrspace(1) nocapture noundef readonly align 4 %1, ptr addrspace(3) nocapture noundef align 4 %2) local_unnamed_addr #3 !kernel_arg_addr_space !6 !kernel_arg_access_qual !7 !kernel_arg_type !8 !kernel_arg_base_type !8 !kernel_arg_type_qual !9 {
  %4 = tail call i64 @_Z12get_local_idj(i32 noundef 0) #4
  %5 = tail call i64 @_Z13get_global_idj(i32 noundef 0) #4
  %6 = tail call i64 @_Z14get_local_sizej(i32 noundef 0) #4
  %7 = getelementptr inbounds float, ptr addrspace(1) %1, i64 %5
  %8 = load float, ptr addrspace(1) %7, align 4, !tbaa !10
  %9 = getelementptr inbounds float, ptr addrspace(3) %2, i64 %4
  store float %8, ptr addrspace(3) %9, align 4, !tbaa !10
  %10 = xor i64 %4, -1
  %11 = getelementptr float, ptr addrspace(3) %2, i64 %6
  %12 = getelementptr float, ptr addrspace(3) %11, i64 %10
  %13 = load float, ptr addrspace(3) %12, align 4, !tbaa !10
  %14 = getelementptr inbounds float, ptr addrspace(1) %0, i64 %5
  store float %13, ptr addrspace(1) %14, align 4, !tbaa !10
  ret void
}

attributes #0 = { convergent noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-features"="+ptx42" "uniform-work-group-size"="true" }
attributes #1 = { convergent mustprogress nofree nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-features"="+ptx42" }
attributes #2 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-features"="+ptx42" }
attributes #3 = { convergent mustprogress nofree noinline norecurse nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-features"="+ptx42" "uniform-work-group-size"="true" }
attributes #4 = { convergent nounwind willreturn memory(none) }
attributes #5 = { convergent nounwind }

!nvvm.annotations = !{!0, !1}
!llvm.module.flags = !{!2, !3}
!opencl.ocl.version = !{!4}
!llvm.ident = !{!5}

!0 = !{ptr @reverse, !"kernel", i32 1}
!1 = !{ptr @reverse_racy, !"kernel", i32 1}
!2 = !{i32 1, !"wchar_size", i32 4}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{i32 1, i32 2}
!5 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!6 = !{i32 1, i32 1, i32 3}
!7 = !{!"none", !"none", !"none"}
!8 = !{!"float*", !"float*", !"float*"}
!9 = !{!"", !"const", !""}
!10 = !{!11, !11, i64 0}
!11 = !{!"float", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C/C++ TBAA"}
