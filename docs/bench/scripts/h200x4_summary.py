#!/usr/bin/env python3
"""Summarises what h200x4-scaling.sh left in its results folder: docs/bench/h200x4-scaling.json
and the GUI's scaling recordings (resources/recordings/scaling/h200x4-scaling-*.json).

usage: h200x4_summary.py RESULTS_DIR COMMIT REPO_ROOT
"""
import json
import os
import re
import sys

res, commit, root = sys.argv[1:4]
DEVICE = 'NVIDIA H200 x4 (nvidia-h200-x4), 143771 MiB each, NVLink (NV18) between every pair, 64-core host'
TENSORS = {
    'nell2': ('12092,9184,28818', 76900000, 11),
    'amz1b': ('4821207,1774269,1805187', 1000000000, 7),
    'amz3b': ('4821207,1774269,1805187', 3000000000, 17),
}


def load(name):
    path = os.path.join(res, name + '.json')
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return None
    return json.load(open(path))


def tensor_command(t):
    dims, nnz, seed = TENSORS[t]
    return f'tensorscope-cli generate --dims {dims} --nnz {nnz} --dist powerlaw:1.0 --seed {seed} --float -o {t}.tsb'


def bench_summary(t):
    out = {}
    for g in (1, 2, 4):
        d = load(f'{t}-bench-gpus{g}')
        if not d:
            continue
        for s in d['sweeps']:
            modes = [r for r in d['results'] if r['format'] == s['format'] and r.get('ran')]
            out.setdefault(s['format'], {})[str(g)] = {
                'sweep_s': s['seconds'],
                'kernel_s': sum(r['kernel_s'] for r in modes),
                'collective_s': sum(r['collective_s'] for r in modes),
                'per_gpu_nnz_by_mode': [r['per_gpu_nnz'] for r in modes],
            }
    for f, by_gpus in out.items():
        base = by_gpus.get('1', {}).get('sweep_s')
        for g, row in by_gpus.items():
            if base:
                row['ratio_to_1_gpu'] = row['sweep_s'] / base
    return out


def cpd_summary(name):
    d = load(name)
    if not d:
        return None
    its = d['iterations']
    later = its[1:]
    row = {
        'fit': d['fit'],
        'iteration_s_mean_2_on': sum(i['iter_seconds'] for i in later) / len(later),
        'mttkrp_s_mean_2_on': sum(i['mttkrp_s'] for i in later) / len(later),
        'dense_s_mean_2_on': sum(i['dense_s'] for i in later) / len(later),
        'collective_s_total': d.get('collective_s'),
        'per_gpu_nnz': d.get('per_gpu_nnz'),
        'setup_seconds': d['setup_seconds'],
        'setup': d.get('setup'),
        'peak_device_bytes': d.get('peak_device_bytes'),
        'peak_host_bytes': d.get('peak_host_bytes'),
        'iterations': its,
    }
    if 'streaming' in d:
        row['streaming'] = d['streaming']
    return row


def time_v(name):
    path = os.path.join(res, name + '.time')
    if not os.path.exists(path):
        return None
    text = open(path).read()
    rss = re.search(r'Maximum resident set size \(kbytes\): (\d+)', text)
    wall = re.search(r'Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)', text)
    return {'max_rss_bytes': int(rss.group(1)) * 1024 if rss else None, 'wall': wall.group(1) if wall else None}


