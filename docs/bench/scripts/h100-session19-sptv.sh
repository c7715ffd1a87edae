#!/bin/bash
# Issue 19, session 19, SpTV's tile kernel on one H100, from a carried bundle $B
# (bin/tensorscope-cli at the commit under test: the next tile's leaf indices, values and rows
# loaded while the current tile is summed; bin/variants/NAME/tensorscope-cli: orig = the kernel
# before (session 18's), minb8 = this one bounded to 8 resident blocks, i8 / i8p0 = tiles of
# 2,048 nonzeros (8 a thread) with and without the prefetch; tests/, lib/; device_steps.sh beside
# this script): test_sptv_cuda, then SpTV on the nell-2 shape's COO and CSF in every mode with
# each binary, the others formats with the default, and the default checked against cpu-ref.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_sptv_cuda
gen_nell2
V="--kernel sptv --backend cuda --mode all --repeat 5 --json"
EXT=json
run sptv-new 60 "$CLI" bench "$D/nell2.tsb" $V --format COO,CSF
for n in orig minb8 i8 i8p0; do run "sptv-$n" 60 "$B/bin/variants/$n/tensorscope-cli" bench "$D/nell2.tsb" $V --format COO,CSF; done
run sptv-new2 60 "$CLI" bench "$D/nell2.tsb" $V --format COO,CSF
run sptv-trees 70 "$CLI" bench "$D/nell2.tsb" $V --format CFB,HOCFS-CSR
run sptv-check 70 "$CLI" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format CSF,COO --mode all --repeat 3 --json --check
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
