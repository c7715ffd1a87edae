#!/bin/bash
# Issue 19, session 22's second device call, from a carried bundle $B (bin/tensorscope-cli and
# three variant builds of it, tests/, lib/, data/; device_steps.sh beside this script). First
# the suites of this session's two kernels: SpTTM's warp batches with four columns a lane
# (float4) where R % 4 == 0, and HOCSR's SpTV as a stream over its row offsets (sptv_tuples.cuh).
# Then both on the nell-2 and uniform shapes, and SpTTM on delicious-4d. The variant builds
# (bin/tensorscope-cli-NAME) differ only in the float4 kernel's constants: g2b5 (2 gathers in
# flight a group, 5 blocks an SM), seg128 (128 nonzeros a group), g8b3 (8 gathers, 3 blocks);
# the committed constants are 4 gathers, 4 blocks, 64 nonzeros. Results packed into $OUT.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=out run_suites 60 test_sptv_cuda test_spttm_cuda
EXT=jsonl
VARIANTS="g2b5 seg128 g8b3"
spttm() {  # tag, tensor, seconds a build
    run "$1-spttm" "$3" "$CLI" bench "$2" --kernel spttm --backend cuda --format COO --rank 32 --variant wb --mode all --repeat 5 --jsonl
    for v in $VARIANTS; do
        run "$1-spttm-$v" "$3" "$CLI-$v" bench "$2" --kernel spttm --backend cuda --format COO --rank 32 --variant wb --mode all --repeat 5 --jsonl
    done
}
gen_nell2
run nell2-sptv 40 "$CLI" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format HOCSR,CSF --mode all --repeat 5 --jsonl
spttm nell2 "$D/nell2.tsb" 30
rm -f "$D/nell2.tsb"
run gen-uniform 30 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist uniform --seed 5 --float -o "$D/uni.tsb"
run uni-sptv 40 "$CLI" bench "$D/uni.tsb" --kernel sptv --backend cuda --format HOCSR,CSF --mode all --repeat 5 --jsonl
spttm uni "$D/uni.tsb" 45
rm -f "$D/uni.tsb"
run gen-del4d 80 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
VARIANTS="" spttm del4d "$D/del4d.tsb" 120
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
