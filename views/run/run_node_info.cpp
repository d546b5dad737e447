#include "views/run/run_node_info.h"

#include "views/count_text.h"
#include "views/run/run_snapshot.h"

#include <QCoreApplication>

#include <algorithm>

namespace irlens::views {

void addRunSection(InfoRow& root, const RunSnapshot* run, int node) {
    if (!run) return;
    const auto it = std::find_if(run->nodes.begin(), run->nodes.end(), [node](const RunNode& n) { return n.node == node; });
    if (it == run->nodes.end()) return;
    auto tr = [](const char* text) { return QCoreApplication::translate("irlens", text); };
    InfoRow* section = root.add(tr("Last run"));
    section->add(tr("median"), tr("%1 ms over %2, %3 bytes allocated")
                                   .arg(static_cast<double>(it->selfNs) / 1e6, 0, 'f', 3)
                                   .arg(countText(it->calls, QStringLiteral("run"), QStringLiteral("runs")))
                                   .arg(it->bytes));
    if (it->fusedInto.empty()) return;
    const QString into = QString::fromStdString(it->fusedInto);
    InfoRow* folded = section->add(tr("folded into"), into, "node:" + into);
    folded->tip = tr("The engine folds this node into %1's kernel: %1 does its work, so its time and bytes are counted there").arg(into);
}

} // namespace irlens::views
