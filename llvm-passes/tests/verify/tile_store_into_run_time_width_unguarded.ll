; The twin of tile_store_into_run_time_width_guarded without the column's guard (only the row's,
; BCOL * 16 + tid.y <u cols): the column BROW * 16 + tid.x may be rows or more, and with rows = 8,
; thread (8, 0) (row 0, column 8) and thread (0, 1) (row 1, column 0) store one element. The
; index is not known to be injective, and not affine. Expected: a warning (E0852) from the
; pair test, and the race, found by running block (0, 0) with every integer parameter 8
; (races/simulate.rs): threads (8, 0) and (0, 1) both store element 8 of `out`.
; WARNING: could not prove race freedom in `transposeMatrix`
; ERROR: data race (write-after-write) on `%out`
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@t = internal unnamed_addr addrspace(3) global [256 x float] undef, align 16

define void @transposeMatrix(i32 %rows, i32 %cols, ptr addrspace(1) noalias nocapture readonly %a, ptr addrspace(1) nocapture writeonly %out) {
entry:
  %0 = tail call range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %mul = shl nuw nsw i32 %0, 4
  %1 = tail call range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %mul8 = shl i32 %1, 4
  %2 = tail call range(i32 0, 256) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %3 = tail call range(i32 0, 256) i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %tid.row = shl nuw nsw i32 %3, 4
  %tid = add nuw nsw i32 %tid.row, %2
  %idx = zext nneg i32 %tid to i64
  %tile.i55 = lshr i32 %tid, 4
  %tile.j = and i32 %2, 15
  %tile.at = add nuw nsw i32 %tile.i55, %mul
  %tile.at17 = or disjoint i32 %mul8, %tile.j
  %idx19 = sext i32 %rows to i64
  %inside = icmp ult i32 %tile.at, %rows
  %inside22 = icmp ult i32 %tile.at17, %cols
  %4 = and i1 %inside22, %inside
  br i1 %4, label %checked.load, label %checked.end

checked.load:
  %idx.nneg = zext nneg i32 %tile.at to i64
  %idx20 = sext i32 %cols to i64
  %5 = mul nsw i64 %idx.nneg, %idx20
  %6 = getelementptr float, ptr addrspace(1) %a, i64 %5
  %idx.nneg21 = zext nneg i32 %tile.at17 to i64
  %elem = getelementptr float, ptr addrspace(1) %6, i64 %idx.nneg21
  %load = load float, ptr addrspace(1) %elem, align 4
  br label %checked.end

checked.end:
  %checked = phi float [ 0.000000e+00, %entry ], [ %load, %checked.load ]
  %elem23 = getelementptr inbounds float, ptr addrspace(3) @t, i64 %idx
  store float %checked, ptr addrspace(3) %elem23, align 4
  tail call void @llvm.nvvm.barrier0()
  %tile.at33 = add i32 %tile.i55, %mul8
  %tile.at37 = or disjoint i32 %mul, %tile.j
  %7 = icmp ult i32 %tile.at33, %cols
  br i1 %7, label %then, label %endif

then:
  %idx.nneg40 = zext nneg i32 %tile.at33 to i64
  %8 = mul nsw i64 %idx.nneg40, %idx19
  %idx.nneg43 = zext nneg i32 %tile.at37 to i64
  %t.row = shl nuw nsw i32 %tile.j, 4
  %t.k = add nuw nsw i32 %tile.i55, %t.row
  %idx45 = zext nneg i32 %t.k to i64
  %elem46 = getelementptr inbounds float, ptr addrspace(3) @t, i64 %idx45
  %load47 = load float, ptr addrspace(3) %elem46, align 4
  %9 = getelementptr float, ptr addrspace(1) %out, i64 %8
  %elem48 = getelementptr float, ptr addrspace(1) %9, i64 %idx.nneg43
  store float %load47, ptr addrspace(1) %elem48, align 4
  br label %endif

endif:
  ret void
}

declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!4, !5, !6}
!4 = !{ptr @transposeMatrix, !"kernel", i32 1}
!5 = !{ptr @transposeMatrix, !"reqntidx", i32 16}
!6 = !{ptr @transposeMatrix, !"reqntidy", i32 16}
