#include "views/settings_writer.h"

#include <QSettings>
#include <QThreadPool>

namespace irlens::views {

namespace {

QThreadPool& settingsThread() {
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool; // left to the OS at exit: QSettings needs the application's names
        p->setMaxThreadCount(1);   // one thread keeps the writes in order
        p->setExpiryTimeout(-1);
        return p;
    }();
    return *pool;
}

} // namespace

void writeSettingLater(const QString& key, const QVariant& value) {
    settingsThread().start([key, value] { QSettings().setValue(key, value); });
}

void waitForSettingWrites() { settingsThread().waitForDone(); }

} // namespace irlens::views
