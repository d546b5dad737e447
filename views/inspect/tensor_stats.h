#pragma once
// Summary numbers of a weight tensor for the Weights pane: min/max/mean/std, a histogram and the
// first values. Reads the tensor in place (strided views honoured); no copy of the storage.

#include "core/ir/program.h"

#include <optional>
#include <vector>

namespace irlens::views {

struct TensorStats {
    int64_t count = 0;        // elements read
    double min = 0, max = 0, mean = 0, std = 0;
    std::vector<double> first;     // the first few values in C order
    std::vector<int64_t> histogram; // equal-width bins between min and max
};

/// Nullopt when the tensor has no data, an unsupported dtype (complex, float8), or does not fit its storage.
std::optional<TensorStats> computeTensorStats(const core::TensorData& tensor, int bins = 32, int firstCount = 8);

} // namespace irlens::views
