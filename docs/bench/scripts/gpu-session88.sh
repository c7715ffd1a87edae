#!/bin/bash
# Written in session 86 for the next session with a GPU (about 550 s; one H100 preferred, the
# device issue 19's lines name). Bundle: make_bundle.sh --strip --icu-stub --tests test_mttkrp_cuda
# --alt ae323f11 gpu-session88.sh (bin/tensorscope-cli-alt: the kernels before the hot rows).
# Session 86 added MM-CSF's hot-row copies (engine/cuda/hot_rows.cuh), built and tested here but
# never run on a GPU:
# 1. test_mttkrp_cuda: every test, the two new ones among them: hotRowIdsMatchTheHostRule (the
#    device's counts and renumbering against the host rule's ids) and mmcsfHeavyRowsStayAccurate
#    (the copies at a chain limit of 16, and a 2M-nonzero tensor at the default).
# 2. Delicious-4d's MM-CSF checked against cpu-ref on modes 2 and 3, which session 86's standing
#    had at 3.0e-3 and 4.0e-3 (h100-session86-standing.json; the bench's limit is 1e-4).
# 3. MM-CSF and B-CSF by the defaults against the build before (CLI_ALT), two rounds alternating:
#    delicious-4d's shape, then the nell-2 one. The change renumbers MM-CSF's hot rows into copies
#    (fewer atomics on one address) and moved the wide loop's adds to one row pointer (compiled
#    for sm_90: B-CSF's fiber_wide_kernel<3, 4, true> spills 0 bytes against 8, MM-CSF's
#    trees_wide_kernel<3, 4> 24 against 4; the trees' 8-lane loop 60 registers against 56).
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=out run_suites 240 test_mttkrp_cuda
pack "$OUT"
EXT=jsonl
gen_del4d > /dev/null
run del4d-mmcsf-check 200 "$CLI" bench "$D/del4d.tsb" --kernel mttkrp --backend cuda --format MM-CSF --mode 2,3 \
    --rank 32 --repeat 3 --jsonl --check
pack "$OUT"
P=(--kernel mttkrp --backend cuda --format MM-CSF,B-CSF --mode all --rank 32 --repeat 5 --jsonl)
for round in 1 2; do
    run del4d-new 60 "$CLI" bench "$D/del4d.tsb" "${P[@]}"
    if [ -x "$CLI_ALT" ]; then run del4d-old 60 "$CLI_ALT" bench "$D/del4d.tsb" "${P[@]}"; fi
done
pack "$OUT"
gen_nell2
for round in 1 2; do
    run nell2-new 30 "$CLI" bench "$D/nell2.tsb" "${P[@]}"
    if [ -x "$CLI_ALT" ]; then run nell2-old 30 "$CLI_ALT" bench "$D/nell2.tsb" "${P[@]}"; fi
done
step DONE; touch "$R/DONE"
pack "$OUT"
