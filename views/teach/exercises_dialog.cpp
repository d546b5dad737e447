#include "views/teach/exercises_dialog.h"

#include "core/verify/verifier.h"
#include "views/document.h"
#include "views/main_window.h"
#include "views/settings_writer.h"
#include "views/teach/spec_reference.h"
#include "views/teach/tool_window.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace irlens::views {

using core::teach::Exercise;
using core::teach::Mark;

namespace {

const Exercise* exerciseAt(int row) {
    const auto& all = core::teach::exercises();
    return row >= 0 && row < static_cast<int>(all.size()) ? &all[static_cast<size_t>(row)] : nullptr;
}

QString settingKey(const QString& id, const char* field) { return QStringLiteral("exercises/%1/%2").arg(id, QLatin1String(field)); }

} // namespace

ExercisesDialog::ExercisesDialog(MainWindow* window) : QDialog(window, Qt::Tool), m_window(window), m_doc(window->document()) {
    setObjectName("exercises");
    setWindowTitle(tr("Exercises"));
    // narrow, beside the graph: the learner looks for the fault in the window's own panes
    resize(400, 520);
    m_score = new QLabel(this);
    m_score->setObjectName("exerciseScore");
    m_score->setWordWrap(true);
    m_list = new QTreeWidget(this);
    m_list->setHeaderLabels({tr("Exercise"), tr("Result")});
    m_list->setRootIsDecorated(false);
    m_list->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_list->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_list->header()->setStretchLastSection(false);
    const auto& all = core::teach::exercises();
    for (size_t k = 0; k < all.size(); ++k)
        m_list->addTopLevelItem(new QTreeWidgetItem({QStringLiteral("%1. %2").arg(k + 1).arg(QString::fromStdString(all[k].title)), {}}));
    m_brief = new QLabel(this);
    m_brief->setWordWrap(true);
    m_brief->setTextFormat(Qt::RichText);
    m_markLabel = new QLabel(this);
    m_markLabel->setObjectName("exerciseMark");
    m_markLabel->setWordWrap(true);
    m_open = new QPushButton(tr("&Open"), this);
    m_mark = new QPushButton(tr("&Mark the selection"), this);
    m_answer = new QPushButton(tr("Show the &answer"), this);
    m_next = new QPushButton(tr("&Next exercise"), this);
    m_back = new QPushButton(tr("All e&xercises"), this);
    m_result = new QTextBrowser(this);
    m_result->setObjectName("exerciseResult");
    m_result->setOpenLinks(false);
    connect(m_result, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) { m_window->showSpecReference(url.toString()); });
    auto* reset = new QPushButton(tr("Reset the scores"), this);

    // two pages: the list with the scoreboard, and the exercise being worked on
    auto* listPage = new QWidget(this);
    auto* listLayout = new QVBoxLayout(listPage);
    listLayout->setContentsMargins(0, 0, 0, 0);
    listLayout->addWidget(m_score);
    listLayout->addWidget(m_list, 1);
    auto* listButtons = new QHBoxLayout;
    listButtons->addWidget(m_open);
    listButtons->addStretch(1);
    listButtons->addWidget(reset);
    listLayout->addLayout(listButtons);
    auto* workPage = new QWidget(this);
    auto* workLayout = new QVBoxLayout(workPage);
    workLayout->setContentsMargins(0, 0, 0, 0);
    workLayout->addWidget(m_brief);
    workLayout->addWidget(m_markLabel);
    auto* markButtons = new QHBoxLayout;
    markButtons->addWidget(m_mark);
    markButtons->addWidget(m_answer);
    markButtons->addStretch(1);
    workLayout->addLayout(markButtons);
    workLayout->addWidget(m_result, 1);
    auto* moveButtons = new QHBoxLayout;
    moveButtons->addWidget(m_back);
    moveButtons->addStretch(1);
    moveButtons->addWidget(m_next);
    workLayout->addLayout(moveButtons);
    m_pages = new QStackedWidget(this);
    m_pages->addWidget(listPage);
    m_pages->addWidget(workPage);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_pages);
    connect(m_back, &QPushButton::clicked, this, [this] { m_pages->setCurrentIndex(0); });

    connect(m_list, &QTreeWidget::currentItemChanged, this, [this] { showBrief(m_list->indexOfTopLevelItem(m_list->currentItem())); });
    connect(m_list, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) { openExercise(m_list->indexOfTopLevelItem(item)); });
    connect(m_open, &QPushButton::clicked, this, [this] { openExercise(m_list->indexOfTopLevelItem(m_list->currentItem())); });
    connect(m_mark, &QPushButton::clicked, this, &ExercisesDialog::markSelection);
    connect(m_answer, &QPushButton::clicked, this, &ExercisesDialog::showAnswer);
    connect(m_next, &QPushButton::clicked, this, [this] {
        const int row = std::max(m_current, m_list->indexOfTopLevelItem(m_list->currentItem())) + 1;
        if (row < m_list->topLevelItemCount()) openExercise(row);
    });
    connect(reset, &QPushButton::clicked, this, &ExercisesDialog::resetScores);
    connect(m_doc, &Document::selectionChanged, this, &ExercisesDialog::updateMarkLabel);
    connect(m_doc, &Document::programChanged, this, [this] {
        if (m_doc->program() != m_program) m_current = -1; // another program: no exercise to mark
        updateMarkLabel();
    });
    QSettings settings;
    for (const auto& e : all) {
        const QString id = QString::fromStdString(e.id);
        m_scores[id] = {settings.value(settingKey(id, "marks"), 0).toInt(), settings.value(settingKey(id, "result")).toString(),
                        settings.value(settingKey(id, "first"), false).toBool()};
    }
    refreshScores();
    m_list->setCurrentItem(m_list->topLevelItem(0));
    updateMarkLabel();
}

