#pragma once
// A tensor's sizes or strides: a vector of int64_t that keeps up to five values in place. Every
// tensor a kernel makes or views carries two of them; as std::vector they would be two heap blocks
// per tensor, the larger part of the engine's own work on a graph of small nodes (deep_stack's 5,404).
// Beyond five values it grows onto the heap like a vector. It converts to and from
// std::vector<int64_t> implicitly, so code that speaks in vectors (schema int lists, the IR's
// TensorData) passes shapes as before. Boost.Container's small_vector, as this class's base, ran
// deep_stack and llama_deep about a tenth slower (docs/developer-guide.md, "Written here, and why").

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <type_traits>
#include <vector>

namespace irlens::core::exec {

class Shape {
public:
    using value_type = int64_t;
    using size_type = size_t;
    using difference_type = std::ptrdiff_t;
    using reference = int64_t&;
    using const_reference = const int64_t&;
    using pointer = int64_t*;
    using const_pointer = const int64_t*;
    using iterator = int64_t*;
    using const_iterator = const int64_t*;

    static constexpr size_t kInline = 5;

    Shape() = default;
    explicit Shape(size_t n, int64_t value = 0) { assign(n, value); }
    Shape(std::initializer_list<int64_t> values) { assign(values.begin(), values.end()); }
    template <class It, class = std::enable_if_t<!std::is_integral_v<It>>>
    Shape(It first, It last) { assign(first, last); }
    Shape(const std::vector<int64_t>& v) { assign(v.begin(), v.end()); } // NOLINT: implicit on purpose
    Shape(const Shape& o) {
        if (o.onHeap()) assign(o.begin(), o.end());
        else copyInline(o);
    }
    Shape(Shape&& o) noexcept { take(o); }
    ~Shape() { release(); }

    Shape& operator=(const Shape& o) {
        if (this == &o) return *this;
        if (o.onHeap() || onHeap()) assign(o.begin(), o.end());
        else copyInline(o);
        return *this;
    }
    Shape& operator=(Shape&& o) noexcept {
        if (this != &o) {
            release();
            take(o);
        }
        return *this;
    }
    Shape& operator=(std::initializer_list<int64_t> values) {
        assign(values.begin(), values.end());
        return *this;
    }
    Shape& operator=(const std::vector<int64_t>& v) {
        assign(v.begin(), v.end());
        return *this;
    }

    operator std::vector<int64_t>() const { return std::vector<int64_t>(begin(), end()); } // NOLINT: implicit on purpose

    size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    int64_t* data() { return m_data; }
    const int64_t* data() const { return m_data; }

    int64_t& operator[](size_t k) { return m_data[k]; }
    const int64_t& operator[](size_t k) const { return m_data[k]; }
    int64_t& front() { return m_data[0]; }
    const int64_t& front() const { return m_data[0]; }
    int64_t& back() { return m_data[m_size - 1]; }
    const int64_t& back() const { return m_data[m_size - 1]; }

    iterator begin() { return m_data; }
    iterator end() { return m_data + m_size; }
    const_iterator begin() const { return m_data; }
    const_iterator end() const { return m_data + m_size; }

    void reserve(size_t n) {
        if (n > m_cap) grow(n);
    }
    void clear() { m_size = 0; }
    void push_back(int64_t v) {
        if (m_size == m_cap) grow(m_cap * 2);
        m_data[m_size++] = v;
    }
    void pop_back() { --m_size; }
    void resize(size_t n, int64_t value = 0) {
        reserve(n);
        for (size_t k = m_size; k < n; ++k) m_data[k] = value;
        m_size = static_cast<uint32_t>(n);
    }
    void assign(size_t n, int64_t value) {
        m_size = 0;
        resize(n, value);
    }
    template <class It, class = std::enable_if_t<!std::is_integral_v<It>>>
    void assign(It first, It last) {
        const auto n = static_cast<size_t>(std::distance(first, last));
        if (n > m_cap) {
            m_size = 0;
            grow(n);
        }
        std::copy(first, last, m_data);
        m_size = static_cast<uint32_t>(n);
    }
    void assign(std::initializer_list<int64_t> values) { assign(values.begin(), values.end()); }

