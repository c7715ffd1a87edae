#!/bin/bash
# Issue 19, session 23, call 6: SpTV on the CSR-shaped formats (COO, CSF, HOCFS-CSR, CFB) through
# cuSPARSE's CSR SpMV (as built, $B/bin/tensorscope-cli) against HOCSR's own kernel (a thread per
# 4 rows, 16-byte offset loads, 32-bit offsets where they fit; variant build
# $B/bin/tensorscope-cli-rows with its test_sptv_cuda in $B/tests/rows), on the uniform, nell-2
# and delicious-4d shapes, every mode, the two alternating twice (delicious-4d once). One H100 or H200 from a
# carried bundle $B (lib/, data/; device_steps.sh beside this script). Results packed into $OUT.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=out run test_sptv_cuda-rows 60 env QT_QPA_PLATFORM=offscreen "$B/tests/rows/test_sptv_cuda"
EXT=jsonl
gen_nell2
run gen-uniform 30 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist uniform --seed 5 --float -o "$D/uni.tsb"
run gen-del4d 90 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
for round in 1 2; do
  for v in cusparse rows; do
    bin=$CLI; [ $v = rows ] && bin=$B/bin/tensorscope-cli-rows
    run uni-sptv-$v-$round 40 "$bin" bench "$D/uni.tsb" --kernel sptv --backend cuda --format COO,CSF,HOCFS-CSR,CFB --mode all --repeat 5 --jsonl
    run nell2-sptv-$v-$round 40 "$bin" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format COO,CSF,HOCFS-CSR,CFB --mode all --repeat 5 --jsonl
    [ $round = 1 ] && run del4d-sptv-$v-$round 100 "$bin" bench "$D/del4d.tsb" --kernel sptv --backend cuda --format CSF,HOCFS-CSR --mode all --repeat 5 --jsonl
  done
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
