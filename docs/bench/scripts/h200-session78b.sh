#!/bin/bash
# Session 78, call 2: the GPU suites the per-rank groups touch or that hold a resident COO
# (SUITES, the bundle's tests/), each alone, at the commit the bundle was built from.
# Bundle (make_bundle.sh --no-cli --strip --no-data --tests ...): the suites, lib/.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 200 ${SUITES:-$(ls "$B/tests")}
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
