#pragma once
// The numbers that say how far one tensor is from another (a value irlens computed against a
// reference, or the left program's value against the right's), and how many elements of a tensor
// are not finite. Every comparison of values in irlens goes through here.
//
// For a value a and its reference r of n elements (NaN against NaN and an infinity against the same
// infinity count as equal and are left out of the sums; a NaN or infinity against anything else makes
// every error infinite):
//   max abs error            max |a_i - r_i|
//   max relative error       max |a_i - r_i| / |r_i| over the elements where r_i != 0
//   normwise relative error  ||a - r||_2 / ||r||_2          (0 when both are all zero, infinite when only r is)
//   cosine similarity        <a, r> / (||a||_2 ||r||_2)     (1 when both are all zero, 0 when one is)
//   SQNR                     10 log10(||r||_2^2 / ||a - r||_2^2) dB (infinite when a equals r)
// Integer and bool values are compared exactly: they agree only when every element is equal.

#include "core/exec/tensor.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace irlens::core {

struct NodeError {
    double maxAbs = 0;
    double maxRel = 0;
    double normRel = 0;
    double cosine = 1;
    double sqnrDb = 0;      // +infinity when equal
    int64_t elements = 0;
    int64_t differing = 0;  // elements not equal (NaN matching NaN counts as equal)
    bool exact = false;     // integer or bool values: compared for equality only
};

/// The error of `actual` against `reference` (same shape, any dtypes; exact when both are integer or bool).
NodeError measureError(const exec::Tensor& actual, const exec::Tensor& reference);

/// How close two values must be to agree.
struct Tolerance {
    /// On the normwise relative error. PyTorch's and irlens's own rounding of the same program stay
    /// below 1e-5 on every shared fixture (docs/numeric-debugging.md); a 1 % change of one value
    /// gives about 1e-2.
    double normRel = 1e-4;
    /// Values whose max abs error is at most this agree whatever their scale (a reference of all
    /// zeros against 1e-9 of rounding).
    double atol = 1e-6;
};

/// Whether `e` is within `tol` (exact values: every element equal).
bool withinTolerance(const NodeError& e, const Tolerance& tol);

/// The non-finite elements of a tensor.
struct FiniteCount {
    int64_t nan = 0;
    int64_t posInf = 0;
    int64_t negInf = 0;
    int64_t first = -1;  // flat index (C order) of the first non-finite element, -1 when none
    int64_t total() const { return nan + posInf + negInf; }
};

/// Counts NaN and ±Inf (integer and bool tensors have none).
FiniteCount countNonFinite(const exec::Tensor& t);

/// What one value holds, for showing it beside another: its finite elements' min, max, mean and
/// standard deviation, its NaN and infinity counts, and a histogram of its finite elements over
/// [lo, hi] (shared by the two values of a pair, so that their bars line up).
struct ValueStats {
    int64_t elements = 0;
    int64_t finite = 0;          // elements that are neither NaN nor infinite
    double min = 0, max = 0, mean = 0, std = 0;  // over the finite elements (0 when there are none)
    FiniteCount nonFinite;
    double lo = 0, hi = 0;       // the histogram's range
    std::vector<int64_t> histogram;  // equal-width bins over [lo, hi]; the last bin includes hi
};

/// The statistics of `t` with a histogram of `bins` bins over its own finite range.
ValueStats valueStatsOf(const exec::Tensor& t, int bins);
/// The statistics of a value and its reference, their histograms over the range both span.
std::pair<ValueStats, ValueStats> valueStatsOfPair(const exec::Tensor& value, const exec::Tensor& reference, int bins);

/// "[1, 0, 3]": the index of flat element `flat` (C order) in a tensor of `sizes`.
std::string indexText(int64_t flat, const exec::Shape& sizes);

/// The numbers as text: "1.2e-07", "inf", "-inf", "nan".
std::string formatMeasure(double v);

} // namespace irlens::core
