#!/bin/bash
# Issue 19, session 21, on one H200 (the H100 kind was not lent) from a carried bundle $B, after
# h100-session21.sh's call. PART=1: the cuda SpTV suite on a9b0946's resident SpTV plan (the
# format uploaded once, each repeat moving only the vector and the fiber values), then the
# nell-2 shape: SpTV on every GPU format, SpTTM (wb), and the MTTKRP of every GPU format.
# PART=2: the delicious-4d shape's SpTV (never measured: the one-shot SpTV re-uploaded the format
# on every repeat) and the SpTTM modes 3-4 that h100-session21.sh's call had no time for.
# PART=3: the row-shaped SpTV (CSF, HOCFS-CSR, CFB, COO's segments, HOCSR) on our tiles against
# cuSPARSE's CSR SpMV (ALG1, and ALG2 = merge path), picked by TS_SPTV_KERNEL for this
# measurement: the suite under each, then the nell-2, uniform and delicious-4d shapes.
# Every bench with --jsonl, so a step cut at LIMIT keeps its rows. Results packed into $OUT.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
if [ "${PART:-1}" = 1 ]; then
    EXT=out run_suites 60 test_sptv_cuda
    gen_nell2
    run nell2-sptv 120 "$CLI" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format COO,CSF,HOCFS-CSR,CFB,HOCFS-ELL,HOCSR --mode all --repeat 5 --jsonl
    run nell2-spttm 90 "$CLI" bench "$D/nell2.tsb" --kernel spttm --backend cuda --format COO --rank 32 --variant wb --mode all --repeat 5 --jsonl
    run nell2-mttkrp 150 "$CLI" bench "$D/nell2.tsb" --kernel mttkrp --backend cuda --rank 32 --repeat 5 --format B-CSF,MM-CSF,CSF,COO,BLCO --jsonl
elif [ "$PART" = 3 ]; then
    step "$(ls /usr/local/cuda/lib64/libcusparse.so* 2>&1 | tr '\n' ' ')"
    for K in tiles cusparse1 cusparse2; do export TS_SPTV_KERNEL=$K; EXT=out run_suites 40 test_sptv_cuda; mv "$R/test_sptv_cuda.out" "$R/suite-$K.out"; done
    gen_nell2
    for K in tiles cusparse1 cusparse2; do
        export TS_SPTV_KERNEL=$K; run nell2-sptv-$K 75 "$CLI" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format COO,CSF,HOCFS-CSR,CFB,HOCSR --mode all --repeat 5 --jsonl
    done
    unset TS_SPTV_KERNEL; rm -f "$D/nell2.tsb"
    run gen-uniform 30 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist uniform --seed 5 --float -o "$D/uni.tsb"
    for K in tiles cusparse1 cusparse2; do
        export TS_SPTV_KERNEL=$K; run uni-sptv-$K 60 "$CLI" bench "$D/uni.tsb" --kernel sptv --backend cuda --format COO,CSF,HOCFS-CSR --mode all --repeat 5 --jsonl
    done
    unset TS_SPTV_KERNEL; rm -f "$D/uni.tsb"
    run gen-del4d 80 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
    for K in tiles cusparse2 cusparse1; do
        export TS_SPTV_KERNEL=$K; run del4d-sptv-$K 70 "$CLI" bench "$D/del4d.tsb" --kernel sptv --backend cuda --format CSF --mode all --repeat 5 --jsonl
    done
    unset TS_SPTV_KERNEL
else
    run gen-del4d 100 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
    run del4d-sptv 200 "$CLI" bench "$D/del4d.tsb" --kernel sptv --backend cuda --format COO,CSF,HOCFS-CSR,CFB --mode all --repeat 5 --jsonl
    run del4d-spttm 120 "$CLI" bench "$D/del4d.tsb" --kernel spttm --backend cuda --format COO --rank 32 --variant wb --mode 3,4 --repeat 5 --jsonl
fi
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
