#!/usr/bin/env python3
"""Writes corpus/prims: PyTorch's answers for the prims (and a few ATen overloads) that OpInfo misses.

Run by a developer (not by CI) with Debian's python3-torch (PyTorch 1.13):

    /usr/bin/python3 tests/conformance/gen_prims.py            # rewrites tests/conformance/corpus/prims/

Each op is called directly (`torch.ops.prims.X`, `torch.ops.aten.X`) under gen_corpus's recorder, once
per dtype PyTorch runs it for, on edge values: NaN, +-inf, -0.0, poles, negative and large arguments,
non-contiguous (transposed) and broadcast inputs. Only the called op is recorded, not the calls PyTorch
makes inside it. Ops PyTorch 1.13 has only under another name are recorded under the name of the
engine's op registry (RENAMED). Ops returning a Python number (item, sym_size, maximum_value) store it
as a 0-dim tensor of the op's dtype and mark the case `"scalar": true`. Deterministic: every op is
seeded from its name.
"""

import argparse
import functools
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_corpus as gc  # noqa: E402
import torch  # noqa: E402

P = torch.ops.prims
A = torch.ops.aten
FLOATS = [torch.float32, torch.float64, torch.float16, torch.bfloat16]
INTS = [torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8]
ALL = FLOATS + INTS + [torch.bool]
CPU = torch.device("cpu")
# ops PyTorch 1.13 has under another name than the op registry's (resources/ops/prims_ops.tsv)
RENAMED = {"aten::special_erfcx.default": "prims::erfcx.default", "aten::special_ndtri.default": "prims::ndtri.default",
           "aten::frexp.Tensor": "prims::frexp.default", "prims::minium_value.default": "prims::minimum_value.default",
    "aten::as_strided_scatter.default": "prims::as_strided_scatter.default"}
SCALAR_MARK = "scalar:"


class Only(gc.Recorder):
    """Records only the op called, not what PyTorch calls inside it; Python numbers become 0-dim tensors."""

    def __init__(self, sink, source, dtype):
        super().__init__(sink, source)
        self.dtype = dtype
        self.depth = 0

    def __torch_dispatch__(self, func, types_, args=(), kwargs=None):
        kwargs = kwargs or {}
        if self.depth:
            return func(*args, **kwargs)
        self.depth += 1
        try:
            key = gc.op_key(func)
            before = self.snapshot(func, args, kwargs)
            out = func(*args, **kwargs)
        finally:
            self.depth -= 1
        if before is not None:
            offer(self.sink, key, before, out, self.source, self.dtype)
        return out


def offer(sink, key, before, out, source, dtype):
    if isinstance(out, (bool, int, float)):
        source = SCALAR_MARK + source
        out = torch.tensor(out, dtype=scalar_dtype(out, [v for _, _, v in before], dtype))
    sink.offer(RENAMED.get(key, key), before, out, source)


def scalar_dtype(value, args, dtype):
    """item / _local_scalar_dense: the tensor's dtype; maximum_value: the dtype asked for (both lossless)."""
    t = gc.tensors_in(list(args))
    if not t:
        return dtype
    kind = bool if t[0].dtype == torch.bool else float if t[0].dtype.is_floating_point else int
    if type(value) is kind:
        return t[0].dtype
    return torch.bool if isinstance(value, bool) else torch.int64 if isinstance(value, int) else torch.float64


def record(sink, name, dt, label, fn, *args, **kwargs):
    try:
        with Only(sink, "prims:%s:%s" % (name, label), dt):
            fn(*args, **kwargs)
    except Exception as e:  # the dtype or the arguments are not supported by PyTorch: no case
        if os.environ.get("GEN_PRIMS_VERBOSE"):
            print("  %s %s %s: %s" % (name, dt, label, str(e).splitlines()[0] if str(e) else type(e).__name__),
                  file=sys.stderr)


def record_outside(sink, name, label, fn, *args, **kwargs):
    """For an overload PyTorch 1.13 cannot run under a dispatch mode (bitwise_or.Scalar passes its number on
    unwrapped; var.dim and copy reach the mode only as the ops they call; sym_size and friends never): the call
    made without the mode, recorded the same way."""
    before = Only(sink, "prims:%s:%s" % (name, label), None).snapshot(fn, args, kwargs)
    try:
        out = fn(*args, **kwargs)
    except RuntimeError:  # a dtype PyTorch does not run the op for: no case
        return
    if before is not None:
        offer(sink, gc.op_key(fn), before, out, "prims:%s:%s" % (name, label), None)


# --- values ---------------------------------------------------------------------------------------------

SPECIAL_VALUES = [math.nan, math.inf, -math.inf, 0.0, -0.0, 1.0, -1.0, 2.0, -2.0, -3.0, 0.5, -0.5, 1.5, -2.5, 1e-3,
                  -1e-6, 0.25, 3.7, -4.2, 7.5, 10.0, -10.0, 12.5, 25.0, -30.0, 50.0, 90.0, 100.0, -200.0, 700.0, 1e4,
                  -1e5, 1e10, 1e30, 0.999, -0.9999, 0.1, 0.9, 5.0, 8.0]


