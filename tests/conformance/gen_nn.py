#!/usr/bin/env python3
"""Writes the `nn` part of the op conformance corpus: backward ops, grid sampling, resize_ and the
layer ops OpInfo leaves without a case.

Run by a developer (not by CI) with Debian's python3-torch (PyTorch 1.13):

    /usr/bin/python3 tests/conformance/gen_nn.py            # rewrites tests/conformance/corpus/nn/

Every case is a real PyTorch call seen by gen_corpus.Recorder: the backward ops are recorded while
torch.autograd.grad runs the backward of a forward call (random, non-contiguous and broadcast
gradients), the other ops are called through torch.ops.aten with small hand-made samples over their
modes. Only the ops listed in OPS are kept. Deterministic: each sample is seeded from its name and
torch runs on one thread.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_corpus as gc  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

aten = torch.ops.aten
FLOATS = [torch.float32, torch.float64]
REDUCED = [torch.bfloat16, torch.float16]

# The ops this part records; a forward call's own ops (convolution, sum, ...) are left to the opinfo part.
OPS = {
    "aten::convolution_backward.default", "aten::native_layer_norm_backward.default",
    "aten::native_group_norm_backward.default", "aten::_adaptive_avg_pool2d_backward.default",
    "aten::avg_pool2d_backward.default", "aten::max_pool2d_with_indices_backward.default",
    "aten::grid_sampler_2d.default", "aten::resize_.default", "aten::_embedding_bag.default",
    "aten::adaptive_avg_pool1d.default", "aten::avg_pool1d.default", "aten::col2im.default",
    "aten::embedding_dense_backward.default", "aten::reflection_pad2d.default", "aten::reflection_pad3d.default",
    "aten::replication_pad2d.default", "aten::replication_pad3d.default",
}
# In the core table but not in PyTorch 1.13 (added in 2.0): no case can be recorded for them.
MISSING_IN_TORCH = ["aten::_native_batch_norm_legit.default", "aten::_native_batch_norm_legit.no_stats",
                    "aten::_native_batch_norm_legit_no_training.default"]


class NnSink(gc.Sink):
    def offer(self, key, before, out, source, alt=None):
        if key in OPS:
            super().offer(key, before, out, source, alt)


def record(sink, name, dtype, fn):
    """Runs fn() under the recorder, seeded from the sample's name; a sample PyTorch refuses is skipped."""
    gc.seed(name, dtype)
    try:
        with gc.Recorder(sink, "nn:%s" % name):
            fn()
    except (RuntimeError, ValueError, NotImplementedError) as e:
        print("skipped %s %s: %s" % (name, dtype, str(e).splitlines()[0]), file=sys.stderr)


def rnd(shape, dtype, grad=False):
    t = torch.randn(shape, dtype=torch.float64).to(dtype)
    return t.requires_grad_(grad)


def nc(t):
    """The same values in a transposed (non-contiguous) layout of the last two dims."""
    return t.detach().transpose(-1, -2).contiguous().transpose(-1, -2).requires_grad_(t.requires_grad)


def grads(out, inputs, dtype, layout="random"):
    """Runs the backward of `out` with a random (or transposed, or broadcast) output gradient."""
    if layout == "broadcast":
        go = torch.ones((), dtype=dtype).expand(out.shape)
    else:
        go = rnd(out.shape, dtype)
        if layout == "transposed" and go.dim() >= 2:
            go = nc(go)
    return torch.autograd.grad(out, inputs, go, allow_unused=True)


