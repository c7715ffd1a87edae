#!/usr/bin/env python3
"""Writes the hand-made seeds of tests/fuzz/corpus/<target>/ (run once; the fuzzers' own finds
are merged in beside them with -merge=1). Formats: see fuzz_entry.hpp (tns_gz and tsb start
with a control byte)."""
import os, shutil, struct, zlib

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, "..", ".."))
corpus = os.path.join(here, "corpus")


def put(target, name, data):
    d = os.path.join(corpus, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


TEXTS = {
    "small": "1 1 1 1.5\n2 3 1 -2\n3 2 4 0.25\n",
    "zero-based": "0 0 0 1\n1 2 0 2\n",
    "parti-header": "3\n4 5 6\n1 1 1 1\n4 5 6 2\n",
    "dims-comment": "# dims: 4 5 6\n1 1 1 1\n",
    "crlf": "1 1 1 1\r\n2 2 2 2\r\n",
    "comments": "# a comment\n\n1 1 1 1 # trailing\n   \t\n2 2 2 2\n",
    "duplicates": "1 1 1 1\n2 2 2 2\n1 1 1 3\n3 3 3 5\n3 3 3 -5\n",
    "duplicates-to-inf": "1 2 3 1e308\n1 2 3 1e308\n",
    "explicit-zeros": "1 1 1 0\n2 2 2 0.0\n3 3 3 1\n",
    "order-1": "1 1\n5 2\n",
    "order-5": "1 2 3 4 5 1\n5 4 3 2 1 2\n",
    "exponents": "1 1 1 1e-300\n2 2 2 -4.5E+12\n3 3 3 .5\n4 4 4 7.\n",
    "no-final-newline": "1 1 1 1\n2 2 2 2",
    "wide-index": "4294967296 1 1 1\n1 1 1 2\n",
    "index-20-digits": "18446744073709551615 1 1\n",
    "float-range": "1 1 1 3e38\n2 2 2 1e-45\n",
}

for name, text in TEXTS.items():
    put("tns", name, text)
    put("tns_gz", name + "-gz-b1", b"\x00" + text.encode())       # compressed by the harness, 1-byte blocks
    put("tns_gz", name + "-gz-b17", bytes([16 << 2]) + text.encode())
for f in sorted(os.listdir(os.path.join(root, "tests", "data", "bad"))):
    src = os.path.join(root, "tests", "data", "bad", f)
    data = open(src, "rb").read()
    if f.endswith(".tns"):
        put("tns", "bad-" + f, data)
        put("tns_gz", "bad-" + f, b"\x00" + data)
    elif f.endswith(".gz"):
        put("tns_gz", "bad-" + f, b"\x01" + data)                  # as it is: gzip's own checks
put("tns", "sample-hocfs-example", open(os.path.join(root, "resources", "samples", "hocfs-example-4x5x4.tns"), "rb").read())
put("tns_gz", "raw-gzip", b"\x01" + zlib.compress(TEXTS["small"].encode()))  # zlib, not gzip framing
import gzip
put("tns_gz", "raw-gzip-member", b"\x01" + gzip.compress(TEXTS["small"].encode()))
put("tns_gz", "raw-gzip-two-members", b"\x01" + gzip.compress(b"1 1 1 1\n") + gzip.compress(b"2 2 2 2\n"))
put("tns_gz", "raw-gzip-truncated", b"\x01" + gzip.compress(TEXTS["exponents"].encode())[:-6])

MAGIC = b"\x89TSB\r\n\x1a\n"


def tsb(dims, idx, vals, ibytes=4, vbytes=8, version=1, nnz=None, order=None):
    nnz = len(vals) if nnz is None else nnz
    order = len(dims) if order is None else order
    h = MAGIC + struct.pack("<IIIIQ", version, order, ibytes, vbytes, nnz) + b"".join(struct.pack("<Q", d) for d in dims)
    h += struct.pack("<I", zlib.crc32(h))
    p = b""
    for col in idx:
        p += b"".join(struct.pack("<I" if ibytes == 4 else "<Q", i) for i in col)
    p += b"".join(struct.pack("<d" if vbytes == 8 else "<f", v) for v in vals)
    return h + p + struct.pack("<I", zlib.crc32(p))


three = ([[0, 1, 2], [0, 1, 2], [0, 2, 3]], [1.0, 2.0, -3.0])
put("tsb", "valid-u32-f64", b"\x00" + tsb([3, 3, 4], *three))
put("tsb", "valid-u64-f32", b"\x00" + tsb([3, 3, 4], three[0], three[1], ibytes=8, vbytes=4))
put("tsb", "valid-fixed-crc", b"\x03" + tsb([3, 3, 4], *three))
put("tsb", "valid-no-magic", b"\x04" + tsb([3, 3, 4], *three)[8:])
put("tsb", "valid-order-1", b"\x00" + tsb([7], [[0, 6]], [1.0, 2.0]))
put("tsb", "valid-empty", b"\x00" + tsb([2, 2], [[], []], []))
put("tsb", "valid-f32-keep", b"\x18" + tsb([3, 3, 4], three[0], three[1], vbytes=4))
put("tsb", "duplicates", b"\x00" + tsb([3, 3, 3], [[0, 1, 0, 2, 2]] * 3, [1, 2, 3, 5, -5]))
put("tsb", "duplicates-to-inf", b"\x00" + tsb([1, 2, 3], [[0, 0], [1, 1], [2, 2]], [1e308, 1e308]))
put("tsb", "u32-dim-2to33", b"\x00" + tsb([1 << 33, 3, 4], *three))
put("tsb", "nnz-beyond-file", b"\x01" + tsb([3, 3, 4], *three, nnz=1 << 40))
put("tsb", "nnz-max", b"\x01" + tsb([3, 3, 4], *three, nnz=(1 << 64) - 1))
put("tsb", "index-beyond-dim", b"\x00" + tsb([2, 3, 4], *three))
put("tsb", "f64-beyond-float-read-as-float", b"\x08" + tsb([3, 3, 4], three[0], [1.0, 1e300, 2.0]))
put("tsb", "nan-value", b"\x00" + tsb([3, 3, 4], three[0], [1.0, float("nan"), 2.0]))
put("tsb", "order-0", b"\x01" + tsb([], [], [], order=0))
put("tsb", "order-17", b"\x01" + tsb([2] * 17, [[0]] * 17, [1.0]))
put("tsb", "version-2", b"\x00" + tsb([3, 3, 4], *three, version=2))
put("tsb", "width-3", b"\x00" + tsb([3, 3, 4], *three)[:16] + struct.pack("<I", 3) + tsb([3, 3, 4], *three)[20:])
put("tsb", "zero-dim", b"\x03" + tsb([0, 3, 4], *three))
put("tsb", "header-only", b"\x00" + tsb([3, 3, 4], *three)[:36])

ARGS = [
    ["info", "f.tns", "--json", "--threads", "2"],
    ["info", "f.tns", "--threads=0"],
    ["convert", "a.tns", "b.tsb", "--float"],
    ["generate", "--dims", "10,20,30", "--nnz", "5k", "--dist", "powerlaw:1.0", "--seed", "3", "-o", "x.tns"],
    ["generate", "--dims", "16,16,16", "--nnz", "100", "--dist", "blocks:4", "-o", "x.tsb"],
    ["generate", "--dims", "5,5", "--nnz", "3", "--dist", "lowrank:2", "--output", "x.tns"],
    ["formats", "f.tns", "--mode", "1,3", "--format", "CSF,B-CSF", "--csf-order", "3,1,2", "--hicoo-bits", "7", "--verify"],
    ["formats", "f.tns", "--mode-order", "1,1,2", "--fiber-threshold", "0"],
    ["bench", "f.tns", "--kernel", "spttm", "--format", "all", "--backend", "omp,cpu-ref", "--mode", "all", "--rank", "16",
     "--repeat", "3", "--variant", "naive,sm", "--hls-threshold", "4", "--check"],
    ["bench", "f.tns", "--kernel", "mttkrp", "--backend", "cuda", "--gpus", "all"],
    ["decompose", "f.tns", "--method", "cpd", "--rank", "8", "--iters", "5", "--init", "nvecs", "--restarts", "3",
     "--format", "MM-CSF", "--backend", "cuda", "--gpus", "2", "--limit-gpu-memory", "8G", "--chunk-bytes", "64M",
     "--streams", "4", "--stream"],
    ["decompose", "f.tns", "--method", "fastertucker", "--schedule", "hogwild", "--tol", "1e-3", "--j", "4"],
    ["pipeline", "f.tns", "--format", "hocfs", "--streams", "auto", "--chunk-bytes", "1M", "--mode", "3"],
    ["pipeline", "f.tns", "--chunk-bytes", "17179869184G"],   # wrapped to 0 ("auto") before the fix
    ["pipeline", "f.tns", "--limit-gpu-memory", "18014398509481984K"],
    ["bench", "f.tns", "--rank", "99999999999999999999"],
    ["formats", "f.tns", "--mode", "4"],
    ["info"],
    ["nosuchcommand", "--x"],
]
for i, a in enumerate(ARGS):
    put("cli_options", "args-%02d-%s" % (i, a[0]), "\n".join(a))
print("seeds written under", corpus)
