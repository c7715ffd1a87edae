#!/bin/bash
# Issue 19, session 19, SpTTM's warp batches (wb) on one H100, from a carried bundle $B
# (bin/tensorscope-cli at the commit under test: positions and fibers within a segment in 32
# bits, bounded to 4 resident blocks; bin/variants/NAME/tensorscope-cli: orig = the kernel before
# (session 18's source, 78 registers), g8 / g8m5 = 8 gathers in flight instead of 16, unbounded
# past 4 blocks / bounded to 5; tests/, lib/; device_steps.sh beside this script): the cuda suites
# of the kernels, then SpTTM (rank 32, COO, wb) on the nell-2 shape with each binary, and the
# default checked against cpu-ref.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_spttm_cuda test_decomp_cuda test_mttkrp_cuda test_sptv_cuda
gen_nell2
T="--kernel spttm --backend cuda --format COO --rank 32 --repeat 5 --json --variant wb"
EXT=json
run spttm-new 60 "$CLI" bench "$D/nell2.tsb" $T --mode all
run spttm-orig 60 "$B/bin/variants/orig/tensorscope-cli" bench "$D/nell2.tsb" $T --mode all
for n in g8 g8m5; do run "spttm-$n" 60 "$B/bin/variants/$n/tensorscope-cli" bench "$D/nell2.tsb" $T --mode all; done
run spttm-check 90 "$CLI" bench "$D/nell2.tsb" $T --mode 1 --repeat 3 --check
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
