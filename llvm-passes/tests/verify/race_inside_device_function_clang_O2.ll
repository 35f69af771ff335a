; clang 19 -O2 output of race_inside_device_function_clang_O0.ll's source: `noinline` keeps foo
; and bar as calls even here (and no `alloca` is left); the verifier's copy inlines them. The
; same three races.
; ERROR: data race (write-after-read) on `_ZZ1kPiE1s` in `_Z1kPi`
; ERROR: data race (write-after-write) on `_ZZ2k2PiE1s` in `_Z2k2Pi`
; ERROR: data race (write-after-write) on `_ZZ2k3PiE1s` in `_Z2k3Pi`
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: block-size=64 single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ1kPiE1s = internal addrspace(3) global [64 x i32] undef, align 4
@_ZZ2k2PiE1s = internal addrspace(3) global [64 x i32] undef, align 4
@_ZZ2k3PiE1s = internal addrspace(3) global [64 x i32] undef, align 4

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: read)
define dso_local noundef i32 @_Z3fooPi(ptr nocapture noundef readonly %0) local_unnamed_addr #0 {
  %2 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %3 = zext nneg i32 %2 to i64
  %4 = getelementptr inbounds i32, ptr %0, i64 %3
  %5 = load i32, ptr %4, align 4, !tbaa !7
  ret i32 %5
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(readwrite, argmem: write, inaccessiblemem: none)
define dso_local void @_Z1kPi(ptr nocapture noundef writeonly %0) local_unnamed_addr #1 {
  %2 = tail call noundef i32 @_Z3fooPi(ptr noundef addrspacecast (ptr addrspace(3) @_ZZ1kPiE1s to ptr)) #6
  %3 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %4 = zext nneg i32 %3 to i64
  %5 = getelementptr inbounds i32, ptr %0, i64 %4
  store i32 %2, ptr %5, align 4, !tbaa !7
  %6 = add nuw nsw i32 %3, 1
  %7 = zext nneg i32 %6 to i64
  %8 = getelementptr inbounds [64 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ1kPiE1s to ptr), i64 0, i64 %7
  store i32 1, ptr %8, align 4, !tbaa !7
  ret void
}

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: write)
define dso_local void @_Z3barPi(ptr nocapture noundef writeonly %0) local_unnamed_addr #2 {
  %2 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %2, ptr %0, align 4, !tbaa !7
  ret void
}

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local void @_Z2k2Pi(ptr nocapture noundef writeonly %0) local_unnamed_addr #3 {
  tail call void @_Z3barPi(ptr noundef addrspacecast (ptr addrspace(3) @_ZZ2k2PiE1s to ptr)) #6
  tail call void @llvm.nvvm.bar.sync(i32 0)
  %2 = load i32, ptr addrspacecast (ptr addrspace(3) @_ZZ2k2PiE1s to ptr), align 4, !tbaa !7
  %3 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %4 = zext nneg i32 %3 to i64
  %5 = getelementptr inbounds i32, ptr %0, i64 %4
  store i32 %2, ptr %5, align 4, !tbaa !7
  ret void
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.bar.sync(i32) #4

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local void @_Z2k3Pi(ptr nocapture noundef writeonly %0) local_unnamed_addr #3 {
  %2 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %3 = and i32 %2, 1
  %4 = zext nneg i32 %3 to i64
  %5 = getelementptr inbounds i32, ptr addrspacecast (ptr addrspace(3) @_ZZ2k3PiE1s to ptr), i64 %4
  tail call void @_Z3barPi(ptr noundef %5) #6
  tail call void @llvm.nvvm.bar.sync(i32 0)
  %6 = load i32, ptr addrspacecast (ptr addrspace(3) @_ZZ2k3PiE1s to ptr), align 4, !tbaa !7
  %7 = zext nneg i32 %2 to i64
  %8 = getelementptr inbounds i32, ptr %0, i64 %7
  store i32 %6, ptr %8, align 4, !tbaa !7
  ret void
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #5

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: read) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+sm_80" }
attributes #1 = { mustprogress nofree norecurse nosync nounwind willreturn memory(readwrite, argmem: write, inaccessiblemem: none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+sm_80" "uniform-work-group-size"="true" }
attributes #2 = { mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: write) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+sm_80" }
attributes #3 = { convergent mustprogress norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+sm_80" "uniform-work-group-size"="true" }
attributes #4 = { convergent nocallback nounwind }
attributes #5 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #6 = { nounwind }

!nvvm.annotations = !{!0, !1, !2}
!llvm.module.flags = !{!3, !4, !5}
!llvm.ident = !{!6}

!0 = !{ptr @_Z1kPi, !"kernel", i32 1}
!1 = !{ptr @_Z2k2Pi, !"kernel", i32 1}
!2 = !{ptr @_Z2k3Pi, !"kernel", i32 1}
!3 = !{i32 1, !"wchar_size", i32 4}
!4 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!5 = !{i32 7, !"frame-pointer", i32 2}
!6 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!7 = !{!8, !8, i64 0}
!8 = !{!"int", !9, i64 0}
!9 = !{!"omnipotent char", !10, i64 0}
!10 = !{!"Simple C++ TBAA"}
