#pragma once
// The command line of irlens, described once: the parser reads it, --help prints it and --man writes the
// man page irlens(1) from it (at build time). --help, --version and --man are answered before any
// window system is touched, so they work without a display.

#include <QCommandLineOption>
#include <QCommandLineParser>

#include <optional>
#include <string>
#include <vector>

namespace irlens::app {

struct GuiOptions {
    GuiOptions();

    QCommandLineParser parser;
    QCommandLineOption help{parser.addHelpOption()};
    QCommandLineOption version{parser.addVersionOption()};
    QCommandLineOption select{"select", "select the node NAME once the graph is shown (in:VALUE: a placeholder; out: the output node)",
                              "NAME"};
    QCommandLineOption search{"search", "search for TEXT once the graph is shown", "TEXT"};
    QCommandLineOption run{"run", "run the program once the graph is shown and turn the heatmap on"};
    QCommandLineOption decompose{"decompose", "once shown, decompose the program to LEVEL (core or prims)", "LEVEL"};
    QCommandLineOption runTo{"run-to", "once shown, step the program node by node up to the node NAME (Run › Run to here)", "NAME"};
    QCommandLineOption reference{"reference", "open the Export IR reference on PAGE (rules, levels or ops; rules:ID for one rule)",
                                 "PAGE"};
    QCommandLineOption dock{"dock", dockHelp(), "NAME"};
    QCommandLineOption whatIf{"what-if", "with --run: ask the Critical path dock what if SELECTOR took FACTOR of its time",
                              "SELECTOR=FACTOR"};
    QCommandLineOption sourceRoot{"source-root", "look for the model's source files under DIR (for this session; the Source lines "
                                                 "dock's roots field keeps its own)", "DIR"};
    QCommandLineOption memoryOverlay{"memory-overlay", "with --run: colour the graph by the bytes live at the peak (the Memory dock's toggle)"};
    QCommandLineOption fxPlaceholders{"fx-placeholders", "draw the graph as the FX graph has it (Graph › Draw as the FX graph has it)"};
    QCommandLineOption noFold{"no-fold", "draw repeated blocks in full (Graph › Fold repeated blocks off)"};
    QCommandLineOption expandAll{"expand-all", "once shown, open every module (Graph › Expand all modules)"};
    QCommandLineOption fxForm{"fx", "show the FX dock's FORM tab: graph, code (forward()) or table (print_tabular)", "FORM"};
    QCommandLineOption inputs{"inputs", "run on the inputs in FILE (.pt, .npy, .npz, .safetensors or a model.expected/ folder; "
                                        "repeat for several, matched by name or in this order; Run › Inputs…, remembered for the file)",
                              "FILE"};
    QCommandLineOption compareValues{"compare-values", "once shown, run and compare every node's value with the values in REF, keyed "
                                                       "by node name (Run › Compare with reference values…)", "REF"};
    QCommandLineOption compare{"compare", "once shown, open the Compare window against the program in FILE", "FILE"};
    QCommandLineOption tour{"tour", "start the guided tour of the Export IR (Help › Tour of the Export IR), where it was left"};
    QCommandLineOption man{"man", "print the manual page irlens(1) as roff and exit"};

    /// Answers --help, --version and --man, before any QApplication exists: the exit code when one was
    /// asked for, else nullopt (the window starts). A command line that does not parse is left to the
    /// parse after QApplication, which knows Qt's own options (-platform ...).
    std::optional<int> answerWithoutDisplay(int argc, char** argv);
    std::string manPage() const;

private:
    static QString dockHelp();
    /// The options after help and version, in the order --help lists them.
    std::vector<const QCommandLineOption*> options() const;
};

} // namespace irlens::app
