#!/usr/bin/env python3
"""Writes the op conformance corpus: PyTorch's own answers for core ATen and prims calls.

Run by a developer (not by CI) with Debian's python3-torch (PyTorch 1.13):

    /usr/bin/python3 tests/conformance/gen_corpus.py            # rewrites tests/conformance/corpus/

It drives the OpInfo sample inputs of `op_db` (and the Python references of `python_ref_db`, which
call prims) under a TorchDispatchMode that records every ATen/prims call it sees: the overload, the
arguments and PyTorch's outputs. It keeps the calls whose overload is in the core ATen table or is a
prim, adds edge values that OpInfo misses (NaN, +-inf, -0.0, ties, negative divisors, integer
overflow, empty, non-contiguous and broadcast inputs), caps the cases per (op, dtype) and writes
`corpus/index.json` (one case per line) and `corpus/data.bin` (raw little-endian buffers).
Deterministic: every (source, dtype) is seeded from its name; torch runs on one thread.
"""

import argparse
import faulthandler
import hashlib
import json
import os
import random
import sys
import types
import zlib

# The OpInfo database imports `expecttest`, which Debian does not package; the database only needs
# the names to exist.
_stub = types.ModuleType("expecttest")
_stub.ACCEPT = False
_stub.TestCase = type("TestCase", (), {})
sys.modules.setdefault("expecttest", _stub)

import numpy  # noqa: E402
import torch  # noqa: E402
from torch.utils._python_dispatch import TorchDispatchMode  # noqa: E402
from torch.testing._internal import common_methods_invocations as cmi  # noqa: E402
from torch.testing._internal.opinfo.core import BinaryUfuncInfo, ReductionOpInfo, UnaryUfuncInfo  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int8, torch.int16, torch.int32,
          torch.int64, torch.uint8, torch.bool]
# Encoded (interleaved real, imaginary) but recorded only by a Sink that asks for them (gen_fft.py): the
# OpInfo part stays without complex calls.
COMPLEX_DTYPES = [torch.complex64, torch.complex128]
DTYPE_NAME = {d: str(d).replace("torch.", "") for d in DTYPES + COMPLEX_DTYPES}
NP_VIEW = {torch.float16: torch.int16, torch.bfloat16: torch.int16}

MAX_SPAN = 1024          # elements of one recorded tensor (its storage span)
MAX_CASE_ELEMS = 4096    # elements of all tensors of one call
SAMPLES_PER_SOURCE = 6   # OpInfo samples tried per (OpInfo, dtype)
CASES_PER_OP_DTYPE = 8   # OpInfo calls kept per (op, dtype)
EDGE_PER_OP_DTYPE = 6    # edge-value calls kept per (op, dtype)
# Outputs whose values PyTorch leaves undefined: only dtype, shape and strides are compared.
NO_VALUES = {"aten::empty.memory_format", "aten::empty_strided.default", "aten::new_empty.default",
             "aten::new_empty_strided.default", "prims::empty_strided.default", "prims::empty.default"}
# Random ops: their values cannot match PyTorch's stream, so the case stores zeros and names the law the
# runner checks the values against (range and moments; a permutation of 0..n-1).
DISTRIBUTION = {"aten::rand.default": "uniform", "aten::randn.default": "normal", "aten::randperm.default": "permutation",
                "prims::uniform.default": "uniform", "prims::normal.default": "normal"}
# OpInfo families that reach no core ATen op and take most of the generator's time.
SKIP_SOURCES = ("linalg.", "fft.", "special.", "masked.", "_masked.", "sparse.", "signal.", "cholesky", "lu", "qr", "svd",
                "eig", "pinv", "lstsq", "ormqr", "geqrf", "triangular_solve", "matrix_exp", "stft", "istft", "to_sparse",
                "nn.functional.ctc_loss", "jiterator", "nanquantile", "quantile", "_refs.linalg", "_refs.fft", "_refs.special")
