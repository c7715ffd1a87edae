#!/bin/bash
# Session 63's second call: every GPU test suite again at the session's last build (after the
# B-CSF split, lowrank generator and --reorder seed changes), one after another on one H200, then the CLI on the device's
# filesystem: a bounded convert, bench --check on cuda, and the decompositions' new refusal of
# values too large for doubles taken on the cuda backend (it is checked before the backends part).
# Bundle: make_bundle.sh --tests test_device_info,test_mttkrp_cuda,test_sptv_cuda,test_spttm_cuda,\
#   test_pipeline_cuda,test_decomp_cuda,test_ttmc_cuda,test_hls_cuda,test_format_build_cuda,\
#   test_mmcsf_partition_cuda,test_multi_gpu_cuda,test_collective_cuda,test_streamed_mttkrp_cuda h200-session63b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
nccl_setup
run_suites 120 test_device_info test_mttkrp_cuda test_sptv_cuda test_spttm_cuda test_ttmc_cuda test_hls_cuda \
    test_format_build_cuda test_mmcsf_partition_cuda test_collective_cuda test_multi_gpu_cuda \
    test_pipeline_cuda test_streamed_mttkrp_cuda test_decomp_cuda
W=$(mktemp -d)
run generate 60 "$CLI" generate --dims 20000,15000,10000 --nnz 5M --dist powerlaw:1.1 --seed 7 -o "$W/p.tns"
run convert-runs 60 "$CLI" convert "$W/p.tns" "$W/p.tsb" --memory 8M
step "after convert: $(ls "$W" | tr '\n' ' ')"
run bench-tsb-cuda 60 "$CLI" bench "$W/p.tsb" --backend cuda --kernel mttkrp --format CSF,B-CSF,MM-CSF --rank 16 --repeat 3 --check --write "$W/out"
step "bench --write: $(ls "$W/out" | tr '\n' ' ')"
EXT=json run decompose-cuda-json 60 "$CLI" decompose "$W/p.tsb" --backend cuda --rank 8 --iters 5 --format MM-CSF --json
run bench-cuda-huge-split 60 "$CLI" bench "$W/p.tsb" --backend cuda --kernel mttkrp --format B-CSF --rank 16 --repeat 1 --check --fiber-threshold 18446744073709551615
for r in none lexi; do
    EXT=json run "decompose-cuda-reorder-$r" 60 "$CLI" decompose "$W/p.tsb" --backend cuda --rank 8 --iters 5 --tol 0 --seed 5 --format B-CSF --json $( [ $r = none ] || echo --reorder $r )
done
printf '1 1 1 1e308\n2 2 2 -1e308\n3 1 2 1e308\n1 2 3 1e308\n' > "$W/big.tns"
run decompose-cuda-huge 60 "$CLI" decompose "$W/big.tns" --backend cuda --rank 2 --iters 3
for f in "$R"/*.out "$R"/*.json; do step "$(basename "$f"): $(grep -c '' "$f") lines, $(grep Totals "$f" || true)"; done
rm -rf "$W"
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