def values(dtype, vals=SPECIAL_VALUES):
    if dtype == torch.bool:
        return torch.tensor([True, False, True, False, False, True])
    if dtype.is_floating_point:
        return torch.tensor(vals, dtype=torch.float64).to(dtype)
    info = torch.iinfo(dtype)
    ints = [0, 1, 2, 3, 5, 7, 12, 100, info.max, info.min]
    if info.min < 0:
        ints += [-1, -2, -3, -7, -100]
    return torch.tensor(ints, dtype=torch.int64).clamp(info.min, info.max).to(dtype)


def unary_inputs(dtype, vals=SPECIAL_VALUES):
    e = values(dtype, vals)
    ramp = torch.linspace(-12, 12, 49, dtype=torch.float64)
    ramp = ramp.to(dtype) if dtype.is_floating_point else ramp.round().to(torch.int64).clamp(
        *(torch.iinfo(dtype).min, torch.iinfo(dtype).max)).to(dtype) if dtype != torch.bool else e
    nc = torch.stack([e, e.flip(0)]).t()
    return [("values", e), ("ramp", ramp), ("non_contiguous", nc), ("broadcast", e[:1].expand(5)),
            ("empty", torch.empty(0, dtype=dtype))]


def binary_inputs(dtype, lhs_vals, rhs_vals):
    a, b = values(dtype, lhs_vals), values(dtype, rhs_vals)
    fa, fb = torch.broadcast_tensors(a.reshape(-1, 1), b.reshape(1, -1))
    fa, fb = fa.contiguous(), fb.contiguous()
    return [("pairs", (fa, fb)), ("pairs_nc", (fa.t(), fb.t())), ("scalar_tensor", (a, b[3].clone()))]


# --- 1. special functions ----------------------------------------------------------------------------------

UNARY_SPECIAL = {
    "bessel_j0": P.bessel_j0, "bessel_j1": P.bessel_j1, "bessel_i0": P.bessel_i0, "bessel_i0e": P.bessel_i0e,
    "bessel_i1": P.bessel_i1, "bessel_i1e": P.bessel_i1e, "spherical_bessel_j0": P.spherical_bessel_j0,
    "digamma": P.digamma, "erf_inv": P.erf_inv, "erfcx": A.special_erfcx, "ndtri": A.special_ndtri}
UNIT_VALUES = [math.nan, math.inf, -math.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 0.25, 1e-3, -1e-6, 1e-20, 0.9, -0.99,
               0.999, -0.9999, 0.999999, 1 - 2 ** -24, 1.0000001, -1.5, 2.0, 0.1, 0.01, 0.75, -0.3, 1e-7]
DIGAMMA_EXTRA = [-1e-30, 1e-30, -0.9999999, -1.0000001, -9.5, -100.5, 1.4616321449683623, 1e15, -1e15, 0.001]
IGAMMA_A = [math.nan, math.inf, 0.0, -0.0, -1.0, 1e-3, 0.5, 1.0, 2.5, 10.0, 30.0, 200.0, 1e4]
IGAMMA_X = [math.nan, math.inf, -math.inf, 0.0, -0.0, -1.0, 1e-3, 0.5, 1.0, 3.0, 10.0, 40.0, 220.0, 1e4]
ZETA_X = [math.nan, math.inf, 1.0, 0.5, -1.0, 1.5, 2.0, 3.0, 4.5, 10.0, 30.0, 100.0, -2.0]
ZETA_Q = [math.nan, math.inf, -math.inf, 0.0, -0.0, -1.0, -2.5, 0.5, 1.0, 2.0, 3.5, 10.0, 1e3, 1e-3]


def gen_special(sink):
    for name, fn in UNARY_SPECIAL.items():
        vals = UNIT_VALUES if name in ("erf_inv", "ndtri") else SPECIAL_VALUES + (DIGAMMA_EXTRA if name == "digamma" else [])
        for dtype in ALL:
            gc.seed(name, dtype)
            for label, x in unary_inputs(dtype, vals):
                record(sink, name, dtype, label, fn, x)
            record(sink, name, dtype, "random", fn, (torch.randn(64, dtype=torch.float64) * 6).to(dtype)
                   if dtype.is_floating_point else torch.randint(-5, 20, (64,)).clamp(min=0 if dtype == torch.uint8 else -5).to(dtype))
    for name, fn, lv, rv in (("igamma", P.igamma, IGAMMA_A, IGAMMA_X), ("igammac", P.igammac, IGAMMA_A, IGAMMA_X),
                             ("zeta", P.zeta, ZETA_X, ZETA_Q)):
        for dtype in ALL:
            gc.seed(name, dtype)
            for label, (a, b) in binary_inputs(dtype, lv, rv):
                record(sink, name, dtype, label, fn, a, b)
            if dtype.is_floating_point:
                a = (torch.rand(64, dtype=torch.float64) * 20).to(dtype)
                b = (torch.rand(64, dtype=torch.float64) * 20).to(dtype)
                record(sink, name, dtype, "random", fn, a + (1.0 if name == "zeta" else 0.0), b)