# Random or seeded ops cannot be compared value for value.
SKIP_WORDS = ("rand", "dropout", "bernoulli", "normal", "uniform", "multinomial", "poisson", "exponential")


def load_table(path, key_col):
    keys = {}
    with open(path) as f:
        rows = [ln.rstrip("\n").split("\t") for ln in f if not ln.startswith("#")]
    header = rows[0]
    for r in rows[1:]:
        if not r or not r[0]:
            continue
        row = dict(zip(header, r))
        name = row[key_col]
        if "." not in name:
            name += ".default"
        keys[name] = row
    return keys


CORE = load_table(os.path.join(ROOT, "resources/ops/core_aten_ops.tsv"), "op")
PRIMS = load_table(os.path.join(ROOT, "resources/ops/prims_ops.tsv"), "name")


# bfloat16 calls whose 1.13 answer is not later PyTorch's: the answer recorded is the float32 call rounded once
# (each output to its dtype). gelu: 1.13 rounds every step to bfloat16 (gelu(-3) = -0.00586, exactly -0.00405);
# from 2.0 on PyTorch computes reduced-precision gelu in float32 and rounds once. convolution and its gradient:
# on a CPU without AVX-512 1.13 takes its slow path, whose answer for the same inputs changed between generator
# runs (one 0.5, the other 0.2197, exactly 0.2195: the bfloat16 rounding of partial sums); the float32 call
# rounded once is one of its answers. mm / bmm: 1.13 accumulates bfloat16 products in bfloat16 (a 5x10 by 10x5
# element 1.25 where float32 gives 0.66); later PyTorch's CPU BLAS takes bfloat16 dot products in float32
# arithmetic. Layer and group norm (and their gradients), log_softmax and bilinear upsampling: later PyTorch
# computes them in float32 (its "opmath" type) and rounds each result once.
ROUNDED_ONCE = {"aten::gelu.default", "aten::convolution.default", "aten::convolution_backward.default",
                "aten::mm.default", "aten::bmm.default",
                "aten::native_layer_norm.default", "aten::native_group_norm.default",
                "aten::native_layer_norm_backward.default", "aten::native_group_norm_backward.default",
                "aten::_log_softmax.default", "aten::upsample_bilinear2d.vec", "aten::upsample_bilinear2d.default"}


def pointwise(key):
    """Core ops tagged `pointwise` and the elementwise prims: PyTorch 1.13 runs them through cpu_kernel_vec."""
    ns, name = key.split("::")
    if ns == "prims":
        return PRIMS.get(name, {}).get("kind", "").startswith("elementwise")
    return "pointwise" in CORE.get(name, {}).get("tags", "").split(",")


def scalar_path(func, args, kwargs):
    """PyTorch's answer for the same call from its scalar loop. cpu_kernel_vec runs a contiguous run in blocks
    of two vectors through Vectorized<T> and only the rest (the tail, and any strided input) through the scalar
    lambda; for some values the two disagree (fmod(3.4e38, 0.5): NaN in a block, 0 in the tail), so one call's
    answer depends on where an element falls. Every tensor of rank >= 1 is given to the op again as a view
    with stride 2 in its last dimension (same values), which makes TensorIterator take the scalar loop for
    every element. None when the call does not run that way."""
    def strided(v):
        if isinstance(v, torch.Tensor) and v.dim() >= 1 and v.numel() > 0:
            base = torch.empty(tuple(v.shape) + (2,), dtype=v.dtype)
            base[..., 0] = v
            return base[..., 0]
        return v
    try:
        out = func(*[strided(a) for a in args], **{k: strided(v) for k, v in kwargs.items()})
    except Exception:
        return None
    return out if isinstance(out, torch.Tensor) else None


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and tensor_bytes(a.reshape(-1)) == tensor_bytes(b.reshape(-1))


def op_key(func):
    ns, rest = func.name().split("::")
    return ns + "::" + (rest if "." in rest else rest + ".default")


