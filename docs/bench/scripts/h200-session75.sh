#!/bin/bash
# Session 75, call 1: the GPU advisor measured again at this commit (last at session 27's
# 9467d01, before every kernel change of sessions 28-74): advisor_eval.py --backend cuda on the
# five fit tensors, the ten held-out ones, and (each its own record, so that a cut keeps the
# others) three generated tensors of 20M nonzeros, which take milliseconds a mode where the 600K
# ones take microseconds. Bundle $B: bin/tensorscope-cli, lib/, data/, advisor_eval.py and
# device_steps.sh beside this script.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
E=(python3 "$B/advisor_eval.py" --bin "$B/bin" --data "$B/data" --backend cuda --rounds 2 --repeat 5 --sptv-repeat 10
   --threads 8 --commit "${COMMIT:-unknown}")
"$CLI" advise "$B/data/movielens-100k.tns" --backend cuda --kernel mttkrp --json > "$R/machine.json" 2> "$R/machine.err"
EXT=out run advisor-cuda-fit 120 "${E[@]}" --out "$R/gpu-advisor-fit.json" \
    --only uniform-3d,powerlaw-3d,blocks-4d,blocks-3d-tiles,blocks-3d-sparse-tiles
EXT=out run advisor-cuda-held 150 "${E[@]}" --out "$R/gpu-advisor-held.json" \
    --only blocks-3d,powerlaw-3d-steep,uniform-4d,powerlaw-4d,uniform-5d,powerlaw-5d,blocks-5d,movielens-100k,lastfm-tags,jf17k-4d
for t in uniform-3d-20m powerlaw-3d-20m powerlaw-4d-20m; do
    EXT=out run "advisor-cuda-$t" 90 "${E[@]}" --out "$R/gpu-advisor-$t.json" --only "$t"
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
