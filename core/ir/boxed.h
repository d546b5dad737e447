#pragma once
// Value types held behind one pointer: an Argument's rare parts and its list cost 8 bytes each when
// absent (most arguments are a tensor name or a literal), and copying one copies what it points to.

#include <initializer_list>
#include <memory>
#include <vector>

namespace irlens::core {

/// A `T` that is absent until written: reading an absent one reads a default `T`.
template <class T>
class Boxed {
public:
    Boxed() = default;
    Boxed(const Boxed& o) : m_value(o.m_value ? std::make_unique<T>(*o.m_value) : nullptr) {}
    Boxed(Boxed&&) noexcept = default;
    Boxed& operator=(const Boxed& o) {
        if (this != &o) m_value = o.m_value ? std::make_unique<T>(*o.m_value) : nullptr;
        return *this;
    }
    Boxed& operator=(Boxed&&) noexcept = default;
    ~Boxed() = default;

    const T& get() const { return m_value ? *m_value : none(); }
    T& mutableValue() {
        if (!m_value) m_value = std::make_unique<T>();
        return *m_value;
    }
    bool present() const { return m_value != nullptr; }

private:
    static const T& none() {
        static const T value{};
        return value;
    }
    std::unique_ptr<T> m_value;
};

/// A vector of `T` behind one pointer, with the parts of std::vector's interface the IR uses.
/// Iterators are plain pointers, so reading an empty one allocates nothing.
template <class T>
class BoxedVector {
public:
    using value_type = T;
    using iterator = T*;
    using const_iterator = const T*;

    BoxedVector() = default;
    BoxedVector(std::vector<T> items) { // NOLINT(google-explicit-constructor): assigned like the vector it was
        if (!items.empty()) m_items.mutableValue() = std::move(items);
    }
    BoxedVector(std::initializer_list<T> items) : BoxedVector(std::vector<T>(items)) {}

    const std::vector<T>& vec() const { return m_items.get(); }
    std::vector<T>& vec() { return m_items.mutableValue(); }
    operator const std::vector<T>&() const { return vec(); } // NOLINT(google-explicit-constructor)

    size_t size() const { return m_items.present() ? m_items.get().size() : 0; }
    bool empty() const { return size() == 0; }
    const T* begin() const { return m_items.present() ? m_items.get().data() : nullptr; }
    const T* end() const { return begin() + size(); }
    T* begin() { return m_items.present() ? m_items.mutableValue().data() : nullptr; }
    T* end() { return begin() + size(); }
    const T& operator[](size_t k) const { return m_items.get()[k]; }
    T& operator[](size_t k) { return m_items.mutableValue()[k]; }
    const T& front() const { return m_items.get().front(); }
    const T& back() const { return m_items.get().back(); }
    T& back() { return m_items.mutableValue().back(); }
    void push_back(T v) { m_items.mutableValue().push_back(std::move(v)); }
    template <class... A>
    T& emplace_back(A&&... a) { return m_items.mutableValue().emplace_back(std::forward<A>(a)...); }
    void resize(size_t n) {
        if (n || m_items.present()) m_items.mutableValue().resize(n);
    }
    void reserve(size_t n) { m_items.mutableValue().reserve(n); }
    void clear() { m_items = {}; }
    bool operator==(const BoxedVector& o) const { return vec() == o.vec(); }

private:
    Boxed<std::vector<T>> m_items;
};

} // namespace irlens::core
