// core headers before Qt's (see run_snapshot.h)
#include "core/exec/source_lines.h"
#include "views/qstring_util.h"

#include "views/run/source_pane.h"

#include "views/document.h"
#include "views/run/heatmap_overlay.h"
#include "views/settings_writer.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QPainter>
#include <QSettings>
#include <QTextBlock>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>

namespace irlens::views {

using namespace irlens::core;

namespace {


/// The strip left of the text; SourceText paints it.
class Gutter : public QWidget {
public:
    explicit Gutter(SourceText* text) : QWidget(text), m_text(text) { setObjectName("sourceGutter"); }
    QSize sizeHint() const override { return {m_text->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent* event) override { m_text->paintGutter(this, event); }
    bool event(QEvent* event) override {
        if (event->type() != QEvent::ToolTip) return QWidget::event(event);
        auto* help = static_cast<QHelpEvent*>(event);
        QToolTip::showText(help->globalPos(), m_text->gutterToolTip(help->pos().y()), this);
        return true;
    }

private:
    SourceText* m_text;
};

// self ms, inclusive ms, nodes, then the line number
const QString kGutterSample = QStringLiteral("00000.000 00000.000 0000  0000 ");

} // namespace

QString resolveSourcePath(const QString& tracePath, const QStringList& roots) {
    const QStringList parts = QDir::fromNativeSeparators(tracePath).split('/', Qt::SkipEmptyParts);
    for (const QString& root : roots) {
        if (root.trimmed().isEmpty()) continue;
        const QDir dir(root.trimmed());
        for (qsizetype from = 0; from < parts.size(); ++from) {
            const QString candidate = dir.filePath(parts.mid(from).join('/'));
            if (QFileInfo(candidate).isFile()) return QDir::cleanPath(candidate);
        }
    }
    if (QDir::isAbsolutePath(tracePath) && QFileInfo(tracePath).isFile()) return tracePath;
    return {};
}

const StackFrame* innermostUserFrame(const Node& node) { return exec::selfFrame(node.meta.frames); }

// ---------------------------------------------------------------------------- SourceText

SourceText::SourceText(QWidget* parent) : QPlainTextEdit(parent), m_gutter(new Gutter(this)) {
    setObjectName("sourceText");
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    setViewportMargins(gutterWidth(), 0, 0, 0);
    connect(this, &QPlainTextEdit::cursorPositionChanged, this, [this] {
        tintLines();
        m_gutter->update();
    });
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& r, int dy) {
        if (dy) m_gutter->scroll(0, dy);
        else m_gutter->update(0, r.y(), m_gutter->width(), r.height());
    });
}

int SourceText::gutterWidth() const { return QFontMetrics(font()).horizontalAdvance(kGutterSample) + 14; }

void SourceText::resizeEvent(QResizeEvent* event) {
    QPlainTextEdit::resizeEvent(event);
    const QRect c = contentsRect();
    m_gutter->setGeometry(c.left(), c.top(), gutterWidth(), c.height());
}

void SourceText::setAnnotations(std::map<int, LineTime> lines) {
    m_lines = std::move(lines);
    m_hottestNs = 1;
    for (const auto& [line, t] : m_lines) m_hottestNs = std::max(m_hottestNs, t.inclusiveNs);
    tintLines();
    m_gutter->update();
}

// A warm tint whose strength follows the heat scale of the line's inclusive time: the text keeps the
// palette's colour, so the tint stays light enough to read on (alpha at most 150 of 255).
void SourceText::tintLines() {
    QList<QTextEdit::ExtraSelection> tints;
    for (const auto& [line, t] : m_lines) {
        const QTextBlock block = document()->findBlockByNumber(line - 1);
        if (!block.isValid() || t.inclusiveNs <= 0) continue;
        QTextEdit::ExtraSelection s;
        s.cursor = QTextCursor(block);
        s.format.setProperty(QTextFormat::FullWidthSelection, true);
        const double heat = heatPosition(t.inclusiveNs, m_hottestNs);
        s.format.setBackground(QColor(255, 140, 0, static_cast<int>(25 + 125 * heat)));
        tints.append(s);
    }
    if (document()->isEmpty()) return setExtraSelections(tints); // no file: no line to mark
    // the cursor's line (a selected node's, a clicked one) in the selection colour, over its tint
    QTextEdit::ExtraSelection current;
    current.cursor = QTextCursor(textCursor().block());
    current.format.setProperty(QTextFormat::FullWidthSelection, true);
    QColor accent = palette().color(QPalette::Highlight);
    accent.setAlpha(70);
    current.format.setBackground(accent);
    tints.append(current);
    setExtraSelections(tints);
}

