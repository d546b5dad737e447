// Depthwise convolution (one input channel per group: mobilenet's 3x3 layers) on float32 NCHW as it
// lies. oneDNN's grouped convolution reorders input and output to its blocked layout and back on every
// call; for a depthwise layer, with 9 multiply-adds per output element, those two passes over the
// activations cost more than the arithmetic, and mobilenet_v2's depthwise layers ran at 7-18 GFLOP/s
// through it. Here each input plane is copied once into a zero-padded scratch plane, then every output
// row is a sum of KH x KW shifted rows of it, 16 lanes at a time.

#include "core/exec/kernels/conv.h"
#include "core/exec/kernels/util/loops.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

// The lanes are GCC vector extensions; each clone compiles them for its instruction set (AVX-512,
// AVX2 with FMA units, or the x86-64 baseline's SSE2), picked once when the program loads.
#if defined(__x86_64__) && defined(__GNUC__) && defined(__linux__)
#define IRLENS_DEPTHWISE_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define IRLENS_DEPTHWISE_CLONES
#endif

namespace irlens::core::exec {

namespace {

using Lanes = float __attribute__((vector_size(64)));
constexpr int64_t kLanes = 16;

// The helpers fill vectors through references: a function returning a 64-byte vector by value
// would have a different calling convention in each clone (GCC warns on every one).
[[gnu::always_inline]] inline void loadLanes(Lanes& v, const float* p) { std::memcpy(&v, p, sizeof v); }

[[gnu::always_inline]] inline void splatLanes(Lanes& v, float x) { v = Lanes{x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x}; }

// Where the taps of one output row read: the scratch plane holds, for every padded input row, one row
// per column phase (stride sW: phase r holds padded columns r, r + sW, r + 2 sW, ...), so output
// column ow of tap (kh, kw) is element ow of a contiguous row whatever the stride and dilation.
struct DepthwiseGeometry {
    int64_t H, W, OH, OW, KH, KW;
    int64_t sH, sW, pH, pW, dH, dW;
    int64_t rows;       // padded input rows the output reads
    int64_t rowLength;  // elements per phase row: the output row in whole lanes, the taps' reach, room for one more vector
    int64_t outPadded;  // OW rounded up to whole vectors

