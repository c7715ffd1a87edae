#!/bin/bash
# Issue 19, session 23, call 5: MM-CSF's partitions in one launch of the several-tree team kernel
# (as built, $B/bin/tensorscope-cli) against one launch per partition of the single-tree kernel
# (bounded to 6 blocks of 256, as B-CSF's; variant build $B/bin/tensorscope-cli-mm with its
# test_mttkrp_cuda in $B/tests/mm), with B-CSF alongside, on the nell-2 shape at rank 32, the two
# alternating twice. MM-CSF's partition sizes from `formats`. One H100 or H200 from a carried
# bundle $B (lib/, data/; device_steps.sh beside this script). Results packed into $OUT.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=out run test_mttkrp_cuda-mm 120 env QT_QPA_PLATFORM=offscreen "$B/tests/mm/test_mttkrp_cuda"
EXT=jsonl
gen_nell2
EXT=json run nell2-mmcsf-formats 60 "$CLI" formats "$D/nell2.tsb" --format MM-CSF --json
for round in 1 2; do
  for v in one separate; do
    bin=$CLI; [ $v = separate ] && bin=$B/bin/tensorscope-cli-mm
    run nell2-mttkrp-$v-$round 60 "$bin" bench "$D/nell2.tsb" --kernel mttkrp --backend cuda --rank 32 --repeat 5 --format MM-CSF,B-CSF --jsonl
  done
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
