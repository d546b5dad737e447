#pragma once
// The profile of the last run as a table: one row per executed node, per op or per module, with
// self time (the median over the measured runs, ms), its range (fastest-slowest run), the cold start
// (the first run of all, where one-time setup lands), share of the summed self time (%), calls,
// GFLOP/s, % of the roof (run_analysis.h: the least time this machine's roofs allow over the time
// taken; a group's is its members' least time over theirs; empty for views; over 100 % it says why,
// roofCellText) and bytes allocated.
// Groups sum their members. Numbers are returned as numbers so the TablePane's proxy sorts them
// numerically.

#include "views/run/run_snapshot.h"

#include <QAbstractTableModel>

namespace irlens::views {

class Document;

/// The "% of roof" cell: the percentage with one decimal, and over 100 % why a node can pass a roof:
/// "250.0 · in cache" when the memory roof bounds it (main memory's bandwidth; its data stayed in
/// cache), "130.0 · above roof" when the compute roof does (measured lower than this run reached,
/// e.g. on a busy machine).
QString roofCellText(double percent, bool memoryBound);
/// The cell's tooltip line: what the percentage means, and over 100 % the same reason in full.
QString roofCellTip(double percent, bool memoryBound, double roofUs);

class ProfileTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Grouping { ByNode = 0, ByOp = 1, ByModule = 2 };
    enum Column { Name = 0, Detail, SelfMs, RangeMs, ColdMs, Share, Calls, Gflops, RoofPct, Bytes, ColumnCount };
    enum Roles {
        LinkRole = Qt::UserRole + 1, // "node:<name>": the row's node (its hottest node for groups)
        NodeIndexRole,               // that node's index in the graph
        SelfNsRole,                  // exact self time in ns
        SortRole                     // the number a column sorts by (the text has fixed digits and units)
    };

    explicit ProfileTableModel(Document* document, QObject* parent = nullptr);

    void setGrouping(Grouping grouping);
    Grouping grouping() const { return m_grouping; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString name;
        QString detail;       // op (by node), member count (groups)
        int64_t selfNs = 0;
        int64_t minNs = 0, maxNs = 0;
        int64_t coldNs = -1;  // -1: no cold start timed
        int calls = 0;
        double flops = 0;
        int64_t bytes = 0;
        double roofNs = 0;    // the least time the roofs allow, over the members that move data
        double memoryRoofNs = 0; // of it, the members the memory roof bounds (RoofPoint::computeBound false)
        int64_t roofOfNs = 0; // those members' time (0: no roof to show)
        int node = -1;        // representative node
        QString nodeName;
        QString fusedInto;    // by node: the node whose kernel does this one's work ("" when none)
    };
    void rebuild();
    /// The share of the roof of a row in percent, or a null QVariant when it has none.
    QVariant roofPercent(const Row& r) const;
    /// Whether the memory roof, not the compute roof, bounds the row's members.
    static bool memoryBound(const Row& r) { return 2 * r.memoryRoofNs > r.roofNs; } // most of its roof time

    Document* m_doc;
    RunSnapshotPtr m_run;
    Grouping m_grouping = Grouping::ByNode;
    std::vector<Row> m_rows;
    int64_t m_total = 0;
};

} // namespace irlens::views
