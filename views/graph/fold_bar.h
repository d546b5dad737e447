#pragma once
// The graph pane's steering of folded repeated blocks: for each folded run in view, its class and
// count and a spin box naming the instance drawn ("LlamaBlock ×128: [layers.57]"). Stepping the box
// (Up / Down, Page Up / Page Down) or typing an instance's name or number and Enter shows that
// instance in the run's place (Document::showInstance), with the modules that were open in the one
// shown before open in it. Hidden while no run is drawn folded.

#include <QSpinBox>
#include <QStringList>
#include <QWidget>

#include <utility>
#include <vector>

class QHBoxLayout;

namespace irlens::views {

class Document;

/// A spin box over the instances of a folded run: its value is the instance's index, its text the
/// instance's name ("layers.57"); "57" typed finds the instance whose name ends in ".57".
class InstanceSpinBox : public QSpinBox {
    Q_OBJECT
public:
    explicit InstanceSpinBox(QWidget* parent = nullptr);
    void setInstances(QStringList names);
    const QStringList& instances() const { return m_names; }
    /// The instance `text` names (its name, or the number after its last dot), -1 when none.
    int instanceNamed(const QString& text) const;

protected:
    QString textFromValue(int value) const override;
    int valueFromText(const QString& text) const override;
    QValidator::State validate(QString& text, int& pos) const override;

private:
    QStringList m_names;
};

class FoldBar : public QWidget {
    Q_OBJECT
public:
    explicit FoldBar(Document* document, QWidget* parent = nullptr);
    /// Focuses the first run's spin box (Graph › Go to instance, Ctrl+L); false when none is shown.
    bool focusInstance();
    /// The spin box of folded run `fold` (an index into Document::folds()->folds()), null when not shown.
    InstanceSpinBox* spinBoxOf(int fold) const;

private:
    /// The folded runs the layout on screen draws, each box or frame in view, as (fold, shown module).
    std::vector<std::pair<int, int>> runsInView() const;
    void refresh();
    void clear();

    Document* m_doc;
    QHBoxLayout* m_row;
    std::vector<std::pair<int, InstanceSpinBox*>> m_spins; // by fold index
};

} // namespace irlens::views
