#pragma once
// The FX text of the graph on screen (`print(ep.graph)` form), selection-synced both ways: moving
// the cursor onto a node's line selects it; selecting a node elsewhere highlights its line.
//
// A big graph's text (deep_stack after Step all: 11,000 lines) is printed on a worker and fed to the
// editor in slices of a few milliseconds per event-loop turn, so that the GUI thread never stalls on
// it; small graphs (below kSyncNodes) are printed and set at once, which is cheaper than a round trip.

#include <QHash>
#include <QPlainTextEdit>
#include <QStringList>

#include <vector>

namespace irlens::views {

class Document;

class FxTextPane : public QPlainTextEdit {
    Q_OBJECT
public:
    /// Graphs with fewer nodes are printed on the GUI thread (a few ms at most).
    static constexpr int kSyncNodes = 1500;
    /// Longest time one slice of appending lines may take on the GUI thread.
    static constexpr int kSliceMs = 6;

    explicit FxTextPane(Document* document, QWidget* parent = nullptr);
    /// The line (0-based) defining a node, -1 if none.
    int lineOfNode(const QString& name) const { return m_lineOf.value(name, -1); }
    /// The node defined on a line, "" if none.
    QString nodeOnLine(int line) const;
    /// True while a big graph's text is printed or still being appended.
    bool isLoading() const { return m_loading; }

signals:
    /// The whole text of the graph on screen is in the editor.
    void textReady();

public:
    /// The printed text split into lines, with the line defining each node (built on any thread).
    struct Printed {
        QStringList lines;
        QHash<QString, int> lineOf;
        std::vector<QString> nodeOf; // per line, "" if it defines no node
    };

private:
    void reload();
    void apply(Printed printed);
    void appendSlice();
    void finishLoading();
    void showSelection(int nodeIndex);
    void onCursorMoved();

    Document* m_doc;
    QHash<QString, int> m_lineOf;
    std::vector<QString> m_nodeOf;
    QStringList m_pending; // lines not yet in the editor
    qsizetype m_next = 0;
    quint64 m_generation = 0;
    bool m_loading = false;
    bool m_syncing = false;
};

} // namespace irlens::views
