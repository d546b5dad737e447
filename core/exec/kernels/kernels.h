#pragma once
// One register function per kernel family (kernels/op_<family>.cpp).

namespace irlens::core::exec {

class KernelRegistry;

void registerBinaryKernels(KernelRegistry& r);
void registerUnaryKernels(KernelRegistry& r);
void registerReduceKernels(KernelRegistry& r);
void registerNormKernels(KernelRegistry& r);
void registerViewKernels(KernelRegistry& r);
void registerCreateKernels(KernelRegistry& r);
void registerMatmulKernels(KernelRegistry& r);
void registerConvKernels(KernelRegistry& r);
void registerPoolKernels(KernelRegistry& r);
void registerIndexKernels(KernelRegistry& r);
void registerAttentionKernels(KernelRegistry& r);
void registerControlKernels(KernelRegistry& r);
void registerResampleKernels(KernelRegistry& r);
void registerScatterKernels(KernelRegistry& r);
void registerConvTransposeKernels(KernelRegistry& r);
void registerPool3dKernels(KernelRegistry& r);
void registerDistanceKernels(KernelRegistry& r);
void registerEmbeddingKernels(KernelRegistry& r);
void registerFoldKernels(KernelRegistry& r);
void registerQuantKernels(KernelRegistry& r);
void registerBackwardKernels(KernelRegistry& r);
void registerGridSampleKernels(KernelRegistry& r);
void registerFftKernels(KernelRegistry& r);
void registerSpecialKernels(KernelRegistry& r);
void registerPrimsMiscKernels(KernelRegistry& r);
void registerSvdKernels(KernelRegistry& r);

} // namespace irlens::core::exec
