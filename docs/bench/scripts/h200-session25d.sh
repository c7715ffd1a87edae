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
advisor_cuda 150 200
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
