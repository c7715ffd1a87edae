#!/bin/bash
# Issue 26, BLCO in memory: the team kernel specialised for one block (the index fits 64 bits:
# no per-nonzero block lookup, the high bits in registers, the loop over modes unrolled) against
# the generic one (TENSORSCOPE_BLCO_GENERIC=1), on one H100 from a carried bundle $B
# (bin/tensorscope-cli, tests/, lib/). First the cuda suites that cover BLCO (orders 3-5 through
# the registry, 75-bit blocks, streamed chunks); then on the nell-2 shape (76.9M nonzeros, rank
# 32) both kernels with --check against cpu-ref in interleaved rounds. Results land in $R.
set -u
B=${B:-/tmp/bundle}; R=${R:-/tmp/res}; D=${D:-/tmp/tensors}; ROUNDS=${ROUNDS:-3}
mkdir -p "$R" "$D"
export LD_LIBRARY_PATH=$B/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export QT_QPA_PLATFORM=offscreen OMP_NUM_THREADS=$(nproc)
CLI=$B/bin/tensorscope-cli
step() { echo "[$(date +%T)] $*" >> "$R/log"; }
run() {  # name, command...
    local name=$1; shift
    step "start $name"; "$@" > "$R/$name.json" 2> "$R/$name.err"; step "end $name rc=$?"
}
step "machine: $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader) $(nproc) cores"
for t in test_mttkrp_cuda test_streamed_mttkrp_cuda; do
    echo "== $t" >> "$R/suites.txt"
    "$B/tests/$t" 2>&1 | grep -E "^(FAIL|Totals)|^   Loc|^   Actual|^   Expected" >> "$R/suites.txt"
done
step "suites done"
[ -f "$D/nell2.tsb" ] || run gen-nell2 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist powerlaw:1.0 --seed 11 --float -o "$D/nell2.tsb"
for r in $(seq "$ROUNDS"); do
    run "nell2-r$r-one-block" "$CLI" bench "$D/nell2.tsb" --kernel mttkrp --backend cuda --format BLCO --rank 32 --check --json
    run "nell2-r$r-generic" env TENSORSCOPE_BLCO_GENERIC=1 "$CLI" bench "$D/nell2.tsb" --kernel mttkrp --backend cuda --format BLCO --rank 32 --check --json
done
step DONE; touch "$R/DONE"
