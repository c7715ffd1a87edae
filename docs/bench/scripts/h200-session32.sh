#!/bin/bash
# Prepared in session 31 for the next session's first call (not yet run): issue 19's standing on
# the binary whose GPU cuts the CSF family's fibers at 16 (session 31), every GPU kernel the
# issue names, alternating nothing: the four GPU suites; the nell-2 and uniform shapes, MTTKRP on
# COO, CSF, B-CSF, MM-CSF and BLCO (rank 32, every mode), SpTV on every format that has a GPU
# kernel and SpTTM's wb variant; the real tensors' MTTKRP with --check. h200-session32b.sh:
# delicious-4d's shape (B-CSF at 16 is not yet measured there; MM-CSF at 16 ran 10.1-17.0 ms a
# mode in session 31, its modes 2-3 the nonzero algorithm over a partition of 107M of the 140M
# nonzeros). Bundle: make_bundle.sh --tests test_mttkrp_cuda,test_decomp_cuda,test_sptv_cuda,test_spttm_cuda h200-session32.sh h200-session32b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 40 test_mttkrp_cuda test_decomp_cuda test_sptv_cuda test_spttm_cuda
EXT=jsonl
gen_nell2
gen_uniform
M="--kernel mttkrp --backend cuda --format COO,CSF,B-CSF,MM-CSF,BLCO --mode all --rank 32 --repeat 5 --jsonl"
V="--kernel sptv --backend cuda --format COO,HOCSR,CFB,HOCFS-CSR,HOCFS-ELL,CSF --mode all --repeat 5 --jsonl"
S="--kernel spttm --backend cuda --format COO --variant wb --mode all --rank 32 --repeat 5 --jsonl"
for t in nell2 uni; do
    run $t-mttkrp 90 "$CLI" bench "$D/$t.tsb" $M
    run $t-sptv 90 "$CLI" bench "$D/$t.tsb" $V
    run $t-spttm 45 "$CLI" bench "$D/$t.tsb" $S
done
for t in movielens-100k lastfm-tags jf17k-4d; do
    run $t-mttkrp 20 "$CLI" bench "$B/data/$t.tns" --kernel mttkrp --backend cuda --format COO,CSF,B-CSF,MM-CSF --mode all \
        --rank 32 --repeat 5 --jsonl --check
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
