#include "views/teach/explain_dialog.h"

#include "views/document.h"
#include "views/inspect/node_inspector_model.h"
#include "views/teach/tool_window.h"

#include <QTextBrowser>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace irlens::views {

using core::teach::ExplainSentence;

namespace {

QString topicTitle(const std::string& topic) {
    static const std::pair<const char*, const char*> titles[] = {
        {"dialect", QT_TRANSLATE_NOOP("ExplainDialog", "Dialect")},
        {"inputs", QT_TRANSLATE_NOOP("ExplainDialog", "Inputs")},
        {"state", QT_TRANSLATE_NOOP("ExplainDialog", "Lifted state")},
        {"symbols", QT_TRANSLATE_NOOP("ExplainDialog", "Dynamic dimensions")},
        {"hops", QT_TRANSLATE_NOOP("ExplainDialog", "Higher-order ops")},
        {"mutations", QT_TRANSLATE_NOOP("ExplainDialog", "Mutations")},
        {"ops", QT_TRANSLATE_NOOP("ExplainDialog", "Ops outside Core ATen")},
        {"prims", QT_TRANSLATE_NOOP("ExplainDialog", "Toward Prims")},
        {"outputs", QT_TRANSLATE_NOOP("ExplainDialog", "Outputs")},
        {"verifier", QT_TRANSLATE_NOOP("ExplainDialog", "Verifier")}};
    for (const auto& [key, title] : titles)
        if (topic == key) return QCoreApplication::translate("ExplainDialog", title);
    return QString::fromStdString(topic);
}

// The sentence with each backquoted span as the anchor of its link (links come in the order of the spans).
QString sentenceHtml(const ExplainSentence& s) {
    const QString text = QString::fromStdString(s.text);
    QString html;
    size_t next = 0;
    QStringList nodes;
    for (qsizetype k = 0; k < text.size();) {
        const qsizetype open = text.indexOf('`', k);
        const qsizetype close = open < 0 ? -1 : text.indexOf('`', open + 1);
        if (close < 0) {
            html += text.mid(k).toHtmlEscaped();
            break;
        }
        html += text.mid(k, open - k).toHtmlEscaped();
        const QString words = text.mid(open + 1, close - open - 1);
        const bool linked = next < s.links.size() && QString::fromStdString(s.links[next].text) == words;
        const QString target = linked ? QString::fromStdString(s.links[next++].target) : QString();
        if (target.startsWith("node:")) nodes << target.mid(5);
        html += linked ? QStringLiteral("<a href=\"%1\"><code>%2</code></a>").arg(target.toHtmlEscaped(), words.toHtmlEscaped())
                       : QStringLiteral("<code>%1</code>").arg(words.toHtmlEscaped());
        k = close + 1;
    }
    if (nodes.size() > 1)
        html += QStringLiteral(" <a href=\"nodes:%1\">%2</a>").arg(nodes.join(',').toHtmlEscaped(), ExplainDialog::tr("(show all)"));
    return html;
}

} // namespace

ExplainDialog::ExplainDialog(Document* document, QWidget* parent) : QDialog(parent, Qt::Tool), m_doc(document) {
    setObjectName("explainProgram");
    setWindowTitle(tr("Explain this program"));
    // narrow, over the right-hand docks: its links select in the graph, which stays in view
    resize(440, 600);
    m_text = new QTextBrowser(this);
    m_text->setObjectName("explainText");
    m_text->setOpenLinks(false);
    connect(m_text, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) { followLink(url.toString()); });
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_text);
    connect(m_doc, &Document::programChanged, this, [this] {
        if (isVisible()) explain();
    });
    connect(&m_watcher, &QFutureWatcherBase::finished, this, [this] {
        if (m_watcher.isCanceled()) return;
        m_sentences = m_watcher.result();
        m_text->setHtml(toHtml(m_sentences));
        Q_EMIT explained();
        // the program changed while this one was explained
        if (m_doc->program().get() != m_explained) explain();
    });
}

void ExplainDialog::showEvent(QShowEvent* event) {
    QDialog::showEvent(event);
    if (!m_placed && parentWidget()) {
        m_placed = true;
        placeInCorner(this, parentWidget()->window(), Qt::TopRightCorner);
    }
    if (m_doc->program().get() != m_explained) explain();
}

void ExplainDialog::explain() {
    core::ProgramPtr program = m_doc->program();
    m_explained = program.get();
    m_sentences.clear();
    if (!program) {
        m_text->setHtml(tr("<p>No program is open.</p>"));
        return;
    }
    if (m_watcher.isRunning()) return; // its finish starts the next one
    m_text->setHtml(tr("<p><i>Reading %1…</i></p>").arg(m_doc->title().toHtmlEscaped()));
    m_watcher.setFuture(QtConcurrent::run(Document::workerPool(), [program] { return core::teach::explainProgram(*program); }));
}

QString ExplainDialog::toHtml(const std::vector<ExplainSentence>& sentences) {
    QString html;
    std::string topic;
    for (const auto& s : sentences) {
        if (s.topic != topic) {
            topic = s.topic;
            html += QStringLiteral("<h4>%1</h4>").arg(topicTitle(topic).toHtmlEscaped());
        }
        html += QStringLiteral("<p>%1</p>").arg(sentenceHtml(s));
    }
    return html;
}

bool ExplainDialog::followLink(const QString& link) {
    // the explanation is about the top-level graph
    if (m_doc->scopes().size() > 1) m_doc->leaveSubgraph(0);
    if (!link.startsWith("nodes:")) return views::followLink(m_doc, link);
    std::vector<int> nodes;
    for (const QString& name : link.mid(6).split(',', Qt::SkipEmptyParts))
        if (const int n = m_doc->nodeIndexOf(name); n >= 0) nodes.push_back(n);
    if (nodes.empty()) return false;
    m_doc->setSearchHits(nodes);
    m_doc->revealNode(nodes.front());
    return true;
}

} // namespace irlens::views
