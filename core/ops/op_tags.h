#pragma once
// Tags irlens adds to the op registry where PyTorch's own tags ("pointwise", "reduction", ...) say
// nothing: which kind of layer an op is. The op families (colours) are read from the tags.

#include <string>
#include <vector>

namespace irlens::core {

/// "linear", "normalization", "activation", "pooling", or "view" (a view whose schema shows no alias)
/// for an op name (every overload; an in-place twin "relu_" is looked up as "relu"); empty otherwise.
const std::vector<std::string>& layerTags(const std::string& opName);

} // namespace irlens::core
