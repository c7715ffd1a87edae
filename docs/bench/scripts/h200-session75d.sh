#!/bin/bash
# Session 75, call 4: the GPU advisor's new charges (MM-CSF's leaf adds at two row passes, HLS's
# fp64 adds), chosen on calls 1 and 3's records, measured on five tensors none of them was chosen
# on (advisor_eval.py's CHECK list). Bundle $B: bin/tensorscope-cli, lib/, data/, advisor_eval.py
# and device_steps.sh beside this script.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
E=(python3 "$B/advisor_eval.py" --bin "$B/bin" --data "$B/data" --backend cuda --rounds 2 --repeat 5 --sptv-repeat 10
   --threads 8 --commit "${COMMIT:-unknown}")
EXT=out run advisor-cuda-check 150 "${E[@]}" --out "$R/gpu-advisor-check.json" \
    --only check-powerlaw-3d,check-uniform-4d,check-blocks-3d,check-powerlaw-4d,check-powerlaw-3d-5m
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