def conv_samples():
    # (name, input shape, weight shape, stride, padding, dilation, groups, bias, transposed)
    return [
        ("2d", (2, 4, 6, 6), (6, 4, 3, 3), 1, 1, 1, 1, True, False),
        ("2d_stride2", (2, 3, 7, 7), (4, 3, 3, 3), 2, 0, 1, 1, True, False),
        ("2d_stride3_gaps", (1, 2, 8, 9), (2, 2, 2, 2), 3, 0, 1, 1, True, False),
        ("1d_transposed_groups", (2, 4, 5), (4, 2, 3), 2, 1, 2, 2, True, True),
        ("2d_dil2_pad2", (1, 2, 7, 6), (3, 2, 3, 2), 1, 2, 2, 1, True, False),
        ("2d_groups2", (2, 4, 5, 5), (6, 2, 3, 3), (2, 1), (1, 0), 1, 2, True, False),
        ("2d_depthwise", (1, 4, 6, 6), (4, 1, 3, 3), 1, 1, 1, 4, True, False),
        ("2d_rect_kernel", (1, 3, 5, 8), (2, 3, 1, 4), (1, 3), (0, 2), (1, 2), 1, True, False),
        ("1d", (2, 3, 10), (5, 3, 3), 2, 1, 1, 1, True, False),
        ("1d_groups3", (1, 6, 9), (3, 2, 2), 1, 0, 3, 3, True, False),
        ("3d", (1, 2, 4, 4, 4), (3, 2, 2, 2, 2), 1, 1, 1, 1, True, False),
        ("2d_transposed", (1, 4, 4, 4), (4, 3, 3, 3), 2, 1, 1, 1, True, True),
    ]


def gen_conv(sink):
    for name, xs, ws, st, pad, dil, groups, bias, transposed in conv_samples():
        # PyTorch 1.13's bfloat16 transposed convolution is wrong (a [2, 4, 5] input, stride 2, dilation 2,
        # 2 groups gives a [2, 4, 2] output where float32 gives [2, 4, 11]): float32 and float64 only
        for dtype in FLOATS if transposed else FLOATS + REDUCED:
            for layout in ("random", "transposed", "broadcast"):
                def run():
                    x, w = rnd(xs, dtype, True), rnd(ws, dtype, True)
                    if layout == "transposed":
                        x = nc(x)
                    b = rnd((ws[1] * groups if transposed else ws[0],), dtype, True) if bias else None
                    dims = len(xs) - 2
                    op = [[F.conv1d, F.conv2d, F.conv3d], [F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d]]
                    if transposed:
                        y = op[1][dims - 1](x, w, b, stride=st, padding=pad, groups=groups, dilation=dil)
                    else:
                        y = op[0][dims - 1](x, w, b, stride=st, padding=pad, dilation=dil, groups=groups)
                    grads(y, [x, w, b], dtype, layout)
                record(sink, "convolution_backward:%s:%s" % (name, layout), dtype, run)


def gen_norms(sink):
    for dtype in FLOATS + REDUCED:
        for name, shape, norm, affine, layout in [("2d", (4, 6), (6,), True, "random"), ("3d", (2, 3, 5), (3, 5), True, "random"),
                                                  ("no_affine", (3, 7), (7,), False, "random"),
                                                  ("transposed", (5, 4), (4,), True, "transposed"),
                                                  ("broadcast", (2, 8), (8,), True, "broadcast")]:
            def run():
                x = rnd(shape, dtype, True)
                if layout == "transposed":
                    x = nc(x)
                w = rnd(norm, dtype, True) if affine else None
                b = rnd(norm, dtype, True) if affine else None
                y = F.layer_norm(x, norm, w, b, 1e-5)
                grads(y, [t for t in (x, w, b) if t is not None], dtype, layout)
            record(sink, "native_layer_norm_backward:%s" % name, dtype, run)
        for name, shape, groups, affine, layout in [("4d", (2, 6, 3, 3), 3, True, "random"), ("3d", (3, 4, 5), 2, True, "random"),
                                                    ("2d", (4, 6), 3, True, "random"),
                                                    ("one_group", (2, 4, 2, 2), 1, True, "broadcast"),
                                                    ("per_channel", (2, 4, 3, 2), 4, True, "transposed"),
                                                    ("no_affine", (2, 6, 4), 2, False, "random")]:
            def run():
                x = rnd(shape, dtype, True)
                if layout == "transposed":
                    x = nc(x)
                w = rnd((shape[1],), dtype, True) if affine else None
                b = rnd((shape[1],), dtype, True) if affine else None
                y = F.group_norm(x, groups, w, b, 1e-5)
                grads(y, [t for t in (x, w, b) if t is not None], dtype, layout)
            record(sink, "native_group_norm_backward:%s" % name, dtype, run)


