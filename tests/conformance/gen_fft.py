#!/usr/bin/env python3
"""Writes corpus/fft/: PyTorch's answers for the FFT ops and the complex prims.

Run by a developer (not by CI) with Debian's python3-torch (PyTorch 1.13):

    /usr/bin/python3 tests/conformance/gen_fft.py            # rewrites tests/conformance/corpus/fft/

It calls torch.fft (rfft, irfft, fft, ifft, hfft, ihfft and their 2-D and n-D forms) under gen_corpus's
recorder, which sees the ATen calls they make (_fft_r2c, _fft_c2r, _fft_c2c), the references of
torch._refs.fft, which PyTorch 1.13 runs eagerly through the prims (fft_r2c, fft_c2c, fft_c2r), and the
complex prims real, imag, conj and conj_physical. Signals of odd, prime, power-of-two and unit length,
one to three dimensions, transforms over one or several dimensions in any order, padded and cropped
lengths, every normalisation, contiguous, transposed, strided and offset inputs; float32/float64 and
complex64/complex128. Deterministic: every call is seeded from its label; torch runs on one thread.
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import gen_corpus as gc  # noqa: E402  (imports torch)
import torch  # noqa: E402
import torch._refs.fft as refs_fft  # noqa: E402

KEEP = {"aten::_fft_r2c.default", "aten::_fft_c2r.default", "aten::_fft_c2c.default", "prims::fft_r2c.default",
        "prims::fft_c2c.default", "prims::fft_c2r.default", "prims::real.default", "prims::imag.default",
        "prims::conj.default", "prims::conj_physical.default"}
REAL = [torch.float32, torch.float64]
COMPLEX = {torch.float32: torch.complex64, torch.float64: torch.complex128}
NORMS = [None, "forward", "ortho"]
CAP = 400  # calls kept per (op, dtype): every call planned below fits


def layouts(shape):
    """(label, make(dtype)) of inputs of `shape`: contiguous, transposed, and (up to 2-D) strided and offset."""
    def contiguous(dt):
        return torch.randn(shape, dtype=dt)

    def transposed(dt):
        return torch.randn(tuple(reversed(shape)), dtype=dt).permute(*reversed(range(len(shape))))

    def strided(dt):  # every other element of the last dimension, from the second one on
        big = torch.randn(shape[:-1] + (2 * shape[-1] + 1,), dtype=dt)
        return big[..., 1::2]

    out = [("c", contiguous)]
    if len(shape) > 1:
        out.append(("t", transposed))
    if len(shape) < 3:
        out.append(("s", strided))
    return out


def name_of(shape):
    return "x".join(str(s) for s in shape)


class Calls:
    def __init__(self, sink):
        self.sink = sink

    def run(self, label, make, dtype, fn):
        """Seeds from the label, makes the input and records fn(input)."""
        gc.seed(label, dtype)
        x = make(dtype)
        try:
            with gc.Recorder(self.sink, label, keep=KEEP.__contains__):
                fn(x)
        except RuntimeError as e:
            print("skipped %s %s: %s" % (label, dtype, e), file=sys.stderr)


def real_inputs(calls, dt):
    """Real signals: rfft, fft (two-sided r2c), ihfft and their n-D forms, through ATen and the references."""
    one_d = [(n,) for n in (1, 2, 5, 8, 13, 16, 30)]
    multi = [(4, 7), (6, 1), (1, 9), (3, 5, 4), (2, 3, 8)]
    for shape in one_d + multi:
        for lay, make in layouts(shape):
            tag = "%s:%s" % (name_of(shape), lay)
            for k, norm in enumerate(NORMS):
                d = -1 - (k % len(shape))  # each dimension in turn
                calls.run("fft:rfft:%s:dim%d:%s" % (tag, d, norm), make, dt, lambda x: torch.fft.rfft(x, dim=d, norm=norm))
            calls.run("fft:fft_real:%s" % tag, make, dt, lambda x: torch.fft.fft(x, dim=0))
            calls.run("fft:ihfft:%s" % tag, make, dt, lambda x: torch.fft.ihfft(x, norm="ortho"))
            calls.run("fft:rfft_pad:%s" % tag, make, dt, lambda x: torch.fft.rfft(x, n=shape[-1] + 3))
            calls.run("ref:rfft:%s" % tag, make, dt, lambda x: refs_fft.rfft(x, dim=0))
            calls.run("ref:fft_real:%s" % tag, make, dt, lambda x: refs_fft.fft(x))
            if shape[-1] > 2:
                calls.run("fft:rfft_crop:%s" % tag, make, dt, lambda x: torch.fft.rfft(x, n=shape[-1] - 2))
            if len(shape) < 2:
                continue
            for k, dims in enumerate([(0, 1), (1, 0), (-1, 0)] + ([(0, 2), (2, 1, 0)] if len(shape) == 3 else [])):
                norm = NORMS[k % len(NORMS)]
                calls.run("fft:rfftn:%s:%s:%s" % (tag, dims, norm), make, dt, lambda x: torch.fft.rfftn(x, dim=dims, norm=norm))
                calls.run("ref:rfftn:%s:%s" % (tag, dims), make, dt, lambda x: refs_fft.rfftn(x, dim=dims))
            calls.run("fft:fftn_real:%s" % tag, make, dt, lambda x: torch.fft.fftn(x, norm="forward"))
            calls.run("fft:rfft2:%s" % tag, make, dt, lambda x: torch.fft.rfft2(x, s=(3, 6)))


def complex_inputs(calls, dt):
    """Complex spectra: fft/ifft (c2c), irfft/hfft (c2r) and their n-D forms; the complex prims."""
    cdt = COMPLEX[dt]
    shapes = [(1,), (2,), (5,), (8,), (13,), (4, 7), (6, 1), (3, 5, 4), (2, 3, 8)]
    for shape in shapes:
        for lay, make in layouts(shape):
            tag = "%s:%s" % (name_of(shape), lay)
            for k, norm in enumerate(NORMS):
                d = -1 - (k % len(shape))
                calls.run("fft:fft:%s:dim%d:%s" % (tag, d, norm), make, cdt, lambda x: torch.fft.fft(x, dim=d, norm=norm))
                calls.run("fft:ifft:%s:dim%d:%s" % (tag, d, norm), make, cdt, lambda x: torch.fft.ifft(x, dim=d, norm=norm))
                if shape[d] > 1:  # the default length 2 * (m - 1) must not be 0
                    calls.run("fft:irfft:%s:dim%d:%s" % (tag, d, norm), make, cdt, lambda x: torch.fft.irfft(x, dim=d, norm=norm))
            m = shape[-1]
            calls.run("fft:irfft_odd:%s" % tag, make, cdt, lambda x: torch.fft.irfft(x, n=2 * m - 1))
            calls.run("fft:irfft_n1:%s" % tag, make, cdt, lambda x: torch.fft.irfft(x, n=1))
            if m > 1:
                calls.run("fft:hfft:%s" % tag, make, cdt, lambda x: torch.fft.hfft(x))
                calls.run("fft:hfft_odd:%s" % tag, make, cdt, lambda x: torch.fft.hfft(x, n=2 * m + 1, norm="ortho"))
                calls.run("ref:hfft:%s" % tag, make, cdt, lambda x: refs_fft.hfft(x))
            calls.run("ref:fft:%s" % tag, make, cdt, lambda x: refs_fft.fft(x, dim=0))
            calls.run("ref:ifft:%s" % tag, make, cdt, lambda x: refs_fft.ifft(x))
            calls.run("ref:irfft:%s" % tag, make, cdt, lambda x: refs_fft.irfft(x, n=2 * m - 1))
            for prim in ("real", "imag", "conj", "conj_physical"):
                op = getattr(torch.ops.prims, prim).default
                calls.run("prims:%s:%s" % (prim, tag), make, cdt, op)
            if len(shape) < 2:
                continue
            for k, dims in enumerate([(0, 1), (1, 0)] + ([(0, 2), (2, 0, 1)] if len(shape) == 3 else [])):
                norm = NORMS[k % len(NORMS)]
                calls.run("fft:fftn:%s:%s:%s" % (tag, dims, norm), make, cdt, lambda x: torch.fft.fftn(x, dim=dims, norm=norm))
                calls.run("fft:ifftn:%s:%s" % (tag, dims), make, cdt, lambda x: torch.fft.ifftn(x, dim=dims))
                calls.run("ref:fftn:%s:%s" % (tag, dims), make, cdt, lambda x: refs_fft.fftn(x, dim=dims))
                if shape[dims[-1]] > 1:
                    calls.run("fft:irfftn:%s:%s:%s" % (tag, dims, norm), make, cdt,
                              lambda x: torch.fft.irfftn(x, dim=dims, norm=norm))
                    calls.run("ref:irfftn:%s:%s" % (tag, dims), make, cdt, lambda x: refs_fft.irfftn(x, dim=dims))
            calls.run("fft:irfft2:%s" % tag, make, cdt, lambda x: torch.fft.irfft2(x, s=(3, 5)))
            if m > 1:
                calls.run("fft:hfft2:%s" % tag, make, cdt, lambda x: torch.fft.hfft2(x))


def build(out_dir):
    torch.set_num_threads(1)
    sink = gc.Sink(dtypes=REAL + list(COMPLEX.values()), cap=CAP)
    calls = Calls(sink)
    for dt in REAL:
        real_inputs(calls, dt)
        complex_inputs(calls, dt)
    gc.write(out_dir, sink, generator="tests/conformance/gen_fft.py")


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=os.path.join(HERE, "corpus", "fft"))
    build(p.parse_args().out)
