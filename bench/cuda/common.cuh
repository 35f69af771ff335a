// Shared by the CUDA references: the block size every benchmark uses (LOOM's --block-size).
#pragma once
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cuda/functional>

constexpr int BLOCK = 256;
