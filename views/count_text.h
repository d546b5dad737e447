#pragma once
// "1 node", "3 nodes": counts in the panes' English text. (Qt's %n plurals read "node(s)" without
// a translation file, and "1 nodes" is the other way to get them wrong.)

#include <QString>

namespace irlens::views {

inline QString countText(qint64 n, const QString& one, const QString& many) {
    return QString::number(n) + QLatin1Char(' ') + (n == 1 ? one : many);
}

inline QString nodesText(qint64 n) { return countText(n, QStringLiteral("node"), QStringLiteral("nodes")); }

} // namespace irlens::views
