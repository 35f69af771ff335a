#!/usr/bin/env python3
"""Writes a kernel of N uniform `if` diamonds, each with a barrier, as LLVM IR to standard output.

    diamonds.py N one-arm     if (n > i) { barrier }                        (no memory access)
    diamonds.py N both-arms   if (n > i) { s[tid] = i; barrier } else { barrier; s[tid] = i }

Every branch is on a parameter, so every barrier is uniform and the kernel race-free. With the
barrier in one arm, every interval reaches the end of the kernel through the skipped arms: the
verifier once materialised each of those intervals (quadratic: 800 diamonds took 33 s).
"""
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 800
shape = sys.argv[2] if len(sys.argv) > 2 else "one-arm"
out = [
    'target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"',
    'target triple = "nvptx64-nvidia-cuda"',
    "@s = internal addrspace(3) global [256 x i32] undef, align 4",
    "define void @k(i32 %n) {",
    "entry:",
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()",
    "  %p = getelementptr inbounds [256 x i32], ptr addrspace(3) @s, i32 0, i32 %t",
    "  br label %d0",
]
for i in range(n):
    out += [f"d{i}:", f"  %c{i} = icmp sgt i32 %n, {i}"]
    if shape == "one-arm":
        out += [
            f"  br i1 %c{i}, label %a{i}, label %d{i + 1}",
            f"a{i}:",
            "  call void @llvm.nvvm.barrier0()",
            f"  br label %d{i + 1}",
        ]
    else:
        out += [
            f"  br i1 %c{i}, label %a{i}, label %b{i}",
            f"a{i}:",
            f"  store i32 {i}, ptr addrspace(3) %p, align 4",
            "  call void @llvm.nvvm.barrier0()",
            f"  br label %d{i + 1}",
            f"b{i}:",
            "  call void @llvm.nvvm.barrier0()",
            f"  store i32 {i}, ptr addrspace(3) %p, align 4",
            f"  br label %d{i + 1}",
        ]
out += [
    f"d{n}:",
    "  ret void",
    "}",
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()",
    "declare void @llvm.nvvm.barrier0()",
    "!nvvm.annotations = !{!0}",
    '!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}',
]
print("\n".join(out))
