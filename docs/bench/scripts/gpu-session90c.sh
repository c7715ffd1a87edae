#!/bin/bash
# Session 90's one call, if only one comes (gpu-session90.sh's steps, reordered; same bundle):
# test_mttkrp_cuda in the background while delicious-4d's shape is generated; mode 4 alone in
# this build, 3e4058fe's and ae323f11's, then this build's again; every mode in this build, with
# TENSORSCOPE_COO_ORDER=1, and 3e4058fe's; TENSORSCOPE_COO_ORDER=1 checked against cpu-ref; the
# three again; nell-2's shape checked with TENSORSCOPE_COO_ORDER=1 while time lasts.
# Run from the checkout (this script and device_steps.sh are tracked; the bundle is carried):
# tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=540 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session90c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
step "start test_mttkrp_cuda (background)"
suite_to test_mttkrp_cuda test_mttkrp_cuda &
gen_del4d > /dev/null
wait
step "end test_mttkrp_cuda: $(grep -E '^Totals|^rc=' "$R/test_mttkrp_cuda.out" | tr '\n' ' ')"
pack "$OUT"
EXT=jsonl
P=(--kernel mttkrp --backend cuda --format COO,BLCO --rank 32 --repeat 5 --jsonl)
run del4d-m4-new 25 "$CLI" bench "$D/del4d.tsb" "${P[@]}" --mode 4
if [ -x "$CLI_PREV" ]; then run del4d-m4-prev 25 "$CLI_PREV" bench "$D/del4d.tsb" "${P[@]}" --mode 4; fi
if [ -x "$CLI_ALT" ]; then run del4d-m4-old 25 "$CLI_ALT" bench "$D/del4d.tsb" "${P[@]}" --mode 4; fi
run del4d-m4-new 25 "$CLI" bench "$D/del4d.tsb" "${P[@]}" --mode 4
pack "$OUT"
round() {
    run del4d-new 40 "$CLI" bench "$D/del4d.tsb" "${P[@]}" --mode all
    run del4d-order1 40 env TENSORSCOPE_COO_ORDER=1 "$CLI" bench "$D/del4d.tsb" "${P[@]}" --mode all
    if [ -x "$CLI_PREV" ]; then run del4d-prev 40 "$CLI_PREV" bench "$D/del4d.tsb" "${P[@]}" --mode all; fi
    pack "$OUT"
}
round
run del4d-order1-check 90 env TENSORSCOPE_COO_ORDER=1 "$CLI" bench "$D/del4d.tsb" "${P[@]}" --mode all --check
pack "$OUT"
round
rm -f "$D/del4d.tsb"
gen_nell2 > /dev/null
run nell2-order1-check 80 env TENSORSCOPE_COO_ORDER=1 "$CLI" bench "$D/nell2.tsb" "${P[@]}" --mode all --check
step DONE; touch "$R/DONE"
pack "$OUT"
