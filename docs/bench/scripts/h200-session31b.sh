#!/bin/bash
# Prepared in session 30; run in session 31 as its second call (h200-issue19-session31.json), on the
# nell-2 shape: the team kernels on grids of a block per 32 fiber groups (TENSORSCOPE_TEAM_GRID=
# full) against grid_for's cap of 32 blocks an SM, full / unset / full; large trees' groups of 4
# and 16 fibers a team (TENSORSCOPE_TEAM_GROUP; 8 measured best on an H100 with fibers of up to
# 128 nonzeros, now 32); then the trees the device builds for the CPD and several GPUs
# (mttkrp_slots.cpp), which still split long fibers at B-CSF's 128: decompose --backend cuda,
# B-CSF and MM-CSF, rank 32, 5 iterations, TENSORSCOPE_FIBER_SPLIT unset (128) / 32 / unset / 32
# (the JSON's per-iteration MTTKRP seconds). Bundle: as h200-session31.sh's.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
gen_nell2
EXT=jsonl
N="--kernel mttkrp --backend cuda --format B-CSF,MM-CSF --mode all --rank 32 --repeat 5 --jsonl"
for g in full unset full; do run nell2-grid$g 40 env TENSORSCOPE_TEAM_GRID=$g "$CLI" bench "$D/nell2.tsb" $N; done
for g in 4 16 unset; do run nell2-group$g 40 env TENSORSCOPE_TEAM_GROUP=$g "$CLI" bench "$D/nell2.tsb" $N; done
EXT=json
for s in unset 32 unset 32; do
    for f in B-CSF MM-CSF; do
        run nell2-cpd-$f-split$s 45 env TENSORSCOPE_FIBER_SPLIT=$s "$CLI" decompose "$D/nell2.tsb" --method cpd --backend cuda \
            --format $f --rank 32 --iters 5 --tol 0 --json
    done
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
