; Benign twin of tile_2d_transpose_no_barrier: a barrier between the write of tile[ty][tx] and the
; read of tile[tx][ty]. No finding.
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [16 x [16 x float]] undef, align 4

define void @k(ptr addrspace(1) noalias %out) {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %y = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %x64 = zext i32 %x to i64
  %y64 = zext i32 %y to i64
  %row.start = shl i32 %y, 4
  %lin = add i32 %row.start, %x
  %p = getelementptr inbounds [16 x [16 x float]], ptr addrspace(3) @tile, i64 0, i64 %y64, i64 %x64
  store float 2.0, ptr addrspace(3) %p, align 4
  call void @llvm.nvvm.barrier0()
  %q = getelementptr inbounds [16 x [16 x float]], ptr addrspace(3) @tile, i64 0, i64 %x64, i64 %y64
  %v = load float, ptr addrspace(3) %q, align 4
  %out.slot1 = getelementptr inbounds float, ptr addrspace(1) %out, i32 %lin
  store float %v, ptr addrspace(1) %out.slot1, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 16, !"reqntidy", i32 16}
