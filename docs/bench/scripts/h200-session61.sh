#!/bin/bash
# Session 61's one call: every GPU test suite at the session's build, one after another on one
# H200 (the multi-GPU suites run their N parts on the one GPU), then the refactored bench and
# decompose commands' cuda paths on MovieLens (text and JSON, checked against cpu-ref). The
# MTTKRP kernels moved to headers of their own (PTX identical but for labels); the CLI's bench
# and decompose were cut into functions; outputs and huge-dims checks changed on the host.
# Bundle: make_bundle.sh --tests test_device_info,test_mttkrp_cuda,test_sptv_cuda,test_spttm_cuda,\
#   test_pipeline_cuda,test_decomp_cuda,test_ttmc_cuda,test_hls_cuda,test_format_build_cuda,\
#   test_mmcsf_partition_cuda,test_multi_gpu_cuda,test_collective_cuda,test_streamed_mttkrp_cuda h200-session61.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
nccl_setup
run_suites 120 test_device_info test_mttkrp_cuda test_sptv_cuda test_spttm_cuda test_ttmc_cuda test_hls_cuda \
    test_format_build_cuda test_mmcsf_partition_cuda test_collective_cuda test_multi_gpu_cuda \
    test_pipeline_cuda test_streamed_mttkrp_cuda test_decomp_cuda
ML=$B/data/movielens-100k.tns
run bench-cuda-text 30 "$CLI" bench "$ML" --backend cuda,omp --kernel mttkrp --format COO,CSF,B-CSF,MM-CSF,BLCO --rank 16 --repeat 3 --check
EXT=json run bench-cuda-json 30 "$CLI" bench "$ML" --backend cuda --kernel sptv --rank 1 --repeat 3 --check --json
run decompose-cuda 30 "$CLI" decompose "$ML" --backend cuda --rank 8 --iters 5 --format CSF
EXT=json run decompose-cuda-json 30 "$CLI" decompose "$ML" --backend cuda --rank 8 --iters 5 --format MM-CSF --json
for f in "$R"/*.out "$R"/*.json; do step "$(basename "$f"): $(grep -c '' "$f") lines, $(grep Totals "$f" || true)"; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
