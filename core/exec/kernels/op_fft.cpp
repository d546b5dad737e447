// Fourier transforms on FFTW (single and double precision, any length) and the complex prims:
// aten::_fft_r2c / _fft_c2r / _fft_c2c (normalization 0 none, 1 by 1/sqrt(n), 2 by 1/n; n the product
// of the signal's lengths over `dim`), prims::fft_r2c / fft_c2c / fft_c2r (never normalised),
// prims::real / imag (views of the interleaved storage), prims::conj (a conjugated copy laid out like
// its input, which PyTorch's conjugate view is) and prims::conj_physical.
//
// Complex tensors are stored as PyTorch stores them: real and imaginary part interleaved, complex64
// as two floats, complex128 as two doubles, which is FFTW's own layout. Outputs are contiguous, as
// PyTorch's CPU FFTs give them. Each transform is one FFTW guru plan over the tensors' own strides
// (the dimensions in `dim` transformed, every other one a batch loop), made once per (kind, dtype,
// sizes, strides) with FFTW_ESTIMATE and kept: FFTW's planner is not thread-safe, so plans are made
// under a mutex; executing a kept plan on new arrays (fftw_execute_dft & co.) is.

#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/tensor_ops.h"

#include <fftw3.h>

#include <cmath>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace irlens::core::exec {