doc = {
    'device': DEVICE,
    'commit': commit,
    'command': 'docs/bench/scripts/h200x4-scaling.sh (bench --kernel mttkrp --backend cuda --rank 32 --gpus N --json; '
               'decompose --method cpd --backend cuda --format B-CSF --rank 32 --tol 0 --gpus N --json [--stream]; '
               'mpirun -np P --bind-to none -x OMP_NUM_THREADS=32 decompose --distributed --backend cuda), '
               'summarised by docs/bench/scripts/h200x4_summary.py',
    'note': 'Issues 15, 16, 17. sweep_s = the sum over modes of the median (5 runs after a warm-up) of kernels plus '
            'collectives; CPD figures are means over iterations 2 on (the first holds one-time set-up). '
            'NCCL_NVLS_ENABLE=0 in every run.',
    'tensors': {t: {'command': tensor_command(t), 'generate': open(os.path.join(res, f'gen-{t}.err')).read().splitlines()[0],
                    'generate_time_v': time_v(f'gen-{t}')} for t in TENSORS if os.path.exists(os.path.join(res, f'gen-{t}.err'))},
    'mttkrp_sweep': {t: bench_summary(t) for t in TENSORS},
    'cpd': {},
    'distributed_cpd': {},
}
for t in TENSORS:
    for g in (1, 2, 4):
        for suffix in ('', '--stream'):
            row = cpd_summary(f'{t}-cpd-gpus{g}{suffix}')
            if row:
                doc['cpd'][f'{t} gpus {g}{" streamed" if suffix else ""}'] = row
for p in (1, 2):
    d = load(f'amz1b-mpi-np{p}')
    if d:
        later = d['iterations'][1:]
        doc['distributed_cpd'][f'amz1b ranks {p}'] = {
            'fit': d['fit'], 'grid': d['grid'],
            'iteration_s_mean_2_on': sum(i['iter_seconds'] for i in later) / len(later),
            'mttkrp_s_mean_2_on': sum(i['mttkrp_s'] for i in later) / len(later),
            'dense_s_mean_2_on': sum(i['dense_s'] for i in later) / len(later),
            'comm_s': d['comm_s'], 'compute_s': d['compute_s'], 'setup_seconds': d['setup_seconds'],
            'per_rank': d['per_rank'], 'time_v': time_v(f'amz1b-mpi-np{p}'),
        }
if os.path.exists(os.path.join(res, 'suites.txt')):
    doc['gpu_suites'] = [l for l in open(os.path.join(res, 'suites.txt')).read().splitlines() if l.startswith(('==', 'Totals'))]

# the records' shape: one results[] of rows, each with its tensor, nnz and gpus or ranks
results = []
for t, formats in doc.pop('mttkrp_sweep').items():
    for f, by_gpus in formats.items():
        for g, row in by_gpus.items():
            results.append({'kind': 'mttkrp-sweep', 'tensor': t, 'nnz': TENSORS[t][1], 'format': f, 'gpus': int(g), **row})
for key, row in doc.pop('cpd').items():
    t, _, g = key.split()[:3]
    results.append({'kind': 'cpd-als' + (' streamed' if 'streamed' in key else ''), 'tensor': t, 'nnz': TENSORS[t][1],
                    'format': 'B-CSF', 'gpus': int(g), **row})
for key, row in doc.pop('distributed_cpd').items():
    t, _, p = key.split()
    results.append({'kind': 'cpd-als distributed', 'tensor': t, 'nnz': TENSORS[t][1], 'format': 'B-CSF', 'ranks': int(p),
                    'gpus_per_rank': 1, **row})
doc['nnz'] = {t: spec[1] for t, spec in TENSORS.items()}
doc['results'] = results
json.dump(doc, open(os.path.join(root, 'docs/bench/h200x4-scaling.json'), 'w'), indent=1)

# the GUI's recordings: one list of bench documents per tensor, each with device/commit/command
for t in TENSORS:
    docs = []
    for g in (1, 2, 4):
        d = load(f'{t}-bench-gpus{g}')
        if not d:
            continue
        d = {'device': 'NVIDIA H200 (nvidia-h200-x4)', 'commit': commit,
             'command': f'tensorscope-cli bench {t}.tsb --kernel mttkrp --backend cuda --format {",".join(sorted({r["format"] for r in d["results"]}))} '
                        f'--rank 32 --gpus {g} --json', 'tensor': tensor_command(t), **d}
        for r in d['results']:
            r.pop('output', None)
        docs.append(d)
    if docs:
        json.dump(docs, open(os.path.join(root, f'resources/recordings/scaling/h200x4-scaling-{t}.json'), 'w'), indent=1)