QRect SourceText::lineRect(int line) const {
    const QTextBlock block = document()->findBlockByNumber(line - 1);
    if (!block.isValid()) return {};
    return blockBoundingGeometry(block).translated(contentOffset()).toRect();
}

int SourceText::cursorLine() const { return textCursor().blockNumber() + 1; }

void SourceText::showLine(int line) {
    const QTextBlock block = document()->findBlockByNumber(std::max(0, line - 1));
    if (!block.isValid()) return;
    setTextCursor(QTextCursor(block));
    centerCursor();
}

void SourceText::mouseReleaseEvent(QMouseEvent* event) {
    QPlainTextEdit::mouseReleaseEvent(event);
    if (event->button() != Qt::LeftButton || textCursor().hasSelection()) return; // a drag selects text
    Q_EMIT lineClicked(cursorForPosition(event->position().toPoint()).blockNumber() + 1);
}

void SourceText::paintGutter(QWidget* gutter, QPaintEvent*) {
    QPainter p(gutter);
    p.fillRect(gutter->rect(), palette().color(QPalette::AlternateBase));
    if (document()->isEmpty()) return;
    const QFontMetrics fm(font());
    const int column = fm.horizontalAdvance(QStringLiteral("00000.000 "));
    const int count = fm.horizontalAdvance(QStringLiteral("0000"));
    const int current = cursorLine();
    for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
        const QRectF r = blockBoundingGeometry(block).translated(contentOffset());
        if (r.top() > gutter->height()) break;
        const int line = block.blockNumber() + 1;
        QFont f = font();
        f.setBold(line == current);
        p.setFont(f);
        // the line number at the right, in the muted colour; the time columns only where nodes ran
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(QRectF(gutter->width() - count - 6, r.top(), count, r.height()), Qt::AlignRight | Qt::AlignVCenter, QString::number(line));
        auto it = m_lines.find(line);
        if (it == m_lines.end()) continue;
        const LineTime& t = it->second;
        p.fillRect(QRectF(0, r.top(), 6, r.height()), heatColor(t.inclusiveNs, m_hottestNs));
        p.setPen(palette().color(QPalette::Text));
        const QRectF row(10, r.top(), column - fm.horizontalAdvance(' '), r.height());
        p.drawText(row, Qt::AlignRight | Qt::AlignVCenter, t.selfNs > 0 ? msCell(t.selfNs) : QString());
        p.drawText(row.translated(column, 0), Qt::AlignRight | Qt::AlignVCenter, msCell(t.inclusiveNs));
        p.drawText(QRectF(row.left() + 2 * column, r.top(), count, r.height()), Qt::AlignRight | Qt::AlignVCenter,
                   QString::number(t.selfNodes > 0 ? t.selfNodes : t.nodes));
    }
}

QString SourceText::gutterToolTip(int y) const {
    const QTextBlock block = cursorForPosition(QPoint(0, y)).block();
    auto it = m_lines.find(block.blockNumber() + 1);
    if (it == m_lines.end()) return tr("line %1: no node of the run").arg(block.blockNumber() + 1);
    const LineTime& t = it->second;
    return tr("line %1\nself %2 ms in %3 nodes (this is their innermost line of the model's own code)\n"
              "inclusive %4 ms in %5 nodes (this line anywhere on their stack)")
        .arg(it->first).arg(msCell(t.selfNs)).arg(t.selfNodes).arg(msCell(t.inclusiveNs)).arg(t.nodes);
}

// ---------------------------------------------------------------------------- SourcePane

SourcePane::SourcePane(Document* document, QWidget* parent) : QWidget(parent), m_doc(document) {
    setObjectName("sourcePane");
    auto* vl = new QVBoxLayout(this);
    vl->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    m_rootsField = new QLineEdit(this);
    m_rootsField->setObjectName("sourceRoots");
    m_rootsField->setPlaceholderText(tr("source roots: folders holding the model's files, separated by ;"));
    m_rootsField->setToolTip(tr("A stack-trace path /any/where/pkg/model.py is looked for as ROOT/any/where/pkg/model.py, "
                                "ROOT/where/pkg/model.py, ROOT/pkg/model.py and ROOT/model.py under each root in turn"));
    row->addWidget(new QLabel(tr("Source roots"), this));
    row->addWidget(m_rootsField, 1);
    m_message = new QLabel(tr("Run the program (F5), then select a node to see its source"), this);
    m_message->setObjectName("sourceMessage");
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_text = new SourceText(this);
    vl->addLayout(row);
    vl->addWidget(m_message);
    vl->addWidget(m_text, 1);
    connect(m_rootsField, &QLineEdit::editingFinished, this, [this] {
        setRoots(m_rootsField->text().split(';', Qt::SkipEmptyParts));
    });
    connect(m_text, &SourceText::lineClicked, this, &SourcePane::selectLine);
    connect(m_doc, &Document::selectionChanged, this, &SourcePane::followSelection);
    setRoots(QSettings().value("source/roots").toStringList(), false);
}

