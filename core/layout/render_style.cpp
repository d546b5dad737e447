#include "core/layout/render_style.h"

#include "core/ops/op_family.h"

#include <cstdio>

namespace irlens::core::detail {

std::string itemLabel(const VisibleItem& item) {
    std::string label = item.title + "\n" + item.subtitle;
    if (!item.chips.empty()) {
        label += "\n";
        for (size_t c = 0; c < item.chips.size(); ++c) label += (c ? " " : "") + ("[" + item.chips[c].label + "]");
    }
    return label;
}

std::string itemFill(const VisibleItem& item, const Graph* source) {
    unsigned rgb = 0xf0f0f0;
    switch (item.kind) {
    case VisibleItem::Kind::Input: rgb = 0xe0f3db; break;
    case VisibleItem::Kind::Output: rgb = 0xfde0dd; break;
    case VisibleItem::Kind::Module: rgb = 0xf7f7f7; break;
    case VisibleItem::Kind::Op:
        if (source && item.nodeIndex >= 0 && static_cast<size_t>(item.nodeIndex) < source->nodes.size())
            rgb = opFamilyColor(opFamilyOf(source->nodes[static_cast<size_t>(item.nodeIndex)].target));
        break;
    }
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%06x", rgb & 0xffffff);
    return buf;
}

} // namespace irlens::core::detail
