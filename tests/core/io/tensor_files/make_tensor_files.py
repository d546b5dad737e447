#!/usr/bin/python3
"""Writes the tensor files tst_tensor_file and tst_numerics read, with PyTorch and NumPy themselves.

    /usr/bin/python3 make_tensor_files.py      (Debian's python3-torch and python3-numpy)

Every value is a formula the tests compute too:
  x[0, k]   = (k - 7.5) / 4            float32 [1, 16]   the input of testing::makeBlockStack(2)
  a[i, j]   = 4 i + j + 0.5            float32 [3, 4]
  ids[k]    = 10 k - 20                int64   [5]
  mask[i,j] = (i + j) % 2 == 0         bool    [2, 3]
The .safetensors file is written by hand (8-byte length, JSON header, raw bytes) because the
safetensors package is not in Debian; tst_tensor_file checks it against the same formulas.
"""

import json
import os
import struct

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))


def path(name):
    return os.path.join(HERE, name)


x = ((np.arange(16, dtype=np.float32) - 7.5) / 4).reshape(1, 16)
a = (np.arange(12, dtype=np.float32) + 0.5).reshape(3, 4)
ids = np.arange(5, dtype=np.int64) * 10 - 20
mask = (np.add.outer(np.arange(2), np.arange(3)) % 2 == 0)

tx = torch.from_numpy(x.copy())
torch.save(tx, path("x.pt"))
torch.save((tx,), path("x_tuple.pt"))
torch.save([tx], path("x_list.pt"))
torch.save({"x": tx}, path("x_dict.pt"))
torch.save((torch.from_numpy(a.copy()), 3, 2.5, True), path("mixed_tuple.pt"))
torch.save({"a": (tx, tx)}, path("nested.pt"))
# a view into a larger storage: the file keeps the whole storage, the tensor an offset and strides
big = torch.arange(40, dtype=torch.float32).reshape(5, 8)
torch.save({"view": big[1:4, ::2]}, path("strided_view.pt"))

np.save(path("x.npy"), x)
np.save(path("a_fortran.npy"), np.asfortranarray(a))
np.save(path("a_bigendian.npy"), a.astype(">f4"))
np.save(path("ids.npy"), ids)
np.save(path("mask.npy"), mask)
np.savez(path("x_named.npz"), x=x)
np.savez(path("x_positional.npz"), x)
np.savez_compressed(path("x_compressed.npz"), x=x)


def write_safetensors(file, tensors, metadata):
    codes = {np.dtype(np.float32): "F32", np.dtype(np.int64): "I64", np.dtype(np.bool_): "BOOL"}
    header = {"__metadata__": metadata}
    blobs, off = [], 0
    for name, arr in tensors:
        raw = np.ascontiguousarray(arr).tobytes()
        header[name] = {"dtype": codes[arr.dtype], "shape": list(arr.shape), "data_offsets": [off, off + len(raw)]}
        blobs.append(raw)
        off += len(raw)
    h = json.dumps(header).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(file, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)


write_safetensors(path("values.safetensors"), [("x", x), ("ids", ids), ("mask", mask), ("a", a)], {"source": "make_tensor_files.py"})
write_safetensors(path("x.safetensors"), [("x", x)], {})
print("written to", HERE)
