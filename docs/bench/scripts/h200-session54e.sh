#!/bin/bash
# Session 54's fifth call (about 220 s): HOCSR's first pass gathering a block's kept offsets in shared
# memory (this build, passstaged) against the pass before it (CLI_ALT, built at a10b23c, passalt):
# mode 3 on the nell-2 and uniform shapes, three rounds alternating, medians of 10; then every
# mode once each way.
# Run names: --tag 'pass(\w+)$=hocsr_first_pass'.
# Bundle: make_bundle.sh --alt a10b23c h200-session54e.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
gen_nell2
gen_uniform
H="--kernel sptv --backend cuda --format HOCSR --jsonl --repeat 10"
for round in 1 2 3; do
    for t in nell2 uni; do
        run $t-m3-passalt 20 "$CLI_ALT" bench "$D/$t.tsb" $H --mode 3
        run $t-m3-passstaged 20 "$CLI" bench "$D/$t.tsb" $H --mode 3
    done
done
for t in nell2 uni; do
    run $t-passstaged 30 "$CLI" bench "$D/$t.tsb" $H --mode all
    run $t-passalt 30 "$CLI_ALT" bench "$D/$t.tsb" $H --mode all
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
