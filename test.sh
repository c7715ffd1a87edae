#!/usr/bin/env bash
# ./test.sh: installs what is missing, builds, runs every test suite (ctest). Exits non-zero
# on any failure. GPU suites (label cuda) skip with a reason where there is no device; suites
# that use ../shared/data skip where it is absent.
set -euo pipefail
cd "$(dirname "$0")"
source .ci/prepare.sh
ts_install_missing
ts_build
export QT_QPA_PLATFORM=offscreen
ctest --test-dir build --output-on-failure -j2 --timeout 900