def wanted(key):
    if any(w in key for w in SKIP_WORDS):
        return False
    ns, name = key.split("::")
    if ns == "prims":
        return True
    return ns == "aten" and name in CORE and "nondeterministic_seeded" not in CORE[name].get("tags", "")


class Data:
    """data.bin: byte buffers, each stored once."""

    def __init__(self):
        self.chunks = []
        self.size = 0
        self.seen = {}

    def put(self, raw):
        h = hashlib.sha1(raw).digest()
        if h in self.seen:
            return self.seen[h]
        off = self.size
        self.chunks.append(raw)
        self.size += len(raw)
        self.seen[h] = off
        return off


def span_of(t):
    if t.numel() == 0:
        return 0
    return 1 + sum((s - 1) * st for s, st in zip(t.shape, t.stride()))


def tensor_bytes(flat):
    flat = flat.detach()
    if flat.is_complex():
        flat = flat.resolve_conj().resolve_neg()  # the values a conjugate view stands for
    flat = flat.contiguous()
    if flat.dtype in NP_VIEW:
        flat = flat.view(NP_VIEW[flat.dtype])
    return flat.numpy().astype(flat.numpy().dtype.newbyteorder("<")).tobytes()


def encode_tensor(t, data, storage, strides=None):
    """A tensor argument: its storage span as PyTorch laid it out (strides kept), or its values for outputs."""
    if t.dtype not in DTYPE_NAME or t.layout != torch.strided or t.is_quantized:
        raise ValueError("unsupported tensor")
    meta = {"dtype": DTYPE_NAME[t.dtype], "shape": list(t.shape), "stride": strides or list(t.stride())}
    if storage:
        n = span_of(t)
        flat = torch.as_strided(t, (n,), (1,), t.storage_offset()) if n else t.reshape(0)
    else:
        n = t.numel()
        flat = t.reshape(-1) if n else t.reshape(0)
    meta["n"] = n
    meta["at"] = data.put(tensor_bytes(flat)) if n else 0
    return {"t": meta}


def encode_float(x):
    if x != x:
        return "nan"
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    return x


def encode_value(v, data):
    if v is None:
        return None
    if isinstance(v, torch.Tensor):
        return encode_tensor(v, data, storage=True)
    if isinstance(v, bool):
        return {"b": v}
    if isinstance(v, int):
        return {"i": v}
    if isinstance(v, float):
        return {"f": encode_float(v)}
    if isinstance(v, torch.dtype):
        if v not in DTYPE_NAME:
            raise ValueError("dtype")
        return {"dtype": DTYPE_NAME[v]}
    if isinstance(v, torch.layout):
        return {"layout": str(v).replace("torch.", "")}
    if isinstance(v, torch.device):
        return {"device": str(v)}
    if isinstance(v, torch.memory_format):
        return {"memory_format": str(v).replace("torch.", "")}
    if isinstance(v, str):
        return {"s": v}
    if isinstance(v, (list, tuple)):
        if all(isinstance(e, torch.Tensor) or e is None for e in v) and any(isinstance(e, torch.Tensor) for e in v):
            return {"tensors": [encode_value(e, data) for e in v]}
        if all(isinstance(e, bool) for e in v) and v:
            return {"bools": list(v)}
        if all(isinstance(e, int) and not isinstance(e, bool) for e in v):
            return {"ints": list(v)}
        if all(isinstance(e, (int, float)) and not isinstance(e, bool) for e in v):
            return {"floats": [encode_float(float(e)) for e in v]}
        if not v:
            return {"ints": []}
    raise ValueError("unsupported argument %r" % type(v))


def tensors_in(v):
    if isinstance(v, torch.Tensor):
        return [v]
    if isinstance(v, (list, tuple)):
        return [t for e in v for t in tensors_in(e)]
    return []


def case_dtype(args, outs, dtypes):
    for t in tensors_in(args) + tensors_in(outs):
        if t.dtype in dtypes:
            return DTYPE_NAME[t.dtype]
    return None


