#!/usr/bin/python3
"""irlens.capture, its recording and its writing on a real torch.fx.GraphModule, for tst_capture.

    capture_make_fx.py OUTDIR      (PYTHONPATH holding app/python)

PyTorch 1.13 (Debian 12) has no torch.export, so the graph comes from make_fx of a small module
instead of ep.module(). The script records every node's value with irlens.capture(gm, (x,), path)
(written by hand when the safetensors package is absent) and irlens.recording.record_values,
and leaves what the C++ side needs to build the same program with irlens's builder and run it:

    OUTDIR/reference.safetensors   every call_function node's value, by node name
    OUTDIR/reference.pt            the same as a torch.save dict, and OUTDIR/reference_npy/NAME.npy
    OUTDIR/weights.safetensors     the get_attr values (the module's weights), by node name
    OUTDIR/x.pt                    the input (torch.save)
    OUTDIR/graph.json              placeholders, get_attr and call_function nodes in order
                                   (name, target, argument names), the output

Exits 3 when torch or irlens.capture cannot be imported (the C++ test skips then).
"""

import json
import os
import sys

try:
    import numpy as np
    import torch
    from torch.fx.experimental.proxy_tensor import make_fx

    import irlens
    from irlens import recording
except ImportError as e:
    print(f"cannot import: {e}", file=sys.stderr)
    sys.exit(3)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(16, 16, bias=False)
        self.fc2 = torch.nn.Linear(16, 16, bias=False)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)) * 0.5 + x)


def main(out):
    torch.manual_seed(7)
    model = Net().eval()
    x = torch.randn(2, 16)
    with torch.no_grad():
        gm = make_fx(model)(x)
    count, _ = irlens.capture(gm, (x,), os.path.join(out, "reference.safetensors"))
    values = recording.record_values(gm, [x])
    if count != len(values):
        print(f"irlens.capture wrote {count} values, the recording holds {len(values)}", file=sys.stderr)
        return 1
    expected = model(x).detach()
    last = [n for n in gm.graph.nodes if n.op == "call_function"][-1]
    if not torch.equal(values[last.name], expected):
        print("the recorded output is not the module's", file=sys.stderr)
        return 1
    torch.save(dict(values), os.path.join(out, "reference.pt"))
    os.makedirs(os.path.join(out, "reference_npy"))
    for name, v in values.items():
        np.save(os.path.join(out, "reference_npy", name + ".npy"), v.numpy())
    weights = {n.name: getattr(gm, n.target).detach() for n in gm.graph.nodes if n.op == "get_attr"}
    recording.write_safetensors(os.path.join(out, "weights.safetensors"), weights)
    torch.save(x, os.path.join(out, "x.pt"))
    nodes = []
    for n in gm.graph.nodes:
        if n.op in ("placeholder", "get_attr", "call_function"):
            args = [a.name if isinstance(a, torch.fx.Node) else a for a in n.args]
            nodes.append({"op": n.op, "name": n.name, "target": str(n.target), "args": args})
        elif n.op == "output":
            output = n.args[0].name
    with open(os.path.join(out, "graph.json"), "w") as f:
        json.dump({"nodes": nodes, "output": output, "recorded": list(values)}, f)
    print(f"{len(values)} values recorded: {', '.join(values)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
