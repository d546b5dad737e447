#pragma once
// Help › Explain this program: core's explanation of the program on screen (core/teach/explain.h),
// one paragraph per sentence under its topic; a sentence's links select the node, placeholder or
// output they name or highlight the nodes of a symbol, and "show all" outlines every node a sentence
// talks about. Written on a worker (a 12,000-node program takes about half a second) whenever the
// program changes while the window is open.

#include "core/teach/explain.h"

#include <QDialog>
#include <QFutureWatcher>

#include <vector>

class QTextBrowser;
class QUrl;

namespace irlens::views {

class Document;

class ExplainDialog : public QDialog {
    Q_OBJECT
public:
    ExplainDialog(Document* document, QWidget* parent = nullptr);

    QTextBrowser* text() const { return m_text; }
    /// The sentences on show (empty while the explanation is being written).
    const std::vector<core::teach::ExplainSentence>& sentences() const { return m_sentences; }
    bool isExplaining() const { return m_watcher.isRunning(); }
    /// What activating a link of the text does: follows it in the Document; false if not understood.
    bool followLink(const QString& link);
    /// The HTML of sentences (links as anchors), for the text and for tests.
    static QString toHtml(const std::vector<core::teach::ExplainSentence>& sentences);

signals:
    void explained();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void explain();

    Document* m_doc;
    QTextBrowser* m_text;
    std::vector<core::teach::ExplainSentence> m_sentences;
    QFutureWatcher<std::vector<core::teach::ExplainSentence>> m_watcher;
    const void* m_explained = nullptr; // the program the text is about
    bool m_placed = false;
};

} // namespace irlens::views
