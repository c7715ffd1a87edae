#!/bin/bash
# Prepared in session 31 for the next session's second call (not yet run), on the split-16
# binary: the uniform shape, whose trees run the wide loop (4-lane teams, bounded to four blocks):
# that loop with 32-bit numbers (TENSORSCOPE_WIDE_INDEX32=4|5: bounded to five blocks it spills
# 8-16 bytes where the 64-bit one spills 148-176) against the default, alternating, B-CSF; then
# issue 19's standing on it (device_steps.sh's standing) and the real tensors' MTTKRP with
# --check. Run names end in the value: --tag 'wide32(unset|4|5)$=wide_index32'.
# Bundle: as h200-session32.sh's.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
gen_uniform
T="--kernel mttkrp --backend cuda --format B-CSF --mode all --rank 32 --repeat 5 --jsonl"
for b in unset 5 4 unset 5 4; do run uni-wide32$b 30 env TENSORSCOPE_WIDE_INDEX32=$b "$CLI" bench "$D/uni.tsb" $T; done
standing uni
for t in movielens-100k lastfm-tags jf17k-4d; do
    run $t-mttkrp 20 "$CLI" bench "$B/data/$t.tns" --kernel mttkrp --backend cuda --format COO,CSF,B-CSF,MM-CSF --mode all \
        --rank 32 --repeat 5 --jsonl --check
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
