#include "views/inspect/fx_text_pane.h"

#include "core/io/fx_printer.h"
#include "core/ops/op_registry.h"
#include "views/document.h"

#include <QFontDatabase>
#include <QFutureWatcher>
#include <QPointer>
#include <QRegularExpression>
#include <QTextBlock>
#include <QTimer>
#include <QtConcurrent>

namespace irlens::views {

using namespace irlens::core;

namespace {

FxPrintOptions registryOptions() {
    FxPrintOptions options;
    options.schemaLookup = [](const Target& t) -> const OpSchema* {
        const OpInfo* info = OpRegistry::instance().find(t);
        return info ? &info->schema : nullptr;
    };
    options.printSubgraphs = false;
    return options;
}

// The FX text: each node's line found by its "%name : " definition.
FxTextPane::Printed printGraphText(const ProgramPtr& program, const Graph* graph, bool top) {
    FxTextPane::Printed out;
    const QString text = QString::fromStdString(top ? printFxGraph(*program, registryOptions()) : printFxGraph(*graph, registryOptions()));
    out.lines = text.split('\n');
    out.nodeOf.resize(static_cast<size_t>(out.lines.size()));
    // local, not static: a print still running on a worker at exit must not outlive its pattern
    const QRegularExpression def(QStringLiteral("^\\s+%([A-Za-z_0-9]+) : "));
    for (qsizetype k = 0; k < out.lines.size(); ++k) {
        // the output node's line, under a key no Python name can take
        if (out.lines[k].startsWith(QLatin1String("    return ")) && !out.lineOf.contains(QStringLiteral("return"))) {
            out.lineOf.insert(QStringLiteral("return"), static_cast<int>(k));
            out.nodeOf[static_cast<size_t>(k)] = QStringLiteral("return");
            continue;
        }
        auto m = def.match(out.lines[k]);
        if (!m.hasMatch()) continue;
        const QString name = m.captured(1);
        if (out.lineOf.contains(name)) continue;
        out.lineOf.insert(name, static_cast<int>(k));
        out.nodeOf[static_cast<size_t>(k)] = name;
        if (out.lines[k].contains(QLatin1String(" = placeholder["))) out.placeholders.insert(name);
    }
    return out;
}

// The code or the table: the printer says which node each line stands for.
FxTextPane::Printed printGraphLines(const ProgramPtr& program, const Graph* graph, bool top, FxTextPane::Form form) {
    FxTextPane::Printed out;
    const bool code = form == FxTextPane::Form::Code;
    const auto lines = top ? (code ? printFxCode(*program, registryOptions()) : printFxTabular(*program, registryOptions()))
                           : (code ? printFxCode(*graph, registryOptions()) : printFxTabular(*graph, registryOptions()));
    out.lines.reserve(static_cast<qsizetype>(lines.size()));
    out.nodeOf.resize(lines.size());
    for (size_t k = 0; k < lines.size(); ++k) {
        out.lines.push_back(QString::fromStdString(lines[k].text));
        QString name = QString::fromStdString(lines[k].node);
        if (name.isEmpty()) continue;
        if (name == QLatin1String("output")) name = QStringLiteral("return");
        if (out.lineOf.contains(name)) continue;
        out.lineOf.insert(name, static_cast<int>(k));
        out.nodeOf[k] = name;
        if (lines[k].placeholder) out.placeholders.insert(name);
    }
    return out;
}

// Pure: runs on a worker for big graphs. `program` keeps `graph` alive.
FxTextPane::Printed printGraph(const ProgramPtr& program, const Graph* graph, bool top, FxTextPane::Form form) {
    if (!program || !graph) return {};
    return form == FxTextPane::Form::Graph ? printGraphText(program, graph, top) : printGraphLines(program, graph, top, form);
}

} // namespace

FxTextPane::FxTextPane(Document* doc, QWidget* parent, Form form) : QPlainTextEdit(parent), m_doc(doc), m_form(form) {
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    // shown while the text is empty: before a program is open
    setPlaceholderText(m_form == Form::Code    ? tr("No program: its GraphModule.code is shown here")
                       : m_form == Form::Table ? tr("No program: its graph's print_tabular() is shown here")
                                               : tr("No program: its graph as print(ep.graph) writes it is shown here"));
    // appending in slices must not record an undo step per slice
    document()->setUndoRedoEnabled(false);
    connect(m_doc, &Document::scopeChanged, this, &FxTextPane::reload);
    connect(m_doc, &Document::selectionChanged, this, &FxTextPane::showSelection);
    connect(this, &QPlainTextEdit::cursorPositionChanged, this, &FxTextPane::onCursorMoved);
    reload();
}

void FxTextPane::showEvent(QShowEvent* event) {
    QPlainTextEdit::showEvent(event);
    if (m_stale) reload();
}

void FxTextPane::reload() {
    const quint64 generation = ++m_generation; // drops a print or an append still under way
    m_pending.clear();
    m_next = 0;
    m_stale = m_form != Form::Graph && !isVisible();
    if (m_stale) { // printed when shown
        m_lineOf.clear();
        m_nodeOf.clear();
        m_placeholders.clear();
        setPlainText(QString());
        return;
    }
    const Graph* g = m_doc->graph();
    const ProgramPtr program = m_doc->program();
    const bool top = m_doc->scopes().size() == 1;
    if (!g || static_cast<int>(g->nodes.size()) < kSyncNodes) {
        apply(printGraph(program, g, top, m_form));
        return;
    }
    m_loading = true;
    m_syncing = true;
    m_lineOf.clear();
    m_nodeOf.clear();
    m_placeholders.clear();
    setPlainText(tr("# printing %1 nodes…").arg(g->nodes.size()));
    auto* watcher = new QFutureWatcher<Printed>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_generation) return; // another graph since
        apply(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(Document::workerPool(), [program, g, top, form = m_form] { return printGraph(program, g, top, form); }));
}

