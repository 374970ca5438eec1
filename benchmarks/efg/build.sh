#!/usr/bin/env bash
# Build EFG's BFS (github.com/pgera/efg, Gera and Kim, IPDPS '23) for one GPU architecture into
# .efg/bin/efg_bfs, a binary that needs nothing on the GPU host but glibc and the CUDA driver:
# the CUDA runtime, libstdc++, libgcc, libgomp, Boost.Program_options, glog (with gflags,
# libunwind and liblzma) and OpenSSL's libcrypto are linked statically. folly is not built: EFG
# uses its Elias-Fano encoder, which is header-only but for the select-in-byte table of
# folly/experimental/Select64.cpp, compiled here on its own.
#
# Usage:  benchmarks/efg/build.sh [EFG_SOURCE [FOLLY_SOURCE]]
#
# Each source is a git repository (a clone, or a bare git directory) holding the pinned commit
# below, or a directory with that commit's files; with neither given the script clones
# https://github.com/pgera/efg and https://github.com/facebook/folly. Needs nvcc (CUDA 13),
# g++, and the Debian packages libboost-program-options-dev libgoogle-glog-dev libgflags-dev
# libunwind-dev liblzma-dev libssl-dev.
#
# Environment: EFG_ARCH (default sm_90: the H100 and H200), NVCC (nvcc), CXX (g++),
# EFG_HOME (the repository's .efg). Objects are kept in $EFG_HOME/build between builds; only
# $EFG_HOME/bin is needed to run.
#
# Patches applied to EFG (this directory):
#   cuda13-mem-advise.patch     cudaMemAdvise takes a cudaMemLocation in CUDA 13 (its UVM and
#                               zero-copy paths only; they must still compile);
#   fewer-instantiations.patch  lets the build name instantiations.h instead of the 304-way
#                               cross product of integer widths (see that header).
set -euo pipefail

EFG_COMMIT=10fdf311966504cdcaec2f70f6f21e618ed2c8c8      # "Add missing include"
FOLLY_COMMIT=3b61ea12796899ad5ca4e4f7bf97b24d1937882b    # tag v2023.05.22.00, EFG's README
ARCH=${EFG_ARCH:-sm_90}
NVCC=${NVCC:-nvcc}
CXX=${CXX:-g++}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
HOME_DIR=${EFG_HOME:-$ROOT/.efg}
BUILD=$HOME_DIR/build
BIN=$HOME_DIR/bin

die() { echo "build.sh: $*" >&2; exit 1; }

# unpack NAME SOURCE COMMIT URL: the commit's files in $BUILD/NAME.
unpack() {
    local name=$1 source=$2 commit=$3 url=$4 dest=$BUILD/$1 gitdir
    rm -rf "$dest" && mkdir -p "$dest"
    if [ -z "$source" ]; then
        source=$BUILD/$name.git
        [ -d "$source" ] || git clone --bare --quiet "$url" "$source" ||
            die "cannot clone $url; pass a local copy of $name as an argument"
    fi
    [ -d "$source" ] || die "$name source $source is not a directory"
    gitdir=
    if [ -e "$source/.git" ]; then                                # a clone
        gitdir=$(git -C "$source" rev-parse --absolute-git-dir)
    elif [ -f "$source/HEAD" ] && [ -d "$source/objects" ]; then  # a bare repository
        gitdir=$(cd "$source" && pwd)
    fi
    if [ -n "$gitdir" ]; then
        git --git-dir="$gitdir" cat-file -e "$commit^{commit}" 2>/dev/null ||
            die "$source lacks $name commit $commit"
        git --git-dir="$gitdir" archive "$commit" | tar -x -C "$dest"
    else
        cp -a "$source/." "$dest/"
    fi
}

command -v "$NVCC" >/dev/null || die "nvcc not found (set NVCC)"
# The toolkit's root as nvcc itself reports it (nvcc may be a wrapper script elsewhere).
CUDA_HOME=$(cd "$("$NVCC" --dryrun -c -x cu /dev/null 2>&1 | sed -n 's/^#\$ TOP=//p' | head -1)" && pwd)
[ -f "$CUDA_HOME/lib64/libcudart_static.a" ] || die "libcudart_static.a not found under $CUDA_HOME"
LIBDIR=/usr/lib/$(gcc -print-multiarch)
for lib in boost_program_options glog gflags unwind lzma crypto; do
    [ -f "$LIBDIR/lib$lib.a" ] || die "$LIBDIR/lib$lib.a missing: apt-get install libboost-program-options-dev libgoogle-glog-dev libgflags-dev libunwind-dev liblzma-dev libssl-dev"
