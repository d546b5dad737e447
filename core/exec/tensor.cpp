#include "core/exec/tensor.h"

#include "core/exec/kernels/util/float_to_int.h"
#include "core/exec/kernels/util/half.h"

#include <cstdlib>
#include <cstring>
#include <new>

namespace irlens::core::exec {

namespace {
// No single allocation beyond 64 GiB: a hostile meta cannot make us ask the OS for exabytes.
constexpr size_t kMaxAllocation = size_t(64) << 30;
} // namespace

void AllocTracker::add(int64_t bytes) {
    total.fetch_add(bytes, std::memory_order_relaxed);
    int64_t now = live.fetch_add(bytes, std::memory_order_relaxed) + bytes;
    int64_t p = peak.load(std::memory_order_relaxed);
    while (now > p && !peak.compare_exchange_weak(p, now, std::memory_order_relaxed)) {}
}

AllocTracker::~AllocTracker() {
    for (auto& [size, blocks] : m_pool)
        for (void* p : blocks) std::free(p);
}

void* AllocTracker::take(size_t bytes) {
    std::lock_guard lock(m_mutex);
    auto it = m_pool.find(bytes);
    if (it == m_pool.end() || it->second.empty()) return nullptr;
    void* p = it->second.back();
    it->second.pop_back();
    m_pooled -= bytes;
    return p;
}

bool AllocTracker::give(void* p, size_t bytes) {
    std::lock_guard lock(m_mutex);
    if (m_pooled + bytes > maxPooledBytes) return false;
    try {
        m_pool[bytes].push_back(p);
    } catch (const std::bad_alloc&) {
        return false; // the caller frees the block
    }
    m_pooled += bytes;
    return true;
}

namespace {
size_t roundedSize(size_t bytes) {
    size_t r = (bytes + 63) / 64 * 64;
    return r == 0 ? 64 : r;
}
} // namespace

Buffer::~Buffer() {
    if (m_owned) {
        if (m_tracker) {
            m_tracker->release(static_cast<int64_t>(m_size));
            if (m_tracker->give(m_data, roundedSize(m_size))) return;
        }
        std::free(m_data);
    }
}

std::shared_ptr<Buffer> Buffer::allocate(size_t bytes, std::shared_ptr<AllocTracker> tracker) {
    if (bytes > kMaxAllocation) return nullptr;
    size_t rounded = roundedSize(bytes);
    void* p = tracker ? tracker->take(rounded) : nullptr;
    if (!p) p = std::aligned_alloc(64, rounded);
    if (!p) return nullptr;
    std::shared_ptr<Buffer> b;
    try {
        b = std::make_shared<Buffer>(); // the Buffer and its count in one allocation
    } catch (const std::bad_alloc&) {
        std::free(p);
        return nullptr;
    }
    b->m_data = static_cast<std::byte*>(p);
    b->m_size = bytes;
    b->m_owned = true;
    b->m_tracker = std::move(tracker);
    if (b->m_tracker) b->m_tracker->add(static_cast<int64_t>(bytes));
    return b;
}

std::shared_ptr<Buffer> Buffer::wrap(const std::byte* data, size_t bytes, std::shared_ptr<const void> keep) {
    auto b = std::make_shared<Buffer>();
    // Wrapped bytes belong to the archive/program; kernels never write through a read-only buffer.
    b->m_data = const_cast<std::byte*>(data);
    b->m_size = bytes;
    b->m_readOnly = true;
    b->m_keep = std::move(keep);
    return b;
}

Shape contiguousStrides(const Shape& sizes) {
    Shape st(sizes.size());
    int64_t acc = 1;
    for (size_t k = sizes.size(); k-- > 0;) {
        st[k] = acc;
        acc *= sizes[k] > 0 ? sizes[k] : 1;
    }
    return st;
}

int64_t shapeNumel(const Shape& sizes) {
    int64_t n = 1;
    for (auto s : sizes) n *= s;
    return n;
}

std::string shapeToString(const Shape& sizes) {
    std::string s = "[";
    for (size_t k = 0; k < sizes.size(); ++k) s += (k ? ", " : "") + std::to_string(sizes[k]);
    return s + "]";
}

Result<Tensor> Tensor::empty(ScalarType dtype, const Shape& sizes, std::shared_ptr<AllocTracker> tracker) {
    int64_t es = elementSize(dtype);
    if (es == 0) return Status::error("cannot allocate a tensor of dtype " + dtypeName(dtype));
    int64_t n = 1;
    for (auto s : sizes) {
        if (s < 0) return Status::error("negative size in " + shapeToString(sizes));
        if (s != 0 && n > (int64_t(1) << 40) / s) return Status::error("tensor too large: " + shapeToString(sizes));
        n *= s;
    }
    Tensor t;
    t.m_dtype = dtype;
    t.m_sizes = sizes;
    t.m_strides = contiguousStrides(sizes);
    t.m_buffer = Buffer::allocate(static_cast<size_t>(n * es), std::move(tracker));
    if (!t.m_buffer)
        return Status::error("out of memory allocating " + std::to_string(n * es) + " bytes for " + dtypeShortName(dtype) +
                             shapeToString(sizes));
    return t;
}

Result<Tensor> Tensor::zeros(ScalarType dtype, const Shape& sizes, std::shared_ptr<AllocTracker> tracker) {
    auto r = empty(dtype, sizes, std::move(tracker));
    if (r) std::memset(r->raw(), 0, static_cast<size_t>(r->nbytes()));
    return r;
}

Tensor Tensor::scalar(ScalarType dtype, double value) {
    Tensor t = *empty(dtype, {});
    switch (dtype) {
    case ScalarType::Float32: *t.data<float>() = static_cast<float>(value); break;
    case ScalarType::Float64: *t.data<double>() = value; break;
    case ScalarType::Int64: *t.data<int64_t>() = floatToInt<int64_t>(value); break;
    case ScalarType::Int32: *t.data<int32_t>() = floatToInt<int32_t>(value); break;
    case ScalarType::Int16: *t.data<int16_t>() = floatToInt<int16_t>(value); break;
    case ScalarType::Int8: *t.data<int8_t>() = floatToInt<int8_t>(value); break;
    case ScalarType::UInt8: *t.data<uint8_t>() = floatToInt<uint8_t>(value); break;
    case ScalarType::Bool: *t.data<bool>() = value != 0; break;
    case ScalarType::Float16: case ScalarType::BFloat16: *t.data<uint16_t>() = floatToReduced(dtype, static_cast<float>(value)); break;
    default: std::memset(t.raw(), 0, static_cast<size_t>(t.itemSize())); break;
    }
    return t;
}

Result<Tensor> Tensor::fromTensorData(const TensorData& data) {
    if (elementSize(data.dtype) == 0) return Status::error("unsupported dtype " + dtypeName(data.dtype));
    Tensor t;
    t.m_dtype = data.dtype;
    t.m_sizes = data.sizes;
    t.m_strides = data.strides.size() == data.sizes.size() ? Shape(data.strides) : contiguousStrides(data.sizes);
    t.m_offset = data.storageOffset;
    if (!data.storage || !data.storage->data) {
        if (data.numel() != 0) return Status::error("tensor " + dtypeShortName(data.dtype) + shapeToString(data.sizes) + " has no data");
        t.m_buffer = Buffer::allocate(0);
        return t;
    }
    t.m_buffer = Buffer::wrap(data.storage->data, data.storage->size, data.storage);
    if (!t.fitsStorage())
        return Status::error("tensor view " + dtypeShortName(data.dtype) + shapeToString(data.sizes) + " does not fit its " +
                             std::to_string(data.storage->size) + "-byte storage");
    return t;
}

TensorData Tensor::toTensorData() const {
    TensorData d;
    d.dtype = m_dtype;
    d.sizes = m_sizes;
    d.strides = contiguousStrides(m_sizes);
    std::vector<std::byte> bytes(static_cast<size_t>(nbytes()));
    const int64_t n = numel(), es = itemSize();
    if (isContiguous()) {
        if (n) std::memcpy(bytes.data(), raw(), bytes.size());
    } else {
        Shape idx(m_sizes.size(), 0);
        for (int64_t e = 0; e < n; ++e) {
            int64_t off = 0;
            for (size_t k = 0; k < idx.size(); ++k) off += idx[k] * m_strides[k];
            std::memcpy(bytes.data() + e * es, raw() + off * es, static_cast<size_t>(es));
            for (size_t k = idx.size(); k-- > 0;) {
                if (++idx[k] < m_sizes[k]) break;
                idx[k] = 0;
            }
        }
    }
    d.storage = Storage::fromBytes(std::move(bytes));
    return d;
}

int64_t Tensor::numel() const { return shapeNumel(m_sizes); }

bool Tensor::isContiguous() const {
    int64_t expected = 1;
    for (size_t k = m_sizes.size(); k-- > 0;) {
        if (m_sizes[k] == 1) continue;
        if (m_strides[k] != expected) return false;
        expected *= m_sizes[k];
    }
    return true;
}

Tensor Tensor::asStrided(Shape sizes, Shape strides, int64_t offset) const {
    Tensor t;
    t.m_dtype = m_dtype;
    t.m_sizes = std::move(sizes);
    t.m_strides = std::move(strides);
    t.m_offset = offset;
    t.m_buffer = m_buffer;
    return t;
}

Tensor Tensor::reinterpret(ScalarType dtype, Shape sizes, Shape strides, int64_t offset) const {
    Tensor t = asStrided(std::move(sizes), std::move(strides), offset);
    t.m_dtype = dtype;
    return t;
}

bool Tensor::fitsStorage() const {
    if (!m_buffer || m_sizes.size() != m_strides.size() || m_offset < 0) return false;
    if (numel() == 0) return true;
    int64_t lo = m_offset, hi = m_offset;
    for (size_t k = 0; k < m_sizes.size(); ++k) {
        if (m_strides[k] >= 0) hi += (m_sizes[k] - 1) * m_strides[k];
        else lo += (m_sizes[k] - 1) * m_strides[k];
    }
    return lo >= 0 && static_cast<uint64_t>((hi + 1) * itemSize()) <= m_buffer->size();
}

double Tensor::at(int64_t flat) const {
    int64_t off = 0;
    for (size_t k = m_sizes.size(); k-- > 0;) {
        off += (flat % m_sizes[k]) * m_strides[k];
        flat /= m_sizes[k];
    }
    const std::byte* p = raw() + off * itemSize();
    switch (m_dtype) {
    case ScalarType::Float32: return *reinterpret_cast<const float*>(p);
    case ScalarType::Float64: return *reinterpret_cast<const double*>(p);
    case ScalarType::Int64: return static_cast<double>(*reinterpret_cast<const int64_t*>(p));
    case ScalarType::Int32: return *reinterpret_cast<const int32_t*>(p);
    case ScalarType::Int16: return *reinterpret_cast<const int16_t*>(p);
    case ScalarType::Int8: return *reinterpret_cast<const int8_t*>(p);
    case ScalarType::UInt8: return *reinterpret_cast<const uint8_t*>(p);
    case ScalarType::Bool: return *reinterpret_cast<const bool*>(p) ? 1.0 : 0.0;
    case ScalarType::Float16: case ScalarType::BFloat16: return reducedToFloat(m_dtype, *reinterpret_cast<const uint16_t*>(p));
    default: return 0;
    }
}

std::string Tensor::shapeString() const { return dtypeShortName(m_dtype) + shapeToString(m_sizes); }

} // namespace irlens::core::exec
