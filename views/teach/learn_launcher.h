#pragma once
// Help › Tour of the Export IR, Exercises and Explain this program: the menu entries that open the
// ways of learning the Export IR inside the window, each made on first use.

#include <QObject>

class QAction;
class QMenu;

namespace irlens::views {

class MainWindow;
class TourController;
class ExercisesDialog;
class ExplainDialog;

class LearnLauncher : public QObject {
    Q_OBJECT
public:
    /// Adds the entries to `menu` (the window's Help menu).
    LearnLauncher(MainWindow* window, QMenu* menu);

    /// Starts the tour where the learner left it (the first stop the first time).
    void startTour();
    void showExercises();
    void showExplanation();

    /// Made on first use: nullptr before.
    TourController* tour() const { return m_tour; }
    ExercisesDialog* exercises() const { return m_exercises; }
    ExplainDialog* explanation() const { return m_explain; }
    QAction* tourAction() const { return m_tourAction; }
    QAction* exercisesAction() const { return m_exercisesAction; }
    QAction* explainAction() const { return m_explainAction; }

private:
    MainWindow* m_window;
    TourController* m_tour = nullptr;
    ExercisesDialog* m_exercises = nullptr;
    ExplainDialog* m_explain = nullptr;
    QAction* m_tourAction = nullptr;
    QAction* m_exercisesAction = nullptr;
    QAction* m_explainAction = nullptr;
};

} // namespace irlens::views
