#pragma once
// The engine's tensor: dtype, sizes, strides, storage offset and a shared, refcounted storage.
// Views share storage with their base; fresh allocations are 64-byte aligned. Weights from a
// Program are wrapped in place (no copy) and marked read-only so an in-place kernel cannot
// scribble over the mapped archive.

#include "core/exec/shape.h"
#include "core/ir/dtype.h"
#include "core/ir/program.h"
#include "core/ir/status.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace irlens::core::exec {

/// Counts the bytes the engine allocates (live and peak) and keeps freed blocks for reuse: a plan
/// allocates the same sizes every run, so steady-state runs touch no fresh pages. Shared by the
/// storages it made, so it outlives a run whose outputs are still held.
struct AllocTracker {
    std::atomic<int64_t> live{0};
    std::atomic<int64_t> peak{0};
    std::atomic<int64_t> total{0};
    void add(int64_t bytes);
    void release(int64_t bytes) { live.fetch_sub(bytes, std::memory_order_relaxed); }

    AllocTracker() = default;
    AllocTracker(const AllocTracker&) = delete;
    AllocTracker& operator=(const AllocTracker&) = delete;
    ~AllocTracker();
    /// A pooled block of exactly `bytes` (rounded size), or nullptr.
    void* take(size_t bytes);
    /// Keeps a block for reuse; false when the pool is full (the caller frees it).
    bool give(void* p, size_t bytes);
    size_t maxPooledBytes = size_t(512) << 20;

private:
    std::mutex m_mutex;
    // blocks by rounded size; a size's vector keeps its capacity, so a warm run takes and gives
    // blocks without allocating (a multimap made and freed a node for every tensor)
    std::unordered_map<size_t, std::vector<void*>> m_pool;
    size_t m_pooled = 0;
};

/// One block of bytes. Owns an aligned allocation, or views foreign bytes kept alive by `keep`.
class Buffer {
public:
    Buffer() = default;
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    ~Buffer();

    /// 64-byte aligned, uninitialised; nullptr when the size is absurd or memory is exhausted.
    static std::shared_ptr<Buffer> allocate(size_t bytes, std::shared_ptr<AllocTracker> tracker = {});
    /// Wraps bytes owned elsewhere (read-only: weights, constants).
    static std::shared_ptr<Buffer> wrap(const std::byte* data, size_t bytes, std::shared_ptr<const void> keep);

    std::byte* data() const { return m_data; }
    size_t size() const { return m_size; }
    bool readOnly() const { return m_readOnly; }

private:
    std::byte* m_data = nullptr;
    size_t m_size = 0;
    bool m_owned = false;
    bool m_readOnly = false;
    std::shared_ptr<const void> m_keep;
    std::shared_ptr<AllocTracker> m_tracker;
};

class Tensor {
public:
    Tensor() = default;

    /// A fresh C-contiguous tensor (uninitialised). Sizes must be non-negative.
    static Result<Tensor> empty(ScalarType dtype, const Shape& sizes, std::shared_ptr<AllocTracker> tracker = {});
    /// Same, zero-filled.
    static Result<Tensor> zeros(ScalarType dtype, const Shape& sizes, std::shared_ptr<AllocTracker> tracker = {});
    /// A 0-dim tensor holding one value converted to `dtype`.
    static Tensor scalar(ScalarType dtype, double value);
    /// Views a core TensorData in place (no copy); checks that the view fits its storage.
    static Result<Tensor> fromTensorData(const TensorData& data);
    /// A C-contiguous copy of the bytes as a core TensorData (owned bytes).
    TensorData toTensorData() const;

    bool defined() const { return static_cast<bool>(m_buffer); }
    ScalarType dtype() const { return m_dtype; }
    const Shape& sizes() const { return m_sizes; }
    const Shape& strides() const { return m_strides; }
    int64_t size(int64_t dim) const { return m_sizes[static_cast<size_t>(dim)]; }
    int64_t stride(int64_t dim) const { return m_strides[static_cast<size_t>(dim)]; }
    int64_t dim() const { return static_cast<int64_t>(m_sizes.size()); }
    int64_t storageOffset() const { return m_offset; }
    int64_t numel() const;
    int64_t itemSize() const { return elementSize(m_dtype); }
    int64_t nbytes() const { return numel() * itemSize(); }
    bool isContiguous() const;
    const std::shared_ptr<Buffer>& buffer() const { return m_buffer; }
    bool readOnly() const { return m_buffer && m_buffer->readOnly(); }

    /// Pointer to element [0, ..., 0].
    std::byte* raw() const { return m_buffer ? m_buffer->data() + m_offset * itemSize() : nullptr; }
    template <class T> T* data() const { return reinterpret_cast<T*>(raw()); }

    /// A view with other sizes/strides/offset on the same storage (caller checks bounds).
    Tensor asStrided(Shape sizes, Shape strides, int64_t offset) const;
    /// A view of the same storage as another dtype (the real and imaginary parts of complex storage);
    /// `offset` counts elements of `dtype`; the caller checks bounds.
    Tensor reinterpret(ScalarType dtype, Shape sizes, Shape strides, int64_t offset) const;
    /// Whether every element of the view lies inside the storage.
    bool fitsStorage() const;

    /// Element [flat index in C order] converted to double (slow; tests and summaries).
    double at(int64_t flatIndex) const;
    std::string shapeString() const; // "f32[2, 3]"

private:
    ScalarType m_dtype = ScalarType::Float32;
    Shape m_sizes;
    Shape m_strides;
    int64_t m_offset = 0;
    std::shared_ptr<Buffer> m_buffer;
};

/// C-contiguous strides for `sizes`.
Shape contiguousStrides(const Shape& sizes);
int64_t shapeNumel(const Shape& sizes);
std::string shapeToString(const Shape& sizes);

} // namespace irlens::core::exec
