#pragma once
// Help › Exercises: programs with one thing wrong (core/teach/exercises.h). A narrow tool window: the
// list with the scoreboard, and the exercise being worked on. Open one and it is shown in the main
// window with the verifier's findings held back; select the node, placeholder or output at fault in
// any pane and press Mark. The mark is judged against the verifier's own finding: a wrong
// one gets a hint, a right one (or Show the answer) the rule with its spec passage. A scoreboard
// (kept in QSettings) counts what is solved, at the first mark or later.

#include "core/ir/program.h"
#include "core/teach/exercises.h"
#include "core/verify/diagnostic.h"

#include <QDialog>

#include <map>
#include <optional>
#include <vector>

class QLabel;
class QPushButton;
class QStackedWidget;
class QTextBrowser;
class QTreeWidget;

namespace irlens::views {

class Document;
class MainWindow;

class ExercisesDialog : public QDialog {
    Q_OBJECT
public:
    explicit ExercisesDialog(MainWindow* window);

    /// Shows exercise `row` in the main window; false for a row that is not one.
    bool openExercise(int row);
    /// The exercise on screen (-1 when none: another program was opened since).
    int current() const { return m_current; }
    /// Judges the main window's selection as the answer (the Mark button); true when right.
    bool markSelection();
    /// Gives up: selects the place at fault and shows its rule.
    void showAnswer();
    /// What is selected now, as a mark; nullopt when nothing is.
    std::optional<core::teach::Mark> selectedMark() const;

    struct Score {
        int marks = 0;
        QString result; // "solved", "shown" or ""
        bool firstMark = false;
    };
    Score score(const QString& id) const;
    /// The scoreboard line ("Solved 3 of 18 · 2 at the first mark · 7 marks").
    QString scoreText() const;
    void resetScores();

    QTreeWidget* list() const { return m_list; }
    /// The list page (0) or the page of the exercise on screen (1).
    QStackedWidget* pages() const { return m_pages; }
    QPushButton* backButton() const { return m_back; }
    QPushButton* nextButton() const { return m_next; }
    QPushButton* openButton() const { return m_open; }
    QPushButton* markButton() const { return m_mark; }
    QPushButton* answerButton() const { return m_answer; }
    QLabel* scoreLabel() const { return m_score; }
    QLabel* markLabel() const { return m_markLabel; }
    QTextBrowser* resultText() const { return m_result; }

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void showBrief(int row);
    void showRule(const QString& verdictHtml);
    void record(const QString& id, bool right);
    void setScore(const QString& id, const Score& score);
    void refreshScores();
    void updateMarkLabel();

    MainWindow* m_window;
    Document* m_doc;
    int m_current = -1;
    core::ProgramPtr m_program;                // the exercise's program on screen
    std::vector<core::Diagnostic> m_findings;  // the verifier's, on it
    bool m_answered = false;
    std::map<QString, Score> m_scores; // by exercise id; read from QSettings once, written back as they change
    QTreeWidget* m_list;
    QLabel* m_score;
    QLabel* m_brief;
    QLabel* m_markLabel;
    QPushButton* m_open;
    QPushButton* m_mark;
    QPushButton* m_answer;
    QPushButton* m_next;
    QPushButton* m_back;
    QTextBrowser* m_result;
    QStackedWidget* m_pages;
    bool m_placed = false;
};

} // namespace irlens::views