def gen_pool_backward(sink):
    for dtype in FLOATS + REDUCED:
        for name, shape, out, layout in [("4d", (2, 3, 7, 5), (3, 2), "random"), ("3d", (3, 6, 6), (4, 4), "transposed"),
                                         ("grow", (1, 2, 3, 2), (5, 4), "random"), ("wide", (2, 4, 5, 5), (1, 2), "broadcast")]:
            def run():
                x = rnd(shape, dtype, True)
                grads(F.adaptive_avg_pool2d(x, out), [x], dtype, layout)
            record(sink, "_adaptive_avg_pool2d_backward:%s" % name, dtype, run)
        # (name, shape, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override)
        for name, shape, k, st, pad, ceil, cip, div in [
                ("k3s2", (2, 3, 7, 7), 3, 2, 1, False, True, None), ("ceil", (1, 2, 6, 7), 3, 2, 1, True, True, None),
                ("exclude_pad", (1, 2, 6, 6), 3, 2, 1, True, False, None), ("divisor", (2, 2, 5, 5), 2, 1, 1, False, True, 3),
                ("rect", (1, 3, 5, 8), (2, 3), (1, 2), (1, 1), False, False, None), ("3d_input", (3, 6, 6), 2, None, 0, False, True, None),
                ("ceil_exclude", (1, 1, 5, 5), 2, 2, 0, True, False, None)]:
            for layout in ("random", "transposed"):
                def run():
                    x = rnd(shape, dtype, True)
                    y = F.avg_pool2d(x, k, st, pad, ceil, cip, div)
                    grads(y, [x], dtype, layout)
                record(sink, "avg_pool2d_backward:%s:%s" % (name, layout), dtype, run)
        for name, shape, k, st, pad, dil, ceil in [("k3s2", (2, 3, 7, 7), 3, 2, 1, 1, False), ("ceil", (1, 2, 6, 7), 3, 2, 1, 1, True),
                                                   ("dilation", (1, 2, 8, 8), 2, 1, 0, 2, False), ("overlap", (1, 3, 5, 5), 3, 1, 1, 1, False),
                                                   ("3d_input", (2, 6, 6), (2, 3), (2, 1), (1, 0), 1, False)]:
            for layout in ("random", "transposed"):
                def run():
                    x = rnd(shape, dtype, True)
                    if name == "overlap":  # ties: equal values in a window
                        x = x.detach().round().requires_grad_(True)
                    y = F.max_pool2d(x, k, st, pad, dil, ceil)
                    grads(y, [x], dtype, layout)
                record(sink, "max_pool2d_with_indices_backward:%s:%s" % (name, layout), dtype, run)


def gen_grid_sampler(sink):
    modes = {"bilinear": 0, "nearest": 1, "bicubic": 2}
    pads = {"zeros": 0, "border": 1, "reflection": 2}
    for dtype in FLOATS + REDUCED:
        for interp in modes:
            for pad in pads:
                for align in (False, True):
                    def run():
                        x = rnd((2, 3, 5, 4), dtype)
                        # grid values past [-1, 1] reach the padding, far ones the reflections
                        grid = (torch.rand((2, 3, 6, 2), dtype=torch.float64) * 3.2 - 1.6).to(dtype)
                        grid[0, 0, :3] = torch.tensor([[-1.0, -1.0], [1.0, 1.0], [0.0, 0.0]], dtype=dtype)
                        grid[1, 0, :2] = torch.tensor([[-4.3, 5.1], [7.9, -6.2]], dtype=dtype)
                        aten.grid_sampler_2d(x, grid, modes[interp], pads[pad], align)
                        aten.grid_sampler_2d(nc(x), grid.transpose(1, 2), modes[interp], pads[pad], align)
                    record(sink, "grid_sampler_2d:%s:%s:%s" % (interp, pad, "align" if align else "noalign"), dtype, run)

                    def edges():
                        # ties of nearest rounding (W = 4: x = -0.5, 0, 0.5 land on 0.5, 1.5, 2.5), NaN, infinities, size-1 axes
                        g = torch.tensor([[-0.5, 0.0], [0.0, 0.5], [0.5, -0.5], [float("nan"), 0.0], [float("inf"), 0.2],
                                          [0.3, float("-inf")], [1.0, -1.0], [-1.0, 1.0]], dtype=dtype).reshape(1, 2, 4, 2)
                        for shape in ((1, 2, 1, 4), (1, 1, 3, 1), (1, 1, 4, 4)):
                            aten.grid_sampler_2d(rnd(shape, dtype), g, modes[interp], pads[pad], align)
                    record(sink, "grid_sampler_2d:edges:%s:%s:%s" % (interp, pad, "align" if align else "noalign"), dtype, edges)


