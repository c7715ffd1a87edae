#!/bin/bash
# Written in session 93 for its third call, which found no machine: the next session's first call
# (same bundle: make_bundle.sh --strip --icu-stub --tests test_mttkrp_cuda,test_streamed_mttkrp_cuda gpu-session93c.sh).
# - test_mttkrp_cuda and test_streamed_mttkrp_cuda at this build (order 5's levels compiled in by
#   default, ea57af44; BLCO's warp kernel with hot rows, 41127f30), beside the tensors' generation.
# - The streamed MTTKRP's hot rows (41127f30) against none (TENSORSCOPE_HOT_CHAIN=4000000000 leaves
#   every row in one place), checked, on vast5d's 2-row mode 3, where a resident tree's root was
#   3.3e-4 from cpu-ref without them (session 92); the resident BLCO at rank 10 likewise.
# - CSF and B-CSF on vast5d as they now run by default (session 93's call 1: 0.854-1.026 ms a mode
#   with the levels compiled in).
# - Delicious-4d's mode-2 SpTV (CFB 69.75-69.83% of the copy bound in session 92, under issue 19's
#   70%) with the packed hot entries capped at an eighth, a quarter and half (the default) of the
#   H100's 50 MB L2 (TENSORSCOPE_SPTV_HOT_BYTES), alternating twice: on one H200 (60 MB) a quarter
#   was at most 1% faster (sptv_hot_columns.cuh); the H100's smaller L2 may favour a smaller front.
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=540 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session93c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
step "start test_mttkrp_cuda, test_streamed_mttkrp_cuda (background)"
(suite_to test_mttkrp_cuda test_mttkrp_cuda; suite_to test_streamed_mttkrp_cuda test_streamed_mttkrp_cuda) &
gen_5d > /dev/null
gen_del4d > /dev/null
wait
for t in test_mttkrp_cuda test_streamed_mttkrp_cuda; do
    step "end $t: $(grep -E '^Totals|^rc=' "$R/$t.out" | tr '\n' ' ')"
done
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
pack "$OUT"
alternate 2 50 TENSORSCOPE_SPTV_HOT_BYTES "6553600 13107200 26214400" del4d --kernel sptv --backend cuda \
    --format COO,CFB --mode 2 --repeat 10 --jsonl
step DONE; touch "$R/DONE"
pack "$OUT"
