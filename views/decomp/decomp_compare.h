#pragma once
// The before / after pair of one rewrite: the node a decomposition step replaced, with the values it
// read and the values its users read, and the nodes that replaced it with the same boundary. Each
// side is a small stand-alone Graph (boundary values as placeholders, the values read outside as
// outputs) so that it can be laid out and printed like any graph.

#include "core/decomp/decomp_session.h"
#include "core/ir/program.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace irlens::views {

struct CompareSide {
    core::Graph graph;     // boundary inputs -> op node(s) -> boundary outputs
    QStringList nodes;     // the op nodes, graph order
    QStringList ops;       // their targets ("aten.t.default"), same order
    QStringList inputs;    // boundary values read
    QStringList outputs;   // values read outside the side (by later nodes or the graph output)
    QString fxText;        // the side's FX lines (placeholders, nodes, return)
};

struct DecompComparison {
    int step = 0;          // 1-based history step that made the rewrite
    QString oldNode;       // "linear"
    QString oldTarget;     // "aten.linear.default"
    QString schema;        // the replaced op's schema, "" when unknown
    QString rule;          // rule title
    QString reference;     // the rule's reference (spec rule, torch/_decomp function...)
    QString teaching;
    CompareSide before;
    CompareSide after;
};

/// The pair for rewrite `index` of `applied`, the rewrites of a step that turned `before` into
/// `after`. nullopt when the replaced node is not in `before` (a rewrite of another program).
/// A boundary value that another rewrite of the same step renamed (a stepped producer: "add" is now
/// its replacement's "add_9") carries its name from before on both sides.
std::optional<DecompComparison> compareRewrite(const core::Program& before, const core::Program& after,
                                               const std::vector<core::AppliedRewrite>& applied, size_t index, int step);

/// Where a node of the session's current program came from: the history step (0-based) and the
/// rewrite in it that made the node. nullopt for nodes no step made.
struct RewriteRef {
    size_t step = 0;
    size_t rewrite = 0;
};
std::optional<RewriteRef> findRewriteOf(const core::DecompSession& session, const std::string& node);

/// The pair for history step `step` (0-based) rewrite `rewrite` of a session.
std::optional<DecompComparison> compareInSession(const core::DecompSession& session, RewriteRef ref);

} // namespace irlens::views
