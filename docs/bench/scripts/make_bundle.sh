#!/bin/bash
# The GPU machine's bundle, as every device script expects it ($B): bin/tensorscope-cli, tests/
# (the named test binaries), lib/ (their libraries but the CUDA, NCCL, NVIDIA and MPI ones, which
# that machine has), data/ (the shared real tensors), and the named scripts beside
# device_steps.sh and advisor_eval.py; packed as carry/bundle.tar.xz for `run`'s carry. Unpack
# it there with: tar -C /tmp -xJf carry/bundle.tar.xz (it lands in /tmp/bundle).
# usage: docs/bench/scripts/make_bundle.sh [--tests NAME,..|gpu] [--alt REV] [--no-cli] [--no-data] [--strip] [--reference-blas] [--icu-stub] [--gather-floor] SCRIPT.sh..   (from
# the checkout's root, after building build/ for sm_90; SCRIPT names are files in
# docs/bench/scripts; --tests gpu: every GPU suite, as gpu_suites.txt lists them)
# --alt REV also builds tensorscope-cli at commit REV (Release, no GUI or tests, in /tmp/alt-REV,
# reused while it is there) as bin/tensorscope-cli-alt, its commit in bin/alt-commit: a change
# measured beside the build it changes in one call, where an environment switch would leave the
# code it adds in both arms (session 53's prefetch: both ways 12-17% slower than the day's first
# call, which no run of the build without it could explain).
# --strip strips the binaries' symbols and packs with xz -9e and a 192 MiB window, --no-data leaves data/ out: the
# carry limit (64 MiB with the tracked tree, about 37 MB since session 77) refused bundles of the
# CLI with suites beside it. --reference-blas replaces OpenBLAS (4.3 MB of the bundle) by
# openblas_shim.c's stand-in over Debian's reference BLAS: for suites, never for timings.
# --icu-stub replaces ICU's data library (QtCore's, 7.5 MB of the bundle compressed) by
# icudata_stub.c's header with no entries: nothing the device runs looks anything up in ICU.
# --gather-floor builds gather_floor.cu (standalone, over build/'s engine) as bin/gather_floor.
set -euo pipefail
tests="" alt="" cli=1 data=1 strip=0 refblas=0 icustub=0 floor=0
while [ $# -gt 0 ]; do
    case $1 in
    --tests) tests=$2; [ "$tests" = gpu ] && tests=$(cat docs/bench/scripts/gpu_suites.txt); shift 2 ;;
    --alt) alt=$(git rev-parse --short "$2"); shift 2 ;;
    --no-cli) cli=0; shift ;;  # test suites only: the CLI's 3 MB compressed, where the carry limit is near
    --no-data) data=0; shift ;;
    --strip) strip=1; shift ;;
    --reference-blas) refblas=1; shift ;;
    --icu-stub) icustub=1; shift ;;
    --gather-floor) floor=1; shift ;;
    *) break ;;
    esac
