#pragma once
// The graph on screen as text, selection-synced both ways: moving the cursor onto a node's line selects
// it; selecting a node elsewhere highlights its line. Three forms: the FX text (`print(ep.graph)`), the
// Python code of forward() (`GraphModule.code`) and the `print_tabular()` table. The code and table
// panes print only while they are shown (a hidden pane marks itself stale and prints when shown).
//
// A big graph's text (deep_stack after Step all: 11,000 lines) is printed on a worker and fed to the
// editor in slices of a few milliseconds per event-loop turn, so that the GUI thread never stalls on
// it; small graphs (below kSyncNodes) are printed and set at once, which is cheaper than a round trip.

#include <QHash>
#include <QSet>
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

    enum class Form { Graph, Code, Table };

    explicit FxTextPane(Document* document, QWidget* parent = nullptr, Form form = Form::Graph);
    Form form() const { return m_form; }
    /// The line (0-based) defining a node ("return" for the output's line), -1 if none.
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
        QSet<QString> placeholders;  // the names among them that are placeholders
    };

protected:
    void showEvent(QShowEvent* event) override;

private:
    void reload();
    void apply(Printed printed);
    void appendSlice();
    void finishLoading();
    void showSelection(int nodeIndex);
    void onCursorMoved();

    Document* m_doc;
    Form m_form = Form::Graph;
    bool m_stale = false; // a code or table pane hidden when its graph changed
    QHash<QString, int> m_lineOf;
    QSet<QString> m_placeholders;
    std::vector<QString> m_nodeOf;
    QStringList m_pending; // lines not yet in the editor
    qsizetype m_next = 0;
    quint64 m_generation = 0;
    bool m_loading = false;
    bool m_syncing = false;
};

} // namespace irlens::views
