#!/bin/bash
# Session 50's third call (about 300 s): HOCSR's first pass keeping the offsets' low 16 bits in
# the adaptive rows' blocks of 1,024 too where the kept rows hold under three nonzeros on average
# (the default at this commit), against keeping them only in blocks of 512 (TENSORSCOPE_HOCSR_LOW16=512,
# session 49's rule), mode 3 (the one a vector over 64 KB gives):
# 1. The GPU SpTV suite (hocsrEitherPass: a 100,000-nonzero tensor whose mode 3 takes the new way).
# 2. uniform and the denser uniform shape: alternating twice; uniform with --check.
# 3. nell-2 (4.7 nonzeros a kept row: 32 bits either way): once each.
# 4. The SpTV standing on uniform and nell-2: every GPU format, every mode.
# Run names: --tag 'hocsr-([a-z0-9]+)$=low16'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session50c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run test_sptv_cuda 60 timeout 120 env QT_QPA_PLATFORM=offscreen "$B/tests/test_sptv_cuda"
EXT=jsonl
S="--kernel sptv --backend cuda --repeat 10 --jsonl"
H="--format HOCSR --mode 3"
ab() {  # NAME TENSOR ROUNDS: the default against the switch, alternating
    local round
    for round in $(seq "$3"); do
        run $1-hocsr-wide 15 timeout 60 "$CLI" bench "$2" $S $H
        run $1-hocsr-512 15 timeout 60 env TENSORSCOPE_HOCSR_LOW16=512 "$CLI" bench "$2" $S $H
    done
}
sptv_all() {  # NAME TENSOR
    run $1-sptv 90 timeout 120 "$CLI" bench "$2" --kernel sptv --backend cuda --format COO,HOCSR,CFB,HOCFS-CSR,HOCFS-ELL,CSF \
        --mode all --repeat 10 --jsonl
}
gen_uniform
ab uni "$D/uni.tsb" 2
run uni-check-hocsr-wide 30 timeout 60 "$CLI" bench "$D/uni.tsb" $S $H --check
sptv_all uni "$D/uni.tsb"
rm -f "$D/uni.tsb"
run gen-dense 40 "$CLI" generate --dims 8000,6400,28818 --nnz 76900000 --dist uniform --seed 7 --float -o "$D/dense.tsb"
ab dense "$D/dense.tsb" 2
rm -f "$D/dense.tsb"
gen_nell2
ab nell2 "$D/nell2.tsb" 1
sptv_all nell2 "$D/nell2.tsb"
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
