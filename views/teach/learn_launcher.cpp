#include "views/teach/learn_launcher.h"

#include "views/main_window.h"
#include "views/teach/exercises_dialog.h"
#include "views/teach/explain_dialog.h"
#include "views/teach/tour_controller.h"

#include <QAction>
#include <QMenu>

namespace irlens::views {

LearnLauncher::LearnLauncher(MainWindow* window, QMenu* menu) : QObject(window), m_window(window) {
    m_tourAction = menu->addAction(tr("&Tour of the Export IR…"), this, &LearnLauncher::startTour);
    m_tourAction->setObjectName("tourAction");
    m_tourAction->setToolTip(tr("A guided tour of the Export IR on the example and three small programs, one concept and "
                                "one small task per stop"));
    m_exercisesAction = menu->addAction(tr("E&xercises…"), this, &LearnLauncher::showExercises);
    m_exercisesAction->setObjectName("exercisesAction");
    m_explainAction = menu->addAction(tr("Explain this &program"), this, &LearnLauncher::showExplanation);
    m_explainAction->setObjectName("explainAction");
}

void LearnLauncher::startTour() {
    if (!m_tour) m_tour = new TourController(m_window);
    m_tour->start();
}

void LearnLauncher::showExercises() {
    if (!m_exercises) m_exercises = new ExercisesDialog(m_window);
    m_exercises->show();
    m_exercises->raise();
}

void LearnLauncher::showExplanation() {
    if (!m_explain) m_explain = new ExplainDialog(m_window->document(), m_window);
    m_explain->show();
    m_explain->raise();
}

} // namespace irlens::views
