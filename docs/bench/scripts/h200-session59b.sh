#!/bin/bash
# Session 59's second call: what the first left undone on delicious-4d's shape (its SpTV run was cut
# at the call's limit after CSF's mode 2; SpTTM never started), then every GPU test suite at the
# session's build, one after another on one H200 (the multi-GPU suites run their N parts on the
# one GPU); session 58's third call ran them side by side and had two cut and six never started.
# Bundle: make_bundle.sh --tests test_device_info,test_mttkrp_cuda,test_sptv_cuda,test_spttm_cuda,\
#   test_pipeline_cuda,test_decomp_cuda,test_ttmc_cuda,test_hls_cuda,test_format_build_cuda,\
#   test_mmcsf_partition_cuda,test_multi_gpu_cuda,test_collective_cuda,test_streamed_mttkrp_cuda h200-session59b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
nccl_setup
gen_del4d
EXT=jsonl run del4d-sptv-csf 60 "$CLI" bench "$D/del4d.tsb" --kernel sptv --backend cuda --format CSF --mode 3,4 \
    --repeat 5 --jsonl
EXT=jsonl run del4d-spttm 60 "$CLI" bench "$D/del4d.tsb" --kernel spttm --backend cuda --format COO --variant wb \
    --mode all --rank 32 --repeat 5 --jsonl
for t in test_device_info test_mttkrp_cuda test_sptv_cuda test_spttm_cuda test_ttmc_cuda test_hls_cuda \
    test_format_build_cuda test_mmcsf_partition_cuda test_collective_cuda test_multi_gpu_cuda \
    test_pipeline_cuda test_streamed_mttkrp_cuda test_decomp_cuda; do
    if [ $(( $(date +%s) - START + 20 )) -gt "$LIMIT" ]; then step "skip $t (time)"; continue; fi
    timeout $(( LIMIT - ($(date +%s) - START) )) env QT_QPA_PLATFORM=offscreen "$B/tests/$t" > "$R/$t.out" 2>&1
    step "suite $t rc=$?: $(grep Totals "$R/$t.out")"
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