    DepthwiseGeometry(const Tensor& x, const Tensor& w, const Tensor& out, const ConvParams& p)
        : H(x.size(2)), W(x.size(3)), OH(out.size(2)), OW(out.size(3)), KH(w.size(2)), KW(w.size(3)), sH(p.strideH), sW(p.strideW),
          pH(p.padH), pW(p.padW), dH(p.dilH), dW(p.dilW) {
        rows = (OH - 1) * sH + (KH - 1) * dH + 1;
        outPadded = (OW + kLanes - 1) / kLanes * kLanes;
        rowLength = outPadded + (KW - 1) * dW / sW + kLanes + 1;
    }
    int64_t scratchFloats() const { return rows * sW * rowLength + kLanes; }
    // where tap (kh, kw) of output row 0 starts; output row oh adds oh * rowStep()
    int64_t tapOffset(int64_t kh, int64_t kw) const { return (kh * dH * sW + (kw * dW) % sW) * rowLength + (kw * dW) / sW; }
    int64_t rowStep() const { return sH * sW * rowLength; }
};

// Input row `in` into the phase rows `row` (phase r at row + r * rowLength). Only the elements that
// hold input are written: which those are depends on the geometry alone, so the padding stays as the
// zeroed scratch started, plane after plane. Stride 2 de-interleaves 32 floats into two vectors at a time.
[[gnu::always_inline]] inline void fillPhaseRows(const DepthwiseGeometry& g, const float* in, float* row) {
    if (g.sW != 2)
        for (int64_t r = 0; r < g.sW; ++r) {
            float* dst = row + r * g.rowLength;
            // element j reads input column r + sW * j - pW; j0..j1 are those inside the input
            const int64_t j0 = std::clamp<int64_t>((g.pW - r + g.sW - 1) / g.sW, 0, g.rowLength);
            const int64_t j1 = std::clamp<int64_t>((g.W + g.pW - r + g.sW - 1) / g.sW, j0, g.rowLength);
            const float* src = in + r + g.sW * j0 - g.pW;
            if (g.sW == 1) std::memcpy(dst + j0, src, static_cast<size_t>(j1 - j0) * sizeof(float));
            else
                for (int64_t j = j0; j < j1; ++j) dst[j] = src[(j - j0) * g.sW];
        }
    if (g.sW != 2) return;
#if !defined(__clang__) // GCC's shuffle takes the lanes as a vector, clang's as constants (below)
    using Index = int __attribute__((vector_size(64)));
    const Index evens{0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30};
    const Index odds = evens + 1;
#endif
    // input column ic is padded column c = ic + pW: phase c % 2, element c / 2
    float* evenRow = row + (g.pW % 2) * g.rowLength;       // where the even input columns go
    float* oddRow = row + ((g.pW + 1) % 2) * g.rowLength;  // and the odd ones
    const int64_t evenAt = g.pW / 2, oddAt = (g.pW + 1) / 2;
    for (int64_t ic = 0; ic < g.W; ic += 2 * kLanes) {
        if (ic / 2 + oddAt + kLanes > g.rowLength) { // past what the output reads (rowLength leaves room for a whole vector)
            for (; ic < g.W; ++ic) {
                const int64_t c = ic + g.pW;
                if (c / 2 < g.rowLength) row[(c % 2) * g.rowLength + c / 2] = in[ic];
            }
            break;
        }
        Lanes a, b;
        if (ic + 2 * kLanes <= g.W) {
            loadLanes(a, in + ic);
            loadLanes(b, in + ic + kLanes);
        } else { // the row's end, zeros after it (the padded plane is zero there)
            float tail[2 * kLanes] = {};
            std::memcpy(tail, in + ic, static_cast<size_t>(g.W - ic) * sizeof(float));
            loadLanes(a, tail);
            loadLanes(b, tail + kLanes);
        }
#if defined(__clang__)
        const Lanes even = __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
        const Lanes odd = __builtin_shufflevector(a, b, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
#else
        const Lanes even = __builtin_shuffle(a, b, evens), odd = __builtin_shuffle(a, b, odds);
#endif
        std::memcpy(evenRow + ic / 2 + evenAt, &even, sizeof even);
        std::memcpy(oddRow + ic / 2 + oddAt, &odd, sizeof odd);
    }
}

// Output planes [begin, end) of the N x O planes; `scratch` holds g.scratchFloats() zeros. Taps > 0
// fixes the window's size at compile time (3x3: weights in registers, the tap loop unrolled).
template <int Taps>
[[gnu::always_inline]] inline void depthwisePlanesOf(const DepthwiseGeometry& g, const float* x, const float* w, const float* bias, float* out,
                                                     int64_t C, int64_t outChannels, float lo, float hi, int64_t begin, int64_t end,
                                                     float* scratch) {
    const int64_t taps = Taps > 0 ? Taps : g.KH * g.KW, perInput = outChannels / C;
    float* pad = scratch;
    float* acc = scratch + g.rows * g.sW * g.rowLength;
    int64_t offsets[64];
    for (int64_t kh = 0, k = 0; kh < g.KH; ++kh)
        for (int64_t kw = 0; kw < g.KW; ++kw, ++k) offsets[k] = g.tapOffset(kh, kw);
    Lanes vlo, vhi;
    splatLanes(vlo, lo);
    splatLanes(vhi, hi);
    int64_t paddedPlane = -1;
    for (int64_t plane = begin; plane < end; ++plane) {
        const int64_t n = plane / outChannels, o = plane % outChannels;
        const int64_t inPlane = n * C + o / perInput;
        if (inPlane != paddedPlane) {
            const float* in = x + inPlane * g.H * g.W;
            for (int64_t i = 0; i < g.rows; ++i) {
                float* row = pad + i * g.sW * g.rowLength;
                const int64_t ih = i - g.pH;
                if (ih >= 0 && ih < g.H) fillPhaseRows(g, in + ih * g.W, row);
            }
            paddedPlane = inPlane;
        }
        const float* wo = w + o * taps;
        Lanes weights[Taps > 0 ? Taps : 1];
        if constexpr (Taps > 0)
            for (int k = 0; k < Taps; ++k) splatLanes(weights[k], wo[k]);
        Lanes b;
        splatLanes(b, bias ? bias[o] : 0.f);
        float* dst = out + plane * g.OH * g.OW;
        for (int64_t oh = 0; oh < g.OH; ++oh) {
            const float* base = pad + oh * g.rowStep();
            for (int64_t ow = 0; ow < g.outPadded; ow += kLanes) {
                Lanes sum = b, in;
#pragma GCC unroll 16
                for (int64_t k = 0; k < taps; ++k) {
                    loadLanes(in, base + offsets[k] + ow);
                    if constexpr (Taps > 0) {
                        sum += weights[k] * in;
                    } else {
                        Lanes weight;
                        splatLanes(weight, wo[k]);
                        sum += weight * in;
                    }
                }
                // the compares are false for NaN, so NaN passes through as torch's clamp lets it
                sum = sum < vlo ? vlo : sum;
                sum = sum > vhi ? vhi : sum;
                if (ow + kLanes <= g.OW) {
                    std::memcpy(dst + oh * g.OW + ow, &sum, sizeof sum);
                } else {
                    std::memcpy(acc, &sum, sizeof sum);
                    for (int64_t k = 0; k < g.OW - ow; ++k) dst[oh * g.OW + ow + k] = acc[k];
                }
            }
        }
    }
}

IRLENS_DEPTHWISE_CLONES
void depthwisePlanes(const DepthwiseGeometry& g, const float* x, const float* w, const float* bias, float* out, int64_t C,
                     int64_t outChannels, float lo, float hi, int64_t begin, int64_t end, float* scratch) {
    if (g.KH * g.KW == 9) depthwisePlanesOf<9>(g, x, w, bias, out, C, outChannels, lo, hi, begin, end, scratch);
    else depthwisePlanesOf<0>(g, x, w, bias, out, C, outChannels, lo, hi, begin, end, scratch);
}

} // namespace

bool isDepthwise(const Tensor& x, const Tensor& w, const ConvParams& p) {
    return x.dtype() == ScalarType::Float32 && p.groups == x.size(1) && w.size(1) == 1 && w.size(2) * w.size(3) <= 64;
}

void depthwiseConv(KernelContext& ctx, const Tensor& x, const Tensor& w, const std::optional<Tensor>& b, const Tensor& out,
                   const ConvParams& p) {
    const DepthwiseGeometry g(x, w, out, p);
    const int64_t N = x.size(0), C = x.size(1), O = w.size(0);
    const float lo = p.activation == FusedActivation::None ? -std::numeric_limits<float>::infinity() : static_cast<float>(p.lo);
    const float hi = p.activation == FusedActivation::Clip ? static_cast<float>(p.hi) : std::numeric_limits<float>::infinity();
    const float* bias = b ? b->data<float>() : nullptr;
    parallelRange(ctx.threads(), N * O, g.OH * g.OW * g.KH * g.KW, [&](int64_t begin, int64_t end) {
        std::vector<float> scratch(static_cast<size_t>(g.scratchFloats()));
        depthwisePlanes(g, x.data<float>(), w.data<float>(), bias, out.data<float>(), C, O, lo, hi, begin, end, scratch.data());
    });
}

} // namespace irlens::core::exec
