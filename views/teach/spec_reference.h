#pragma once
// Help › Export IR rules and Help › IR levels and ops: the spec as irlens checks it, in one window.
// Rules: every verifier rule with its spec passage, an example that breaks it and the fix (a
// diagnostic's "rule" link opens its row). IR levels: the training IR, Core ATen and Prims compared
// (functional, promotion and broadcasting implicit or explicit, size of the op set). Ops: the 193
// core ATen and 128 prims overloads with schema, tags, whether the engine has a kernel, and the
// decomposition rule that lowers each (or why it stays), sorted by op.

#include <QDialog>

class QStandardItemModel;
class QTabWidget;
class QTextBrowser;

namespace irlens::core {
struct RuleInfo;
}

namespace irlens::views {

class Document;
class TablePane;

class SpecReferenceDialog : public QDialog {
    Q_OBJECT
public:
    enum Page { Rules, Levels, Ops };
    explicit SpecReferenceDialog(Document* document, QWidget* parent = nullptr);

    void showPage(Page page);
    /// The Rules page with rule `id` (V001, S012 ...) selected and explained; false if unknown.
    bool showRule(const QString& id);
    /// A rule as the Rules page explains it: what it asks, its spec passage, a program that breaks it, the fix.
    static QString ruleHtml(const core::RuleInfo& rule);
    /// The rule the Rules page explains now ("" before one is chosen).
    QString currentRule() const { return m_currentRule; }

    QStandardItemModel* rulesModel() const { return m_rules; }
    QStandardItemModel* opsModel() const { return m_ops; }
    TablePane* rulesPane() const { return m_rulesPane; }
    QTextBrowser* ruleText() const { return m_ruleText; }
    QTextBrowser* levelsText() const { return m_levels; }

protected:
    void showEvent(QShowEvent* event) override;

private:
    QWidget* buildRulesPage();
    QWidget* buildLevelsPage();
    QWidget* buildOpsPage();
    void explainRule(int row);

    Document* m_doc;
    QTabWidget* m_tabs = nullptr;
    QStandardItemModel* m_rules = nullptr;
    QStandardItemModel* m_ops = nullptr;
    TablePane* m_rulesPane = nullptr;
    TablePane* m_opsPane = nullptr;
    QTextBrowser* m_ruleText = nullptr;
    QTextBrowser* m_levels = nullptr;
    QString m_currentRule;
};

} // namespace irlens::views
