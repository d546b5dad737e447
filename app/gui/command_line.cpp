#include "app/gui/command_line.h"

#include "app/common/man_page.h"
#include "views/main_window.h"

#include <QCoreApplication>

#include <cstdio>

namespace irlens::app {

GuiOptions::GuiOptions() {
    parser.setApplicationDescription("Inspect torch.export programs (.pt2)");
    parser.addPositionalArgument("file", "a .pt2 file to open (without one, the bundled example)");
    for (const QCommandLineOption* o : options()) parser.addOption(*o);
}

QString GuiOptions::dockHelp() {
    return "with --run or --compare-values: bring the dock NAME to the front once the run is shown (" + views::MainWindow::dockWords().join(", ") + ")";
}

std::vector<const QCommandLineOption*> GuiOptions::options() const {
    return {&select,     &search,        &run,            &decompose, &runTo,     &reference, &dock,    &whatIf,
            &sourceRoot, &memoryOverlay, &fxPlaceholders, &noFold,    &expandAll, &fxForm,    &inputs,  &compareValues,
            &compare,    &tour,          &man};
}

std::optional<int> GuiOptions::answerWithoutDisplay(int argc, char** argv) {
    QStringList arguments;
    for (int k = 0; k < argc; ++k) arguments << QString::fromLocal8Bit(argv[k]);
    if (!parser.parse(arguments)) return std::nullopt;
    // --help-all stays with QApplication: only it knows the window system's options (-platform ...)
    if (!parser.isSet(help) && !parser.isSet(version) && !parser.isSet(man)) return std::nullopt;
    QCoreApplication app(argc, argv); // the help's program name; no window system
    if (parser.isSet(man)) {
        const std::string page = manPage();
        std::fwrite(page.data(), 1, page.size(), stdout);
        return 0;
    }
    parser.process(app); // prints the help or the version and exits with 0
    return 0;
}

std::string GuiOptions::manPage() const {
    ManPage page;
    page.name = "irlens";
    page.source = std::string("irlens ") + IRLENS_VERSION;
    page.summary = "inspect torch.export programs (.pt2) in a window";
    ManSection options{"OPTIONS", {}, {}, {{"", {}}}, {}};
    std::vector<const QCommandLineOption*> listed{&help, &version};
    for (const QCommandLineOption* o : this->options()) listed.push_back(o);
    for (const QCommandLineOption* o : listed) {
        QStringList names;
        for (const QString& n : o->names()) names << (n.size() == 1 ? "-" : "--") + n;
        options.lists[0].items.push_back(
            {names.join(", ").toStdString(), o->valueName().toStdString(), o->description().toStdString()});
        if (o == &help) // added by addHelpOption() with it, not returned
            options.lists[0].items.push_back(
                {"--help-all", "", "the help with the options every Qt application takes (-platform, -style ...); this one "
                                   "needs a display, or -platform offscreen"});
    }
    page.sections = {
        {"SYNOPSIS", {"irlens [OPTIONS] [FILE]"}, {}, {}, {}},
        {"DESCRIPTION", {}, {
            "irlens opens a program that torch.export wrote (a .pt2 file of any format era), draws its graph with its "
            "modules, explains every node against the Export IR spec, steps its decomposition from the training IR to "
            "Core ATen and Prims one node at a time, and runs it on a parallel CPU engine that times every node. An "
            "AOTInductor package opens as a description of what it holds. Without FILE it opens a bundled example.",
            "The options that act on the program (--select, --search, --run, --decompose ...) apply once its graph is "
            "first shown, so a view can be opened from a script. irlens-cli(1) does the same work without a window."}, {}, {}},
        options,
        {"FILES", {}, {}, {{"", {{"~/.config/irlens/irlens.conf", "", "the window's layout, the recent files and the settings"}}}}, {}},
        {"SEE ALSO", {}, {"irlens-cli(1)"}, {}, {}},
    };
    return renderManPage(page);
}

} // namespace irlens::app