done
root=$(pwd) B=/tmp/bundle
rm -rf "$B" && mkdir -p "$B"/{bin,tests,data}
bins=()
if [ "$cli" = 1 ]; then cp build/bin/tensorscope-cli "$B/bin/"; bins+=("$B/bin/tensorscope-cli"); fi
for t in ${tests//,/ }; do cp "build/bin/$t" "$B/tests/"; bins+=("$B/tests/$t"); done
if [ "$floor" = 1 ]; then
    /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -std=c++20 -Iengine/include -Iengine -Xcompiler -fopenmp -o "$B/bin/gather_floor" \
        docs/bench/scripts/gather_floor.cu build/lib/libtscope_engine.a -lz -llapacke -llapack -lblas -ldl
    bins+=("$B/bin/gather_floor")
fi
if [ -n "$alt" ]; then
    src=/tmp/alt-$alt/src bld=/tmp/alt-$alt/build
    if [ ! -d "$src" ]; then mkdir -p "$src" && git archive "$alt" | tar -x -C "$src"; fi
    cmake -S "$src" -B "$bld" -DCMAKE_BUILD_TYPE=Release -DTS_WITH_GUI=OFF -DTS_BUILD_TESTS=OFF > "/tmp/alt-$alt/configure.log"
    cmake --build "$bld" --target tensorscope-cli -j"$(nproc)" > "/tmp/alt-$alt/build.log"
    cp "$bld/bin/tensorscope-cli" "$B/bin/tensorscope-cli-alt"
    echo "$alt" > "$B/bin/alt-commit"
    bins+=("$B/bin/tensorscope-cli-alt")
fi
"$root/../shared/tools/carry-libs.sh" "${bins[@]}" "$B/libtmp" > /dev/null
mv "$B/libtmp/lib" "$B/lib" && rm -rf "$B/libtmp"
(cd "$B/lib" && rm -f libcu* libnccl* libnv* libmpi* libopen-* libpmix* libprrte* libucp* libucs* libuct*)
if [ "$refblas" = 1 ] && [ ! -f "$B/lib/libopenblas.so.0" ]; then echo "--reference-blas: no OpenBLAS in the bundle to replace" >&2; fi
if [ "$refblas" = 1 ] && [ -f "$B/lib/libopenblas.so.0" ]; then
    cp -L /usr/lib/x86_64-linux-gnu/blas/libblas.so.3 "$B/lib/libblas.so.3"  # and LAPACK's reference build over it
    cp -L /usr/lib/x86_64-linux-gnu/lapack/liblapack.so.3 "$B/lib/liblapack.so.3"
    gcc -shared -fPIC -O2 -Wl,-soname,libopenblas.so.0 -Wl,--no-as-needed -o "$B/lib/libopenblas.so.0" \
        docs/bench/scripts/openblas_shim.c "$B/lib/libblas.so.3"
fi
if [ "$icustub" = 1 ]; then
    icudata=$(cd "$B/lib" && ls libicudata.so.* 2>/dev/null | head -1)
    if [ -z "$icudata" ]; then echo "--icu-stub: no ICU data library in the bundle to replace" >&2; else
        # the stub names the data symbol of the bundle's ICU version (icudtNN_dat)
        ver=${icudata#libicudata.so.}; ver=${ver%%.*}
        sed "s/icudt72_dat/icudt${ver}_dat/" docs/bench/scripts/icudata_stub.c > "$B/icudata_stub.c"
        gcc -shared -fPIC -O2 -Wl,-soname,"$icudata" -o "$B/lib/$icudata" "$B/icudata_stub.c" && rm "$B/icudata_stub.c"
    fi
fi
cp docs/bench/scripts/device_steps.sh docs/bench/scripts/advisor_eval.py docs/bench/scripts/gpu_suites.txt "$B/"
for s in "$@"; do cp "docs/bench/scripts/$s" "$B/"; done
if [ "$data" = 1 ]; then cp "$root"/../shared/data/*.tns "$B/data/"; else rmdir "$B/data"; fi
if [ "$strip" = 1 ] && [ ${#bins[@]} -gt 0 ]; then strip --strip-unneeded "${bins[@]}"; fi
mkdir -p carry
# Past 100 MB (many test binaries, each holding the engine) xz -9 in one thread: its 64 MB window
# finds the binaries' common code (13 suites: 30 MB against 47 at -6, and the carry limit is 64 MiB
# with the tree's 25).
level=(-T2 -6)
[ "$(du -sb "$B" | cut -f1)" -gt 100000000 ] && level=(-T1 -9)
# --strip: a 192 MiB window holds the whole bundle, so the CLI's and each suite's copies of the
# engine compress as one (session 90: 15.5 MB for the CLI and one suite, against 17.8 at -9e).
[ "$strip" = 1 ] && level=(-T1 --lzma2=preset=9e,dict=192MiB)
tar -C /tmp -cf - bundle | xz "${level[@]}" > carry/bundle.tar.xz
echo "carry/bundle.tar.xz: $(du -h carry/bundle.tar.xz | cut -f1), commit $(git rev-parse --short HEAD)${alt:+, alt $alt}"
