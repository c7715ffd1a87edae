#!/bin/bash
# Issue 19's 4-order shape on one H100, from a carried bundle $B (bin/tensorscope-cli; optional
# bin/variants/NAME/tensorscope-cli built with other register bounds; tests/, lib/;
# device_steps.sh beside this script). Optionally first (NELL2=1) the nell-2 shape's MM-CSF with
# this binary and each NELL2_VARIANTS variant; then a tensor of delicious-4d's shape (532,924 x 17,262,471 x
# 2,480,308 x 1,443, 140M nonzeros, power law, fp32) generated once, and the CUDA MTTKRP at rank
# 32 of each format in FORMATS (default all five GPU formats), then each VARIANT_FORMATS entry
# (variant:format) as time allows. Each step is skipped once the call's time (LIMIT seconds from
# the start) would pass. Results (JSON, stderr, log) in $R, packed into $OUT.
set -u
FORMATS=${FORMATS:-B-CSF MM-CSF CSF BLCO COO}; VARIANT_FORMATS=${VARIANT_FORMATS:-}
. "$(dirname "$0")/device_steps.sh"
device_setup
M="--kernel mttkrp --backend cuda --rank 32 --repeat 5 --json"
if [ "${NELL2:-0}" = 1 ]; then
    run test_mttkrp_cuda 60 env QT_QPA_PLATFORM=offscreen "$B/tests/test_mttkrp_cuda"
    run gen-nell2 60 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist powerlaw:1.0 --seed 11 --float -o "$D/nell2.tsb"
    for round in 1 2; do
        EXT=json run "nell2-mmcsf-$round" 50 "$CLI" bench "$D/nell2.tsb" $M --format MM-CSF
        for v in ${NELL2_VARIANTS:-}; do EXT=json run "nell2-mmcsf-$v-$round" 50 "$B/bin/variants/$v/tensorscope-cli" bench "$D/nell2.tsb" $M --format MM-CSF; done
    done
    rm -f "$D/nell2.tsb"
fi
run gen-del4d 200 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
for f in $FORMATS; do EXT=json run "del4d-$f" 60 "$CLI" bench "$D/del4d.tsb" $M --format "$f"; done
for vf in $VARIANT_FORMATS; do
    EXT=json run "del4d-${vf%%:*}-${vf#*:}" 60 "$B/bin/variants/${vf%%:*}/tensorscope-cli" bench "$D/del4d.tsb" $M --format "${vf#*:}"
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
