#!/bin/bash
# Session 42, call 4 (about 200 s): where MM-CSF's partitioning on the device spends its time
# (Nsight Systems' kernel summary over one CPD iteration on the nell-2 shape: the partition's
# kernels beside the trees' build and the iteration), and the CPD on delicious-4d's shape (140M
# nonzeros, order 4) with MM-CSF, its partition now on the device, beside B-CSF (rank 32, 5
# iterations): setup_seconds, build_s (the partition included since 02e7a13's successor), the fit.
# Bundle: make_bundle.sh h200-session42d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=json
gen_nell2
NSYS=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -1)
step "nsys: $NSYS"
if [ -n "$NSYS" ]; then
    EXT=out run nsys-nell2-cpd-MM-CSF 60 "$NSYS" profile --stats=true --force-overwrite true -o "$R/nsys-mmcsf" "$CLI" \
        decompose "$D/nell2.tsb" --method cpd --backend cuda --format MM-CSF --rank 32 --iters 1 --tol 0
    rm -f "$R"/nsys-mmcsf.nsys-rep "$R"/nsys-mmcsf.sqlite
fi
run nell2-cpd-MM-CSF 40 "$CLI" decompose "$D/nell2.tsb" --method cpd --backend cuda --format MM-CSF --rank 32 --iters 5 --tol 0 --json
gen_del4d
for f in MM-CSF B-CSF; do
    run "del4d-cpd-$f" 90 "$CLI" decompose "$D/del4d.tsb" --method cpd --backend cuda --format $f --rank 32 --iters 5 --tol 0 --json
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
