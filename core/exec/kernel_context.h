#pragma once
// What a kernel sees: its node, its arguments bound by schema name (with the schema position as a
// fallback for positional-only targets such as HOPs and `_operator.*`), an allocator that counts
// bytes, its outputs, and a per-node cache for prepared primitives.
//
// Kernels report bad input by throwing KernelError through the helpers below; the engine catches it
// at the node boundary and turns it into a Status naming the node. Nothing escapes core.

#include "core/exec/value.h"
#include "core/ir/program.h"

#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace irlens::core::exec {

class KernelError : public std::exception {
public:
    explicit KernelError(std::string m) : m_message(std::move(m)) {}
    const char* what() const noexcept override { return m_message.c_str(); }
private:
    std::string m_message;
};

[[noreturn]] inline void kernelFail(const std::string& message) { throw KernelError(message); }
inline void kernelCheck(bool ok, const std::string& message) { if (!ok) throw KernelError(message); }
/// Unwraps a Result inside a kernel (throws its message).
template <class T> T unwrap(Result<T> r) { if (!r) throw KernelError(r.error()); return std::move(r.value()); }

/// Per plan node, survives across runs: prepared primitives, reordered weights.
struct NodeCache {
    std::mutex mutex;
    std::shared_ptr<void> data;
    // profiler: the FLOP estimate of the last run, reused while the output size stays the same
    std::atomic<int64_t> flopsForNumel{-1};
    std::atomic<double> flops{0};
};

/// The node's cached state of type `State` (which has a `std::string key`): made by `make()` on the
/// first run and whenever `key` (shape, weights, options) differs from the cached one's.
template <class State, class Make>
std::shared_ptr<State> nodeState(NodeCache& cache, const std::string& key, Make make) {
    std::unique_lock lock(cache.mutex);
    auto state = std::static_pointer_cast<State>(cache.data);
    if (!state || state->key != key) {
        state = make();
        state->key = key;
        cache.data = state;
    }
    return state;
}

/// A scalar argument (`Scalar` in schemas) keeps whether it was an int, float or bool: type promotion needs it.
struct Scalar {
    double value = 0;
    enum class Kind { Int, Float, Bool } kind = Kind::Int;
    bool isFloating() const { return kind == Kind::Float; }
};

struct BoundValue {
    const std::string* name = nullptr;
    const EValue* value = nullptr;
};

class KernelContext {
public:
    /// `args` and `tracker` are held by reference: they must outlive the context (the caller's
    /// bound arguments; the run's tracker, or the outer context's).
    KernelContext(const Node& node, std::span<const BoundValue> args, std::vector<EValue>& outputs, int threads,
                  const std::shared_ptr<AllocTracker>& tracker, NodeCache* cache)
        : m_node(node), m_args(args), m_outputs(outputs), m_threads(threads), m_tracker(tracker), m_cache(cache) {}

    const Node& node() const { return m_node; }
    int threads() const { return m_threads; }

    /// The argument named `name`, else the one at `position` when it has no name; nullptr when omitted or None.
    const EValue* find(std::string_view name, int position = -1) const;
    size_t argCount() const { return m_args.size(); }
    const EValue* argAt(size_t k) const { return k < m_args.size() ? m_args[k].value : nullptr; }
    const std::string* argName(size_t k) const { return k < m_args.size() ? m_args[k].name : nullptr; }
    std::span<const BoundValue> boundArgs() const { return m_args; }

    Tensor tensor(std::string_view name, int position = -1) const;
    std::optional<Tensor> optTensor(std::string_view name, int position = -1) const;
    std::vector<Tensor> tensors(std::string_view name, int position = -1) const;
    int64_t intArg(std::string_view name, int position, int64_t fallback) const;
    int64_t intArg(std::string_view name, int position = -1) const; // required
    std::optional<int64_t> optInt(std::string_view name, int position = -1) const;
    double floatArg(std::string_view name, int position, double fallback) const;
    std::optional<double> optFloat(std::string_view name, int position = -1) const;
    bool boolArg(std::string_view name, int position, bool fallback) const;
    std::vector<int64_t> ints(std::string_view name, int position, std::vector<int64_t> fallback) const;
    std::vector<int64_t> ints(std::string_view name, int position = -1) const; // required
    std::optional<std::vector<int64_t>> optInts(std::string_view name, int position = -1) const;
    Scalar scalar(std::string_view name, int position, std::optional<Scalar> fallback = std::nullopt) const;
    std::optional<ScalarType> dtypeArg(std::string_view name, int position = -1) const;
    std::string stringArg(std::string_view name, int position, std::string fallback) const;

    /// A fresh contiguous tensor; its bytes are counted for the profile.
    Tensor alloc(ScalarType dtype, const Shape& sizes);
    Tensor allocZeros(ScalarType dtype, const Shape& sizes);
    int64_t bytesAllocated() const { return m_bytes; }
    /// Counts bytes a nested context allocated for this call (a kernel run on widened copies).
    void chargeBytes(int64_t bytes) { m_bytes += bytes; }
    const std::shared_ptr<AllocTracker>& tracker() const { return m_tracker; }

    void setOutput(size_t index, EValue v);
    void setOutput(size_t index, Tensor t) { setOutput(index, EValue::fromTensor(std::move(t))); }
    std::vector<EValue>& outputs() { return m_outputs; }

    NodeCache* cache() const { return m_cache; }

    /// Whether anything reads output `index` (a later node or the graph outputs). Kernels may skip
    /// computing an unread secondary output (e.g. max-pool indices) but must still set a tensor.
    bool outputNeeded(size_t index) const { return !m_needed || index >= m_needed->size() || (*m_needed)[index]; }
    void setNeededOutputs(const std::vector<bool>* needed) { m_needed = needed; }

    /// Runs subgraph `index` of this node (HOP branches); set by the engine.
    std::function<std::vector<EValue>(int64_t index, const std::vector<EValue>& inputs)> runSubgraph;

private:
    const Node& m_node;
    std::span<const BoundValue> m_args;
    std::vector<EValue>& m_outputs;
    int m_threads = 1;
    const std::shared_ptr<AllocTracker>& m_tracker;
    NodeCache* m_cache = nullptr;
    int64_t m_bytes = 0;
    const std::vector<bool>* m_needed = nullptr;
};

using KernelFn = void (*)(KernelContext&);

} // namespace irlens::core::exec