# --- 2. other prims ------------------------------------------------------------------------------------------

def gen_misc(sink):
    for dtype in ALL:
        gc.seed("misc", dtype)
        if not dtype.is_floating_point and dtype != torch.bool:
            for label, (a, b) in binary_inputs(dtype, [], []):
                record(sink, "gcd", dtype, label, P.gcd, a, b)
        if dtype.is_floating_point:
            vals = [math.nan, math.inf, -math.inf, 0.0, -0.0, 1.0, -1.0, 1e-30, 3.0, -2.5, 65504.0, 1e38]
            for label, (a, b) in binary_inputs(dtype, vals, vals):
                record(sink, "nextafter", dtype, label, P.nextafter, a, b)
            for label, x in unary_inputs(dtype, SPECIAL_VALUES + [1e-40, 6e-8, 1e-310, 3e38]):
                record(sink, "frexp", dtype, label, A.frexp.Tensor, x)
        record(sink, "maximum_value", dtype, "dtype", P.maximum_value, dtype)
        record(sink, "minimum_value", dtype, "dtype", P.minium_value, dtype)
        x = values(dtype)[:6].reshape(2, 3).clone()
        for label, shape in (("same", [2, 3]), ("reshaped", [3, 2]), ("flat", [6]), ("shrink", [2, 2]), ("empty", [0])):
            record(sink, "resize", dtype, label, P.resize, x.clone(), shape)


# --- 3. ops with a kernel and no case ----------------------------------------------------------------------

def gen_scalar_binary(sink, dtype):
    e = values(dtype)
    nc = torch.stack([e, e.flip(0)]).t()
    if not dtype.is_floating_point:
        for name in ("bitwise_and", "bitwise_or", "bitwise_xor"):
            fn = getattr(A, name).Scalar
            for other in ((True, False) if dtype == torch.bool else (3, -1, 0, 127, -128)):
                record_outside(sink, name, "values", fn, e, other)
            record_outside(sink, name, "non_contiguous", fn, nc, True if dtype == torch.bool else 6)
    if dtype == torch.bool:
        return
    divisors = (2, -3, 0.5, -0.0, 0.0, math.inf, math.nan) if dtype.is_floating_point else (2, -3, 7, 0.5, -2.5)
    for other in divisors:
        for mode in (None, "trunc", "floor"):
            record(sink, "div", dtype, "values", A.div.Scalar_mode, e, other, rounding_mode=mode)
        record(sink, "fmod", dtype, "values", A.fmod.Scalar, e, other)
    record(sink, "div", dtype, "non_contiguous", A.div.Scalar_mode, nc, -2, rounding_mode="floor")
    record(sink, "fmod", dtype, "non_contiguous", A.fmod.Scalar, nc, 3)


def gen_scatter_views(sink, dtype):
    x = values(dtype)[:1].expand(12).clone().reshape(3, 4) if dtype == torch.bool else \
        torch.arange(12, dtype=torch.float64).to(dtype).reshape(3, 4)
    idx = torch.tensor([[2, 0, 1, 0], [1, 2, 0, 1]])
    for value in (5, -1.5, True):
        record(sink, "scatter", dtype, "dim0", A.scatter.value, x, 0, idx, value)
    record(sink, "scatter", dtype, "dim1_nc", A.scatter.value, x.t(), 1, idx[:, :3].t().contiguous(), 3)
    big = torch.zeros(4, 6, dtype=dtype)
    for dim, start, end, step, shape in ((0, 1, 3, 1, (2, 6)), (1, 0, 6, 2, (4, 3)), (1, None, None, 1, (4, 6)),
                                         (0, -2, None, 1, (2, 6)), (1, 5, 100, 1, (4, 1))):
        src = (torch.arange(int(torch.tensor(shape).prod()), dtype=torch.float64) + 1).to(dtype).reshape(shape)
        record(sink, "slice_scatter", dtype, "dim%d" % dim, A.slice_scatter.default, big, src, dim, start, end, step)
    record(sink, "slice_scatter", dtype, "nc", A.slice_scatter.default, big.t(), x[:1, :].repeat(1, 2)[:, :6].t(), 1, 0, 1, 1)


