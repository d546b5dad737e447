#pragma once
// The Source pane of the Source lines dock: the model's own source file, annotated with the run's
// time per line as `perf annotate` does. The file is the one of the selected node's innermost user
// frame (the deepest frame outside `torch/`), found under the source roots the user sets (a
// stack-trace path is tried as ROOT joined with each of its suffixes, longest first). Each line that
// produced nodes has a gutter with its self and inclusive ms and its node count and a background
// tinted by its inclusive time; clicking such a line selects its nodes, and selecting a node scrolls
// to its line. Without the file, the pane says which file it looked for and where.

#include "views/run/run_analysis.h"

#include <QPlainTextEdit>
#include <QStringList>
#include <QWidget>

#include <map>
#include <vector>

class QLabel;
class QLineEdit;

namespace irlens::core {
struct Node;
struct StackFrame;
} // namespace irlens::core

namespace irlens::views {

class Document;

/// Where a stack-trace path is on this machine: for each root in turn, ROOT joined with the path's
/// suffixes from the longest ("/a/pt2gen/models.py": ROOT/a/pt2gen/models.py, ROOT/pt2gen/models.py,
/// ROOT/models.py); then the path itself when it is absolute. "" when no file is there.
QString resolveSourcePath(const QString& tracePath, const QStringList& roots);

/// The node's innermost user frame: its last frame outside PyTorch's files, else its last frame;
/// nullptr when it has no frames (the line the Source lines profile gives the node's self time to).
const core::StackFrame* innermostUserFrame(const core::Node& node);

/// The source text with the time gutter and the per-line tint.
class SourceText : public QPlainTextEdit {
    Q_OBJECT
public:
    /// One annotated line: the run's time of the nodes at it.
    struct LineTime {
        int64_t selfNs = 0, inclusiveNs = 0;
        int selfNodes = 0, nodes = 0;
    };
    explicit SourceText(QWidget* parent = nullptr);
    void setAnnotations(std::map<int, LineTime> lines);
    const std::map<int, LineTime>& annotations() const { return m_lines; }
    /// Where line `line` (1-based) is drawn, in viewport coordinates (empty when not shown).
    QRect lineRect(int line) const;
    /// The 1-based line the cursor is on.
    int cursorLine() const;
    /// Puts the cursor on `line` and scrolls it to the middle.
    void showLine(int line);
    int gutterWidth() const;
    void paintGutter(QWidget* gutter, QPaintEvent* event);
    /// What the gutter says about the line at viewport height `y`.
    QString gutterToolTip(int y) const;

signals:
    void lineClicked(int line);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    void tintLines();
    QWidget* m_gutter;
    std::map<int, LineTime> m_lines;
    int64_t m_hottestNs = 1;
};

class SourcePane : public QWidget {
    Q_OBJECT
public:
    SourcePane(Document* document, QWidget* parent = nullptr);

    /// The source roots; `remember` saves them in the settings ("source/roots").
    void setRoots(const QStringList& roots, bool remember = true);
    QStringList roots() const { return m_roots; }
    /// The run's time per line (from the Source lines profile); shows the selected node's file.
    void setLines(const LineSummary& lines);
    /// Shows the file of a stack trace (as the trace writes it) at `line`.
    void showSource(const QString& traceFile, int line);
    /// The trace file shown (or looked for), and the file found for it ("" when not found).
    QString traceFile() const { return m_traceFile; }
    QString resolvedFile() const { return m_resolved; }
    QLabel* message() const { return m_message; }
    SourceText* text() const { return m_text; }
    /// Selects the nodes of a line of the shown file: those whose innermost user frame is that line,
    /// or, when there are none (a call such as `x = blk(x)`), those with the line anywhere on their stack.
    void selectLine(int line);
    /// The nodes selectLine() would select.
    std::vector<int> nodesOfLine(int line) const;

private:
    void followSelection(int node);
    Document* m_doc;
    QLineEdit* m_rootsField;
    QLabel* m_message;
    SourceText* m_text;
    QStringList m_roots;
    LineSummary m_summary;
    QString m_traceFile, m_resolved;
    bool m_selecting = false; // selectLine's own selection does not move the text
};

} // namespace irlens::views
