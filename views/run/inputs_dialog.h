#pragma once
// Run › Inputs…: the list of input files for the program on screen (.pt, .npy, .npz, .safetensors, or
// one model.expected/ folder), in the order that positional values are matched in. OK hands the list
// to `accept` (NumericsController::chooseInputs), which checks it against the program; a refusal
// shows its one line under the list and the dialog stays open. An empty list means the default inputs.

#include <QDialog>
#include <QStringList>

#include <functional>

class QLabel;
class QListWidget;

namespace irlens::views {

class InputsDialog : public QDialog {
    Q_OBJECT
public:
    /// `accept` returns "" when it took the paths, else why not.
    InputsDialog(const QStringList& paths, std::function<QString(const QStringList&)> accept, QWidget* parent = nullptr);

    QStringList paths() const;
    void setPaths(const QStringList& paths);
    QLabel* errorLabel() const { return m_error; }

    void accept() override;

private:
    void addFiles();
    void addFolder();

    std::function<QString(const QStringList&)> m_accept;
    QListWidget* m_list;
    QLabel* m_error;
};

} // namespace irlens::views