def gen_misc_aten(sink, dtype):
    e = values(dtype)
    nc = torch.stack([e, e.flip(0)]).t()
    if dtype.is_floating_point:
        r = torch.randn(4, 5, dtype=torch.float64).to(dtype)
        for dim, unbiased, keep in (([1], True, False), ([0, 1], False, True), (None, True, False), ([-1], False, False)):
            record_outside(sink, "var", "dims", A.var.dim, r, dim, unbiased, keep)
        record_outside(sink, "var", "nc", A.var.dim, r.t(), [0], True, False)
        record_outside(sink, "var", "edge", A.var.dim, e.reshape(-1, 1) if e.numel() % 2 else e.reshape(2, -1), [1], True, False)
        a, b = torch.broadcast_tensors(e[:20].reshape(-1, 1), e[:20].reshape(1, -1))
        record_outside(sink, "atan2", "pairs", A.atan2.out, a.contiguous(), b.contiguous(), out=torch.zeros(a.shape, dtype=dtype))
        record_outside(sink, "atan2", "pairs_nc", A.atan2.out, a.t().contiguous().t(), b, out=torch.zeros(a.shape, dtype=dtype))
    for src_dtype in (torch.float32, torch.int64, torch.bool, dtype):
        src = values(src_dtype)[:4].reshape(1, 4)
        record_outside(sink, "copy", "from_%s" % gc.DTYPE_NAME[src_dtype], A.copy.default, torch.zeros(3, 4, dtype=dtype), src)
    record_outside(sink, "copy", "nc", A.copy.default, torch.zeros(4, 3, dtype=dtype).t(), values(dtype)[:4].reshape(1, 4))
    for k in range(min(4, e.numel())):
        record(sink, "_local_scalar_dense", dtype, "value%d" % k, A._local_scalar_dense.default, e[k].clone())
        record(sink, "item", dtype, "value%d" % k, P.item, e[k].clone())
    t = nc[1:, :]
    for d in (0, 1, -1):
        record_outside(sink, "sym_size", "dim%d" % d, A.sym_size.int, t, d)
        if d >= 0:  # 1.13's sym_stride does not wrap a negative dim (it answers 0)
            record_outside(sink, "sym_stride", "dim%d" % d, A.sym_stride.int, t, d)
    record_outside(sink, "sym_numel", "nc", A.sym_numel.default, t)
    # the corpus stores an input from its first element, so its storage offset is always 0 when replayed
    record_outside(sink, "sym_storage_offset", "offset0", A.sym_storage_offset.default, nc)
    if dtype.is_floating_point:
        for p, train in ((0.0, True), (1.0, True), (0.5, False), (0.0, None)):
            record(sink, "native_dropout", dtype, "p%s" % p, A.native_dropout.default, nc, p, train)


