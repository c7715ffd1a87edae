#!/bin/bash
# Issue 20 on the GPU: the advisor's cuda predictions (kGpuWeights, never fitted) against the
# GPU's kernels, on the evaluation's 15 tensors (advisor_eval.py --backend cuda, two rounds), so
# that the weights can be fitted (advisor_fit.py) and the ranking judged. Bundle $B:
# bin/tensorscope-cli, lib/, data/, advisor_eval.py and device_steps.sh beside this script;
# COMMIT names the commit the binary was built from. Results packed into $OUT.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
step "python: $(command -v python3) $(python3 --version 2>&1)"
E=(python3 "$B/advisor_eval.py" --bin "$B/bin" --data "$B/data" --backend cuda --rounds 2 --repeat 5 --sptv-repeat 10 --commit "${COMMIT:-unknown}")
# the fit tensors first, the held-out ones after: each part writes its record only at its end
run advisor-cuda-fit 150 "${E[@]}" --out "$R/gpu-advisor-fit.json" --only uniform-3d,powerlaw-3d,blocks-4d,blocks-3d-tiles,blocks-3d-sparse-tiles
run advisor-cuda-held 200 "${E[@]}" --out "$R/gpu-advisor-held.json" \
  --only blocks-3d,powerlaw-3d-steep,uniform-4d,powerlaw-4d,uniform-5d,powerlaw-5d,blocks-5d,movielens-100k,lastfm-tags,jf17k-4d
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
