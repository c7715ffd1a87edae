#!/bin/bash
# Session 93's third call (after gpu-session93.sh and 93b, the same day's H100): the streamed
# MTTKRP's hot rows (41127f30) against none (TENSORSCOPE_HOT_CHAIN=4000000000 leaves every row in
# one place), checked, on vast5d's 2-row mode 3, where a resident tree's root was 3.3e-4 from
# cpu-ref without them (session 92); the resident BLCO at rank 10 (its warp kernel's hot rows)
# likewise; then order 5's four levels compiled in by default: CSF and B-CSF on vast5d as they
# now run, and test_mttkrp_cuda at this build.
# Bundle: make_bundle.sh --strip --icu-stub --tests test_mttkrp_cuda gpu-session93c.sh
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=300 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session93c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
step "start test_mttkrp_cuda (background)"
suite_to test_mttkrp_cuda test_mttkrp_cuda &
gen_5d > /dev/null
wait
step "end test_mttkrp_cuda: $(grep -E '^Totals|^rc=' "$R/test_mttkrp_cuda.out" | tr '\n' ' ')"
pack "$OUT"
ST=(--kernel mttkrp --backend cuda --stream --format CSF,B-CSF,BLCO --mode 3 --rank 32 --repeat 2 --jsonl --check)
BL=(--kernel mttkrp --backend cuda --format BLCO --mode 1,3 --rank 10 --repeat 3 --jsonl --check)
for chain in 4000000000 default; do
    E=(env); [ "$chain" = default ] || E=(env TENSORSCOPE_HOT_CHAIN=$chain)
    EXT=jsonl run "vast5d-stream-chain-$chain" 40 "${E[@]}" "$CLI" bench "$D/vast5d.tsb" "${ST[@]}"
    EXT=jsonl run "vast5d-blco-r10-chain-$chain" 40 "${E[@]}" "$CLI" bench "$D/vast5d.tsb" "${BL[@]}"
done
pack "$OUT"
EXT=jsonl run vast5d-levels-default 40 "$CLI" bench "$D/vast5d.tsb" --kernel mttkrp --backend cuda --format CSF,B-CSF \
    --mode all --rank 32 --repeat 5 --jsonl
step DONE; touch "$R/DONE"
pack "$OUT"
