#!/bin/bash
# Session 26's second call: CSF trees without a fiber over B-CSF's split length run B-CSF's fiber
# groups (engine/kernels/mttkrp_cuda.cpp, runs_as_split; first run in call 1 on tensors of up to
# 0.6M nonzeros) at the issue's scale: the uniform tensor of nell-2's dims (76.9M nonzeros, fibers
# of one or two nonzeros) and the delicious-4d shape (140M, 4 modes), each against the flat loop
# over nonzero groups (TENSORSCOPE_CSF_SHORT=nonzero-groups), B-CSF and MM-CSF in the same run.
# Bundle $B: bin/tensorscope-cli, lib/ and device_steps.sh beside this script; COMMIT as before.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
gen_uniform
U="--kernel mttkrp --backend cuda --mode all --rank 32 --repeat 5 --jsonl"
run uni-all 90 "$CLI" bench "$D/uni.tsb" $U --format CSF,B-CSF,MM-CSF --check
run uni-flat-1 40 env TENSORSCOPE_CSF_SHORT=nonzero-groups "$CLI" bench "$D/uni.tsb" $U --format CSF
run uni-short-2 40 "$CLI" bench "$D/uni.tsb" $U --format CSF
run uni-flat-2 40 env TENSORSCOPE_CSF_SHORT=nonzero-groups "$CLI" bench "$D/uni.tsb" $U --format CSF
rm -f "$D/uni.tsb"
run gen-del4d 100 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
run del4d-all 150 "$CLI" bench "$D/del4d.tsb" $U --format CSF,B-CSF,MM-CSF
run del4d-flat 60 env TENSORSCOPE_CSF_SHORT=nonzero-groups "$CLI" bench "$D/del4d.tsb" $U --format CSF
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