void SourcePane::setRoots(const QStringList& roots, bool remember) {
    QStringList clean;
    for (const QString& r : roots)
        if (!r.trimmed().isEmpty()) clean << r.trimmed();
    const bool changed = clean != m_roots;
    m_roots = clean;
    m_rootsField->setText(m_roots.join(';'));
    if (remember) writeSettingLater("source/roots", m_roots);
    if (!changed || m_traceFile.isEmpty()) return;
    const QString file = m_traceFile;
    m_traceFile.clear(); // read again: the same trace path may resolve elsewhere, or now not at all
    showSource(file, m_text->cursorLine());
}

void SourcePane::setLines(const LineSummary& lines) {
    m_summary = lines;
    m_traceFile.clear();
    m_resolved.clear();
    const int selected = m_doc->selectedNode();
    if (selected >= 0) followSelection(selected);
    // nothing selected: the file of the hottest line written by the model's author
    for (const LineRow& row : m_summary.rows)
        if (m_traceFile.isEmpty() && !row.inLibrary && !row.file.isEmpty()) showSource(row.file, row.line);
}

void SourcePane::showSource(const QString& traceFile, int line) {
    const QString resolved = resolveSourcePath(traceFile, m_roots);
    if (traceFile != m_traceFile || resolved != m_resolved) {
        m_traceFile = traceFile;
        m_resolved = resolved;
        QFile file(resolved);
        if (resolved.isEmpty() || !file.open(QIODevice::ReadOnly | QIODevice::Text)) {
            m_text->setPlainText({});
            m_text->setAnnotations({});
            m_message->setText(m_roots.isEmpty() ? tr("%1 not found: no source roots are set (type a folder above)").arg(traceFile)
                                                 : tr("%1 not found under %2").arg(traceFile, m_roots.join(QStringLiteral(", "))));
            return;
        }
        m_text->setPlainText(QString::fromUtf8(file.readAll()));
        std::map<int, SourceText::LineTime> times;
        int64_t fileNs = 0;
        for (const LineRow& row : m_summary.rows) {
            if (row.file != traceFile) continue;
            times[row.line] = {row.selfNs, row.inclusiveNs, row.selfNodes, row.nodes};
            fileNs += row.selfNs;
        }
        m_message->setText(tr("%1 · %2 lines ran nodes, %3 ms self · gutter: self ms, inclusive ms, nodes")
                               .arg(QDir::toNativeSeparators(resolved)).arg(times.size()).arg(msCell(fileNs)));
        m_text->setAnnotations(std::move(times));
    }
    m_text->showLine(line);
}

std::vector<int> SourcePane::nodesOfLine(int line) const {
    std::vector<int> self, anywhere;
    const Graph* g = m_doc->graph();
    if (!g || m_traceFile.isEmpty()) return {};
    const std::string file = m_traceFile.toStdString();
    for (size_t k = 0; k < g->nodes.size(); ++k) {
        const StackFrame* f = innermostUserFrame(g->nodes[k]);
        if (f && f->file == file && f->line == line) self.push_back(static_cast<int>(k));
        for (const StackFrame& frame : g->nodes[k].meta.frames)
            if (frame.file == file && frame.line == line) {
                anywhere.push_back(static_cast<int>(k));
                break;
            }
    }
    return self.empty() ? anywhere : self;
}

void SourcePane::selectLine(int line) {
    if (m_doc->scopes().size() != 1) return; // the frames are the top-level graph's
    const std::vector<int> nodes = nodesOfLine(line);
    m_doc->setSearchHits(nodes);
    if (nodes.empty()) return;
    m_selecting = true;
    m_doc->revealNode(nodes.front());
    m_doc->selectNode(nodes.front());
    m_selecting = false;
}

void SourcePane::followSelection(int node) {
    const Graph* g = m_doc->graph();
    if (m_selecting || !g || node < 0 || node >= static_cast<int>(g->nodes.size()) || m_summary.rows.empty()) return;
    const StackFrame* f = innermostUserFrame(g->nodes[static_cast<size_t>(node)]);
    if (f) showSource(QString::fromStdString(f->file), f->line);
}

} // namespace irlens::views
