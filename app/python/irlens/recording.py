"""Record every node's value of an exported program in PyTorch, for `irlens-cli run --reference`.

    irlens-capture model.pt2 --inputs x.pt -o ref.safetensors
    python3 -c "import irlens; irlens.capture(ep, (x,), 'ref.safetensors')"
    irlens-cli run model.pt2 --inputs x.pt --reference ref.safetensors

The program is loaded with torch.export.load (PyTorch 2.1 or later) and ep.module() is run under a
torch.fx.Interpreter that keeps the value of every call_function node whose result is a tensor, under
the node's name. ep.module() is made from a deep copy of ep.graph, so its nodes keep the names
print(ep.graph) shows (a multi-output node's values are its getitem nodes); the nodes unlifting adds
(the copy_ of a mutated buffer) are not in ep.graph and are left out. Values are written as
safetensors: with the safetensors package when it is installed, else by hand (the format is an
8-byte length, a JSON header and the raw bytes).

Inputs: a torch.save .pt file (a tensor, a tuple or list of tensors, or a dict by input name), .npy
files (one input each), an .npz (by input name, or arr_0, arr_1, ... by position) or a .safetensors
file (by input name), as `irlens-cli run --inputs` reads them.
"""

import argparse
import json
import os
import struct
import sys
from collections import OrderedDict

import torch
import torch.fx

FORMAT = "irlens-values/1"

_CODES = {
    torch.float64: "F64", torch.float32: "F32", torch.float16: "F16", torch.bfloat16: "BF16",
    torch.int64: "I64", torch.int32: "I32", torch.int16: "I16", torch.int8: "I8", torch.uint8: "U8",
    torch.bool: "BOOL",
}


class _Recorder(torch.fx.Interpreter):
    """An interpreter that keeps a copy of every call_function node's tensor value as it is made
    (a copy, so that a later in-place op cannot change what was recorded)."""

    def __init__(self, module, names=None):
        super().__init__(module)
        self.names = names
        self.values = OrderedDict()

    def run_node(self, n):
        result = super().run_node(n)
        if n.op == "call_function" and isinstance(result, torch.Tensor) and (self.names is None or n.name in self.names):
            self.values[n.name] = result.detach().clone()
        return result


def record_values(module, inputs, names=None):
    """Runs a torch.fx.GraphModule on `inputs` (its placeholders in order) node by node and returns
    {node name: tensor} for every call_function node whose value is a tensor, in execution order;
    with `names`, only the nodes named there."""
    recorder = _Recorder(module, names)
    with torch.no_grad():
        recorder.run(*inputs)
    return recorder.values


def _raw_bytes(t):
    t = t.detach().cpu().contiguous()
    if t.numel() == 0:
        return b""
    if t.dtype == torch.bfloat16:
        t = t.view(torch.int16)  # NumPy has no bfloat16: the same two bytes per element
    return t.numpy().tobytes()


