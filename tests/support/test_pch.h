// The headers most test files include, precompiled once for all of them (irlens_test_pch): parsing
// them was about half of a test file's compile time. <QTest> stays out: its macros read per-test
// definitions (QT_TESTCASE_BUILDDIR, QT_WIDGETS_LIB) that would make the header unusable elsewhere.
// core/exec first: oneTBB's headers declare functions named emit, which Qt's macro would break.
#include "core/exec/engine.h"
#include "core/exec/inputs.h"
#include "core/io/pt2_reader.h"
#include "core/ir/builder.h"
#include "core/ir/example_program.h"
#include "core/ops/meta.h"
#include "core/ops/op_registry.h"

#include <QByteArray>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>