def gen_resize(sink):
    dtypes = FLOATS + REDUCED + [torch.int64, torch.int32, torch.uint8, torch.bool]
    for dtype in dtypes:
        for name, shape, size in [("shrink", (4, 5), (3, 4)), ("flatten", (2, 3, 4), (24,)), ("same", (3, 2), (3, 2)),
                                  ("reshape", (6, 4), (2, 3, 4)), ("to_empty", (5,), (0, 3)), ("to_scalar", (4,), ())]:
            def run():
                x = (torch.randn(shape, dtype=torch.float64) * 10).to(dtype)
                aten.resize_(x, list(size))
            record(sink, "resize_:%s" % name, dtype, run)
        record(sink, "resize_:same_non_contiguous", dtype,
               lambda: aten.resize_((torch.randn(4, 3, dtype=torch.float64) * 10).to(dtype).t(), [3, 4]))


def direct(sink, name, dtype, func, *args):
    """One call of an aten overload recorded as it is (composite ops included, which a dispatch mode
    would only see decomposed)."""
    gc.seed(name, dtype)
    try:
        before = gc.Recorder(sink, "nn:%s" % name).snapshot(func, args, {})
        out = func(*args)
    except (RuntimeError, ValueError, NotImplementedError, IndexError) as e:
        print("skipped %s %s: %s" % (name, dtype, str(e).splitlines()[0]), file=sys.stderr)
        return
    if before is not None:
        sink.offer(gc.op_key(func), before, out, "nn:%s" % name)


def values(shape, dtype):
    if dtype == torch.bool:
        return torch.rand(shape) > 0.5
    if dtype.is_floating_point:
        return torch.randn(shape, dtype=torch.float64).to(dtype)
    return torch.randint(0, 100, shape).to(dtype)


ALL = FLOATS + REDUCED + [torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool]


def gen_embedding(sink):
    for dtype in FLOATS + REDUCED:
        idx = torch.tensor([1, 4, 4, 0, 2, 7, 4, 3, 9])
        for name, mode, last, pad, psw in [("sum", 0, False, -1, False), ("mean", 1, False, -1, False), ("max", 2, False, -1, False),
                                           ("sum_weights", 0, False, -1, True), ("mean_last", 1, True, -1, False),
                                           ("sum_padding", 0, False, 4, False), ("max_padding_last", 2, True, 4, False)]:
            gc.seed(name, dtype)
            w = values((10, 3), dtype)
            offsets = torch.tensor([0, 2, 2, 5, 9] if last else [0, 2, 2, 5])
            weights = values((9,), dtype) if psw else None
            direct(sink, "_embedding_bag:%s" % name, dtype, aten._embedding_bag.default, w, idx, offsets, False, mode, False, weights,
                   last, pad)
        for name, n, pad, freq in [("plain", 8, -1, False), ("padding", 8, 2, False), ("freq", 6, -1, True), ("freq_padding", 6, 0, True)]:
            gc.seed(name, dtype)
            go = values((3, 4, 5), dtype)
            ids = torch.tensor([[0, 2, 2, 5], [1, 0, 2, 5], [3, 3, 3, 0]])
            direct(sink, "embedding_dense_backward:%s" % name, dtype, aten.embedding_dense_backward.default, go, ids, n, pad, freq)
            direct(sink, "embedding_dense_backward:%s_nc" % name, dtype, aten.embedding_dense_backward.default, nc(go), ids, n, pad, freq)


