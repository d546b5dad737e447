#pragma once
// Runs the conformance corpus through the kernel registry and compares with PyTorch's answers:
// integers and bools exactly, floats within a tolerance per dtype (looser per op where PyTorch's
// own tests are), NaN equal to NaN, infinities by sign, the sign of zero as PyTorch gives it,
// output dtype, shape and strides (strides of size-1 dimensions do not matter).
// One job, one place: `tst_op_conformance` and `irlens-cli ops --coverage` both call this.

#include "core/conformance/corpus.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace irlens::core::conformance {

enum class Outcome {
    Pass,
    Fail,        // the kernel ran and disagrees with PyTorch, or failed on a call PyTorch ran
    Unsupported, // the kernel refused the dtype cleanly ("... is not supported by this kernel")
    NoKernel,    // no kernel registered for the op
};
const char* outcomeName(Outcome o);

struct CaseResult {
    Outcome outcome = Outcome::Pass;
    std::string message; // Fail / Unsupported: what differs, naming the output and first differing element
};

struct Tolerance {
    double atol = 0;
    double rtol = 0;
};
/// The float tolerance for `op` at `dtype` (integers and bools are compared exactly).
Tolerance toleranceFor(const std::string& op, ScalarType dtype);

/// Compares one output with PyTorch's; empty when equal, else the first difference. With `scalarPath`
/// (PyTorch's scalar-loop answer for the same call, see CaseRecord::scalarPath) an element also agrees
/// when it matches that answer.
std::string compareTensor(const exec::Tensor& actual, const exec::Tensor& expected, const exec::Shape& expectedStrides,
                          Tolerance tol, bool values, const exec::Tensor* scalarPath = nullptr);

/// Runs one recorded call on `threads` threads.
CaseResult runCase(const Corpus& corpus, const CaseRecord& c, int threads);

/// Known failures: "op<TAB>dtype<TAB>why" lines; '#' starts a comment.
struct KnownFailures {
    std::map<std::pair<std::string, std::string>, std::string> entries;
    bool contains(const std::string& op, const std::string& dtype) const { return entries.count({op, dtype}) != 0; }
};
/// The values of a random op's output against its law, "" when they fit: "uniform" on [a, b) (range,
/// and from 100 draws mean and variance within 6 standard errors), "normal" with mean a and standard
/// deviation b (finite, mean and variance within 6 standard errors), "permutation" (exactly 0..n-1).
std::string checkDistribution(const exec::Tensor& actual, const std::string& law, double a, double b);
/// An SVD against its input, "" when it holds: U's columns and Vh's rows orthonormal and U diag(S) Vh
/// equal to `a` (per matrix, within `eps` of its largest element), the parts that do not depend on the
/// signs LAPACK happens to give the singular vectors.
std::string checkSvd(const exec::Tensor& a, const exec::Tensor& u, const exec::Tensor& s, const exec::Tensor& vh, double eps);

Result<KnownFailures> loadKnownFailures(const std::string& path);

/// Results of the corpus per (op, dtype).
struct Cell {
    int pass = 0, fail = 0, unsupported = 0, noKernel = 0;
    bool known = false;           // listed in the known failures
    std::string firstFailure;     // label + message of the first failing case
};
struct CorpusReport {
    std::map<std::string, std::map<std::string, Cell>> cells; // op -> dtype -> cell
    std::vector<std::string> failures;                         // every failing case, not known: label: message
    std::vector<std::string> stale;                            // known failures that no longer fail
    int cases = 0;
    /// Covered: it has a kernel and every recorded case passes (Unsupported counts as not covered).
    static bool covered(const Cell& c) { return c.pass > 0 && c.fail == 0 && c.unsupported == 0 && c.noKernel == 0; }
};

/// Runs every case at each thread count in `threads` (a case passes only when it passes at all).
CorpusReport runCorpus(const Corpus& corpus, const KnownFailures& known, const std::vector<int>& threads);

} // namespace irlens::core::conformance
