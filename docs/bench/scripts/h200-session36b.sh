#!/bin/bash
# Prepared in session 35 for the next session (not yet run): issue 19's standing kernels on the
# delicious-4d shape (MTTKRP on COO, CSF, B-CSF, MM-CSF and BLCO at rank 32; SpTV on every format
# with a GPU kernel; SpTTM's wb), every mode, at one commit: their last full measurement there is
# sessions 22-33's, before HOCSR's two passes, the shared-vector CSR products' rules and SpTTM's
# fiber teams of 8 x 4 or 16 x 8 by fiber length.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session36.sh h200-session36b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
gen_del4d
standing del4d
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