def write_safetensors(path, tensors, metadata=None):
    """Writes {name: tensor} (in that order) as a safetensors file; returns its size in bytes."""
    metadata = {k: str(v) for k, v in (metadata or {}).items()}
    try:
        from safetensors.torch import save_file
    except ImportError:
        save_file = None
    if save_file is not None:
        save_file({k: v.detach().cpu().contiguous() for k, v in tensors.items()}, path, metadata=metadata)
        with open(path, "rb") as f:
            return len(f.read())
    header = {"__metadata__": metadata} if metadata else {}
    blobs, offset = [], 0
    for name, t in tensors.items():
        if t.dtype not in _CODES:
            raise ValueError(f"{name}: safetensors has no dtype for {t.dtype}")
        raw = _raw_bytes(t)
        header[name] = {"dtype": _CODES[t.dtype], "shape": list(t.shape), "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for b in blobs:
            f.write(b)
    return 8 + len(text) + offset


def _read_safetensors(path):
    import numpy as np
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    header.pop("__metadata__", None)
    dtypes = {"F64": np.float64, "F32": np.float32, "F16": np.float16, "I64": np.int64, "I32": np.int32,
              "I16": np.int16, "I8": np.int8, "U8": np.uint8, "BOOL": np.bool_}
    out = OrderedDict()
    for name, e in sorted(header.items(), key=lambda kv: kv[1]["data_offsets"][0]):
        begin, end = e["data_offsets"]
        array = np.frombuffer(data[8 + n + begin:8 + n + end], dtype=dtypes[e["dtype"]]).reshape(e["shape"])
        out[name] = torch.from_numpy(array.copy())
    return out


def load_inputs(paths):
    """The values of the input files: a list (by position) or a dict (by name)."""
    import numpy as np
    named, positional = OrderedDict(), []
    for path in paths:
        if path.endswith(".npy"):
            positional.append(torch.from_numpy(np.load(path)))
        elif path.endswith(".npz"):
            with np.load(path) as z:
                keys = list(z.keys())
                if keys == [f"arr_{k}" for k in range(len(keys))]:
                    positional.extend(torch.from_numpy(z[k]) for k in keys)
                else:
                    named.update((k, torch.from_numpy(z[k])) for k in keys)
        elif path.endswith(".safetensors"):
            named.update(_read_safetensors(path))
        else:
            value = torch.load(path)
            if isinstance(value, dict):
                named.update(value)
            elif isinstance(value, (tuple, list)):
                positional.extend(value)
            else:
                positional.append(value)
    if named and positional:
        raise ValueError("the input files mix values by name and by position; give one kind")
    return named if named else positional


def _ordered_inputs(module, values):
    placeholders = [n.name for n in module.graph.nodes if n.op == "placeholder"]
    if isinstance(values, dict):
        missing = [p for p in placeholders if p not in values]
        if missing:
            raise ValueError(f"no value for input(s) {', '.join(missing)}; the files hold {', '.join(values)}")
        return [values[p] for p in placeholders]
    if len(values) != len(placeholders):
        raise ValueError(f"{len(values)} values given, the program takes {len(placeholders)} ({', '.join(placeholders)})")
    return list(values)


def _is_file_list(inputs):
    return isinstance(inputs, (list, tuple)) and bool(inputs) and all(isinstance(i, (str, os.PathLike)) for i in inputs)


def capture(program, inputs, output_path):
    """Runs `program` on `inputs` node by node and writes every node's value to `output_path`
    (safetensors); returns (values written, bytes written).

    program: an ExportedProgram, the path of a .pt2 file (torch.export.load, PyTorch 2.1 or later) or
    a torch.fx.GraphModule (make_fx, symbolic_trace: its call_function nodes are recorded).
    inputs: the tensors in order (a tuple or list), a dict by input name, or the paths of input files
    (.pt, .npy, .npz, .safetensors)."""
    if isinstance(program, (str, os.PathLike)):
        if not hasattr(torch, "export") or not hasattr(torch.export, "load"):
            raise RuntimeError(f"needs PyTorch 2.1 or later (torch.export.load); this is PyTorch {torch.__version__}")
        label = os.fspath(program)
        program = torch.export.load(label)
    else:
        label = type(program).__name__
    if isinstance(program, torch.fx.GraphModule):
        module, graph, how = program, program.graph, "torch.fx.Interpreter over the GraphModule"
    elif hasattr(program, "module") and hasattr(program, "graph"):
        module, graph, how = program.module(), program.graph, "torch.fx.Interpreter over ep.module()"
    else:
        raise TypeError(f"irlens.capture takes an ExportedProgram, a .pt2 path or a torch.fx.GraphModule, not {type(program).__name__}")
    names = {n.name for n in graph.nodes if n.op == "call_function"}
    if _is_file_list(inputs):
        input_label = ", ".join(os.fspath(i) for i in inputs)
        inputs = load_inputs([os.fspath(i) for i in inputs])
    else:
        input_label = "values given in Python"
        inputs = dict(inputs) if isinstance(inputs, dict) else list(inputs)
    values = record_values(module, _ordered_inputs(module, inputs), names)
    metadata = {"format": FORMAT, "producer": f"irlens-capture, PyTorch {torch.__version__}, {how}",
                "program": label, "inputs": input_label}
    size = write_safetensors(os.fspath(output_path), values, metadata)
    return len(values), size


def main(argv=None):
    ap = argparse.ArgumentParser(prog="irlens-capture", description="Record every node's value of an exported program (.pt2) "
                                 "in PyTorch, as safetensors for `irlens-cli run --reference`.")
    ap.add_argument("program", help="the exported program (.pt2, torch.export.save)")
    ap.add_argument("--inputs", nargs="+", required=True, help=".pt, .npy, .npz or .safetensors files")
    ap.add_argument("-o", "--output", required=True, help="the .safetensors file to write")
    a = ap.parse_args(argv)
    try:
        count, size = capture(a.program, a.inputs, a.output)
    except (RuntimeError, ValueError, TypeError, OSError) as e:
        print(f"irlens-capture: {e}", file=sys.stderr)
        return 2
    print(f"{a.output}: {count} node values, {size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