class Recorder(TorchDispatchMode):
    """Records the wanted calls as candidate cases (inputs serialized before the call runs); `keep` picks
    the overloads (default: core ATen and prims)."""

    def __init__(self, sink, source, keep=None):
        super().__init__()
        self.sink = sink
        self.source = source
        self.keep = keep or wanted

    def __torch_dispatch__(self, func, types_, args=(), kwargs=None):
        kwargs = kwargs or {}
        key = op_key(func)
        if "empty" in key:
            # uninitialised memory would make the corpus differ run to run when a later call reads it
            before = self.snapshot(func, args, kwargs) if self.keep(key) else None
            out = func(*args, **kwargs)
            if isinstance(out, torch.Tensor) and out.dtype in self.sink.dtypes:
                out.zero_()
            if before is not None:
                self.sink.offer(key, before, out, self.source)
            return out
        if not self.keep(key):
            return func(*args, **kwargs)
        before = self.snapshot(func, args, kwargs)
        out = func(*args, **kwargs)
        if before is not None:
            alt = None
            if pointwise(key) and isinstance(out, torch.Tensor):
                alt = scalar_path(func, [v for _, kw, v in before if not kw], {n: v for n, kw, v in before if kw})
                alt = None if alt is None or same_bits(alt, out) else alt
            source, recorded = self.source, out
            if key in ROUNDED_ONCE and any(t.dtype == torch.bfloat16 for t in tensors_in([v for _, _, v in before])):
                def wide(v):
                    return v.float() if isinstance(v, torch.Tensor) and v.dtype == torch.bfloat16 else v
                r = func(*[wide(v) for _, kw, v in before if not kw], **{n: wide(v) for n, kw, v in before if kw})
                if isinstance(out, torch.Tensor):
                    recorded = r.to(out.dtype)
                else:  # several outputs (layer norm's mean and rstd, a gradient's parts): each in its own dtype
                    recorded = type(out)(a.to(b.dtype) if isinstance(b, torch.Tensor) else a for a, b in zip(r, out))
                source, alt = source + "=float32_rounded_once", None
            if key == "prims::collapse_view.default":
                # 1.13's end is exclusive; from torch 2.0 on (the programs irlens reads) it is inclusive
                before = [(n, kw, v - 1 if n == "end" else v) for n, kw, v in before]
            self.sink.offer(key, before, recorded, source, alt)
        return out

    def snapshot(self, func, args, kwargs):
        tensors = tensors_in(list(args) + list(kwargs.values()))
        if any(span_of(t) > MAX_SPAN for t in tensors) or sum(span_of(t) for t in tensors) > MAX_CASE_ELEMS:
            return None
        if any(t.dtype not in self.sink.dtypes or t.layout != torch.strided for t in tensors):
            return None
        schema = func._schema.arguments
        named = []
        for k, v in enumerate(args):
            named.append((schema[k].name if k < len(schema) else "arg%d" % k, False, v))
        for name, v in kwargs.items():
            named.append((name, True, v))
        return [(n, kw, _frozen(v)) for n, kw, v in named]


def _frozen(v):
    # the argument as it was before the call: tensors copied with their strides and storage offset
    if isinstance(v, torch.Tensor):
        n = span_of(v)
        base = torch.empty(v.storage_offset() + n, dtype=v.dtype)
        if n:
            base[v.storage_offset():] = torch.as_strided(v, (n,), (1,), v.storage_offset()).detach()
        return torch.as_strided(base, v.shape, v.stride(), v.storage_offset())
    if isinstance(v, (list, tuple)):
        return type(v)(_frozen(e) for e in v)
    return v


