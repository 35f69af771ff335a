# loomc in a container: LLVM 19 (pinned by scripts/setup) linked statically, ptxas inside.
#
#   docker build -t loomc .
#   docker run --rm -v "$PWD:/src" -w /src loomc examples/sum_of_squares.loom -o sum_of_squares.ptx
#
# The build stage runs the same scripts/setup that CI runs, so the pins live in one place.

FROM debian:bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl gcc libc6-dev python3 python3-pip \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /loom
COPY . .
RUN scripts/setup
ENV PATH="/root/.cargo/bin:${PATH}"
RUN scripts/loomc examples/sum_of_squares.loom -o /tmp/sum_of_squares.ptx \
 && .tools/cu12/nvidia/cuda_nvcc/bin/ptxas -arch=sm_80 /tmp/sum_of_squares.ptx -o /dev/null

FROM debian:bookworm-slim
# LLVM is linked statically; these are the shared libraries loomc still needs (ldd says so).
RUN apt-get update \
 && apt-get install -y --no-install-recommends libstdc++6 zlib1g libzstd1 libffi8 \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /loom/target/release/loomc /usr/local/bin/loomc
COPY --from=build /loom/.tools/cu12/nvidia/cuda_nvcc/bin/ptxas /usr/local/bin/ptxas
COPY --from=build /loom/.tools/cu12/nvidia/cuda_nvcc/nvvm/libdevice /usr/local/share/loom/libdevice
ENV LOOM_PTXAS=/usr/local/bin/ptxas \
    LOOM_LIBDEVICE=/usr/local/share/loom/libdevice/libdevice.10.bc
ENTRYPOINT ["loomc"]
