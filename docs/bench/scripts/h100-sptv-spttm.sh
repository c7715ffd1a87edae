#!/bin/bash
# Issue 19's SpTV and SpTTM targets on one H100, from a carried bundle $B (bin/ with this commit's
# tensorscope-cli and the previous commit's as tensorscope-cli-base, tests/, lib/, data/, and
# device_steps.sh beside this script); results in $R (keep it outside $OUT), packed into
# ${OUT:-$R/..}/$(basename $R).tgz at the end (the device hands back at most 8 files):
# - the cuda suites of the changed kernels (SpTV's owned row writes, SpTTM's warp batches);
# - SpTV on COO, CFB, HOCFS-CSR and CSF (HOCSR keeps a row per index tuple, over 100M here;
#   HOCFS-ELL's padding is refused on nell-2), every mode of the nell-2 shape, with this binary
#   and the base one (same machine and tensor), and CSF's third mode checked against cpu-ref;
# - SpTTM at rank 32 with the warp batches (wb) on the first mode of a uniform tensor of
#   nell-2's dims and nonzeros (its result has a chunk of 32 values per nonzero: 20 GB on the
#   host in fp64, so one mode only).
# The session's earlier calls ran the rest (docs/bench/h100-issue19-session17.json says which).
# Each step is skipped once the call's time (LIMIT s) would pass. The first call of the session
# also ran SpTV with --check on every format: it outran its share of the call.
set -u
B=${B:-/tmp/bundle}; R=${R:-/tmp/res}; D=${D:-/tmp/tensors}; LIMIT=${LIMIT:-540}
mkdir -p "$R" "$D"
export LD_LIBRARY_PATH=$B/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export OMP_NUM_THREADS=$(nproc) TS_SHARED_DATA=$B/data NCCL_NVLS_ENABLE=0
CLI=$B/bin/tensorscope-cli; BASE=$B/bin/tensorscope-cli-base
START=$(date +%s)
. "$(dirname "$0")/device_steps.sh"
step "machine: $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader)"
for t in test_sptv_cuda test_spttm_cuda; do run "$t" 60 env QT_QPA_PLATFORM=offscreen "$B/tests/$t"; done
[ -f "$D/nell2.tsb" ] || run gen-nell2 60 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist powerlaw:1.0 --seed 11 --float -o "$D/nell2.tsb"
[ -f "$D/uni.tsb" ] || run gen-uni 60 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist uniform --seed 5 --float -o "$D/uni.tsb"
V="--kernel sptv --backend cuda --mode all --repeat 5 --json"; F=COO,CFB,HOCFS-CSR,CSF
T="--kernel spttm --backend cuda --format COO --rank 32 --repeat 5 --json"
EXT=json
run nell2-sptv 90 "$CLI" bench "$D/nell2.tsb" $V --format $F
run nell2-sptv-base 90 "$BASE" bench "$D/nell2.tsb" $V --format $F
run uni-spttm 90 "$CLI" bench "$D/uni.tsb" $T --mode 1 --variant wb
run nell2-sptv-check 80 "$CLI" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format CSF --mode 3 --repeat 3 --json --check
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
