#!/usr/bin/python3
"""Saves a program's inputs, given as .npy files, the ways a PyTorch user would: for tst_input_files.

    save_inputs.py OUTDIR NAME=FILE.npy [NAME=FILE.npy ...]

writes OUTDIR/tuple.pt (torch.save of a tuple, by position), OUTDIR/dict.pt (a dict by input name),
OUTDIR/named.npz (numpy.savez by name) and OUTDIR/positional.npz (numpy.savez by position: arr_0, ...).
Exits 3 when torch or numpy cannot be imported.
"""

import os
import sys

try:
    import numpy as np
    import torch
except ImportError as e:
    print(f"cannot import: {e}", file=sys.stderr)
    sys.exit(3)


def main(out, pairs):
    names, arrays = [], []
    for pair in pairs:
        name, path = pair.split("=", 1)
        names.append(name)
        arrays.append(np.load(path))
    tensors = [torch.from_numpy(a.copy()) for a in arrays]
    torch.save(tuple(tensors), os.path.join(out, "tuple.pt"))
    torch.save(dict(zip(names, tensors)), os.path.join(out, "dict.pt"))
    np.savez(os.path.join(out, "named.npz"), **dict(zip(names, arrays)))
    np.savez(os.path.join(out, "positional.npz"), *arrays)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
