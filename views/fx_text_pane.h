#pragma once
// The FX text of the graph on screen (`print(ep.graph)` form), selection-synced both ways: moving
// the cursor onto a node's line selects it; selecting a node elsewhere highlights its line.

#include <QHash>
#include <QPlainTextEdit>

namespace irlens::views {

class Document;

class FxTextPane : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit FxTextPane(Document* document, QWidget* parent = nullptr);
    /// The line (0-based) defining a node, -1 if none.
    int lineOfNode(const QString& name) const { return m_lineOf.value(name, -1); }
    /// The node defined on a line, "" if none.
    QString nodeOnLine(int line) const;

private:
    void reload();
    void showSelection(int nodeIndex);
    void onCursorMoved();

    Document* m_doc;
    QHash<QString, int> m_lineOf;
    bool m_syncing = false;
};

} // namespace irlens::views
