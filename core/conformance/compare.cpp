#include "core/conformance/runner.h"

#include "core/exec/engine.h"
#include "core/exec/kernel_registry.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <vector>

namespace irlens::core::conformance {

namespace {

using exec::Tensor;

double halfToDouble(uint16_t h) {
    int sign = h >> 15, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    double v = exp == 0 ? std::ldexp(man, -24) : exp == 31 ? (man ? NAN : INFINITY) : std::ldexp(man + 1024, exp - 25);
    return sign ? -v : v;
}

double bfloatToDouble(uint16_t b) {
    uint32_t bits = static_cast<uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

// Byte offset of element `flat` (C order) of a strided tensor.
int64_t offsetOf(const Tensor& t, int64_t flat) {
    int64_t off = 0;
    for (size_t k = t.sizes().size(); k-- > 0;) {
        off += (flat % t.sizes()[k]) * t.strides()[k];
        flat /= t.sizes()[k];
    }
    return off * t.itemSize();
}

double floatAt(const Tensor& t, int64_t flat) {
    const std::byte* p = t.raw() + offsetOf(t, flat);
    uint16_t h;
    switch (t.dtype()) {
    case ScalarType::Float16: std::memcpy(&h, p, 2); return halfToDouble(h);
    case ScalarType::BFloat16: std::memcpy(&h, p, 2); return bfloatToDouble(h);
    default: return t.at(flat);
    }
}

int64_t intAt(const Tensor& t, int64_t flat) {
    const std::byte* p = t.raw() + offsetOf(t, flat);
    switch (t.dtype()) {
    case ScalarType::Int64: { int64_t v; std::memcpy(&v, p, 8); return v; }
    case ScalarType::Int32: { int32_t v; std::memcpy(&v, p, 4); return v; }
    case ScalarType::Int16: { int16_t v; std::memcpy(&v, p, 2); return v; }
    case ScalarType::Int8: return static_cast<int8_t>(*p);
    case ScalarType::UInt8: return static_cast<uint8_t>(*p);
    case ScalarType::Bool: return *p != std::byte{0} ? 1 : 0;
    default: return 0;
    }
}

std::string indexString(const exec::Shape& sizes, int64_t flat) {
    std::vector<int64_t> idx(sizes.size());
    for (size_t k = sizes.size(); k-- > 0;) {
        idx[k] = flat % sizes[k];
        flat /= sizes[k];
    }
    return exec::shapeToString(idx);
}

std::string num(double v) {
    std::ostringstream s;
    s.precision(17);
    s << v;
    return s.str();
}

bool floatsAgree(double a, double e, Tolerance tol) {
    if (std::isnan(e) || std::isnan(a)) return std::isnan(e) && std::isnan(a);
    if (std::isinf(e) || std::isinf(a)) return a == e;
    if (e == 0 && a == 0) return std::signbit(a) == std::signbit(e);
    return std::fabs(a - e) <= tol.atol + tol.rtol * std::fabs(e);
}

// Part `part` (0 real, 1 imaginary) of complex element `flat`.
double complexPartAt(const Tensor& t, int64_t flat, int part) {
    const std::byte* p = t.raw() + offsetOf(t, flat);
    if (t.dtype() == ScalarType::Complex64) {
        float v;
        std::memcpy(&v, p + 4 * part, 4);
        return v;
    }
    double v;
    std::memcpy(&v, p + 8 * part, 8);
    return v;
}

// Complex numbers agree when their real parts and their imaginary parts do (assert_close's rule).
std::string compareComplex(const Tensor& actual, const Tensor& expected, Tolerance tol) {
    for (int64_t i = 0; i < expected.numel(); ++i) {
        for (int part = 0; part < 2; ++part) {
            double a = complexPartAt(actual, i, part), e = complexPartAt(expected, i, part);
            if (!floatsAgree(a, e, tol))
                return std::string(part ? "imaginary" : "real") + " part of element " + indexString(expected.sizes(), i) + " is " +
                       num(a) + ", PyTorch gives " + num(e) + " (atol " + num(tol.atol) + ", rtol " + num(tol.rtol) + ")";
        }
    }
    return {};
}

std::string compareValues(const Tensor& actual, const Tensor& expected, Tolerance tol, const Tensor* scalarPath) {
    if (expected.dtype() == ScalarType::Complex64 || expected.dtype() == ScalarType::Complex128)
        return compareComplex(actual, expected, tol);
    const bool floating = isFloatingType(expected.dtype());
    for (int64_t i = 0; i < expected.numel(); ++i) {
        if (floating) {
            double a = floatAt(actual, i), e = floatAt(expected, i);
            if (floatsAgree(a, e, tol) || (scalarPath && floatsAgree(a, floatAt(*scalarPath, i), tol))) continue;
            return "element " + indexString(expected.sizes(), i) + " is " + num(a) + ", PyTorch gives " + num(e) +
                   (scalarPath ? " (its scalar loop " + num(floatAt(*scalarPath, i)) + ")" : std::string()) +
                   " (atol " + num(tol.atol) + ", rtol " + num(tol.rtol) + ")";
        }
        int64_t a = intAt(actual, i), e = intAt(expected, i);
        if (a == e || (scalarPath && a == intAt(*scalarPath, i))) continue;
        return "element " + indexString(expected.sizes(), i) + " is " + std::to_string(a) + ", PyTorch gives " + std::to_string(e) +
               (scalarPath ? " (its scalar loop " + std::to_string(intAt(*scalarPath, i)) + ")" : std::string());
    }
    return {};
}

} // namespace

const char* outcomeName(Outcome o) {
    switch (o) {
    case Outcome::Pass: return "pass";
    case Outcome::Fail: return "fail";
    case Outcome::Unsupported: return "unsupported";
    case Outcome::NoKernel: return "no kernel";
    }
    return "?";
}

std::string compareTensor(const Tensor& actual, const Tensor& expected, const exec::Shape& expectedStrides, Tolerance tol,
                          bool values, const Tensor* scalarPath) {
    if (actual.dtype() != expected.dtype())
        return "dtype is " + dtypeName(actual.dtype()) + ", PyTorch gives " + dtypeName(expected.dtype());
    if (actual.sizes() != expected.sizes())
        return "shape is " + exec::shapeToString(actual.sizes()) + ", PyTorch gives " + exec::shapeToString(expected.sizes());
    for (size_t k = 0; k < expectedStrides.size() && k < actual.strides().size(); ++k) {
        if (actual.sizes()[k] > 1 && actual.strides()[k] != expectedStrides[k])
            return "strides are " + exec::shapeToString(actual.strides()) + ", PyTorch gives " + exec::shapeToString(expectedStrides);
    }
    if (scalarPath && (scalarPath->dtype() != expected.dtype() || scalarPath->sizes() != expected.sizes())) scalarPath = nullptr;
    return values ? compareValues(actual, expected, tol, scalarPath) : std::string();
}

std::string checkDistribution(const Tensor& actual, const std::string& law, double a, double b) {
    const int64_t n = actual.numel();
    std::vector<double> v(static_cast<size_t>(n));
    const bool floating = isFloatingType(actual.dtype());
    for (int64_t k = 0; k < n; ++k) v[static_cast<size_t>(k)] = floating ? floatAt(actual, k) : static_cast<double>(intAt(actual, k));
    if (law == "permutation") {
        std::sort(v.begin(), v.end());
        for (int64_t k = 0; k < n; ++k)
            if (v[static_cast<size_t>(k)] != static_cast<double>(k)) return "not a permutation of 0.." + std::to_string(n - 1) + ": sorted element " + std::to_string(k) + " is " + num(v[static_cast<size_t>(k)]);
        return {};
    }
    // reduced floats round the upper end of a uniform draw onto it
    const bool reduced = actual.dtype() == ScalarType::Float16 || actual.dtype() == ScalarType::BFloat16;
    for (int64_t k = 0; k < n; ++k) {
        const double x = v[static_cast<size_t>(k)];
        if (!std::isfinite(x)) return "element " + std::to_string(k) + " is " + num(x);
        if (law == "uniform" && (x < a || x > b || (x == b && !reduced)))
            return "element " + std::to_string(k) + " is " + num(x) + ", outside [" + num(a) + ", " + num(b) + ")";
    }
    if (n < 100) return {};
    double mean = 0, var = 0;
    for (double x : v) mean += x;
    mean /= static_cast<double>(n);
    for (double x : v) var += (x - mean) * (x - mean);
    var /= static_cast<double>(n - 1);
    // the law's mean and variance, and the relative standard error of a sample variance
    const double mu = law == "uniform" ? (a + b) / 2 : a, sigma2 = law == "uniform" ? (b - a) * (b - a) / 12 : b * b;
    const double varError = (law == "uniform" ? 0.8944 : std::sqrt(2.0)) / std::sqrt(static_cast<double>(n));
    if (std::abs(mean - mu) > 6 * std::sqrt(sigma2 / static_cast<double>(n)))
        return "the mean of " + std::to_string(n) + " draws is " + num(mean) + ", the law's " + num(mu);
    if (std::abs(var / sigma2 - 1) > 6 * varError + 0.01) // + 1%: reduced floats round every draw
        return "the variance of " + std::to_string(n) + " draws is " + num(var) + ", the law's " + num(sigma2);
    return {};
}

std::string checkSvd(const Tensor& a, const Tensor& u, const Tensor& s, const Tensor& vh, double eps) {
    if (a.dim() < 2 || u.dim() != a.dim() || vh.dim() != a.dim() || s.dim() != a.dim() - 1) return "outputs of the wrong rank";
    const int64_t m = a.size(a.dim() - 2), n = a.size(a.dim() - 1), k = s.size(s.dim() - 1);
    const int64_t uc = u.size(u.dim() - 1), vr = vh.size(vh.dim() - 2), nb = m * n != 0 ? a.numel() / (m * n) : 0;
    for (int64_t b = 0; b < nb; ++b) {
        auto U = [&](int64_t i, int64_t j) { return floatAt(u, (b * m + i) * uc + j); };
        auto V = [&](int64_t i, int64_t j) { return floatAt(vh, (b * vr + i) * n + j); };
        double scale = 0;
        for (int64_t e = 0; e < m * n; ++e) scale = std::max(scale, std::abs(floatAt(a, b * m * n + e)));
        for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j) {
                double r = 0;
                for (int64_t l = 0; l < k; ++l) r += U(i, l) * floatAt(s, b * k + l) * V(l, j);
                const double want = floatAt(a, (b * m + i) * n + j);
                if (!(std::abs(r - want) <= eps * std::max(scale, 1.0)))
                    return "matrix " + std::to_string(b) + ": U diag(S) Vh [" + std::to_string(i) + ", " + std::to_string(j) + "] is " + num(r) + ", the input " + num(want);
            }
        for (int64_t p = 0; p < uc; ++p)
            for (int64_t q = p; q < uc; ++q) {
                double d = 0;
                for (int64_t i = 0; i < m; ++i) d += U(i, p) * U(i, q);
                if (!(std::abs(d - (p == q)) <= eps)) return "matrix " + std::to_string(b) + ": U's columns " + std::to_string(p) + " and " + std::to_string(q) + " have the product " + num(d);
            }
        for (int64_t p = 0; p < vr; ++p)
            for (int64_t q = p; q < vr; ++q) {
                double d = 0;
                for (int64_t j = 0; j < n; ++j) d += V(p, j) * V(q, j);
                if (!(std::abs(d - (p == q)) <= eps)) return "matrix " + std::to_string(b) + ": Vh's rows " + std::to_string(p) + " and " + std::to_string(q) + " have the product " + num(d);
            }
    }
    return {};
}

Result<KnownFailures> loadKnownFailures(const std::string& path) {
    std::ifstream f(path);
    if (!f) return Status::error("cannot open " + path);
    KnownFailures k;
    std::string line;
    for (int n = 1; std::getline(f, line); ++n) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream ss(line);
        std::string op, dtype, why;
        std::getline(ss, op, '\t');
        std::getline(ss, dtype, '\t');
        std::getline(ss, why);
        if (op.empty() || dtype.empty() || why.empty())
            return Status::error(path + ":" + std::to_string(n) + ": expected 'op<TAB>dtype<TAB>why'");
        k.entries[{op, dtype}] = why;
    }
    return k;
}

} // namespace irlens::core::conformance