    iterator insert(const_iterator pos, int64_t v) { return insert(pos, size_t(1), v); }
    iterator insert(const_iterator pos, size_t n, int64_t v) {
        const size_t at = openGap(pos, n);
        std::fill(m_data + at, m_data + at + n, v);
        return m_data + at;
    }
    template <class It, class = std::enable_if_t<!std::is_integral_v<It>>>
    iterator insert(const_iterator pos, It first, It last) {
        const Shape values(first, last); // the range may lie inside this shape
        const size_t at = openGap(pos, values.size());
        std::copy(values.begin(), values.end(), m_data + at);
        return m_data + at;
    }
    iterator insert(const_iterator pos, std::initializer_list<int64_t> values) { return insert(pos, values.begin(), values.end()); }
    iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
    iterator erase(const_iterator first, const_iterator last) {
        const auto at = static_cast<size_t>(first - m_data);
        const auto n = static_cast<size_t>(last - first);
        std::copy(m_data + at + n, m_data + m_size, m_data + at);
        m_size -= static_cast<uint32_t>(n);
        return m_data + at;
    }

    friend bool operator==(const Shape& a, const Shape& b) { return std::equal(a.begin(), a.end(), b.begin(), b.end()); }
    friend bool operator==(const Shape& a, const std::vector<int64_t>& b) { return std::equal(a.begin(), a.end(), b.begin(), b.end()); }
    friend bool operator==(const std::vector<int64_t>& a, const Shape& b) { return b == a; }
    friend bool operator!=(const Shape& a, const Shape& b) { return !(a == b); }
    friend bool operator!=(const Shape& a, const std::vector<int64_t>& b) { return !(a == b); }
    friend bool operator!=(const std::vector<int64_t>& a, const Shape& b) { return !(b == a); }

private:
    // to room for at least n values (twice the in-place count at least), keeping the current ones
    void grow(size_t n) {
        const size_t cap = std::max(n, 2 * kInline);
        auto* block = new int64_t[cap];
        std::copy(m_data, m_data + m_size, block);
        if (onHeap()) delete[] m_data;
        m_data = block;
        m_cap = static_cast<uint32_t>(cap);
    }
    size_t openGap(const_iterator pos, size_t n) {
        const auto at = static_cast<size_t>(pos - m_data);
        reserve(m_size + n);
        std::copy_backward(m_data + at, m_data + m_size, m_data + m_size + n);
        m_size += static_cast<uint32_t>(n);
        return at;
    }
    bool onHeap() const { return m_data != m_inline; }
    // the whole in-place array, a fixed-size copy the compiler inlines (a call to memmove for a
    // size known only at run time cost more than the copy itself); this shape must be in place too
    void copyInline(const Shape& o) {
        for (size_t k = 0; k < kInline; ++k) m_inline[k] = o.m_inline[k];
        m_size = o.m_size;
    }
    void release() {
        if (onHeap()) delete[] m_data;
        m_data = m_inline;
        m_size = 0;
        m_cap = kInline;
    }
    // from a shape about to be dropped or reassigned: its heap block moves, inline values are copied
    void take(Shape& o) noexcept {
        if (o.onHeap()) {
            m_data = o.m_data;
            m_cap = o.m_cap;
            m_size = o.m_size;
        } else {
            copyInline(o);
        }
        o.m_data = o.m_inline;
        o.m_size = 0;
        o.m_cap = kInline;
    }

    int64_t* m_data = m_inline;
    uint32_t m_size = 0;
    uint32_t m_cap = kInline;
    int64_t m_inline[kInline] = {}; // set, so that the fixed-size copies read defined values
};

} // namespace irlens::core::exec