done
GOMP=$("$CXX" -print-file-name=libgomp.a)
[ -f "$GOMP" ] || die "libgomp.a not found for $CXX"

mkdir -p "$BUILD" "$BIN"
unpack efg "${1:-}" "$EFG_COMMIT" https://github.com/pgera/efg.git
unpack folly "${2:-}" "$FOLLY_COMMIT" https://github.com/facebook/folly.git
for patch in cuda13-mem-advise fewer-instantiations; do
    patch -s -d "$BUILD/efg" -p1 < "$HERE/$patch.patch"
done

# EFG's Makefile flags, plus the architecture; FOLLY_NO_CONFIG: no folly-config.h, since folly
# is not configured (its headers then assume a plain Linux toolchain).
INCLUDES=(-I"$BUILD/folly" -I"$HERE")
DEFINES=(-DFOLLY_NO_CONFIG '-DEFG_INSTANTIATIONS="instantiations.h"')
CXXFLAGS=(--std=c++17 -O3 -fPIC -fopenmp -Wall -Wno-unused-function)
OBJ=$BUILD/obj && mkdir -p "$OBJ"
echo "build.sh: compiling EFG for $ARCH with $("$NVCC" --version | tail -2 | head -1)"
"$CXX" "${CXXFLAGS[@]}" "${DEFINES[@]}" "${INCLUDES[@]}" -c "$BUILD/efg/src/csr.cpp" -o "$OBJ/csr.o"
"$CXX" "${CXXFLAGS[@]}" "${DEFINES[@]}" "${INCLUDES[@]}" -c "$BUILD/efg/src/util.cpp" -o "$OBJ/util.o"
"$CXX" "${CXXFLAGS[@]}" "${DEFINES[@]}" "${INCLUDES[@]}" \
    -c "$BUILD/folly/folly/experimental/Select64.cpp" -o "$OBJ/select64.o"
"$NVCC" -arch="$ARCH" -lineinfo -O3 --expt-relaxed-constexpr -ccbin="$CXX" --std=c++17 \
    -Xcompiler -O3,-fPIC,-fopenmp,-Wall,-Wno-unused-function \
    "${DEFINES[@]}" "${INCLUDES[@]}" -c "$BUILD/efg/src/main.cu" -o "$OBJ/main.o"

# Static but for glibc and the driver (libcuda.so, opened by the CUDA runtime at run time).
# libgcc_eh before libunwind: the C++ unwinder must come from GCC (libunwind.a defines it too;
# glog wants only its stack walk). -no-pie: Debian's libunwind.a is not position independent.
"$CXX" -o "$BIN/efg_bfs" -no-pie "$OBJ"/main.o "$OBJ"/csr.o "$OBJ"/util.o "$OBJ"/select64.o \
    -static-libstdc++ -static-libgcc \
    -Wl,-Bstatic -lboost_program_options -lglog -lgflags -lgcc_eh -lunwind -llzma -lcrypto \
    -Wl,-Bdynamic "$GOMP" -L"$CUDA_HOME/lib64" -lcudart_static -lpthread -ldl -lrt
strip "$BIN/efg_bfs"

cat > "$BIN/BUILD_INFO" <<EOF
efg $EFG_COMMIT (patched: cuda13-mem-advise, fewer-instantiations)
folly $FOLLY_COMMIT (headers and Select64.cpp)
arch $ARCH
nvcc $("$NVCC" --version | tail -1)
$("$CXX" --version | head -1)
glibc $(ldd --version | head -1 | awk '{print $NF}')
EOF
echo "build.sh: $BIN/efg_bfs ($(du -h "$BIN/efg_bfs" | cut -f1)); it needs:"
ldd "$BIN/efg_bfs" | sed 's/^/  /'