class Sink:
    """Candidate calls per (op, dtype), kept round-robin across their sources up to the caps; only calls
    whose tensors all have one of `dtypes`."""

    def __init__(self, dtypes=tuple(DTYPES), cap=CASES_PER_OP_DTYPE):
        self.cands = {}
        self.dtypes = set(dtypes)
        self.cap = cap

    def offer(self, key, before, out, source, alt=None):
        named = before
        outs = list(out) if isinstance(out, (list, tuple)) else [out]
        if any(not isinstance(o, torch.Tensor) for o in outs):
            return
        if sum(o.numel() for o in outs) > MAX_CASE_ELEMS or any(o.dtype not in self.dtypes for o in outs):
            return
        dt = case_dtype([v for _, _, v in named], outs, self.dtypes)
        if dt is None:
            return
        edge = source.startswith("edge:")
        per = self.cands.setdefault((key, dt, edge), {})
        lst = per.setdefault(source, [])
        if len(lst) < (EDGE_PER_OP_DTYPE if edge else self.cap):
            # strides as PyTorch returned them (a clone of a view would be contiguous)
            lst.append((named, [(o.detach().clone(), list(o.stride())) for o in outs], isinstance(out, (list, tuple)) and
                        not isinstance(out, tuple), alt))

    def select(self):
        for (key, dt, edge), per in sorted(self.cands.items()):
            cap = EDGE_PER_OP_DTYPE if edge else self.cap
            picked, k = [], 0
            sources = sorted(per)
            while len(picked) < cap and any(k < len(per[s]) for s in sources):
                for s in sources:
                    if k < len(per[s]) and len(picked) < cap:
                        picked.append((s,) + per[s][k])
                k += 1
            for item in picked:
                yield key, dt, item


def seed(name, dtype):
    # some sample functions draw from Python's and numpy's generators too
    k = zlib.crc32(("%s/%s" % (name, dtype)).encode())
    torch.manual_seed(k)
    random.seed(k)
    numpy.random.seed(k)


def run_opinfo(info, call, sink, prefix):
    if info.name.startswith(SKIP_SOURCES) or info.name.startswith(tuple("_refs." + p for p in SKIP_SOURCES)):
        return
    try:
        dtypes = [d for d in DTYPES if d in info.supported_dtypes("cpu")]
    except Exception:
        return
    print("%s:%s" % (prefix, info.name), file=sys.stderr, flush=True)
    for dtype in dtypes:
        seed(info.name, dtype)
        try:
            samples = info.sample_inputs("cpu", dtype)
            for k, s in enumerate(samples):
                if k >= SAMPLES_PER_SOURCE:
                    break
                try:
                    with Recorder(sink, "%s:%s" % (prefix, info.name)):
                        call(s.input, *s.args, **s.kwargs)
                except Exception:
                    pass
        except Exception:
            pass
        edge_cases(info, call, dtype, sink, prefix)


def edge_values(dtype):
    if dtype == torch.bool:
        return torch.tensor([True, False, True, False])
    if dtype.is_floating_point:
        big = torch.finfo(dtype).max
        vals = [float("nan"), float("inf"), float("-inf"), -0.0, 0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 1.0, -1.0, 3.0, -3.0,
                big, -big, torch.finfo(dtype).tiny, 1e-3]
        return torch.tensor(vals, dtype=torch.float64).to(dtype)
    info = torch.iinfo(dtype)
    vals = [0, 1, 2, 3, 7, info.max, info.max - 1, info.min, info.min + 1]
    if info.min < 0:
        vals += [-1, -2, -3, -7]
    return torch.tensor(vals, dtype=torch.int64).to(dtype)