def gen_pool1d_pad(sink):
    for dtype in FLOATS + REDUCED:
        gc.seed("pool1d", dtype)
        x = values((2, 3, 9), dtype)
        for size in (1, 3, 4, 9, 12):
            direct(sink, "adaptive_avg_pool1d:%d" % size, dtype, aten.adaptive_avg_pool1d.default, x, [size])
        direct(sink, "adaptive_avg_pool1d:2d_nc", dtype, aten.adaptive_avg_pool1d.default, nc(values((5, 7), dtype)), [3])
        for name, k, st, pad, ceil, cip in [("k3", [3], [], [0], False, True), ("k3s2p1", [3], [2], [1], False, True),
                                            ("ceil", [2], [2], [1], True, True), ("exclude_pad", [4], [3], [2], True, False),
                                            ("ceil_extra_window", [2], [2], [0], True, True), ("ceil_pad_exclude", [3], [2], [1], True, False)]:
            direct(sink, "avg_pool1d:%s" % name, dtype, aten.avg_pool1d.default, x, k, st, pad, ceil, cip)
        direct(sink, "avg_pool1d:2d_nc", dtype, aten.avg_pool1d.default, nc(values((6, 8), dtype)), [2], [1], [1], False, False)
    for dtype in ALL:
        gc.seed("pad", dtype)
        x2, x3 = values((2, 3, 4, 5), dtype), values((1, 2, 3, 4, 3), dtype)
        for name, op, x, p in [("reflection_pad2d", aten.reflection_pad2d.default, x2, [1, 2, 3, 0]),
                               ("reflection_pad2d_3d_input", aten.reflection_pad2d.default, x2[0], [3, 3, 1, 1]),
                               ("reflection_pad2d_nc", aten.reflection_pad2d.default, nc(x2), [2, 1, 0, 2]),
                               ("replication_pad2d", aten.replication_pad2d.default, x2, [1, 2, 3, 0]),
                               ("replication_pad2d_big", aten.replication_pad2d.default, x2[:, :1], [6, 0, 2, 5]),
                               ("replication_pad2d_nc", aten.replication_pad2d.default, nc(x2), [2, 1, 0, 2]),
                               ("reflection_pad3d", aten.reflection_pad3d.default, x3, [1, 2, 0, 3, 2, 1]),
                               ("reflection_pad3d_4d_input", aten.reflection_pad3d.default, x3[0], [2, 2, 1, 1, 0, 2]),
                               ("reflection_pad3d_nc", aten.reflection_pad3d.default, nc(x3), [1, 0, 2, 1, 1, 1]),
                               ("replication_pad3d", aten.replication_pad3d.default, x3, [1, 2, 0, 3, 2, 1]),
                               ("replication_pad3d_big", aten.replication_pad3d.default, x3[:, :1], [4, 0, 0, 4, 3, 0]),
                               ("replication_pad3d_nc", aten.replication_pad3d.default, nc(x3), [1, 0, 2, 1, 1, 1])]:
            direct(sink, name, dtype, op, x, p)


def gen_col2im(sink):
    for dtype in FLOATS + REDUCED:
        # (name, input shape, output_size, kernel, dilation, padding, stride)
        for name, shape, out, k, dil, pad, st in [("k2", (2, 12, 12), [4, 5], [2, 2], [1, 1], [0, 0], [1, 1]),
                                                  ("stride2_pad1", (1, 8, 9), [5, 5], [2, 2], [1, 1], [1, 1], [2, 2]),
                                                  ("dilation", (1, 6, 8), [5, 6], [3, 1], [2, 1], [1, 0], [1, 2]),
                                                  ("2d_input", (9, 16), [6, 6], [3, 3], [1, 1], [0, 0], [1, 1])]:
            gc.seed(name, dtype)
            x = values(shape, dtype)
            direct(sink, "col2im:%s" % name, dtype, aten.col2im.default, x, out, k, dil, pad, st)
            direct(sink, "col2im:%s_nc" % name, dtype, aten.col2im.default, nc(x), out, k, dil, pad, st)


def build(out_dir):
    torch.set_num_threads(1)
    sink = NnSink(cap=64)  # every mode of every op is its own source; keep them all
    for gen in (gen_conv, gen_norms, gen_pool_backward, gen_grid_sampler, gen_resize, gen_embedding, gen_pool1d_pad, gen_col2im):
        print(gen.__name__, file=sys.stderr, flush=True)
        gen(sink)
    gc.write(out_dir, sink)
    index = os.path.join(out_dir, "index.json")
    with open(index) as f:
        text = f.read()
    with open(index, "w") as f:  # the header names this generator
        f.write(text.replace('"generator": "tests/conformance/gen_corpus.py"', '"generator": "tests/conformance/gen_nn.py"', 1))
    for key in MISSING_IN_TORCH:
        print("no case for %s: PyTorch %s does not have it" % (key, torch.__version__), file=sys.stderr)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=os.path.join(gc.HERE, "corpus", "nn"))
    build(p.parse_args().out)