void FxTextPane::apply(Printed printed) {
    m_syncing = true;
    m_lineOf = std::move(printed.lineOf);
    m_nodeOf = std::move(printed.nodeOf);
    m_placeholders = std::move(printed.placeholders);
    if (printed.lines.size() < 2000) {
        setPlainText(printed.lines.join('\n'));
        finishLoading();
        return;
    }
    m_loading = true;
    clear();
    m_pending = std::move(printed.lines);
    m_next = 0;
    appendSlice();
}

void FxTextPane::appendSlice() {
    QElapsedTimer t;
    t.start();
    m_syncing = true;
    QTextCursor c(document());
    c.movePosition(QTextCursor::End);
    // chunks of lines until the slice's time is used up
    while (m_next < m_pending.size() && t.elapsed() < kSliceMs) {
        const qsizetype n = std::min<qsizetype>(200, m_pending.size() - m_next);
        QString chunk = m_next == 0 ? QString() : QStringLiteral("\n");
        chunk += QStringList(m_pending.begin() + m_next, m_pending.begin() + m_next + n).join('\n');
        c.insertText(chunk);
        m_next += n;
    }
    if (m_next < m_pending.size()) {
        const quint64 generation = m_generation;
        QTimer::singleShot(0, this, [this, generation] {
            if (generation == m_generation) appendSlice();
        });
        return;
    }
    m_pending.clear();
    m_next = 0;
    finishLoading();
}

void FxTextPane::finishLoading() {
    m_loading = false;
    moveCursor(QTextCursor::Start);
    m_syncing = false;
    showSelection(m_doc->selectedNode());
    Q_EMIT textReady();
}

QString FxTextPane::nodeOnLine(int line) const {
    return line >= 0 && static_cast<size_t>(line) < m_nodeOf.size() ? m_nodeOf[static_cast<size_t>(line)] : QString();
}

void FxTextPane::showSelection(int nodeIndex) {
    if (m_syncing || m_loading) return; // applied once the text is complete
    QList<QTextEdit::ExtraSelection> extras;
    const Graph* g = m_doc->graph();
    int line = -1;
    if (g && nodeIndex >= 0 && nodeIndex < static_cast<int>(g->nodes.size()))
        line = lineOfNode(QString::fromStdString(g->nodes[static_cast<size_t>(nodeIndex)].name));
    else if (const QString item = m_doc->selectedItem(); item.startsWith(QLatin1String("in:")))
        line = lineOfNode(item.mid(3)); // a placeholder
    else if (item == QLatin1String("out"))
        line = lineOfNode(QStringLiteral("return"));
    {
        if (line >= 0) {
            QTextEdit::ExtraSelection sel;
            sel.cursor = QTextCursor(document()->findBlockByNumber(line));
            sel.format.setBackground(palette().color(QPalette::Highlight).lighter(palette().color(QPalette::Base).lightness() < 128 ? 60 : 170));
            sel.format.setProperty(QTextFormat::FullWidthSelection, true);
            extras << sel;
            m_syncing = true;
            QTextCursor c(document()->findBlockByNumber(line));
            setTextCursor(c);
            centerCursor();
            m_syncing = false;
        }
    }
    setExtraSelections(extras);
}

void FxTextPane::onCursorMoved() {
    if (m_syncing || m_loading) return;
    const QString name = nodeOnLine(textCursor().blockNumber());
    if (name.isEmpty()) return;
    m_syncing = true;
    int n = -1;
    if (name == QLatin1String("return")) {
        m_doc->selectItem(QStringLiteral("out"));
    } else if (m_placeholders.contains(name)) {
        m_doc->selectItem("in:" + name);
    } else if ((n = m_doc->nodeIndexOf(name)) >= 0) {
        m_doc->revealNode(n);
        m_doc->selectNode(n);
    }
    m_syncing = false;
    showSelection(n);
}

} // namespace irlens::views
