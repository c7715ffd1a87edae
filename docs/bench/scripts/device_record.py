#!/usr/bin/env python3
"""Gathers what device calls left (each call's results folder, as device_steps.sh writes it: one
NAME.jsonl of bench rows a run, NAME.json of a decompose --json run, NAME.out for the test
suites) into one JSON document for docs/bench/: what, device, commit, command, generated, nnz,
suites, programs (standalone programs' JSON lines, by run) and results[], each row tagged with
its call, run, tensor, nnz and commit, and with a field for every --tag pattern its run name
matches (a switch's value, read from the name). A run's rounds (NAME, NAME.2, ...) all count.

usage: device_record.py --out FILE --what TEXT --command TEXT
                        --call 'call 1=DIR=COMMIT' [--call ...] [--tag 'REGEX=FIELD' ...]
                        [--device TEXT]
  REGEX has one group, matched against the run name (without its round suffix), e.g.
  --tag 'split(unset|\\d+)=fiber_split'. Written in session 30 from the ad hoc scripts of
  sessions 28-30, so that a session's record is one command.
"""
import argparse
import glob
import json
import os
import re

# The generated shapes the device scripts make (device_steps.sh) and the shared real tensors.
GENERATED = {
    'nell2': 'generate --dims 12092,9184,28818 --nnz 76900000 --dist powerlaw:1.0 --seed 11 --float',
    'uni': 'generate --dims 12092,9184,28818 --nnz 76900000 --dist uniform --seed 5 --float',
    'del4d': 'generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float',
    'del4d60': 'generate --dims 532924,17262471,2480308,1443 --nnz 60000000 --dist powerlaw:1.0 --seed 7 --float',
    # session 49: uniform with denser index tuples (mode 3's 1.5 nonzeros a tuple, mode 1's 0.42)
    'dense': 'generate --dims 8000,6400,28818 --nnz 76900000 --dist uniform --seed 7 --float',
    # session 92's 5-order shapes (device_steps.sh gen_5d)
    'vast5d': 'generate --dims 165427,11374,2,100,89 --nnz 26000000 --dist powerlaw:1.0 --seed 13 --float',
    'uni5d': 'generate --dims 40000,30000,20000,2000,500 --nnz 50000000 --dist uniform --seed 17 --float',
    # session 80's floor tensors (h200-session80b.sh): uni-1m ... uni-16m
    **{f'uni-{n}m': f'generate --dims 8000,6000,4000 --nnz {n}000000 --dist uniform --seed {60 + n} --float'
       for n in (1, 2, 4, 8, 16)},
}
NNZ = {'movielens-100k': 100000, 'lastfm-tags': 186479, 'jf17k-4d': 34544,
       'nell2': 76900000, 'uni': 76900000, 'del4d': 140000000, 'del4d60': 60000000, 'dense': 76900000,
       'vast5d': 26000000, 'uni5d': 50000000,
       **{f'uni-{n}m': n * 1000000 for n in (1, 2, 4, 8, 16)}}


def tensor_of(run):
    # longest name first: 'uni' is a prefix of nothing else, but keep the rule general
    for t in sorted(NNZ, key=len, reverse=True):
        if run.startswith(t):
            return t
    return None


def suite_totals(path):
    for line in open(path, errors='replace'):
        m = re.match(r'Totals: (\d+) passed, (\d+) failed, (\d+) skipped', line)
        if m:
            return f'{m.group(1)} passed, {m.group(2)} failed, {m.group(3)} skipped'
    return 'no totals (the suite did not finish)'


def sanitizer_summary(path):
    """A compute-sanitizer run's (san-*.out) suite totals and its own summary lines."""
    lines = [l.strip('= \n') for l in open(path, errors='replace') if 'SUMMARY:' in l]
    return f'{suite_totals(path)}; ' + ('; '.join(lines) or 'no sanitizer summary')


# What an Nsight Compute run (ncu-*.out) says of its kernel, the lines issue 19's notes read.
NCU_KEYS = ('Duration', 'DRAM Throughput', 'L2 Cache Throughput', 'Compute (SM) Throughput', 'L1/TEX Hit Rate',
            'L2 Hit Rate', 'Eligible Warps Per Scheduler', 'No Eligible', 'Warp Cycles Per Issued Instruction',
            'Registers Per Thread', 'Theoretical Occupancy', 'Achieved Occupancy', 'Grid Size', 'Block Size')


