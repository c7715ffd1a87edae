#!/bin/bash
# Session 64's call: every GPU test suite at the session's build (our own gzip reader, the file
# sets written whole, the option checks), one after another on one H200, then the CLI on the
# device: a two-member .tns.gz and one with bytes after its members on cuda, decompose --write's
# set on cuda, the refusals this session added (pipeline's wrong name before the GPU, an option
# the kernel does not read), and a pipeline recording of many small chunks to open in the GUI here.
# Bundle: make_bundle.sh --tests gpu h200-session64.sh (the 13 suites of gpu_suites.txt)
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
nccl_setup
run_gpu_suites 120
W=$(mktemp -d)
run generate 60 "$CLI" generate --dims 20000,15000,10000 --nnz 2M --dist powerlaw:1.1 --seed 7 -o "$W/p.tns"
head -n 1000000 "$W/p.tns" | gzip -c > "$W/two.tns.gz"
tail -n +1000001 "$W/p.tns" | gzip -c >> "$W/two.tns.gz"
run bench-two-members 60 "$CLI" bench "$W/two.tns.gz" --backend cuda --kernel mttkrp --format B-CSF --rank 16 --repeat 1 --check
cp "$W/two.tns.gz" "$W/trail.tns.gz" && printf 'GARBAGE' >> "$W/trail.tns.gz"
run bench-trailing-bytes 30 "$CLI" bench "$W/trail.tns.gz" --backend cuda --kernel mttkrp --format B-CSF --rank 16 --repeat 1
run convert 60 "$CLI" convert "$W/p.tns" "$W/p.tsb"
run decompose-cuda-write 60 "$CLI" decompose "$W/p.tsb" --backend cuda --rank 8 --iters 5 --format B-CSF --write "$W/f"
step "decompose --write: $(ls "$W/f" | tr '\n' ' ')"
run pipeline-missing 30 "$CLI" pipeline "$W/nope.tns"
run bench-variant-refused 30 "$CLI" bench "$W/p.tsb" --backend cuda --kernel mttkrp --variant wb
EXT=json run pipeline-small-chunks 120 "$CLI" pipeline "$W/p.tsb" --format hocfs --streams 4 --chunk-bytes 64K --check --json
for f in "$R"/*.out "$R"/*.json; do step "$(basename "$f"): $(grep -c '' "$f") lines, $(grep Totals "$f" || true)"; done
rm -rf "$W"
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
