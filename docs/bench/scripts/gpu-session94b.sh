#!/bin/bash
# Session 94's third call (bundle: make_bundle.sh --strip --icu-stub --no-data gpu-session94b.sh):
# issue 19's standing on the nell-2 and uniform shapes at this build (the last whole one was
# session 91's at 9b159646, before the trees' hot root rows of session 92 and session 93's
# changes): MTTKRP checked against cpu-ref, SpTV and SpTTM unchecked (device_steps.sh's standing).
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=<s> COMMIT=<bundle's> bash docs/bench/scripts/gpu-session94b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
gen_nell2 > /dev/null
CHECK=mttkrp standing nell2
pack "$OUT"
gen_uniform > /dev/null
CHECK=mttkrp standing uni
step DONE; touch "$R/DONE"
pack "$OUT"