def ncu_summary(path):
    out = {}
    for line in open(path, errors='replace'):
        if '==PROF== Profiling' in line:
            out['kernel'] = line.split('"')[1]
        for k in NCU_KEYS:
            if line.strip().startswith(k) and k not in out:
                out[k] = ' '.join(line.split()[len(k.split()):])
    return out


def run_rows(folder):
    """(path, row) for every bench row (NAME.jsonl) and decompose --json run (NAME.json, one row
    keeping each iteration's times) in a results folder, oldest file first."""
    for path in sorted(glob.glob(os.path.join(folder, '*.json*')), key=os.path.getmtime):
        if path.endswith('.jsonl'):
            for line in open(path):
                row = json.loads(line) if line.strip() else {}
                if 'kernel' in row:  # not the closing line of sweeps and machine
                    yield path, row
        elif path.endswith('.json'):
            try:
                d = json.load(open(path))
            except ValueError:
                continue  # a run cut short
            if 'iterations' in d:
                yield path, {'kernel': 'decompose', **{k: d.get(k) for k in (
                    'method', 'backend', 'format', 'rank', 'device', 'fit', 'setup_seconds', 'setup',
                    'peak_device_bytes', 'gpu_memory_limit', 'iterations')}}


def program_rows(folder):
    """(run, rows) for each NAME.jsonl of a standalone program's lines (row_gather_bandwidth,
    gather_floor: JSON objects, none a bench row), which the record keeps under `programs`."""
    for path in sorted(glob.glob(os.path.join(folder, '*.jsonl')), key=os.path.getmtime):
        rows = []
        for line in open(path):
            try:
                rows.append(json.loads(line))
            except ValueError:
                continue
        if rows and not any('kernel' in r for r in rows):
            yield os.path.basename(path).rsplit('.', 1)[0], rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', required=True)
    ap.add_argument('--what', required=True)
    ap.add_argument('--command', required=True)
    ap.add_argument('--device', default='NVIDIA H200, 143771 MiB, nvidia-h200')
    ap.add_argument('--call', action='append', required=True, help="'LABEL=DIR=COMMIT'")
    ap.add_argument('--tag', action='append', default=[], help="'REGEX=FIELD'")
    a = ap.parse_args()
    tags = [(re.compile(t.rsplit('=', 1)[0]), t.rsplit('=', 1)[1]) for t in a.tag]
    # a tag must not overwrite what a row says of itself (session 79 tagged runs "path", which
    # bench rows carry since session 80)
    for _, field in tags:
        if field in ('kernel', 'format', 'backend', 'variant', 'path', 'mode', 'rank', 'call', 'run', 'tensor', 'nnz', 'commit'):
            ap.error(f"--tag's field {field!r} is one a row already has: name it otherwise")
    results, suites, commits, used, sanitizers, profiles, programs = [], {}, [], set(), {}, {}, {}
    for spec in a.call:
        label, folder, commit = spec.split('=')
        commits.append(f'{commit} ({label})')
        for path, row in run_rows(folder):
            run = os.path.basename(path).rsplit('.', 1)[0]
            base = re.sub(r'\.\d+$', '', run)  # a later round of the same run
            tensor = tensor_of(base)
            row.update(call=label, run=run, tensor=tensor, nnz=NNZ.get(tensor), commit=commit)
            for rx, field in tags:
                m = rx.search(base)
                if m:
                    row[field] = m.group(1)
            results.append(row)
            used.add(tensor)
        for run, rows in program_rows(folder):
            programs[f'{label} {run} ({commit})'] = rows
        # test suites, compute-sanitizer runs and Nsight Compute runs, each by its name's prefix
        for prefix, into, read in (('test_', suites, suite_totals), ('san-', sanitizers, sanitizer_summary),
                                   ('ncu-', profiles, ncu_summary)):
            for path in sorted(glob.glob(os.path.join(folder, prefix + '*.out'))):
                name = os.path.basename(path)[:-len('.out')]
                into[f'{label} {name} ({commit})'] = read(path)
    doc = {
        'what': a.what,
        'device': a.device,
        'commit': '; '.join(commits),
        'command': a.command,
        'generated': {t: g for t, g in GENERATED.items() if t in used},
        'nnz': {t: n for t, n in NNZ.items() if t in used},
        'suites': suites,
        **({'sanitizers': sanitizers} if sanitizers else {}),
        **({'profiles': profiles} if profiles else {}),
        **({'programs': programs} if programs else {}),
        'results': results,
    }
    with open(a.out, 'w') as f:
        json.dump(doc, f, indent=1)
    print(f'{a.out}: {len(results)} rows, {len(suites)} suites')


if __name__ == '__main__':
    main()
