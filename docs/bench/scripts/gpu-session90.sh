#!/bin/bash
# The next session's first call (written in session 89, whose second call found no machine).
# Session 89's first call (gpu-session89.sh, one H100, h100-session89-hot-lookup.json) found
# delicious-4d's COO at 3e4058fe over issue 19's 800 GFLOP/s on every mode, checked, but mode 4
# (no hot rows: the kernels compiled with HOT = false) 5% slower than 0d25ba31's and ae323f11's:
# COO 13.68-13.73 ms against 13.05, BLCO 14.35-14.40 against 13.78, where BLCO's mode-4 kernel
# has the same code in all three (its PTX at 0d25ba31 and 3e4058fe differs only in the HotOut
# parameter's size). Since then (this bundle's build): a hot run's copies are found when the run
# starts (hot_out.cuh's HotLook holds the HotRow's base and count, the flush loads nothing), and
# TENSORSCOPE_COO_ORDER=1 compiles COO's order in (coo_term: no pointer arrays in a stack frame,
# a nonzero's loads unrolled; 56-60 registers against 40). In order: test_mttkrp_cuda; mode 4
# alone in this build, 3e4058fe's (bin/tensorscope-cli-prev) and ae323f11's, then this build's
# again (does the gap follow the binary or the modes run before it?); delicious-4d's COO and BLCO
# on every mode in this build, with TENSORSCOPE_COO_ORDER=1, and 3e4058fe's, alternating twice;
# this build's checked against cpu-ref with TENSORSCOPE_COO_ORDER=1.
# Bundle: make_bundle.sh --strip --icu-stub --tests test_mttkrp_cuda --alt ae323f11 gpu-session90.sh gpu-session90b.sh,
# then 3e4058fe's tensorscope-cli, stripped, as bin/tensorscope-cli-prev (echo 3e4058fe > bin/prev-commit),
# data/ removed, packed with xz --lzma2=preset=9e,dict=192MiB (about 17 MB).
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=540 COMMIT=<bundle's> bash /tmp/bundle/gpu-session90.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=out run_suites 30 test_mttkrp_cuda
pack "$OUT"
EXT=jsonl
P=(--kernel mttkrp --backend cuda --format COO,BLCO --rank 32 --repeat 5 --jsonl)
gen_del4d > /dev/null
run del4d-m4-new 25 "$CLI" bench "$D/del4d.tsb" "${P[@]}" --mode 4
if [ -x "$CLI_PREV" ]; then run del4d-m4-prev 25 "$CLI_PREV" bench "$D/del4d.tsb" "${P[@]}" --mode 4; fi
if [ -x "$CLI_ALT" ]; then run del4d-m4-old 25 "$CLI_ALT" bench "$D/del4d.tsb" "${P[@]}" --mode 4; fi
run del4d-m4-new 25 "$CLI" bench "$D/del4d.tsb" "${P[@]}" --mode 4
pack "$OUT"
for round in 1 2; do
    run del4d-new 40 "$CLI" bench "$D/del4d.tsb" "${P[@]}" --mode all
    run del4d-order1 40 env TENSORSCOPE_COO_ORDER=1 "$CLI" bench "$D/del4d.tsb" "${P[@]}" --mode all
    if [ -x "$CLI_PREV" ]; then run del4d-prev 40 "$CLI_PREV" bench "$D/del4d.tsb" "${P[@]}" --mode all; fi
    pack "$OUT"
done
run del4d-order1-check 90 env TENSORSCOPE_COO_ORDER=1 "$CLI" bench "$D/del4d.tsb" "${P[@]}" --mode all --check
step DONE; touch "$R/DONE"
pack "$OUT"
