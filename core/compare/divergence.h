#pragma once
// Numeric divergence of two matched programs: both run on the engine on the same inputs, every
// intermediate value kept, and every matched pair of values compared (where the shapes agree). The
// first pair in the left program's topological order whose values differ beyond the tolerance is
// the divergence, reported with its error and the chain of matched producers before it that still
// agree. The left program's value is the reference of each measure (measures.h).

#include "core/compare/measures.h"
#include "core/compare/program_match.h"
#include "core/ir/status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace irlens::core {

struct DivergenceOptions {
    double tolerance = Tolerance{}.normRel;  // on the normwise relative error ||b - a|| / ||a|| (measures.h)
    double atol = Tolerance{}.atol;          // pairs whose max |a - b| is below this agree whatever their scale
    int threads = 1;          // engine threads (1: both runs are deterministic)
    std::string expectedDir;  // a model.expected/ folder whose main case gives the inputs; "" = the left
                              // program's sample inputs, else inputs generated from its meta (seed 0)
};

/// One compared pair of values.
struct ValueComparison {
    int pair = -1;          // index into ProgramMatch::pairs
    int rightNode = -1;     // the right node whose value was compared (one of the pair's right nodes)
    NodeError error;        // the right value against the left one: the five measures
    double maxAbs = 0;      // error.maxAbs
    double relative = 0;    // error.normRel, the measure the tolerance applies to
    int64_t elements = 0;
    bool agree = true;
};

struct Divergence {
    std::string inputs;                     // where the inputs came from ("model.expected/ main case", ...)
    std::vector<ValueComparison> compared;  // in the left program's node order
    size_t skipped = 0;                     // matched pairs without comparable values (shape, no tensor output)
    int first = -1;                         // index into `compared` of the first divergent pair; -1 when all agree
    std::vector<int> agreeingPath;          // indices into ProgramMatch::pairs: the producers leading to the
                                            // first divergent node that still agree, in order
    bool outputsAgree = true;               // every compared user output agrees

    const ValueComparison* firstDivergent() const { return first >= 0 ? &compared[static_cast<size_t>(first)] : nullptr; }
    /// "first divergence at silu (aten.silu.default, blocks.2.act): max abs 0.12, normwise rel 0.034, SQNR 29.4 dB; 148 matched
    /// values before it agree".
    std::string summary(const ProgramMatch& match) const;
};

/// Runs both programs of `match` and compares the matched intermediate values. Errors when a program
/// cannot run (no kernel, inputs that do not fit), naming the side and the node.
Result<Divergence> findDivergence(const ProgramMatch& match, const DivergenceOptions& options = {});

} // namespace irlens::core
