#pragma once
// Kernels by target key (Target::key()): "aten::add.Tensor", "prims::mul.default", "higher_order::cond",
// "_operator.add".
// Every family file (kernels/op_<family>.cpp) contributes through a register function; the registry
// calls them all once, so a static library cannot silently drop a family.

#include "core/exec/kernel_context.h"
#include "core/ir/program.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace irlens::core::exec {

class KernelRegistry {
public:
    static const KernelRegistry& instance();

    KernelFn find(const Target& target) const;
    KernelFn find(const std::string& key) const;
    bool has(const std::string& key) const { return find(key) != nullptr; }
    /// Every registered key, sorted.
    std::vector<std::string> keys() const;

    void add(const std::string& key, KernelFn fn) { m_kernels[key] = fn; }
    /// Registers `fn` under every key in `keys`.
    void add(std::initializer_list<const char*> keys, KernelFn fn) {
        for (const char* k : keys) m_kernels[k] = fn;
    }

private:
    KernelRegistry();
    std::unordered_map<std::string, KernelFn> m_kernels;
};

} // namespace irlens::core::exec
