# loomc in a container: LLVM 19 (pinned by scripts/setup) linked statically; ptxas and libdevice for
# PTX and the libdevice math functions, cuobjdump and nvdisasm for --emit=sass.
#
#   docker build -t loomc .
#   docker run --rm -v "$PWD:/src" -w /src loomc examples/sum_of_squares.loom -o sum_of_squares.ptx
#
# scripts/docker-smoke builds it and tries each feature. The build stage runs the same scripts/setup
# that CI runs, which installs every Debian package the build needs: the package list and the pins
# live there only, so nothing is installed here before it.
#
# Base images: Debian's dated tags, which are never moved to a newer build. bookworm-20260202 is
# Debian 12.13, the newest bookworm date in docker-library/official-images (library/debian) that
# could be read when this was written; Docker Hub itself could not be reached from there, so neither
# tag is pinned by digest yet: scripts/docker-smoke prints the digests they resolve to, to append as
# `@sha256:...`. To move to a newer date, change both here.
ARG BUILD_IMAGE=debian:bookworm-20260202
ARG RUNTIME_IMAGE=debian:bookworm-20260202-slim

FROM ${BUILD_IMAGE} AS build
WORKDIR /loom
COPY . .
RUN scripts/setup && rm -rf /var/lib/apt/lists/*
ENV PATH="/root/.cargo/bin:${PATH}"
RUN scripts/loomc examples/sum_of_squares.loom -o /tmp/sum_of_squares.ptx \
 && .tools/cu12/nvidia/cuda_nvcc/bin/ptxas -arch=sm_80 /tmp/sum_of_squares.ptx -o /dev/null

FROM ${RUNTIME_IMAGE}
# LLVM is linked statically, and so are libstdc++, zlib, zstd and libffi where their archives are
# installed, as scripts/setup does (build.rs): loomc then needs only libc, libm and libgcc_s.
# These packages are for a loomc built without those archives. A minbase Debian 12 has them
# all, so today this installs nothing and only says what such a loomc needs.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libstdc++6 zlib1g libzstd1 libffi8 \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin
COPY --from=build /loom/target/release/loomc /usr/local/bin/loomc
COPY --from=build /loom/.tools/cu12/nvidia/cuda_nvcc/bin/ptxas /usr/local/bin/ptxas
COPY --from=build /loom/.tools/cu13/nvidia/cu13/bin/cuobjdump /loom/.tools/cu13/nvidia/cu13/bin/nvdisasm /usr/local/bin/
COPY --from=build /loom/.tools/cu12/nvidia/cuda_nvcc/nvvm/libdevice /usr/local/share/loom/libdevice
# Fail the build, not the first user, when a shared library is missing.
RUN ! ldd /usr/local/bin/loomc /usr/local/bin/ptxas /usr/local/bin/cuobjdump /usr/local/bin/nvdisasm \
    | grep 'not found'
ENV LOOM_PTXAS=/usr/local/bin/ptxas \
    LOOM_CUOBJDUMP=/usr/local/bin/cuobjdump \
    LOOM_NVDISASM=/usr/local/bin/nvdisasm \
    LOOM_LIBDEVICE=/usr/local/share/loom/libdevice/libdevice.10.bc
ENTRYPOINT ["loomc"]
