#!/bin/bash
# Issue 15's two-GPU targets, for the nvidia-h200-x2 kind (run from a carried bundle: bin/ with
# tensorscope-cli, lib/ from tools/carry-libs.sh). NCCL comes from the Python package; NVLink
# multicast stays off. One call: the 1B-nonzero tensor is generated once as .tsb, and every run
# that needs it follows. Prints one summary; the JSON documents land in $OUT.
set -u
B=${B:-$(cd "$(dirname "$0")" && pwd)}
NCCL_LIB=$(python3 -c "import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], 'lib'))")
export LD_LIBRARY_PATH=$B/lib:/usr/local/cuda/lib64:$NCCL_LIB:${LD_LIBRARY_PATH:-}
export NCCL_NVLS_ENABLE=0 OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
CLI=$B/bin/tensorscope-cli
cd /tmp
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
# the amazon-reviews shape, power-law, 1 billion nonzeros; the nell-2 shape
[ -f amz1b.tsb ] || $CLI generate --dims 4821207,1774269,1805187 --nnz 1000000000 --dist powerlaw:1.0 --seed 7 --float -o amz1b.tsb
[ -f nell2.tsb ] || $CLI generate --dims 12092,9184,28818 --nnz 76900000 --dist powerlaw:1.0 --seed 11 --float -o nell2.tsb
for t in amz1b nell2; do
  for g in 1 2; do
    $CLI bench $t.tsb --kernel mttkrp --backend cuda --format B-CSF,CSF,COO,MM-CSF --rank 32 --gpus $g --json > $OUT/$t-bench-gpus$g.json
    $CLI decompose $t.tsb --method cpd --backend cuda --format B-CSF --rank 32 --iters 6 --tol 0 --gpus $g --json > $OUT/$t-cpd-gpus$g.json
  done
done
python3 - <<'PY'
import json, os
O = os.environ['OUT']
for t in ['amz1b', 'nell2']:
    sweeps = {g: {s['format']: s['seconds'] for s in json.load(open(f'{O}/{t}-bench-gpus{g}.json'))['sweeps']} for g in (1, 2)}
    for f in sweeps[1]:
        print(t, f, 'sweep 1 GPU %.4f s, 2 GPUs %.4f s, ratio %.3f' % (sweeps[1][f], sweeps[2].get(f, float('nan')), sweeps[2].get(f, float('nan')) / sweeps[1][f]))
    it = {g: json.load(open(f'{O}/{t}-cpd-gpus{g}.json')) for g in (1, 2)}
    mean = {g: sum(i['iter_seconds'] for i in it[g]['iterations'][1:]) / (len(it[g]['iterations']) - 1) for g in (1, 2)}
    print(t, 'CPD B-CSF iteration: 1 GPU %.4f s, 2 GPUs %.4f s, ratio %.3f; fits %.9f %.9f; collectives %.3f s; per-GPU nnz %s'
          % (mean[1], mean[2], mean[2] / mean[1], it[1]['fit'], it[2]['fit'], it[2]['collective_s'], it[2]['per_gpu_nnz']))
PY