namespace {
namespace fftk {

enum class Kind { C2C, R2C, C2R };

// FFTW's single- and double-precision interfaces (prefixes fftwf_ and fftw_) behind one name.
template <class T> struct Fftw;
#define IRLENS_FFTW_TRAITS(T, X)                                                                                                   \
    template <> struct Fftw<T> {                                                                                                   \
        using Plan = X##_plan;                                                                                                     \
        using Complex = X##_complex;                                                                                               \
        static constexpr unsigned kFlags = FFTW_ESTIMATE | FFTW_UNALIGNED;                                                         \
        static Plan c2c(int rank, const fftw_iodim64* d, int hr, const fftw_iodim64* h, void* in, void* out, int sign) {         \
            return X##_plan_guru64_dft(rank, d, hr, h, static_cast<Complex*>(in), static_cast<Complex*>(out), sign, kFlags);      \
        }                                                                                                                          \
        static Plan r2c(int rank, const fftw_iodim64* d, int hr, const fftw_iodim64* h, void* in, void* out) {                   \
            return X##_plan_guru64_dft_r2c(rank, d, hr, h, static_cast<T*>(in), static_cast<Complex*>(out), kFlags);              \
        }                                                                                                                          \
        static Plan c2r(int rank, const fftw_iodim64* d, int hr, const fftw_iodim64* h, void* in, void* out) {                   \
            return X##_plan_guru64_dft_c2r(rank, d, hr, h, static_cast<Complex*>(in), static_cast<T*>(out), kFlags);              \
        }                                                                                                                          \
        static void runC2C(Plan p, void* in, void* out) { X##_execute_dft(p, static_cast<Complex*>(in), static_cast<Complex*>(out)); } \
        static void runR2C(Plan p, void* in, void* out) { X##_execute_dft_r2c(p, static_cast<T*>(in), static_cast<Complex*>(out)); }   \
        static void runC2R(Plan p, void* in, void* out) { X##_execute_dft_c2r(p, static_cast<Complex*>(in), static_cast<T*>(out)); }   \
        static void destroy(Plan p) { X##_destroy_plan(p); }                                                                       \
    };
IRLENS_FFTW_TRAITS(float, fftwf)
IRLENS_FFTW_TRAITS(double, fftw)
#undef IRLENS_FFTW_TRAITS

// The transform FFTW is asked for: lengths and strides (in elements) of the transformed dimensions
// (the last one is the halved one of r2c / c2r) and of the batch loops.
struct Layout {
    std::vector<fftw_iodim64> dims, loops;
    std::string key(Kind kind, int sign) const {
        std::string k = std::to_string(static_cast<int>(kind)) + "|" + std::to_string(sign);
        for (const auto* v : {&dims, &loops}) {
            k += "|";
            for (const auto& d : *v) k += std::to_string(d.n) + "," + std::to_string(d.is) + "," + std::to_string(d.os) + ";";
        }
        return k;
    }
};

// Plans by layout, made once and kept for the life of the process.
template <class T> class PlanCache {
public:
    static PlanCache& instance() {
        static PlanCache cache;
        return cache;
    }
    typename Fftw<T>::Plan get(Kind kind, int sign, const Layout& l, void* in, void* out) {
        std::string key = l.key(kind, sign);
        std::lock_guard lock(m_mutex); // the planner is not thread-safe
        auto it = m_plans.find(key);
        if (it != m_plans.end()) return it->second;
        const int rank = static_cast<int>(l.dims.size()), loops = static_cast<int>(l.loops.size());
        typename Fftw<T>::Plan p = kind == Kind::C2C ? Fftw<T>::c2c(rank, l.dims.data(), loops, l.loops.data(), in, out, sign)
                                 : kind == Kind::R2C ? Fftw<T>::r2c(rank, l.dims.data(), loops, l.loops.data(), in, out)
                                                     : Fftw<T>::c2r(rank, l.dims.data(), loops, l.loops.data(), in, out);
        if (!p) kernelFail("FFTW could not plan a transform of this layout");
        m_plans.emplace(key, p);
        return p;
    }
    PlanCache(const PlanCache&) = delete;
    PlanCache& operator=(const PlanCache&) = delete;

private:
    PlanCache() = default;
    ~PlanCache() {
        for (auto& [k, p] : m_plans) Fftw<T>::destroy(p);
    }
    std::mutex m_mutex;
    std::map<std::string, typename Fftw<T>::Plan> m_plans;
};

// The dimensions of `dim` wrapped into [0, rank), each at most once, in their given order.
std::vector<int64_t> transformDims(const std::vector<int64_t>& dim, int64_t rank, const char* op) {
    if (dim.empty()) kernelFail(std::string(op) + ": dim must not be empty");
    if (rank == 0) kernelFail(std::string(op) + ": the input must have at least one dimension");
    std::vector<int64_t> out;
    std::vector<bool> seen(static_cast<size_t>(rank), false);
    for (int64_t d : dim) {
        int64_t w = wrapDim(d, rank);
        if (seen[static_cast<size_t>(w)]) kernelFail(std::string(op) + ": dim " + std::to_string(d) + " is repeated");
        seen[static_cast<size_t>(w)] = true;
        out.push_back(w);
    }
    return out;
}

// `sizes` are the logical signal's: the input's for c2c / r2c, the output's for c2r.
Layout layoutOf(const Shape& sizes, const Shape& inStrides, const Shape& outStrides, const std::vector<int64_t>& dims) {
    Layout l;
    std::vector<bool> transformed(sizes.size(), false);
    for (int64_t d : dims) {
        auto k = static_cast<size_t>(d);
        transformed[k] = true;
        l.dims.push_back({sizes[k], inStrides[k], outStrides[k]});
    }
    for (size_t k = 0; k < sizes.size(); ++k)
        if (!transformed[k]) l.loops.push_back({sizes[k], inStrides[k], outStrides[k]});
    return l;
}

int64_t signalSize(const Shape& sizes, const std::vector<int64_t>& dims) {
    int64_t n = 1;
    for (int64_t d : dims) n *= sizes[static_cast<size_t>(d)];
    return n;
}

// normalization: 0 none, 1 by 1/sqrt(n), 2 by 1/n (ATen's fft_norm_mode).
double scaleOf(int64_t normalization, int64_t n) {
    switch (normalization) {
    case 0: return 1;
    case 1: return 1 / std::sqrt(static_cast<double>(n));
    case 2: return 1 / static_cast<double>(n);
    default: kernelFail("normalization must be 0 (none), 1 (by 1/sqrt(n)) or 2 (by 1/n), got " + std::to_string(normalization));
    }
}

// Multiplies every scalar of a contiguous tensor (both parts of complex ones) by `scale`.
template <class T> void scaleAll(const Tensor& t, double scale) {
    if (scale == 1) return;
    const int64_t count = t.nbytes() / static_cast<int64_t>(sizeof(T));
    T* p = reinterpret_cast<T*>(t.raw());
    const T s = static_cast<T>(scale);
    for (int64_t i = 0; i < count; ++i) p[i] *= s;
}

template <class F> void dispatchPrecision(ScalarType t, F&& f) {
    switch (t) {
    case ScalarType::Float32: case ScalarType::Complex64: f.template operator()<float>(); return;
    case ScalarType::Float64: case ScalarType::Complex128: f.template operator()<double>(); return;
    default: kernelFail("dtype " + dtypeName(t) + " is not supported by this kernel (float32/float64 and complex64/complex128 only)");
    }
}

ScalarType complexOf(ScalarType real) { return real == ScalarType::Float64 ? ScalarType::Complex128 : ScalarType::Complex64; }
ScalarType realOf(ScalarType complex) { return complex == ScalarType::Complex128 ? ScalarType::Float64 : ScalarType::Float32; }

void requireComplex(const Tensor& t, const char* op) {
    if (t.dtype() == ScalarType::Complex64 || t.dtype() == ScalarType::Complex128) return;
    if (t.dtype() == ScalarType::Float32 || t.dtype() == ScalarType::Float64)
        kernelFail(std::string(op) + " expects a complex input, got " + dtypeName(t.dtype()));
    kernelFail("dtype " + dtypeName(t.dtype()) + " is not supported by this kernel (complex64/complex128 only)");
}

// Calls f(offsetA, offsetB) (in elements) for every index of `sizes`, in C order.
template <class F> void forEachIndex(const Shape& sizes, const Shape& sa, const Shape& sb, F&& f) {
    const int64_t n = shapeNumel(sizes);
    const size_t rank = sizes.size();
    std::vector<int64_t> idx(rank, 0);
    int64_t a = 0, b = 0;
    for (int64_t i = 0; i < n; ++i) {
        f(a, b);
        for (size_t k = rank; k-- > 0;) {
            if (++idx[k] < sizes[k]) { a += sa[k]; b += sb[k]; break; }
            a -= (sizes[k] - 1) * sa[k];
            b -= (sizes[k] - 1) * sb[k];
            idx[k] = 0;
        }
    }
}

// A contiguous copy of any dtype (complex included), element by element.
Tensor contiguousCopy(KernelContext& ctx, const Tensor& t) {
    Tensor out = ctx.alloc(t.dtype(), t.sizes());
    const size_t item = static_cast<size_t>(t.itemSize());
    forEachIndex(t.sizes(), t.strides(), out.strides(), [&](int64_t a, int64_t b) {
        std::memcpy(out.raw() + b * static_cast<int64_t>(item), t.raw() + a * static_cast<int64_t>(item), item);
    });
    return out;
}

// X[k] = conj(X[-k]) over the transformed dimensions: completes a two-sided r2c whose first
// n/2 + 1 entries along dims.back() FFTW wrote (`out` contiguous).
template <class T> void fillConjugateHalf(const Tensor& out, const std::vector<int64_t>& dims) {
    const Shape& sizes = out.sizes();
    const auto last = static_cast<size_t>(dims.back());
    const int64_t half = sizes[last] / 2 + 1;
    std::vector<bool> transformed(sizes.size(), false);
    for (int64_t d : dims) transformed[static_cast<size_t>(d)] = true;
    T* p = reinterpret_cast<T*>(out.raw());
    std::vector<int64_t> idx(sizes.size(), 0);
    for (int64_t i = 0; i < out.numel(); ++i) {
        int64_t rest = i;
        for (size_t k = sizes.size(); k-- > 0;) {
            idx[k] = rest % sizes[k];
            rest /= sizes[k];
        }
        if (idx[last] < half) continue;
        int64_t mirror = 0;
        for (size_t k = 0; k < sizes.size(); ++k) {
            int64_t j = transformed[k] ? (sizes[k] - idx[k]) % sizes[k] : idx[k];
            mirror += j * out.strides()[k];
        }
        p[2 * i] = p[2 * mirror];
        p[2 * i + 1] = -p[2 * mirror + 1];
    }
}

// Real to complex over `dim`: onesided keeps n/2 + 1 entries along the last of them.
Tensor realToComplex(KernelContext& ctx, const Tensor& in, const std::vector<int64_t>& dim, int64_t normalization, bool onesided,
                     const char* op) {
    if (in.dtype() != ScalarType::Float32 && in.dtype() != ScalarType::Float64)
        kernelFail("dtype " + dtypeName(in.dtype()) + " is not supported by this kernel (float32/float64 input only)");
    auto dims = transformDims(dim, in.dim(), op);
    Shape shape = in.sizes();
    const auto last = static_cast<size_t>(dims.back());
    Tensor out = ctx.alloc(complexOf(in.dtype()), onesided ? [&] { Shape s = shape; s[last] = s[last] / 2 + 1; return s; }() : shape);
    if (in.numel() == 0) return out;
    dispatchPrecision(in.dtype(), [&]<class T>() {
        Layout l = layoutOf(shape, in.strides(), out.strides(), dims);
        auto plan = PlanCache<T>::instance().get(Kind::R2C, 0, l, in.raw(), out.raw());
        Fftw<T>::runR2C(plan, in.raw(), out.raw());
        if (!onesided) fillConjugateHalf<T>(out, dims);
        scaleAll<T>(out, scaleOf(normalization, signalSize(shape, dims)));
    });
    return out;
}

// Complex to complex over `dim`, forward (e^-i) or backward (e^+i).
Tensor complexToComplex(KernelContext& ctx, const Tensor& in, const std::vector<int64_t>& dim, int64_t normalization, bool forward,
                        const char* op) {
    requireComplex(in, op);
    auto dims = transformDims(dim, in.dim(), op);
    Tensor out = ctx.alloc(in.dtype(), in.sizes());
    if (in.numel() == 0) return out;
    dispatchPrecision(in.dtype(), [&]<class T>() {
        Layout l = layoutOf(in.sizes(), in.strides(), out.strides(), dims);
        const int sign = forward ? FFTW_FORWARD : FFTW_BACKWARD;
        auto plan = PlanCache<T>::instance().get(Kind::C2C, sign, l, in.raw(), out.raw());
        Fftw<T>::runC2C(plan, in.raw(), out.raw());
        scaleAll<T>(out, scaleOf(normalization, signalSize(in.sizes(), dims)));
    });
    return out;
}

// Complex (Hermitian) to real over `dim`: the last of them has `lastSize` real outputs and reads the
// first lastSize / 2 + 1 entries of the input.
Tensor complexToReal(KernelContext& ctx, const Tensor& in, const std::vector<int64_t>& dim, int64_t normalization, int64_t lastSize,
                     const char* op) {
    requireComplex(in, op);
    auto dims = transformDims(dim, in.dim(), op);
    const auto last = static_cast<size_t>(dims.back());
    if (lastSize < 1) kernelFail(std::string(op) + ": last_dim_size must be positive, got " + std::to_string(lastSize));
    if (in.sizes()[last] < lastSize / 2 + 1)
        kernelFail(std::string(op) + ": last_dim_size " + std::to_string(lastSize) + " needs " + std::to_string(lastSize / 2 + 1) +
                   " input entries along dimension " + std::to_string(last) + ", the input has " + std::to_string(in.sizes()[last]));
    Shape shape = in.sizes();
    shape[last] = lastSize;
    Tensor out = ctx.alloc(realOf(in.dtype()), shape);
    if (out.numel() == 0) return out;
    Tensor scratch = contiguousCopy(ctx, in); // FFTW's multi-dimensional c2r overwrites its input
    dispatchPrecision(in.dtype(), [&]<class T>() {
        Layout l = layoutOf(shape, scratch.strides(), out.strides(), dims);
        auto plan = PlanCache<T>::instance().get(Kind::C2R, 0, l, scratch.raw(), out.raw());
        Fftw<T>::runC2R(plan, scratch.raw(), out.raw());
        scaleAll<T>(out, scaleOf(normalization, signalSize(shape, dims)));
    });
    return out;
}

// `out` = conj(`in`) element by element (any strides on both sides).
void conjugateInto(const Tensor& out, const Tensor& in) {
    dispatchPrecision(in.dtype(), [&]<class T>() {
        const T* src = reinterpret_cast<const T*>(in.raw());
        T* dst = reinterpret_cast<T*>(out.raw());
        forEachIndex(in.sizes(), in.strides(), out.strides(), [&](int64_t a, int64_t b) {
            dst[2 * b] = src[2 * a];
            dst[2 * b + 1] = -src[2 * a + 1];
        });
    });
}

// prims.real / prims.imag: the part as a view of the complex storage (strides twice the input's).
void partKernel(KernelContext& ctx, int part) {
    Tensor in = ctx.tensor("self", 0);
    requireComplex(in, part ? "prims.imag" : "prims.real");
    Shape strides = in.strides();
    for (auto& s : strides) s *= 2;
    ctx.setOutput(0, in.reinterpret(realOf(in.dtype()), in.sizes(), strides, 2 * in.storageOffset() + part));
}

// prims.conj: PyTorch answers a conjugate view (same strides as the input); the engine has no
// conjugate bit, so it writes the conjugated values into fresh storage laid out the same way.
void conjKernel(KernelContext& ctx) {
    Tensor in = ctx.tensor("a", 0);
    requireComplex(in, "prims.conj");
    int64_t span = in.numel() == 0 ? 0 : 1;
    for (int64_t k = 0; k < in.dim(); ++k) span += in.numel() == 0 ? 0 : (in.size(k) - 1) * in.stride(k);
    Tensor out = ctx.allocZeros(in.dtype(), {span}).asStrided(in.sizes(), in.strides(), 0);
    conjugateInto(out, in);
    ctx.setOutput(0, out);
}

void conjPhysicalKernel(KernelContext& ctx) {
    Tensor in = ctx.tensor("self", 0);
    requireComplex(in, "prims.conj_physical");
    Tensor out = allocLike(ctx, in.dtype(), in.sizes(), {&in});
    conjugateInto(out, in);
    ctx.setOutput(0, out);
}

} // namespace fftk
} // namespace

void registerFftKernels(KernelRegistry& r) {
    using namespace fftk;
    r.add("aten::_fft_r2c.default", [](KernelContext& ctx) {
        ctx.setOutput(0, realToComplex(ctx, ctx.tensor("self", 0), ctx.ints("dim", 1), ctx.intArg("normalization", 2),
                                       ctx.boolArg("onesided", 3, true), "_fft_r2c"));
    });
    r.add("aten::_fft_c2r.default", [](KernelContext& ctx) {
        ctx.setOutput(0, complexToReal(ctx, ctx.tensor("self", 0), ctx.ints("dim", 1), ctx.intArg("normalization", 2),
                                       ctx.intArg("last_dim_size", 3), "_fft_c2r"));
    });
    r.add("aten::_fft_c2c.default", [](KernelContext& ctx) {
        ctx.setOutput(0, complexToComplex(ctx, ctx.tensor("self", 0), ctx.ints("dim", 1), ctx.intArg("normalization", 2),
                                          ctx.boolArg("forward", 3, true), "_fft_c2c"));
    });
    r.add("prims::fft_r2c.default", [](KernelContext& ctx) {
        ctx.setOutput(0, realToComplex(ctx, ctx.tensor("self", 0), ctx.ints("dim"), 0, ctx.boolArg("onesided", -1, true), "prims.fft_r2c"));
    });
    r.add("prims::fft_c2c.default", [](KernelContext& ctx) {
        ctx.setOutput(0, complexToComplex(ctx, ctx.tensor("self", 0), ctx.ints("dim"), 0, ctx.boolArg("forward", -1, true), "prims.fft_c2c"));
    });
    r.add("prims::fft_c2r.default", [](KernelContext& ctx) {
        ctx.setOutput(0, complexToReal(ctx, ctx.tensor("self", 0), ctx.ints("dim"), 0, ctx.intArg("last_dim_size"), "prims.fft_c2r"));
    });
    r.add("prims::real.default", [](KernelContext& ctx) { partKernel(ctx, 0); });
    r.add("prims::imag.default", [](KernelContext& ctx) { partKernel(ctx, 1); });
    r.add("prims::conj.default", conjKernel);
    r.add("prims::conj_physical.default", conjPhysicalKernel);
}

} // namespace irlens::core::exec