void ExercisesDialog::showEvent(QShowEvent* event) {
    QDialog::showEvent(event);
    if (m_placed) return;
    // at the window's bottom left, over the module tree: the graph and the Node pane stay in view
    m_placed = true;
    placeInCorner(this, m_window, Qt::BottomLeftCorner);
}

void ExercisesDialog::hideEvent(QHideEvent* event) {
    QDialog::hideEvent(event);
    // closed before the answer: the exercise ends and Diagnostics shows the findings again
    if (m_current >= 0 && !m_answered) {
        m_doc->setDiagnosticsWithheld(false);
        m_current = -1;
        updateMarkLabel();
    }
}

void ExercisesDialog::showBrief(int row) {
    const Exercise* e = exerciseAt(row);
    if (!e) return;
    m_brief->setText(tr("<b>Exercise %1 of %2 · %3</b><br>%4")
                         .arg(row + 1)
                         .arg(core::teach::exercises().size())
                         .arg(QString::fromStdString(e->title).toHtmlEscaped(), QString::fromStdString(e->brief).toHtmlEscaped()));
}

bool ExercisesDialog::openExercise(int row) {
    const Exercise* e = exerciseAt(row);
    if (!e) return false;
    m_program = std::make_shared<const core::Program>(e->make());
    m_findings = core::verify(*m_program);
    m_current = -1; // until the Document shows it
    m_doc->setProgram(m_program, tr("exercise %1: %2").arg(row + 1).arg(QString::fromStdString(e->title)));
    m_doc->setDiagnosticsWithheld(true);
    m_current = row;
    m_answered = false;
    m_list->setCurrentItem(m_list->topLevelItem(row));
    showBrief(row);
    m_pages->setCurrentIndex(1);
    m_result->setHtml(tr("<p>Find the one thing wrong in the program on screen, select it (a node, a placeholder's pill or "
                         "chip, a Signature row or the output) and press <b>Mark the selection</b>.</p>"));
    updateMarkLabel();
    return true;
}

std::optional<Mark> ExercisesDialog::selectedMark() const {
    const QString item = m_doc->selectedItem();
    if (item.startsWith("in:")) return Mark{Mark::Kind::Input, item.mid(3).toStdString()};
    if (item == "out") return Mark{Mark::Kind::Output, {}};
    const int n = m_doc->selectedNode();
    if (n < 0 || m_doc->scopes().size() != 1 || !m_doc->graph()) return std::nullopt;
    return Mark{Mark::Kind::Node, m_doc->graph()->nodes[static_cast<size_t>(n)].name};
}

bool ExercisesDialog::markSelection() {
    const Exercise* e = exerciseAt(m_current);
    if (!e || m_answered) return false;
    const auto mark = selectedMark();
    if (!mark) {
        m_result->setHtml(tr("<p>Select something first: a node, a placeholder or the output.</p>"));
        return false;
    }
    const auto verdict = core::teach::judgeMark(*e, *m_program, m_findings, *mark);
    record(QString::fromStdString(e->id), verdict.right);
    if (!verdict.right) {
        m_result->setHtml(QStringLiteral("<p><b>✗</b> %1</p>").arg(QString::fromStdString(verdict.feedback).toHtmlEscaped()));
        return false;
    }
    showRule(tr("<p><b>✓ Right.</b> The verifier says: %1</p>").arg(QString::fromStdString(verdict.feedback).toHtmlEscaped()));
    return true;
}

