#pragma once
// Numeric debugging of one program: pick the inputs, run the program node by node (one thread, no
// fusion, so that every node computes its own value), and look at every value as it is produced:
// write it to a dump, compare it with a reference captured elsewhere (PyTorch), and find the first
// node that makes a NaN or an infinity out of finite inputs. One job that `irlens-cli run --dump /
// --reference / --check-finite` and the GUI's numerics both call; values are read right after their
// node ran and never held longer than the run itself holds them, so memory stays bounded.

#include "core/compare/measures.h"
#include "core/exec/run_compare.h"
#include "core/ir/program.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace irlens::core {

struct NumericRunOptions {
    exec::InputRequest inputs;          // where the inputs come from, as for any run
    std::string reference;              // values keyed by node name: .safetensors, a .pt dict or a folder of .npy ("" none)
    Tolerance tolerance;
    std::string dumpPath;               // write every value to this .safetensors file ("" none)
    std::string programLabel;           // names the program in the dump's metadata (its file)
    int statsBins = 0;                  // > 0: keep every value's statistics with a histogram of this many bins
    std::function<void(int done, int total)> progress;  // after each node, on the calling thread
    const std::atomic<bool>* cancel = nullptr;          // read between nodes
};

/// What became of one value compared with the reference.
enum class ValueCheck {
    Agree,          // within the tolerance
    Differ,         // beyond the tolerance
    ShapeMismatch,  // the reference's value has another shape
    DtypeMismatch,  // the reference's value has another dtype (measured anyway when the shapes agree)
    NoReference,    // the reference has no value of that name (or no reference was given)
    NotCompared,    // a dtype the measures do not read (complex)
};
const char* valueCheckName(ValueCheck c); // "agree", "differ", "shape", "dtype", "missing", "not compared"

/// One tensor value a node of the top-level graph produced.
struct ValueRecord {
    int node = -1;               // index in the graph's node list
    std::string name;            // as print(ep.graph) names it (a multi-output node's values: their getitem names)
    std::string shape;           // irlens's value, "f32[4, 10]"
    std::vector<int64_t> sizes;  // irlens's value
    std::string referenceShape;  // the reference's value, "" when there is none
    ValueCheck check = ValueCheck::NoReference;
    NodeError error;             // for Agree, Differ and DtypeMismatch
    FiniteCount finite;          // NaN / ±Inf in irlens's value
    std::optional<ValueStats> stats;          // irlens's value (NumericRunOptions::statsBins > 0)
    std::optional<ValueStats> referenceStats; // the reference's value of the same shape, its histogram over the range both span
    bool read = true;            // some node or the graph output reads it (false: an unused tuple element, `*_unused_<i>`)
    bool failed() const { return check == ValueCheck::Differ || check == ValueCheck::ShapeMismatch || check == ValueCheck::DtypeMismatch; }
};

/// Where the NaN and infinities of a run come from.
struct NonFiniteOrigin {
    /// Values whose node made a NaN from inputs without NaN, or an infinity from finite inputs, in
    /// execution order (indices into NumericRun::values); the first is the producer.
    std::vector<int> producers;
    /// Values whose non-finite elements come from a non-finite literal argument (masked_fill(x, m, -inf)).
    std::vector<int> fromConstants;
    int carriers = 0;                           // values that only carry a NaN or infinity on from an input
    std::vector<std::string> nonFiniteInputs;   // graph inputs (user inputs, parameters, buffers) holding some
    int first() const { return producers.empty() ? -1 : producers.front(); }
    bool any() const { return !producers.empty() || !nonFiniteInputs.empty(); }
};

struct NumericRun {
    std::string inputsFrom;
    exec::RunResult result;                 // the graph outputs
    std::vector<ValueRecord> values;        // every tensor value of the top-level graph's nodes, in execution order
    Tolerance tolerance;
    bool compared = false;                  // a reference was given
    std::string referencePath;
    std::map<std::string, std::string> referenceMetadata;
    std::vector<std::string> referenceOnly; // names the reference holds and the program does not produce
    int firstDivergent = -1;                // index into values of the first failed() value; -1 when none
    std::vector<int> agreeingChain;         // indices into values: producers leading to it that agree, in order
    NonFiniteOrigin nonFinite;
    std::string dumpPath;
    size_t dumped = 0;                      // values written to the dump
    uint64_t dumpBytes = 0;
    std::vector<std::string> notDumped;     // values the dump format cannot hold (complex dtypes)

    size_t count(ValueCheck c) const;
    /// "all 218 compared values agree with the reference (...)" or "first divergence at ...", "" without a reference.
    std::string verdict(const Program& program) const;
};

/// The numeric pass over `program` (see the file comment). Errors: inputs or reference unreadable,
/// a reference that names none of the program's values, a node that cannot run (named), cancelled.
Result<NumericRun> runNumerics(ProgramPtr program, const NumericRunOptions& options);

/// Judges the measured values of `run` again against another tolerance: Agree and Differ, the first
/// divergence and its agreeing chain (shape, dtype and missing values stay as they are).
void applyTolerance(NumericRun& run, const Program& program, const Tolerance& tolerance);

/// "addmm (aten.addmm.default, layers.0.fc) model.py:12": a node as the numeric reports name it.
std::string describeNode(const Program& program, int node);

} // namespace irlens::core
