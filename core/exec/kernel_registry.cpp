#include "core/exec/kernel_registry.h"

#include "core/exec/kernels/kernels.h"

#include <algorithm>

namespace irlens::core::exec {

KernelRegistry::KernelRegistry() {
    registerBinaryKernels(*this);
    registerUnaryKernels(*this);
    registerReduceKernels(*this);
    registerNormKernels(*this);
    registerViewKernels(*this);
    registerCreateKernels(*this);
    registerMatmulKernels(*this);
    registerConvKernels(*this);
    registerPoolKernels(*this);
    registerIndexKernels(*this);
    registerAttentionKernels(*this);
    registerControlKernels(*this);
    registerResampleKernels(*this);
    registerScatterKernels(*this);
    registerConvTransposeKernels(*this);
    registerPool3dKernels(*this);
    registerDistanceKernels(*this);
    registerEmbeddingKernels(*this);
    registerFoldKernels(*this);
    registerQuantKernels(*this);
    registerBackwardKernels(*this);
    registerGridSampleKernels(*this);
    registerFftKernels(*this);
    registerSpecialKernels(*this);
    registerPrimsMiscKernels(*this);
    registerSvdKernels(*this);
}

const KernelRegistry& KernelRegistry::instance() {
    static const KernelRegistry registry;
    return registry;
}

KernelFn KernelRegistry::find(const Target& target) const { return find(target.key()); }

KernelFn KernelRegistry::find(const std::string& key) const {
    auto it = m_kernels.find(key);
    return it == m_kernels.end() ? nullptr : it->second;
}

std::vector<std::string> KernelRegistry::keys() const {
    std::vector<std::string> out;
    out.reserve(m_kernels.size());
    for (const auto& [k, v] : m_kernels) out.push_back(k);
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace irlens::core::exec
