// Shape and stride arithmetic shared by the meta functions, following ATen (TensorUtils
// computeStride, TensorIterator reorder_dimensions, empty_like's preserve_format).

#include "core/ops/meta_common.h"

#include <algorithm>
#include <map>
#include <set>
#include <numeric>

namespace irlens::core {

std::vector<SymInt> contiguousStrides(const std::vector<SymInt>& sizes) {
    std::vector<SymInt> strides(sizes.size());
    SymInt acc = SymInt::literal(1);
    for (size_t k = sizes.size(); k-- > 0;) {
        strides[k] = acc;
        // A size-0 or size-1 dim still contributes max(size, 1) (ATen's contiguous strides).
        if (sizes[k].isStatic()) acc = meta::mulSym(acc, SymInt::literal(std::max<int64_t>(sizes[k].value, 1)));
        else acc = meta::mulSym(acc, sizes[k]);
    }
    return strides;
}

TensorMeta contiguousMeta(ScalarType dtype, const std::vector<SymInt>& sizes, const Device& device) {
    TensorMeta m;
    m.dtype = dtype;
    m.sizes = sizes;
    m.strides = contiguousStrides(sizes);
    m.storageOffset = SymInt::literal(0);
    m.device = device;
    return m;
}

namespace meta {

Result<int64_t> wrapDim(const NodeArgs& a, const std::string& arg, int64_t dim, int64_t rank) {
    int64_t r = std::max<int64_t>(rank, 1);
    if (dim < -r || dim >= r)
        return a.error(arg, "dimension " + std::to_string(dim) + " out of range for a tensor of rank " + std::to_string(rank));
    return dim < 0 ? dim + r : dim;
}

std::vector<int64_t> staticOr(const std::vector<SymInt>& sizes, int64_t fallback) {
    std::vector<int64_t> out;
    for (const auto& s : sizes) out.push_back(s.isStatic() ? s.value : s.hint().value_or(fallback));
    return out;
}

bool isStaticOne(const SymInt& s) { return s.isStatic() && s.value == 1; }

SymInt mulSym(const SymInt& a, const SymInt& b) {
    if (a.isStatic() && b.isStatic()) return SymInt::literal(a.value * b.value);
    if (isStaticOne(a)) return b;
    if (isStaticOne(b)) return a;
    if ((a.isStatic() && a.value == 0) || (b.isStatic() && b.value == 0)) return SymInt::literal(0);
    std::optional<int64_t> hint;
    auto ha = a.isStatic() ? std::optional<int64_t>(a.value) : a.hint();
    auto hb = b.isStatic() ? std::optional<int64_t>(b.value) : b.hint();
    if (ha && hb) hint = *ha * *hb;
    std::string ea = a.isStatic() ? std::to_string(a.value) : prettySymExpr(a.expr());
    std::string eb = b.isStatic() ? std::to_string(b.value) : prettySymExpr(b.expr());
    // Literal factor first, as sympy prints it ("4*s0").
    return SymInt::expression(a.isStatic() || !b.isStatic() ? ea + "*" + eb : eb + "*" + ea, hint);
}

SymInt numel(const std::vector<SymInt>& sizes) {
    SymInt n = SymInt::literal(1);
    for (const auto& s : sizes) n = mulSym(n, s);
    return n;
}

bool isContiguous(const TensorMeta& m) {
    if (m.strides.size() != m.sizes.size()) return true;
    SymInt expected = SymInt::literal(1);
    for (size_t k = m.sizes.size(); k-- > 0;) {
        if (m.sizes[k].isStatic() && m.sizes[k].value == 0) return true;
        if (isStaticOne(m.sizes[k])) continue;
        if (!sameSize(m.strides[k], expected)) return false;
        expected = mulSym(expected, m.sizes[k]);
    }
    return true;
}

bool isNonOverlappingAndDense(const TensorMeta& m) {
    if (isContiguous(m)) return true;
    auto sizes = staticOr(m.sizes, 2), strides = staticOr(m.strides, 1);
    std::vector<size_t> perm(sizes.size());
    std::iota(perm.begin(), perm.end(), 0);
    std::stable_sort(perm.begin(), perm.end(), [&](size_t x, size_t y) {
        if (sizes[x] < 2) return false;
        if (sizes[y] < 2) return true;
        return strides[x] < strides[y];
    });
    int64_t expected = 1;
    for (size_t d : perm) {
        if (sizes[d] == 1) continue;
        if (strides[d] != expected) return false;
        expected *= sizes[d];
    }
    return true;
}

std::vector<SymInt> iteratorStrides(const std::vector<const TensorMeta*>& operands, const std::vector<SymInt>& sizes) {
    const size_t nd = sizes.size();
    bool allStatic = std::all_of(sizes.begin(), sizes.end(), [](const SymInt& s) { return s.isStatic(); });
    bool anyNonContiguous = false;
    for (const auto* op : operands)
        if (op && !op->sizes.empty() && !isContiguous(*op)) anyNonContiguous = true;
    if (!allStatic || !anyNonContiguous || nd <= 1) return contiguousStrides(sizes);

    // Per operand: strides aligned to the output (0 where broadcast), in TensorIterator's reversed order.
    std::vector<std::vector<int64_t>> opStrides;
    std::vector<int64_t> shape(nd);
    for (size_t i = 0; i < nd; ++i) shape[i] = sizes[nd - 1 - i].value;
    for (const auto* op : operands) {
        if (!op || op->sizes.empty()) continue; // 0-dim operands have all-zero strides
        if (op->strides.size() != op->sizes.size()) continue;
        std::vector<int64_t> s(nd, 0);
        size_t offset = nd - op->sizes.size();
        bool ok = true;
        for (size_t i = 0; i < op->sizes.size(); ++i) {
            if (!op->sizes[i].isStatic() || !op->strides[i].isStatic()) ok = false;
            int64_t size = op->sizes[i].value;
            int64_t outSize = sizes[offset + i].value;
            s[nd - 1 - (offset + i)] = (size == 1 && outSize != 1) ? 0 : op->strides[i].value;
        }
        if (ok) opStrides.push_back(std::move(s));
    }
    auto shouldSwap = [&](size_t d0, size_t d1) {
        for (const auto& s : opStrides) {
            int64_t s0 = s[d0], s1 = s[d1];
            if (s0 == 0 || s1 == 0) continue;
            if (s0 < s1) return -1;
            if (s0 > s1) return 1;
            if (shape[d0] > shape[d1]) return 1;
        }
        return 0;
    };
    std::vector<size_t> perm(nd);
    for (size_t i = 0; i < nd; ++i) perm[i] = i;
    for (size_t i = 1; i < nd; ++i) {
        size_t d1 = i;
        for (size_t d0 = i; d0-- > 0;) {
            int c = shouldSwap(perm[d0], perm[d1]);
            if (c > 0) {
                std::swap(perm[d0], perm[d1]);
                d1 = d0;
            } else if (c < 0) {
                break;
            }
        }
    }
    // perm[0] is the fastest-moving (reversed) dimension.
    std::vector<SymInt> out(nd);
    int64_t acc = 1;
    for (size_t p : perm) {
        size_t orig = nd - 1 - p;
        out[orig] = SymInt::literal(acc);
        acc *= std::max<int64_t>(shape[p], 1);
    }
    return out;
}

std::vector<SymInt> preservedStrides(const TensorMeta& in, const std::vector<SymInt>& sizes) {
    if (in.sizes.size() == sizes.size() && in.strides.size() == sizes.size() && isNonOverlappingAndDense(in)) return in.strides;
    return iteratorStrides({&in}, sizes);
}

std::optional<std::vector<SymInt>> viewStrides(const TensorMeta& in, const std::vector<SymInt>& newSizes) {
    if (isContiguous(in)) return contiguousStrides(newSizes);
    if (in.sizes.empty() || in.strides.size() != in.sizes.size()) return contiguousStrides(newSizes);
    auto all = [](const std::vector<SymInt>& v) { return std::all_of(v.begin(), v.end(), [](const SymInt& s) { return s.isStatic(); }); };
    if (!all(in.sizes) || !all(in.strides) || !all(newSizes)) return std::nullopt;
    auto oldShape = staticOr(in.sizes, 1), oldStride = staticOr(in.strides, 1), newShape = staticOr(newSizes, 1);
    int64_t total = 1;
    for (auto s : oldShape) total *= s;
    if (total == 0) return contiguousStrides(newSizes);
    std::vector<int64_t> newStride(newShape.size(), 0);
    int64_t viewD = static_cast<int64_t>(newShape.size()) - 1;
    int64_t chunkBase = oldStride.back();
    int64_t tensorNumel = 1, viewNumel = 1;
    for (int64_t td = static_cast<int64_t>(oldShape.size()) - 1; td >= 0; --td) {
        tensorNumel *= oldShape[td];
        if (td == 0 || (oldShape[td - 1] != 1 && oldStride[td - 1] != tensorNumel * chunkBase)) {
            while (viewD >= 0 && (viewNumel < tensorNumel || newShape[viewD] == 1)) {
                newStride[viewD] = viewNumel * chunkBase;
                viewNumel *= newShape[viewD];
                --viewD;
            }
            if (viewNumel != tensorNumel) return std::nullopt;
            if (td > 0) {
                chunkBase = oldStride[td - 1];
                tensorNumel = 1;
                viewNumel = 1;
            }
        }
    }
    if (viewD != -1) return std::nullopt;
    return literalShape(newStride);
}

Result<std::vector<SymInt>> inferViewShape(const NodeArgs& a, const std::vector<SymInt>& sizes, std::vector<SymInt> shape) {
    int inferIndex = -1;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i].isStatic() && shape[i].value == -1) {
            if (inferIndex >= 0) return a.error("", "only one dimension can be inferred (-1) in " + shapeString(shape));
            inferIndex = static_cast<int>(i);
        } else if (shape[i].isStatic() && shape[i].value < -1) {
            return a.error("", "invalid size " + std::to_string(shape[i].value) + " in " + shapeString(shape));
        }
    }
    // Literal product and the multiset of symbolic factors, on both sides.
    auto factor = [](const std::vector<SymInt>& v, int skip, int64_t& lit, std::multiset<std::string>& syms) {
        for (size_t i = 0; i < v.size(); ++i) {
            if (static_cast<int>(i) == skip) continue;
            if (v[i].isStatic()) lit *= v[i].value;
            else syms.insert(prettySymExpr(v[i].expr()));
        }
    };
    int64_t litIn = 1, litOut = 1;
    std::multiset<std::string> symIn, symOut;
    factor(sizes, -1, litIn, symIn);
    factor(shape, inferIndex, litOut, symOut);
    if (inferIndex < 0) {
        if (symIn.empty() && symOut.empty() && litIn != litOut)
            return a.error("", "shape " + shapeString(shape) + " is invalid for input of size " + std::to_string(litIn));
        return shape;
    }
    for (const auto& s : symOut) {
        auto it = symIn.find(s);
        if (it == symIn.end()) return a.error("", "cannot infer -1 in " + shapeString(shape) + " from " + shapeString(sizes));
        symIn.erase(it);
    }
    if (litOut == 0 || litIn % litOut != 0)
        return a.error("", "shape " + shapeString(shape) + " is invalid for input of size " + std::to_string(litIn));
    SymInt inferred = SymInt::literal(litIn / litOut);
    for (const auto& s : symIn) inferred = mulSym(inferred, SymInt::expression(s));
    shape[inferIndex] = inferred;
    return shape;
}

} // namespace meta
} // namespace irlens::core
