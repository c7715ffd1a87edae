#!/bin/bash
# Prepared in session 81 (not yet run: no machine was lent for it), call 3 of 4 for the next
# session with a GPU (80, 80c, 81, 80b in that order): the tiles' code under compute-sanitizer,
# then Nsight Compute on delicious-4d's shape, whose B-CSF line (4,500 GFLOP/s; 1,349-1,730 measured) was never profiled.
# 1. Sessions 79-81 wrote the shared-memory tiles (mttkrp_shared_tiles.cu: a block's 192 KiB
#    filled then read after a barrier, the spread loads' shuffles over a team's own lanes) and
#    ran them only as far as session 79's call 4. memcheck (out-of-bounds and misaligned accesses,
#    leaks at exit), racecheck (shared-memory hazards) and synccheck (illegal barriers and
#    shuffle masks) on test_mttkrp_cuda's two tile tests; memcheck and synccheck on the wide
#    kernels' test (the prefetch and the warp sums below), the device-built trees' (test_format_build_cuda) and two parts'
#    (test_multi_gpu_cuda) tile tests. Each cut at its own time; all beside the tensor's
#    generation (host only).
# 2. delicious-4d's shape (140M nonzeros, order 4; factors of 68 MB, 2.2 GB, 317 MB and 185 KB at
#    rank 32, two of them past L2): does B-CSF's fiber kernel wait on DRAM or on latency?
#    ncu (speed of light, memory, warp states, occupancy) on one launch of each mode, B-CSF at
#    rank 32 (a bench of one mode each: the host's build of a mode's tree is most of a run).
# 3. TENSORSCOPE_FIBER_PREFETCH (session 81: the wide kernel's team asks L2 for its group's rows
#    before walking it; leaves: the leaves' rows, all: every gathered level's) against none, on
#    the same tensor, B-CSF every mode, rank 32, rounds alternating while the call's time lasts;
#    with them TENSORSCOPE_FIBER_WARP_SUM=1 (a warp's 8 wide teams that end on one output row add
#    it once: mode 4's 1,443 rows, the first holding 12.7% of the nonzeros by the generator's law).
# In that order of worth: ncu on mode 1, then the prefetch's first round, then the other modes.
# Bundle (make_bundle.sh --strip --icu-stub --tests test_mttkrp_cuda,test_format_build_cuda,test_multi_gpu_cuda):
# the CLI, those suites, data/, lib/.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
SAN=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null | head -1)
step "compute-sanitizer: $SAN"
export QT_QPA_PLATFORM=offscreen
EXT=out
T=$B/tests
# --error-exitcode: a finding is rc=9 in the log, whatever the test's own verdict
S=("$SAN" --error-exitcode 9 --print-limit 20)
gen_del4d &
GEN=$!
run san-memcheck-tiles 120 timeout 120 "${S[@]}" --tool memcheck --leak-check full "$T/test_mttkrp_cuda" \
    sharedTilesKeepTheResult sharedTilesTellTheBenchTheirTraffic
run san-racecheck-tiles 120 timeout 120 "${S[@]}" --tool racecheck "$T/test_mttkrp_cuda" sharedTilesTellTheBenchTheirTraffic
run san-memcheck-wide 90 timeout 90 "${S[@]}" --tool memcheck "$T/test_mttkrp_cuda" wideAndNarrowTeamsKeepTheResult
run san-synccheck-tiles 90 timeout 90 "${S[@]}" --tool synccheck "$T/test_mttkrp_cuda" sharedTilesKeepTheResult
run san-synccheck-wide 90 timeout 90 "${S[@]}" --tool synccheck "$T/test_mttkrp_cuda" wideAndNarrowTeamsKeepTheResult
run san-memcheck-built 60 timeout 60 "${S[@]}" --tool memcheck "$T/test_format_build_cuda" deviceBuiltTreesTakeTheTiles
run san-memcheck-parts 60 timeout 60 "${S[@]}" --tool memcheck "$T/test_multi_gpu_cuda" partsOverTiles
wait "$GEN"
ncu_setup
K="regex:fiber_(team|index32|wide)_kernel"
ncu_mode() {
    run "ncu-del4d-bcsf-m$1" 90 "$NCU" $NCU_P --launch-count 1 --kernel-name "$K" "$CLI" bench "$D/del4d.tsb" \
        --kernel mttkrp --backend cuda --format B-CSF --mode "$1" --rank 32 --repeat 1
}
ncu_mode 1
EXT=jsonl
P=(--kernel mttkrp --backend cuda --format B-CSF --mode all --rank 32 --repeat 5 --jsonl)
prefetch_round() {
    run del4d-prefetch-none 120 "$CLI" bench "$D/del4d.tsb" "${P[@]}"
    run del4d-prefetch-leaves 120 env TENSORSCOPE_FIBER_PREFETCH=leaves "$CLI" bench "$D/del4d.tsb" "${P[@]}"
    run del4d-prefetch-all 120 env TENSORSCOPE_FIBER_PREFETCH=all "$CLI" bench "$D/del4d.tsb" "${P[@]}"
    run del4d-warpsum 120 env TENSORSCOPE_FIBER_WARP_SUM=1 "$CLI" bench "$D/del4d.tsb" "${P[@]}"
}
prefetch_round
EXT=out
ncu_mode 4
ncu_mode 2
ncu_mode 3
EXT=jsonl
prefetch_round
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
