// Metas of the Fourier transforms (aten::_fft_r2c / _fft_c2r / _fft_c2c and the FFT prims: contiguous
// outputs, as PyTorch's CPU transforms and the prims' meta functions give them) and of the complex
// prims whose layout is not the elementwise one: real / imag view the interleaved storage (strides
// twice the input's), conj is a conjugate view (the input's own meta).

#include "core/ops/meta_common.h"

#include <algorithm>

namespace irlens::core::meta {

namespace {

enum class FftKind { R2C, C2R, C2C };

// The transformed dimensions wrapped into [0, rank), each once; the last one is the halved one.
Result<std::vector<int64_t>> fftDims(const NodeArgs& a, int64_t rank) {
    IRLENS_ASSIGN_OR_RETURN(dims, a.ints("dim"));
    if (dims.empty()) return a.error("dim", "at least one dimension expected");
    std::vector<int64_t> out;
    for (int64_t d : dims) {
        auto w = wrapDim(a, "dim", d, rank);
        if (!w) return w.status();
        if (std::find(out.begin(), out.end(), *w) != out.end()) return a.error("dim", "dimension " + std::to_string(d) + " is repeated");
        out.push_back(*w);
    }
    return out;
}

Result<MetaOutputs> fft(const NodeArgs& a, FftKind kind) {
    IRLENS_ASSIGN_OR_RETURN(in, a.tensor("self"));
    const bool complexIn = isComplexType(in->dtype);
    if (kind == FftKind::R2C ? !isFloatingType(in->dtype) : !complexIn)
        return a.error("self", std::string(kind == FftKind::R2C ? "a floating point" : "a complex") + " input expected, got " +
                                   dtypeName(in->dtype));
    IRLENS_ASSIGN_OR_RETURN(dims, fftDims(a, static_cast<int64_t>(in->sizes.size())));
    std::vector<SymInt> shape = in->sizes;
    SymInt& last = shape[static_cast<size_t>(dims.back())];
    ScalarType dtype = in->dtype;
    if (kind == FftKind::R2C) {
        dtype = complexCounterpart(in->dtype);
        IRLENS_ASSIGN_OR_RETURN(onesided, a.boolean("onesided"));
        if (onesided) {
            if (!last.isStatic()) return a.error("self", "a symbolic length of the halved dimension is not supported");
            last = SymInt::literal(last.value / 2 + 1);
        }
    } else if (kind == FftKind::C2R) {
        dtype = realCounterpart(in->dtype);
        IRLENS_ASSIGN_OR_RETURN(size, a.symInt("last_dim_size"));
        last = size;
    }
    return singleTensor(contiguousMeta(dtype, shape, in->device));
}

// prims.real / prims.imag: a view of one part of each complex element.
Result<MetaOutputs> complexPart(const NodeArgs& a, int part) {
    IRLENS_ASSIGN_OR_RETURN(in, a.tensor("self"));
    if (!isComplexType(in->dtype)) return a.error("self", "a complex input expected, got " + dtypeName(in->dtype));
    TensorMeta out = *in;
    out.dtype = realCounterpart(in->dtype);
    for (auto& s : out.strides) s = mulSym(s, SymInt::literal(2));
    out.storageOffset = SymInt::literal(2 * (in->storageOffset.isStatic() ? in->storageOffset.value : 0) + part);
    return singleTensor(std::move(out));
}

Result<MetaOutputs> conjugate(const NodeArgs& a, const std::string& arg, bool view) {
    IRLENS_ASSIGN_OR_RETURN(in, a.tensor(arg));
    if (!isComplexType(in->dtype)) return a.error(arg, "a complex input expected, got " + dtypeName(in->dtype));
    TensorMeta out = *in;
    if (!view) {
        out.strides = preservedStrides(*in, in->sizes);
        out.storageOffset = SymInt::literal(0);
    }
    return singleTensor(std::move(out));
}

} // namespace

void registerFft(std::vector<std::pair<std::string, MetaFn>>& t) {
    for (const char* ns : {"aten::_fft_", "prims::fft_"}) {
        t.emplace_back(std::string(ns) + "r2c.default", [](const NodeArgs& a) { return fft(a, FftKind::R2C); });
        t.emplace_back(std::string(ns) + "c2r.default", [](const NodeArgs& a) { return fft(a, FftKind::C2R); });
        t.emplace_back(std::string(ns) + "c2c.default", [](const NodeArgs& a) { return fft(a, FftKind::C2C); });
    }
    t.emplace_back("prims::real.default", [](const NodeArgs& a) { return complexPart(a, 0); });
    t.emplace_back("prims::imag.default", [](const NodeArgs& a) { return complexPart(a, 1); });
    t.emplace_back("prims::conj.default", [](const NodeArgs& a) { return conjugate(a, "a", true); });
    t.emplace_back("prims::conj_physical.default", [](const NodeArgs& a) { return conjugate(a, "self", false); });
}

} // namespace irlens::core::meta
