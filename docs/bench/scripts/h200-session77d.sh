#!/bin/bash
# Session 77, call 4: the GPU advisor with a dense-tile cell charged 32 bytes (advisor.cpp,
# kGpuWeights; chosen by regrading calls 2-3), measured on the 15 tensors and the five check
# tensors. Bundle $B: bin/tensorscope-cli, lib/, data/, advisor_eval.py, device_steps.sh.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
E=(python3 "$B/advisor_eval.py" --bin "$B/bin" --data "$B/data" --backend cuda --rounds 2 --repeat 5 --sptv-repeat 10
   --threads 8 --commit "${COMMIT:-unknown}")
EXT=out run advisor-cuda-all 120 "${E[@]}" --out "$R/gpu-advisor-all.json"
EXT=out run advisor-cuda-check 70 "${E[@]}" --out "$R/gpu-advisor-check.json" \
    --only check-powerlaw-3d,check-uniform-4d,check-blocks-3d,check-powerlaw-4d,check-powerlaw-3d-5m
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
