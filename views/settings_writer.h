#pragma once
// Settings saved off the GUI thread. QSettings writes its whole file and fdatasyncs it (and its lock
// file) on every change: a millisecond on an idle disk, a tenth of a second or more while a build is
// writing, and the window would freeze that long when a file is opened (recent files) or a spin box
// changes. Writes go to one background thread, in the order they were asked for; reading a value
// just written needs waitForSettingWrites() first.

#include <QString>
#include <QVariant>

namespace irlens::views {

/// Sets `key` to `value` in the application's QSettings, on the settings thread.
void writeSettingLater(const QString& key, const QVariant& value);
/// Blocks until every write asked for so far is on disk (window close, tests).
void waitForSettingWrites();

} // namespace irlens::views
