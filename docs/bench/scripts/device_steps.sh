# Sourced by the device scripts (carry it in the bundle beside them). Needs R (results), LIMIT
# (the call's seconds) and START (its start, date +%s); EXT names what a step's stdout becomes
# (default out). step: a line in $R/log. run NAME SECONDS CMD...: CMD's stdout to $R/NAME.$EXT and
# stderr to $R/NAME.err, skipped where SECONDS more would pass LIMIT, cut at LIMIT.
# pack DIR: $R as one $(basename $R).tgz in DIR. The device hands back at most 8 files from $OUT
# (session 17 lost a call's results to that), so keep R outside $OUT and pack it into $OUT.
step() { echo "[$(date +%T)] $*" >> "$R/log"; }
run() {  # name, the seconds it may need, command...
    local name=$1 need=$2; shift 2
    if [ $(( $(date +%s) - START + need )) -gt "$LIMIT" ]; then step "skip $name (time)"; return; fi
    step "start $name"; timeout $(( LIMIT - ($(date +%s) - START) )) "$@" > "$R/$name.${EXT:-out}" 2> "$R/$name.err"; step "end $name rc=$?"
}
pack() { tar -C "$(dirname "$R")" -czf "$1/$(basename "$R").tgz" "$(basename "$R")"; }