def gen_prims_misc(sink, dtype):
    e = values(dtype)
    nc = torch.stack([e, e.flip(0)]).t()
    if dtype.is_floating_point:
        for label, x in unary_inputs(dtype):
            record(sink, "cbrt", dtype, label, P.cbrt, x)
    record(sink, "device_put", dtype, "nc", P.device_put, nc, CPU)
    for shape in ([2, 3], [0], []):
        record(sink, "empty", dtype, "shape", P.empty, shape, dtype=dtype, device=CPU, requires_grad=False)
        record(sink, "full", dtype, "shape", P.full, shape, True if dtype == torch.bool else 3, dtype=dtype, device=CPU,
               requires_grad=False)
    record(sink, "empty_strided", dtype, "transposed", P.empty_strided, [2, 3], [1, 2], dtype=dtype, device=CPU, requires_grad=False)
    record(sink, "empty_strided", dtype, "gaps", P.empty_strided, [2, 3], [8, 2], dtype=dtype, device=CPU, requires_grad=False)
    for fill in ((-2.5, math.inf, math.nan, 7) if dtype.is_floating_point else (7, -1, True)):
        record(sink, "full_like", dtype, "nc", P.full_like, nc, fill, dtype=dtype, device=CPU, requires_grad=False)
    record(sink, "full_like", dtype, "other_dtype", P.full_like, nc, 1, dtype=torch.float64, device=CPU, requires_grad=False)
    n = e.numel()
    for shape in ([n], [2, n // 2] if n % 2 == 0 else [n, 1], [1, n, 1]):
        record(sink, "reshape", dtype, "contiguous", P.reshape, e, shape)
    record(sink, "reshape", dtype, "nc", P.reshape, nc, [2 * e.numel()])
    if not dtype.is_floating_point and dtype != torch.bool:
        sh = torch.tensor([0, 1, 3, 7, 8, 15, 31, 63], dtype=dtype if dtype != torch.uint8 else torch.uint8)
        a, b = torch.broadcast_tensors(e.reshape(-1, 1), sh.reshape(1, -1))
        record(sink, "shift_right_arithmetic", dtype, "pairs", P.shift_right_arithmetic, a.contiguous(), b.contiguous())
    x = torch.arange(24, dtype=torch.float64).to(dtype).reshape(4, 6) if dtype != torch.bool else nc.repeat(1, 3)[:4, :6].contiguous()
    for start, limit, strides in (([0, 0], [4, 6], None), ([1, 2], [3, 5], None), ([0, 1], [4, 6], [2, 2]), ([1, 0], [1, 6], [1, 3])):
        record(sink, "slice", dtype, "slice", P.slice, x, start, limit, strides)
    record(sink, "slice", dtype, "nc", P.slice, x.t(), [1, 1], [5, 3], [2, 1])
    record(sink, "slice_in_dim", dtype, "nc", P.slice_in_dim, x.t(), 1, 5, 2, 0)


def copy_strided(a, stride):
    """prims.copy_strided as later PyTorch defines it (empty_strided + copy_); 1.13 lacks the prim."""
    return torch.empty_strided(a.shape, stride, dtype=a.dtype).copy_(a)


def gen_strided(sink, dtype):
    x = values(dtype)[:6].reshape(2, 3)
    for label, a, stride in (("transposed", x, [1, 2]), ("gaps", x, [8, 2]), ("from_nc", x.t(), [2, 1]), ("broadcast", x[:1].expand(4, 3), [3, 1])):
        before = [("a", False, gc._frozen(a)), ("stride", False, stride)]
        sink.offer("prims::copy_strided.default", before, copy_strided(a, stride), "prims:copy_strided=empty_strided+copy_:" + label)
    base = torch.zeros(4, 6, dtype=dtype)
    src = values(dtype)[:6].reshape(2, 3).clone()
    for label, self_, size, stride, off in (("rows", base, [2, 3], [6, 1], 1), ("every_other", base, [2, 3], [12, 2], 0),
                                            ("nc_self", base.t(), [2, 3], [1, 4], 2), ("none_offset", base, [2, 3], [3, 1], None)):
        record(sink, "as_strided_scatter", dtype, label, A.as_strided_scatter.default, self_, src, size, stride, off)


def xor_sum(x, dims):
    """prims.xor_sum (later PyTorch, inductor only): bitwise_xor folded over the dims, by PyTorch's bitwise_xor."""
    r = x
    for d in sorted(range(x.dim()) if dims is None else [d % x.dim() for d in dims], reverse=True):
        r = functools.reduce(torch.bitwise_xor, r.unbind(d))
    return r


def gen_later_prims(sink, dtype):
    """Prims 1.13 lacks, from the 1.13 ops they are defined by: xor_sum, empty_permuted (strides only)."""
    if not dtype.is_floating_point:
        hi = 2 if dtype == torch.bool else 100
        x = torch.randint(0, hi, (3, 4)).to(dtype) if dtype != torch.int8 else torch.randint(-100, 100, (3, 4)).to(dtype)
        for label, a, dims in (("all", x, None), ("dim0", x, [0]), ("dim1", x, [-1]), ("both", x, [0, 1]), ("nc", x.t(), [1])):
            before = [("inp", False, gc._frozen(a)), ("dims", False, dims)]
            sink.offer("prims::xor_sum.default", before, xor_sum(a, dims).clone(), "prims:xor_sum=bitwise_xor_folded:" + label)
    for label, shape, layout in (("nchw_as_nhwc", [2, 3, 4, 5], [0, 2, 3, 1]), ("reversed", [2, 3, 4], [2, 1, 0]), ("identity", [3, 2], [0, 1])):
        inverse = [layout.index(d) for d in range(len(layout))]
        out = torch.zeros([shape[d] for d in layout], dtype=dtype).permute(inverse)
        before = [("shape", False, shape), ("physical_layout", False, layout), ("dtype", True, dtype), ("device", True, CPU),
                  ("requires_grad", True, False)]
        sink.offer("prims::empty_permuted.default", before, out, "prims:empty_permuted=empty_permuted_back:" + label)


CAST_VALUES = [-0.0, -0.5, -1.0, -3.7, 3.7, 255.5, 256.0, 300.0, -300.0, 65504.0, 70000.0, -70000.0, 2.0 ** 31 - 1,
               -(2.0 ** 31), 2.0 ** 31, 3e9, -3e9, 1e10 + 7, 2.0 ** 40 + 3, -(2.0 ** 40 + 3), 2.0 ** 63, -(2.0 ** 63), 1e19,
               -1e30, math.nan, math.inf, -math.inf]


def gen_casts(sink, dtype):
    """Floating values to each integer dtype and bool, outside the target's range included (negative to uint8,
    beyond int32 and int64, NaN, infinities): PyTorch's copy converts them as x86's truncating conversions
    do, which C++ leaves undefined. Strided inputs take PyTorch's scalar loop, contiguous ones its
    vectorised at::vec::convert."""
    if not dtype.is_floating_point:
        return
    x = values(dtype, CAST_VALUES)
    nc = torch.stack([x, x.flip(0)]).t()
    for dst in INTS + [torch.bool]:
        name = gc.DTYPE_NAME[dst]
        record(sink, "convert_element_type", dtype, "nc_to_" + name, P.convert_element_type, nc, dst)
        record(sink, "_to_copy", dtype, "nc_to_" + name, A._to_copy.default, nc, dtype=dst)
    for dst in (torch.uint8, torch.int8):
        name = gc.DTYPE_NAME[dst]
        record(sink, "convert_element_type", dtype, "to_" + name, P.convert_element_type, x, dst)
        record(sink, "_to_copy", dtype, "to_" + name, A._to_copy.default, x, dtype=dst)


def gen_later_shape_prims(sink, dtype):
    """prims.clone, prims.collapse and prims.iota, which 1.13 lacks, from the 1.13 ops later PyTorch's prims
    run: clone is torch.clone; collapse (end inclusive) a reshape into a new contiguous tensor (its
    empty + view_as + copy_); iota(length, start, step) is arange(start, start + length * step, step), for
    integer dtypes only. Each case's source names that oracle."""
    f = gc._frozen
    x = values(dtype).repeat(4)[:24].reshape(2, 3, 4)
    for label, a, fmt in (("contiguous", x, None), ("transposed", x.transpose(0, 2), None), ("sliced", x[:, 1:, ::2], None),
                          ("broadcast", x[:1].expand(3, 3, 4), None), ("to_contiguous", x.transpose(0, 2), torch.contiguous_format),
                          ("preserve", x.permute(1, 2, 0), torch.preserve_format)):
        before = [("self", False, f(a))] + ([("memory_format", True, fmt)] if fmt is not None else [])
        out = A.clone.default(a) if fmt is None else A.clone.default(a, memory_format=fmt)
        sink.offer("prims::clone.default", before, out, "prims:clone=aten.clone:" + label)
    for label, a, start, end in (("d01", x, 0, 1), ("d12", x, 1, 2), ("all", x, 0, 2), ("one", x, 1, 1),
                                 ("transposed", x.transpose(0, 2), 0, 1), ("sliced", x[:, 1:, ::2], 1, 2)):
        shape = list(a.shape[:start]) + [math.prod(a.shape[start:end + 1])] + list(a.shape[end + 1:])
        out = A.reshape.default(a, shape).clone(memory_format=torch.contiguous_format)
        before = [("a", False, f(a)), ("start", False, start), ("end", False, end)]
        sink.offer("prims::collapse.default", before, out, "prims:collapse=reshape+contiguous:" + label)
    if dtype.is_floating_point or dtype == torch.bool:
        return
    for label, length, start, step in (("up", 5, 0, 1), ("down", 4, 10, -3), ("empty", 0, 2, 1), ("from_negative", 6, -5, 2)):
        out = A.arange.start_step(start, start + length * step, step, dtype=dtype)
        before = [("length", False, length), ("start", True, start), ("step", True, step), ("dtype", True, dtype),
                  ("device", True, CPU), ("requires_grad", True, False)]
        sink.offer("prims::iota.default", before, out, "prims:iota=arange(start,start+length*step,step):" + label)


SAME_SIZE = {1: [torch.int8, torch.uint8], 2: [torch.int16, torch.float16, torch.bfloat16], 4: [torch.int32, torch.float32],
             8: [torch.int64, torch.float64]}


def gen_view_of_dtype(sink, dtype):
    """prims.view_of_dtype, which 1.13 lacks, from later PyTorch's definition (its meta and its implementation
    are both a.view(dtype)), answered by 1.13's view.dtype: to every other dtype of the same element size
    (bool only to uint8 / int8: other bytes are not bools), contiguous and transposed; and to a smaller and a
    larger element size over a contiguous last dimension."""
    x = values(dtype).repeat(4)[:24].reshape(4, 6)
    size = x.element_size()
    targets = [d for d in SAME_SIZE[size] if d != dtype] + ([torch.bool] if size == 1 and dtype != torch.bool else [])
    if dtype == torch.bool:
        targets = [torch.uint8, torch.int8]
    for dst in targets:
        name = gc.DTYPE_NAME[dst]
        if dst == torch.bool:  # only bytes that are 0 or 1 read as bools
            x = x.clamp(0, 1)
        for label, a in (("contiguous", x), ("transposed", x.t()), ("sliced", x[1:, ::2])):
            sink.offer("prims::view_of_dtype.default", [("a", False, gc._frozen(a)), ("dtype", False, dst)],
                       A.view.dtype(a, dst), "prims:view_of_dtype=view.dtype:%s_to_%s" % (label, name))
    if dtype == torch.bool:
        return
    for dst in (SAME_SIZE[size // 2][0] if size > 1 else None, SAME_SIZE[size * 2][-1] if size < 8 else None):
        if dst is None:
            continue
        name = gc.DTYPE_NAME[dst]
        for label, a in (("contiguous", x), ("rows", x[1:3])):
            sink.offer("prims::view_of_dtype.default", [("a", False, gc._frozen(a)), ("dtype", False, dst)],
                       A.view.dtype(a, dst), "prims:view_of_dtype=view.dtype:%s_to_%s" % (label, name))


def gen_svd(sink, dtype):
    """prims.svd (LAPACK's gesdd in PyTorch): tall, wide (transposed), batched and rank-deficient (two zero
    singular values) inputs, reduced and full. The singular vectors are
    unique only up to sign, so these cases are marked "check": "svd" and the runner compares S by value
    and U, Vh by what is unique (orthonormal, U diag(S) Vh = A)."""
    if dtype not in (torch.float32, torch.float64):
        return
    r = lambda *shape: torch.randn(*shape, dtype=torch.float64).to(dtype)
    low_rank = (r(5, 2) @ r(2, 4)).to(dtype)  # two zero singular values: a repeated one, and null directions
    # four inputs, reduced and full: the corpus keeps 8 calls per (op, dtype)
    for label, a in (("tall", r(5, 3)), ("wide_transposed", r(5, 3).t()), ("batched_wide", r(2, 3, 4)), ("rank2", low_rank)):
        for full in (False, True):
            record(sink, "svd", dtype, "%s_%s" % (label, "full" if full else "reduced"), P.svd, a, full_matrices=full)


def gen_tokens(sink):
    """prims._make_token and prims._sink_tokens, which 1.13 lacks, written by hand from later PyTorch's
    definitions: a token is its new_token_tensor(), torch.tensor([]) (float32, shape [0]); _sink_tokens
    takes a list of tokens and returns nothing (its case checks that it runs and returns no output)."""
    sink.offer("prims::_make_token.default", [], torch.tensor([]), "prims:_make_token=torch.tensor([]):by_hand")
    for n in (1, 2):
        tokens = [torch.tensor([]) for _ in range(n)]
        sink.offer("prims::_sink_tokens.default", [("tokens", False, tokens)], (), "prims:_sink_tokens=returns_nothing:by_hand%d" % n)


def batch_norm_cases(dtype):
    """Inputs of the batch norm overloads: NCHW and NC, with and without affine parameters."""
    for label, shape in (("nchw", (2, 3, 4, 4)), ("nc", (5, 3)), ("nc_len", (2, 3, 6))):
        x = torch.randn(shape, dtype=torch.float64).mul(3).add(1).to(dtype)
        c = shape[1]
        w, b = torch.randn(c, dtype=torch.float64).to(dtype), torch.randn(c, dtype=torch.float64).to(dtype)
        rm, rv = torch.randn(c, dtype=torch.float64).to(dtype), torch.rand(c, dtype=torch.float64).add(0.5).to(dtype)
        yield label, x, w, b, rm, rv
        yield label + "_noaffine", x, None, None, rm, rv
    x = torch.randn(3, 2, 4, dtype=torch.float64).to(dtype).transpose(0, 1)
    yield "non_contiguous", x, None, None, torch.zeros(2, dtype=dtype), torch.ones(2, dtype=dtype)


def gen_later_batch_norm(sink, dtype):
    """The batch norm overloads of later PyTorch, from 1.13's native_batch_norm, which they split up:
    `_native_batch_norm_legit_no_training` is the eval call, `_native_batch_norm_legit` the training
    call with running statistics (updated in place) and `.no_stats` the one without."""
    if not dtype.is_floating_point:
        return
    for label, x, w, b, rm, rv in batch_norm_cases(dtype):
        f = gc._frozen
        try:
            out = A.native_batch_norm(x, w, b, rm.clone(), rv.clone(), False, 0.1, 1e-5)
            before = [("input", False, f(x)), ("weight", False, f(w)), ("bias", False, f(b)), ("running_mean", False, f(rm)),
                      ("running_var", False, f(rv)), ("momentum", False, 0.1), ("eps", False, 1e-5)]
            sink.offer("aten::_native_batch_norm_legit_no_training.default", before, tuple(out), "prims:bn_no_training=native_batch_norm(training=False):" + label)
            out = A.native_batch_norm(x, w, b, rm.clone(), rv.clone(), True, 0.1, 1e-5)
            before = [("input", False, f(x)), ("weight", False, f(w)), ("bias", False, f(b)), ("running_mean", False, f(rm)),
                      ("running_var", False, f(rv)), ("training", False, True), ("momentum", False, 0.1), ("eps", False, 1e-5)]
            sink.offer("aten::_native_batch_norm_legit.default", before, tuple(out), "prims:bn_legit=native_batch_norm(training=True):" + label)
            out = A.native_batch_norm(x, w, b, None, None, True, 0.1, 1e-5)
            before = [("input", False, f(x)), ("weight", False, f(w)), ("bias", False, f(b)), ("training", False, True),
                      ("momentum", False, 0.1), ("eps", False, 1e-5)]
            sink.offer("aten::_native_batch_norm_legit.no_stats", before, tuple(out), "prims:bn_no_stats=native_batch_norm(no_running_stats):" + label)
        except RuntimeError:  # a dtype PyTorch 1.13 does not normalise on the CPU: no case
            continue


def gen_later_aten(sink, dtype):
    """Core ATen overloads 1.13 lacks, from the 1.13 ops later PyTorch defines them by: any.dims folds
    any.dim over the dims (highest first), squeeze.dims squeezes each dim of size 1 (highest first, a
    view), sym_is_contiguous is Tensor.is_contiguous()."""
    x = values(dtype)[:6].reshape(2, 1, 3)
    if dtype != torch.bool:
        x = x * (torch.arange(6).reshape(2, 1, 3) % 2).to(dtype)  # zeros among the values
    for label, a, dims, keep in (("all", x, None, False), ("d0", x, [0], False), ("d02", x, [0, 2], False), ("d02_keep", x, [0, 2], True),
                                 ("neg", x, [-1, -3], False), ("nc", x.transpose(0, 2), [1, 2], False)):
        r = a
        for d in sorted(range(a.dim()) if not dims else [d % a.dim() for d in dims], reverse=True):
            r = A.any.dim(r, d, keep)
        before = [("self", False, gc._frozen(a)), ("dim", False, dims), ("keepdim", False, keep)]
        sink.offer("aten::any.dims", before, r.clone(), "prims:any_dims=any.dim_per_dim_highest_first:" + label)
    y = values(dtype)[:6].reshape(1, 2, 1, 3)
    for label, a, dims in (("both", y, [0, 2]), ("neg", y, [-2]), ("not_one", y, [1, 2]), ("none", y, []), ("nc", y.transpose(1, 3), [0, 2])):
        r = a
        for d in sorted({d % a.dim() for d in dims}, reverse=True):
            r = A.squeeze.dim(r, d)
        before = [("self", False, gc._frozen(a)), ("dim", False, dims)]
        sink.offer("aten::squeeze.dims", before, r, "prims:squeeze_dims=squeeze.dim_per_dim_highest_first:" + label)
    z = values(dtype)[:6].reshape(2, 3)
    for label, a in (("contiguous", z), ("transposed", z.t()), ("broadcast", z[:1].expand(4, 3)), ("sliced", z[:, 1:]),
                     ("row", z[:1]), ("scalar", z[0, 0])):
        offer(sink, "aten::sym_is_contiguous.default", [("self", False, gc._frozen(a))], bool(a.is_contiguous()),
              "prims:sym_is_contiguous=Tensor.is_contiguous:" + label, dtype)


def gen_random(sink, dtype):
    """Random ops, recorded for their dtype, shape and strides; the runner checks the values by their law
    (`gen_corpus.DISTRIBUTION`): 1000 draws for the moments, small and empty shapes for the range."""
    if dtype.is_floating_point:
        for label, shape in (("draws", [1000]), ("matrix", [25, 40]), ("small", [3]), ("empty", [0, 4])):
            record(sink, "rand", dtype, label, A.rand.default, shape, dtype=dtype)
            record(sink, "randn", dtype, label, A.randn.default, shape, dtype=dtype)
            record(sink, "uniform", dtype, label, P.uniform.default, shape, low=-2.0, high=3.0, dtype=dtype, device=CPU)
            record(sink, "normal", dtype, label, P.normal.default, shape, mean=1.5, std=0.5, dtype=dtype, device=CPU,
                   requires_grad=False)
    if dtype != torch.bool:
        top = {torch.int8: 100, torch.uint8: 200, torch.float16: 1000, torch.bfloat16: 200}.get(dtype, 1000)
        for n in (0, 1, 7, top):
            record(sink, "randperm", dtype, "n%d" % n, A.randperm.default, n, dtype=dtype)


def build(out_dir, only=None):
    torch.set_num_threads(1)
    gc.NO_VALUES.add("prims::empty_permuted.default")  # uninitialised in PyTorch: dtype, shape and strides only
    sink = gc.Sink()
    parts = [("special", gen_special), ("misc", gen_misc), ("tokens", gen_tokens)]
    for name, fn in parts:
        if not only or only in name:
            fn(sink)
    for dtype in ALL:
        for fn in (gen_scalar_binary, gen_scatter_views, gen_misc_aten, gen_prims_misc, gen_strided, gen_later_prims,
                   gen_later_batch_norm, gen_later_aten, gen_random, gen_casts,
                   gen_later_shape_prims, gen_view_of_dtype, gen_svd):
            if not only or only in fn.__name__:
                gc.seed(fn.__name__, dtype)
                fn(sink, dtype)
    gc.write(out_dir, sink)
    mark_scalars(os.path.join(out_dir, "index.json"))


def mark_scalars(path):
    """Cases whose op returns a Python number: `"scalar": true`, the source without its mark; SVD cases:
    `"check": "svd"`."""
    with open(path) as f:
        lines = f.read().split("\n")
    for k, line in enumerate(lines):
        if '"op":"prims::svd.default"' in line:
            case = json.loads(line.rstrip(","))
            case["check"] = "svd"
            lines[k] = json.dumps(case, separators=(",", ":"), sort_keys=True) + ("," if line.endswith(",") else "")
        elif ('"source":"%s' % SCALAR_MARK) in line:
            case = json.loads(line.rstrip(","))
            case["source"] = case["source"][len(SCALAR_MARK):]
            case["scalar"] = True
            lines[k] = json.dumps(case, separators=(",", ":"), sort_keys=True) + ("," if line.endswith(",") else "")
    with open(path, "w") as f:
        f.write("\n".join(lines))
    with open(path) as f:
        json.load(f)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(gc.HERE, "corpus", "prims"))
    ap.add_argument("--only", help="only the generators whose name contains this")
    a = ap.parse_args()
    build(a.out, a.only)
