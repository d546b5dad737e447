#include "views/fx_text_pane.h"

#include "core/io/fx_printer.h"
#include "core/ops/op_registry.h"
#include "views/document.h"

#include <QFontDatabase>
#include <QRegularExpression>
#include <QTextBlock>

namespace irlens::views {

using namespace irlens::core;

FxTextPane::FxTextPane(Document* document, QWidget* parent) : QPlainTextEdit(parent), m_doc(document) {
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    connect(m_doc, &Document::scopeChanged, this, &FxTextPane::reload);
    connect(m_doc, &Document::selectionChanged, this, &FxTextPane::showSelection);
    connect(this, &QPlainTextEdit::cursorPositionChanged, this, &FxTextPane::onCursorMoved);
    reload();
}

void FxTextPane::reload() {
    m_syncing = true;
    m_lineOf.clear();
    QString text;
    if (const Graph* g = m_doc->graph()) {
        FxPrintOptions options;
        options.schemaLookup = [](const Target& t) -> const OpSchema* {
            const OpInfo* info = OpRegistry::instance().find(t);
            return info ? &info->schema : nullptr;
        };
        options.printSubgraphs = false;
        const bool top = m_doc->scopes().size() == 1;
        text = QString::fromStdString(top ? printFxGraph(*m_doc->program(), options) : printFxGraph(*g, options));
    }
    setPlainText(text);
    static const QRegularExpression def(QStringLiteral("^\\s+%([A-Za-z_0-9]+) : "));
    const QStringList lines = text.split('\n');
    for (int k = 0; k < lines.size(); ++k) {
        auto m = def.match(lines[k]);
        if (m.hasMatch() && !m_lineOf.contains(m.captured(1))) m_lineOf.insert(m.captured(1), k);
    }
    m_syncing = false;
    showSelection(m_doc->selectedNode());
}

QString FxTextPane::nodeOnLine(int line) const {
    for (auto it = m_lineOf.begin(); it != m_lineOf.end(); ++it)
        if (it.value() == line) return it.key();
    return {};
}

void FxTextPane::showSelection(int nodeIndex) {
    if (m_syncing) return;
    QList<QTextEdit::ExtraSelection> extras;
    const Graph* g = m_doc->graph();
    if (g && nodeIndex >= 0 && nodeIndex < static_cast<int>(g->nodes.size())) {
        int line = lineOfNode(QString::fromStdString(g->nodes[static_cast<size_t>(nodeIndex)].name));
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
    if (m_syncing) return;
    const QString name = nodeOnLine(textCursor().blockNumber());
    if (name.isEmpty()) return;
    m_syncing = true;
    int n = m_doc->nodeIndexOf(name);
    if (n >= 0) {
        m_doc->revealNode(n);
        m_doc->selectNode(n);
    }
    m_syncing = false;
    showSelection(n);
}

} // namespace irlens::views
