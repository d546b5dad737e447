// Special functions (prims::bessel_*, digamma, erf_inv, erfcx, ndtri, igamma, igammac, zeta) on Boost.Math.
// Each is evaluated in double and rounded once to the output dtype: float32 results are then the
// correctly rounded value, within the conformance tolerance of PyTorch's float Cephes ports.
// Integer and bool inputs promote to float32; float16 / bfloat16 go through float32 as PyTorch's opmath.
// The edge cases follow PyTorch 1.13 (aten/src/ATen/native/Math.h), noted per function: they are not
// always the limits Boost would give (bessel_i0(inf) is NaN in PyTorch).

#include "core/exec/kernel_registry.h"
#include "core/exec/kernels/kernels.h"
#include "core/exec/kernels/util/dispatch.h"
#include "core/exec/kernels/util/half.h"
#include "core/exec/kernels/util/loops.h"
#include "core/exec/kernels/util/tensor_ops.h"

#include <boost/math/policies/policy.hpp>
#include <boost/math/special_functions/bessel.hpp>
#include <boost/math/special_functions/digamma.hpp>
#include <boost/math/special_functions/erf.hpp>
#include <boost/math/special_functions/gamma.hpp>

#include <cmath>
#include <limits>

namespace irlens::core::exec {

namespace {

namespace bm = boost::math;
// Errors become NaN / inf instead of exceptions; no float promotion (inputs are doubles already).
using SpecialPolicy = bm::policies::policy<bm::policies::domain_error<bm::policies::ignore_error>,
                                    bm::policies::pole_error<bm::policies::ignore_error>,
                                    bm::policies::overflow_error<bm::policies::ignore_error>,
                                    bm::policies::evaluation_error<bm::policies::ignore_error>,
                                    bm::policies::promote_double<false>>;

constexpr double kSpecialNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kSpecialInf = std::numeric_limits<double>::infinity();
constexpr double kSpecialPi = 3.14159265358979323846;

enum class Sp { J0, J1, I0, I0e, I1, I1e, SphJ0, Digamma, ErfInv, Erfcx, Ndtri };

// exp(-|x|) * I_v(|x|) for large |x| (I_v overflows past 713): the asymptotic series
// 1/sqrt(2 pi x) * sum_k (-1)^k a_k(v) / x^k, a_k = prod_{j<=k} (4v^2 - (2j-1)^2) / (8^k k!).
double scaledBesselILarge(int v, double x) {
    double mu = 4.0 * v * v, term = 1.0, sum = 1.0;
    for (int k = 1; k < 30; ++k) {
        term *= -(mu - (2.0 * k - 1) * (2.0 * k - 1)) / (8.0 * k * x);
        sum += term;
        if (std::abs(term) < 1e-17 * std::abs(sum)) break;
    }
    return sum / std::sqrt(2 * kSpecialPi * x);
}

// exp(-|x|) I_v(x), v = 0 or 1 (odd in x for v = 1)
double scaledBesselI(int v, double x) {
    double a = std::abs(x);
    double r = a < 700 ? std::exp(-a) * bm::cyl_bessel_i(v, a, SpecialPolicy()) : scaledBesselILarge(v, a);
    return v == 1 && x < 0 ? -r : r;
}

// erfcx(x) = exp(x^2) erfc(x). x < 5: long double, whose 64-bit mantissa keeps exp(x^2)'s error small;
// beyond, the continued fraction erfc(x) e^{x^2} sqrt(pi) = 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))).
double erfcx(double x) {
    if (std::isnan(x)) return x;
    if (x < -26.7) return kSpecialInf; // PyTorch: exp(x^2) overflows
    if (x < 5) {
        long double lx = x;
        return static_cast<double>(std::exp(lx * lx) * std::erfc(lx));
    }
    if (std::isinf(x)) return 0.0;
    double f = x;
    for (int k = 120; k >= 1; --k) f = x + (k / 2.0) / f;
    return 1.0 / (f * std::sqrt(kSpecialPi));
}

// PyTorch's calc_digamma: poles at 0 (-inf for +0, +inf for -0), NaN at negative integers and -inf.
double digamma(double x) {
    if (x == 0) return std::copysign(kSpecialInf, -x);
    if (x < 0 && x == std::trunc(x)) return kSpecialNaN;
    if (std::isinf(x)) return x > 0 ? kSpecialInf : kSpecialNaN;
    return bm::digamma(x, SpecialPolicy());
}

double erfInv(double y) {
    if (std::isnan(y) || std::abs(y) > 1) return kSpecialNaN;
    if (std::abs(y) == 1) return std::copysign(kSpecialInf, y);
    if (y == 0) return y; // keeps -0.0
    return bm::erf_inv(y, SpecialPolicy());
}

// The standard normal quantile: -sqrt(2) erfc^-1(2p); 0 and 1 give -inf and inf, outside [0, 1] NaN.
double ndtri(double p) {
    if (std::isnan(p) || p < 0 || p > 1) return kSpecialNaN;
    if (p == 0) return -kSpecialInf;
    if (p == 1) return kSpecialInf;
    if (p == 0.5) return 0.0;
    return p > 0.5 ? std::sqrt(2.0) * bm::erf_inv(2 * p - 1, SpecialPolicy()) : -std::sqrt(2.0) * bm::erfc_inv(2 * p, SpecialPolicy());
}

double besselJ(int v, double x) {
    if (std::isnan(x) || std::isinf(x)) return kSpecialNaN; // PyTorch's asymptotic form gives NaN at +-inf
    double r = bm::cyl_bessel_j(v, std::abs(x), SpecialPolicy());
    return v == 1 && std::signbit(x) ? -r : r;
}

double besselI(int v, double x) {
    if (std::isnan(x) || std::isinf(x)) return kSpecialNaN; // PyTorch: NaN at +-inf (its Chebyshev form)
    double a = std::abs(x);
    double r = a > 713.0 ? kSpecialInf : bm::cyl_bessel_i(v, a, SpecialPolicy());
    return v == 1 && x < 0 ? -r : r;
}

double sphericalJ0(double x) {
    if (std::isinf(x)) return 0.0;
    if (std::abs(x) < 1e-4) return 1.0 - x * x / 6.0;
    return std::sin(x) / x;
}

// PyTorch evaluates float32 in float, and three of its float results follow from that rather than from
// the exact value: J0/J1 past |x| = 1024 take their phase x - pi/4 (x - 3pi/4) rounded to float (large x
// make it noise); I0/I1 overflow to inf once exp(|x|) does in float (|x| > 88.72); erfcx of negative x
// is 2 exp(x^2) - erfcx(-x) with x^2 rounded to float. With `single` these are reproduced (the Hankel
// expansion's first two terms for the Bessel functions there, which is exact to float).
double singleBesselJ(int v, double x) {
    float xf = static_cast<float>(std::abs(x));
    float phase = xf - static_cast<float>(v == 0 ? kSpecialPi / 4 : 3 * kSpecialPi / 4);
    double mu = 4.0 * v * v, y = xf;
    double p = 1 - (mu - 1) * (mu - 9) / (128 * y * y), q = (mu - 1) / (8 * y);
    double r = std::sqrt(2 / (kSpecialPi * y)) * (p * std::cos(static_cast<double>(phase)) - q * std::sin(static_cast<double>(phase)));
    return v == 1 && x < 0 ? -r : r;
}

double singleValue(Sp op, double x, double exact) {
    switch (op) {
    case Sp::J0: case Sp::J1:
        return std::abs(x) > 1024 && std::isfinite(x) ? singleBesselJ(op == Sp::J0 ? 0 : 1, x) : exact;
    case Sp::I0: case Sp::I1:
        return std::isinf(std::exp(static_cast<float>(std::abs(x)))) && !std::isnan(x) && std::isfinite(x) ? std::copysign(kSpecialInf, op == Sp::I1 ? x : 1.0) : exact;
    case Sp::Erfcx:
        if (x < 0 && x >= -26.7) {
            float xf = static_cast<float>(x);
            return 2 * std::exp(static_cast<double>(xf * xf)) - erfcx(-x);
        }
        return exact;
    default: return exact;
    }
}

double specialValue(Sp op, double x, bool single) {
    if (single) return singleValue(op, x, specialValue(op, x, false));
    switch (op) {
    case Sp::J0: return besselJ(0, x);
    case Sp::J1: return besselJ(1, x);
    case Sp::I0: return besselI(0, x);
    case Sp::I1: return besselI(1, x);
    case Sp::I0e: return std::isnan(x) ? x : std::isinf(x) ? 0.0 : scaledBesselI(0, x);
    case Sp::I1e: return std::isnan(x) ? x : std::isinf(x) ? std::copysign(0.0, x) : scaledBesselI(1, x);
    case Sp::SphJ0: return sphericalJ0(x);
    case Sp::Digamma: return digamma(x);
    case Sp::ErfInv: return erfInv(x);
    case Sp::Erfcx: return erfcx(x);
    case Sp::Ndtri: return ndtri(x);
    }
    return kSpecialNaN;
}

template <class T, class> using SameAs = T;

// float16 / bfloat16 inputs: through float32 and rounded once; others in the output's dtype.
template <class F, class... Ts>
void mapToFloat(KernelContext& ctx, const Tensor& out, F f, const Ts&... ins) {
    ScalarType dt = out.dtype();
    ScalarType wide = isReducedFloat(dt) ? ScalarType::Float32 : dt;
    Tensor dst = isReducedFloat(dt) ? ctx.alloc(ScalarType::Float32, out.sizes()) : out;
    dispatchFloat(wide, [&]<class T>() {
        auto g = [&f](SameAs<T, Ts>... v) { return static_cast<T>(f(static_cast<double>(v)...)); };
        mapElements<T, SameAs<T, Ts>...>(ctx.threads(), dst, g, toDtype(ctx, ins, wide)...);
    });
    if (isReducedFloat(dt)) copyInto(out, dst, ctx.threads());
}

template <Sp op> void specialUnaryKernel(KernelContext& ctx) {
    Tensor x = ctx.tensor("self", 0);
    ScalarType dt = isFloatingType(x.dtype()) ? x.dtype() : ScalarType::Float32;
    Tensor out = allocLike(ctx, dt, x.sizes(), {&x});
    const bool single = dt != ScalarType::Float64;
    mapToFloat(ctx, out, [single](double v) { return specialValue(op, v, single); }, x);
    ctx.setOutput(0, out);
}

// The Hurwitz zeta function sum_k (k + q)^-x by Euler-Maclaurin: the first terms summed until q + n > 9,
// the rest as the integral plus Bernoulli corrections B_2j / (2j)! * x (x+1) ... (x+2j-2) / N^(x+2j-1).
// PyTorch's domain: x == 1 gives inf, x < 1 NaN; q a non-positive integer gives inf, any other q <= 0 NaN
// unless x is an integer (the sum then runs over negative bases).
double hurwitzZeta(double x, double q) {
    static const double kBernoulliOverFactorial[] = { // B_2j / (2j)!
        1.0 / 12, -1.0 / 720, 1.0 / 30240, -1.0 / 1209600, 1.0 / 47900160, -691.0 / 1307674368000.0,
        1.0 / 74724249600.0, -3617.0 / 10670622842880000.0, 43867.0 / 5109094217170944000.0,
        -174611.0 / 802857662698291200000.0, 77683.0 / 14101100039391805440000.0, -236364091.0 / 1693824136731743669452800000.0};
    if (x == 1) return kSpecialInf;
    if (x < 1) return kSpecialNaN;
    if (q <= 0) {
        if (q == std::floor(q)) return kSpecialInf;
        if (x != std::floor(x)) return kSpecialNaN;
    }
    if (std::isnan(x) || std::isnan(q)) return kSpecialNaN;
    if (std::isinf(q)) return kSpecialNaN;  // PyTorch's tail term is inf * 0 there
    // x = inf: the terms (q+k)^-inf are inf below 1 in size, 1 at 1 and 0 above; PyTorch's tail is NaN for q > 1
    if (std::isinf(x)) return q == 1 ? 1.0 : q < 1 ? kSpecialInf : kSpecialNaN;
    double s = 0, n = q;
    for (int k = 0; k < 10 || n <= 9; ++k, n += 1) s += std::pow(n, -x);
    double power = std::pow(n, -x); // N^-x
    s += power * n / (x - 1) + 0.5 * power;
    double rising = x, inv = power / n; // x (x+1)...(x+2j-2), N^(-x-2j+1)
    for (int j = 0; j < 12; ++j) {
        double t = kBernoulliOverFactorial[j] * rising * inv;
        s += t;
        if (std::abs(t) < 1e-17 * std::abs(s)) break;
        rising *= (x + 1 + 2 * j) * (x + 2 + 2 * j);
        inv /= n * n;
    }
    return s;
}

// P(a, x) (upper: Q = 1 - P) with PyTorch's calc_igamma / calc_igammac edge cases, in its order (so a NaN
// argument gives NaN only after them: igamma(NaN, inf) is 1): NaN for a < 0 or x < 0,
// a == 0 gives 1 (Q: 0) for x > 0 else NaN, x == 0 gives 0 (Q: 1), an infinite a gives 0 (Q: 1) unless x
// is infinite too (NaN), an infinite x gives 1 (Q: 0).
double regularizedGamma(bool upper, double a, double x, bool single) {
    if (a < 0 || x < 0) return kSpecialNaN;
    double p;
    if (a == 0) {
        if (!(x > 0)) return kSpecialNaN;
        p = 1;
    } else if (x == 0) {
        p = 0;
    } else if (std::isinf(a)) {
        if (std::isinf(x)) return kSpecialNaN;
        p = 0;
    } else if (std::isinf(x)) {
        p = 1;
    } else if (std::isnan(a) || std::isnan(x)) {
        return kSpecialNaN;
    } else if (x < 0.7 * a && a * std::log(x) > (single ? std::numeric_limits<float>::max() : std::numeric_limits<double>::max())) {
        return kSpecialNaN; // PyTorch's series takes a log(x) - x - lgamma(a): inf - inf once a log(x) overflows
    } else {
        return upper ? bm::gamma_q(a, x, SpecialPolicy()) : bm::gamma_p(a, x, SpecialPolicy());
    }
    return upper ? 1 - p : p;
}

enum class Sp2 { IGamma, IGammac, Zeta };

template <Sp2 op> void specialBinaryKernel(KernelContext& ctx) {
    Tensor a = ctx.tensor("self", 0), b = ctx.tensor("other", 1);
    ScalarType dt = promoteTypes(a.dtype(), b.dtype());
    if (!isFloatingType(dt)) dt = ScalarType::Float32;
    Shape shape = broadcastShapes(a.sizes(), b.sizes());
    Tensor out = allocLike(ctx, dt, shape, {&a, &b});
    const bool single = dt != ScalarType::Float64; // PyTorch computes in float there
    mapToFloat(ctx, out, [single](double u, double v) {
        if constexpr (op == Sp2::Zeta) return hurwitzZeta(u, v);
        else return regularizedGamma(op == Sp2::IGammac, u, v, single);
    }, expandTo(a, shape), expandTo(b, shape));
    ctx.setOutput(0, out);
}

} // namespace

void registerSpecialKernels(KernelRegistry& r) {
    r.add({"prims::bessel_j0.default"}, &specialUnaryKernel<Sp::J0>);
    r.add({"prims::bessel_j1.default"}, &specialUnaryKernel<Sp::J1>);
    r.add({"prims::bessel_i0.default"}, &specialUnaryKernel<Sp::I0>);
    r.add({"prims::bessel_i0e.default"}, &specialUnaryKernel<Sp::I0e>);
    r.add({"prims::bessel_i1.default"}, &specialUnaryKernel<Sp::I1>);
    r.add({"prims::bessel_i1e.default"}, &specialUnaryKernel<Sp::I1e>);
    r.add({"prims::spherical_bessel_j0.default"}, &specialUnaryKernel<Sp::SphJ0>);
    r.add({"prims::digamma.default"}, &specialUnaryKernel<Sp::Digamma>);
    r.add({"prims::erf_inv.default"}, &specialUnaryKernel<Sp::ErfInv>);
    r.add({"prims::erfcx.default"}, &specialUnaryKernel<Sp::Erfcx>);
    r.add({"prims::ndtri.default"}, &specialUnaryKernel<Sp::Ndtri>);
    r.add({"prims::igamma.default"}, &specialBinaryKernel<Sp2::IGamma>);
    r.add({"prims::igammac.default"}, &specialBinaryKernel<Sp2::IGammac>);
    r.add({"prims::zeta.default"}, &specialBinaryKernel<Sp2::Zeta>);
}

} // namespace irlens::core::exec
