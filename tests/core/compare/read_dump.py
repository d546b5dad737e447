#!/usr/bin/python3
"""Reads a value dump of `irlens-cli run --dump` with NumPy alone, as any Python user could, checks it
is well-formed safetensors, and compares it with a reference file read the same way.

    read_dump.py DUMP.safetensors REFERENCE.safetensors

Checks what the safetensors library checks: the 8-byte length, a JSON header, tensors packed
back to back from the end of the header to the end of the file. Prints
"N tensors, M shared with the reference, worst normwise relative error E" and exits 0 when E <= 1e-4,
1 when the file is malformed or E is larger, 3 when NumPy is missing.
"""

import json
import struct
import sys

try:
    import numpy as np
except ImportError:
    print("numpy is missing", file=sys.stderr)
    sys.exit(3)

DTYPES = {"F64": np.float64, "F32": np.float32, "F16": np.float16, "I64": np.int64, "I32": np.int32,
          "I16": np.int16, "I8": np.int8, "U8": np.uint8, "BOOL": np.bool_}


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n].decode("utf-8"))
    header.pop("__metadata__", None)
    body = data[8 + n:]
    spans = sorted((v["data_offsets"][0], v["data_offsets"][1], k) for k, v in header.items())
    end = 0
    for begin, stop, name in spans:
        if begin != end:
            raise ValueError(f"{path}: {name} starts at {begin}, expected {end} (tensors must be packed)")
        end = stop
    if end != len(body):
        raise ValueError(f"{path}: tensors end at {end}, the data holds {len(body)} bytes")
    out = {}
    for name, v in header.items():
        begin, stop = v["data_offsets"]
        out[name] = np.frombuffer(body[begin:stop], dtype=DTYPES[v["dtype"]]).reshape(v["shape"])
    return out


def main():
    try:
        dump, ref = load(sys.argv[1]), load(sys.argv[2])
    except (ValueError, KeyError) as e:
        print(e)
        return 1
    shared = [k for k in dump if k in ref]
    worst = 0.0
    for k in shared:
        a, r = dump[k].astype(np.float64), ref[k].astype(np.float64)
        if a.shape != r.shape:
            print(f"{k}: shape {a.shape} against {r.shape}")
            return 1
        finite = np.isfinite(r) & np.isfinite(a)
        num = np.linalg.norm((a - r)[finite])
        den = np.linalg.norm(r[finite])
        worst = max(worst, 0.0 if num == 0 else num / den if den > 0 else float("inf"))
    print(f"{len(dump)} tensors, {len(shared)} shared with the reference, worst normwise relative error {worst:.3g}")
    return 0 if worst <= 1e-4 else 1


if __name__ == "__main__":
    sys.exit(main())
