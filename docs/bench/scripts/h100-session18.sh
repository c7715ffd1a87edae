#!/bin/bash
# Issue 19, session 18's closing call on one H100, from a carried bundle $B (bin/tensorscope-cli
# at the commit under test; bin/variants/f1/tensorscope-cli: the same loops with the fiber loop's
# register bound off, i.e. B-CSF as before this session; tests/, lib/, data/; device_steps.sh
# beside this script): the cuda suites of the MTTKRP paths, then the nell-2 shape's MTTKRP at rank
# 32 on every GPU format, CSF with the clipped loop it replaced (TENSORSCOPE_FIBER_LOOP=fibers)
# and B-CSF without the register bound (f1), and CSF and B-CSF checked against cpu-ref.
# Results in $R, packed into $OUT.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
for t in test_mttkrp_cuda test_streamed_mttkrp_cuda test_multi_gpu_cuda test_decomp_cuda test_kernel_registry; do
    run "$t" 60 env QT_QPA_PLATFORM=offscreen "$B/tests/$t"
done
run gen-nell2 60 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist powerlaw:1.0 --seed 11 --float -o "$D/nell2.tsb"
M="--kernel mttkrp --backend cuda --rank 32 --repeat 5 --json"
EXT=json
run nell2-all 130 "$CLI" bench "$D/nell2.tsb" $M --format COO,CSF,B-CSF,MM-CSF,BLCO
run csf-fibers 40 env TENSORSCOPE_FIBER_LOOP=fibers "$CLI" bench "$D/nell2.tsb" $M --format CSF
run bcsf-f1 40 "$B/bin/variants/f1/tensorscope-cli" bench "$D/nell2.tsb" $M --format B-CSF
run bcsf 40 "$CLI" bench "$D/nell2.tsb" $M --format B-CSF
run check 160 "$CLI" bench "$D/nell2.tsb" $M --format CSF,B-CSF --check --repeat 3
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
