#!/bin/bash
# Prepared in session 81 (no device was lent that session; not yet run), call 3 of 4 for the next
# session with a GPU (80, 80c, 81, 80b in that order): the tiles' code under compute-sanitizer,
# then Nsight Compute on delicious-4d's shape, whose B-CSF line (4,500 GFLOP/s; 1,349-1,730 measured) was never profiled.
# 1. Sessions 79-81 wrote the shared-memory tiles (mttkrp_shared_tiles.cu: a block's 192 KiB
#    filled then read after a barrier, the spread loads' shuffles over a team's own lanes) and
#    ran them only as far as session 79's call 4. memcheck (out-of-bounds and misaligned accesses,
#    leaks at exit), racecheck (shared-memory hazards) and synccheck (illegal barriers and
#    shuffle masks) on test_mttkrp_cuda's two tile tests; memcheck on the device-built trees'
#    (test_format_build_cuda) and two parts' (test_multi_gpu_cuda) tile tests.
# 2. delicious-4d's shape (140M nonzeros, order 4; factors of 68 MB, 2.2 GB, 317 MB and 185 KB at
#    rank 32, two of them past L2): does B-CSF's fiber kernel wait on DRAM or on latency?
#    ncu (speed of light, memory, warp states, occupancy) on one launch of each mode, B-CSF at
#    rank 32 (a bench of one mode each: the host's build of a mode's tree is most of a run).
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
run san-memcheck-tiles 150 "${S[@]}" --tool memcheck --leak-check full "$T/test_mttkrp_cuda" \
    sharedTilesKeepTheResult sharedTilesTellTheBenchTheirTraffic
run san-racecheck-tiles 150 "${S[@]}" --tool racecheck "$T/test_mttkrp_cuda" sharedTilesTellTheBenchTheirTraffic
run san-synccheck-tiles 150 "${S[@]}" --tool synccheck "$T/test_mttkrp_cuda" sharedTilesKeepTheResult
run san-memcheck-built 90 "${S[@]}" --tool memcheck "$T/test_format_build_cuda" deviceBuiltTreesTakeTheTiles
run san-memcheck-parts 90 "${S[@]}" --tool memcheck "$T/test_multi_gpu_cuda" partsOverTiles
gen_del4d
ncu_setup
K="regex:fiber_(team|index32|wide)_kernel"
for m in 1 2 3 4; do
    run "ncu-del4d-bcsf-m$m" 90 "$NCU" $NCU_P --launch-count 1 --kernel-name "$K" "$CLI" bench "$D/del4d.tsb" \
        --kernel mttkrp --backend cuda --format B-CSF --mode $m --rank 32 --repeat 1
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