void ExercisesDialog::showAnswer() {
    const Exercise* e = exerciseAt(m_current);
    if (!e || m_answered) return;
    const core::Diagnostic* finding = core::teach::findingFor(*e, m_findings);
    if (!finding) return;
    const Mark fault = core::teach::markOf(*m_program, *finding);
    const QString name = QString::fromStdString(fault.name);
    if (fault.kind == Mark::Kind::Node) m_doc->selectNodeByName(name);
    else m_doc->selectItem(fault.kind == Mark::Kind::Input ? "in:" + name : QStringLiteral("out"));
    const QString id = QString::fromStdString(e->id);
    if (Score s = score(id); s.result.isEmpty()) {
        s.result = QStringLiteral("shown");
        setScore(id, s);
    }
    showRule(tr("<p>The fault is %1. The verifier says: %2</p>")
                 .arg(QString::fromStdString(fault.describe()).toHtmlEscaped(), QString::fromStdString(finding->message).toHtmlEscaped()));
    refreshScores();
}

void ExercisesDialog::showRule(const QString& verdictHtml) {
    const Exercise* e = exerciseAt(m_current);
    m_answered = true;
    m_doc->setDiagnosticsWithheld(false);
    const core::RuleInfo* rule = e ? core::findRule(e->ruleId) : nullptr;
    QString html = verdictHtml;
    if (rule)
        html += SpecReferenceDialog::ruleHtml(*rule) +
                QStringLiteral("<p><a href=\"%1\">%2</a></p>").arg(QString::fromUtf8(rule->id), tr("Open the rule in Help › Export IR rules"));
    m_result->setHtml(html);
    updateMarkLabel();
}

void ExercisesDialog::record(const QString& id, bool right) {
    Score s = score(id);
    ++s.marks;
    if (right && s.result != QLatin1String("solved")) {
        s.result = QStringLiteral("solved");
        s.firstMark = s.marks == 1;
    }
    setScore(id, s);
}

void ExercisesDialog::setScore(const QString& id, const Score& s) {
    m_scores[id] = s;
    writeSettingLater(settingKey(id, "marks"), s.marks);
    writeSettingLater(settingKey(id, "result"), s.result);
    writeSettingLater(settingKey(id, "first"), s.firstMark);
    refreshScores();
}

ExercisesDialog::Score ExercisesDialog::score(const QString& id) const {
    auto it = m_scores.find(id);
    return it == m_scores.end() ? Score{} : it->second;
}

QString ExercisesDialog::scoreText() const {
    int solved = 0, first = 0, shown = 0, marks = 0;
    for (const auto& e : core::teach::exercises()) {
        const Score s = score(QString::fromStdString(e.id));
        solved += s.result == QLatin1String("solved");
        first += s.result == QLatin1String("solved") && s.firstMark;
        shown += s.result == QLatin1String("shown");
        marks += s.marks;
    }
    return tr("Solved %1 of %2 · %3 at the first mark · %4 answers shown · %5 marks")
        .arg(solved).arg(core::teach::exercises().size()).arg(first).arg(shown).arg(marks);
}

void ExercisesDialog::refreshScores() {
    const auto& all = core::teach::exercises();
    for (size_t k = 0; k < all.size(); ++k) {
        const Score s = score(QString::fromStdString(all[k].id));
        QString text;
        if (s.result == QLatin1String("solved")) text = s.firstMark ? tr("✓ first mark") : tr("✓ after %1 marks").arg(s.marks);
        else if (s.result == QLatin1String("shown")) text = tr("answer shown");
        else if (s.marks > 0) text = tr("%1 wrong").arg(s.marks);
        m_list->topLevelItem(static_cast<int>(k))->setText(1, text);
    }
    m_score->setText(scoreText());
}

void ExercisesDialog::resetScores() {
    for (const auto& e : core::teach::exercises()) setScore(QString::fromStdString(e.id), {});
}

void ExercisesDialog::updateMarkLabel() {
    const bool active = m_current >= 0 && m_doc->program() == m_program;
    m_mark->setEnabled(active && !m_answered);
    m_answer->setEnabled(active && !m_answered);
    const auto mark = selectedMark();
    m_markLabel->setText(!active ? tr("Open an exercise to mark its fault.")
                         : mark  ? tr("Selected: %1").arg(QString::fromStdString(mark->describe()))
                                 : tr("Selected: nothing"));
}

} // namespace irlens::views
