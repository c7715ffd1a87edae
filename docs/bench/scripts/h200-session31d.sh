#!/bin/bash
# Session 31's fourth call, on the binary with the fibers cut at 16 on upload and in the CPD's
# device-built trees (calls 1-2 measured 16 ahead of 32, and 32 ahead of 128 for the CPD): the
# suites; the nell-2 shape, B-CSF and MM-CSF, the default (16) against large trees' groups of 4
# fibers a team (TENSORSCOPE_TEAM_GROUP=4, call 2: 2-3% ahead of 8 at 32), alternating; the CPD
# (decompose --backend cuda, 5 iterations) at 16 against 32, alternating; the real tensors with
# --check at 16 and 32; delicious-4d's shape, MM-CSF and B-CSF at 16, as far as the time allows.
# Bundle: make_bundle.sh --tests test_mttkrp_cuda,test_decomp_cuda h200-session31d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 30 test_mttkrp_cuda test_decomp_cuda
EXT=jsonl
gen_nell2
N="--kernel mttkrp --backend cuda --format B-CSF,MM-CSF --mode all --rank 32 --repeat 5 --jsonl"
for g in unset 4 unset 4; do run nell2-group$g 35 env TENSORSCOPE_TEAM_GROUP=$g "$CLI" bench "$D/nell2.tsb" $N; done
EXT=json
for s in unset 32 unset 32; do
    for f in B-CSF MM-CSF; do
        run nell2-cpd-$f-split$s 20 env TENSORSCOPE_FIBER_SPLIT=$s "$CLI" decompose "$D/nell2.tsb" --method cpd --backend cuda \
            --format $f --rank 32 --iters 5 --tol 0 --json
    done
done
EXT=jsonl
ab_real TENSORSCOPE_FIBER_SPLIT CSF,B-CSF,MM-CSF unset 32
run gen-del4d 100 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
K="--kernel mttkrp --backend cuda --mode all --rank 32 --repeat 5 --jsonl"
run del4d-mmcsf-splitunset 88 "$CLI" bench "$D/del4d.tsb" $K --format MM-CSF
run del4d-bcsf-splitunset 85 "$CLI" bench "$D/del4d.tsb" $K --format B-CSF
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
