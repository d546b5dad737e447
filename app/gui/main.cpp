// irlens: the desktop inspector. `irlens [FILE]`; without a file it opens the bundled example.
#include "views/main_window.h"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName("irlens");
    QApplication::setApplicationName("irlens");
    QApplication::setApplicationVersion("0.1.0");
    QCommandLineParser parser;
    parser.setApplicationDescription("Inspect torch.export programs (.pt2)");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("file", "a .pt2 file to open");
    parser.process(app);
    irlens::views::MainWindow window;
    window.show();
    if (!parser.positionalArguments().isEmpty())
        window.openFile(parser.positionalArguments().front());
    else
        window.openExample();
    return app.exec();
}
