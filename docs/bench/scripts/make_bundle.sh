#!/bin/bash
# The GPU machine's bundle, as every device script expects it ($B): bin/tensorscope-cli, tests/
# (the named test binaries), lib/ (their libraries but the CUDA, NCCL, NVIDIA and MPI ones, which
# that machine has), data/ (the shared real tensors), and the named scripts beside
# device_steps.sh and advisor_eval.py; packed as carry/bundle.tar.xz for `run`'s carry. Unpack
# it there with: tar -C /tmp -xJf carry/bundle.tar.xz (it lands in /tmp/bundle).
# usage: docs/bench/scripts/make_bundle.sh [--tests NAME,..] SCRIPT.sh..   (from the checkout's root,
# after building build/ for sm_90; SCRIPT names are files in docs/bench/scripts)
set -euo pipefail
tests=""
if [ "${1:-}" = "--tests" ]; then tests=$2; shift 2; fi
root=$(pwd) B=/tmp/bundle
rm -rf "$B" && mkdir -p "$B"/{bin,tests,data}
cp build/bin/tensorscope-cli "$B/bin/"
bins=("$B/bin/tensorscope-cli")
for t in ${tests//,/ }; do cp "build/bin/$t" "$B/tests/"; bins+=("$B/tests/$t"); done
"$root/../shared/tools/carry-libs.sh" "${bins[@]}" "$B/libtmp" > /dev/null
mv "$B/libtmp/lib" "$B/lib" && rm -rf "$B/libtmp"
(cd "$B/lib" && rm -f libcu* libnccl* libnv* libmpi* libopen-* libpmix* libprrte* libucp* libucs* libuct*)
cp docs/bench/scripts/device_steps.sh docs/bench/scripts/advisor_eval.py "$B/"
for s in "$@"; do cp "docs/bench/scripts/$s" "$B/"; done
cp "$root"/../shared/data/*.tns "$B/data/"
mkdir -p carry
tar -C /tmp -cf - bundle | xz -T2 -1 > carry/bundle.tar.xz
echo "carry/bundle.tar.xz: $(du -h carry/bundle.tar.xz | cut -f1), commit $(git rev-parse --short HEAD)"