def edge_cases(info, call, dtype, sink, prefix):
    """NaN, +-inf, -0.0, ties, negative divisors, overflow; empty, non-contiguous and broadcast inputs."""
    if not isinstance(info, (UnaryUfuncInfo, BinaryUfuncInfo, ReductionOpInfo)):
        return
    e = edge_values(dtype)
    n = e.numel()
    nc = torch.stack([e, e.flip(0)]).t()              # non-contiguous [n, 2]
    bc = e[:1].expand(n)                               # stride 0
    empty = torch.empty(0, dtype=dtype)
    if isinstance(info, BinaryUfuncInfo):
        lhs, rhs = e, e
        if not dtype.is_floating_point and dtype != torch.bool:
            # integer division by zero and INT_MIN / -1 trap (SIGFPE) in some 1.13 kernels
            lhs, rhs = e[e != torch.iinfo(dtype).min], e[e != 0]
        a, b = lhs.reshape(-1, 1), rhs.reshape(1, -1)   # every pair, by broadcasting
        full_a, full_b = torch.broadcast_tensors(a, b)
        full_a, full_b = full_a.contiguous(), full_b.contiguous()
        inputs = [("pairs", (a, b)), ("pairs_nc", (full_a.t(), full_b.t())), ("broadcast", (lhs[:1].expand(rhs.numel()), rhs)),
                  ("empty", (empty, e[:1])), ("pairs_same", (full_a, full_b))]
    else:
        inputs = [("values", (e,)), ("non_contiguous", (nc,)), ("broadcast", (bc,)), ("empty", (empty,)),
                  ("empty2d", (torch.empty(2, 0, dtype=dtype),))]
    for label, args in inputs:
        try:
            with Recorder(sink, "edge:%s:%s:%s" % (prefix, info.name, label)):
                call(*args)
        except Exception:
            pass


def build(out_dir, only=None):
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(False)
    sink = Sink()
    for info in cmi.op_db:
        if only and only not in info.name:
            continue
        run_opinfo(info, info.op, sink, "opinfo")
    for ref in cmi.python_ref_db:
        if only and only not in ref.name:
            continue
        run_opinfo(ref, ref.op, sink, "ref")
    write(out_dir, sink)


def write(out_dir, sink, generator="tests/conformance/gen_corpus.py"):
    os.makedirs(out_dir, exist_ok=True)
    data = Data()
    lines, counts = [], {}
    for key, dt, (source, named, outs, is_list, alt) in sink.select():
        try:
            args = [{"name": n, "kw": kw, "v": encode_value(v, data)} for n, kw, v in named]
            if key in NO_VALUES or key in DISTRIBUTION:  # undefined or random: zeros keep the corpus deterministic
                outs = [(torch.zeros_like(o), st) for o, st in outs]
            out = [encode_tensor(o, data, storage=False, strides=st) for o, st in outs]
            alt = encode_tensor(alt, data, storage=False) if alt is not None and key not in NO_VALUES else None
        except ValueError:
            continue
        k = counts.get((key, dt), 0)
        counts[(key, dt)] = k + 1
        case = {"op": key, "dtype": dt, "case": k, "source": source, "args": args, "out": out}
        if is_list:
            case["list"] = True
        if alt is not None:
            case["scalar_path"] = alt
        if key in NO_VALUES or key in DISTRIBUTION:
            case["values"] = False
        if key in DISTRIBUTION:
            case["distribution"] = DISTRIBUTION[key]
        lines.append(json.dumps(case, separators=(",", ":"), sort_keys=True))
    header = {"torch": torch.__version__, "generator": generator, "cases": len(lines),
              "data": "data.bin"}
    with open(os.path.join(out_dir, "index.json"), "w") as f:
        f.write('{"header":%s,\n"cases":[\n' % json.dumps(header, sort_keys=True))
        f.write(",\n".join(lines))
        f.write("\n]}\n")
    with open(os.path.join(out_dir, "data.bin"), "wb") as f:
        for c in data.chunks:
            f.write(c)
    ops = sorted({k for k, _ in counts})
    print("%d cases, %d ops, %d (op, dtype) pairs, data %.1f MB" % (len(lines), len(ops), len(counts), data.size / 1e6))


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=os.path.join(HERE, "corpus", "opinfo"))
    p.add_argument("--only", help="only OpInfos whose name contains this (for trying the generator)")
    a = p.parse_args()
    faulthandler.enable()
    build(a.out, a.only)
