"""irlens.svg and irlens.html: drawings and reports a notebook cell shows inline (_repr_svg_,
_repr_html_), made by irlens-cli."""

import html as html_text
import os
import subprocess
import tempfile

from irlens.programs import find_executable, program_path


def run_cli(args, what):
    """Runs irlens-cli with `args`; its error line becomes the exception's message."""
    cli = find_executable("irlens-cli", "IRLENS_CLI")
    done = subprocess.run([cli, *args], stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{what}: {done.stderr.strip() or 'irlens-cli exited with ' + str(done.returncode)}")


def _made_by_cli(suffix, args_for, what):
    with tempfile.TemporaryDirectory(prefix="irlens-") as scratch:
        out = os.path.join(scratch, "out" + suffix)
        run_cli(args_for(out), what)
        with open(out, encoding="utf-8") as f:
            return f.read()


class SvgDrawing:
    """The graph as SVG text (`data`); a notebook shows it inline."""

    def __init__(self, data):
        self.data = data

    def _repr_svg_(self):
        return self.data

    def save(self, path):
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.data)


class HtmlReport:
    """The one-file report (`data`, a whole HTML document). A notebook shows it in a frame of its own,
    so the report's style and script do not touch the notebook's page."""

    height = 720

    def __init__(self, data):
        self.data = data

    def _repr_html_(self):
        return (f'<iframe srcdoc="{html_text.escape(self.data, quote=True)}" style="width:100%;height:{self.height}px;'
                f'border:1px solid #ccc" sandbox="allow-scripts"></iframe>')

    def save(self, path):
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.data)


def svg(obj, collapse="auto"):
    """The graph of `obj` (an ExportedProgram or a .pt2 path) drawn by `irlens-cli render`, modules
    open up to 1,500 nodes (collapse="auto"; "top" and "none" as the command takes them)."""
    path = program_path(obj, "irlens.svg")
    return SvgDrawing(_made_by_cli(".svg", lambda out: ["render", path, "-o", out, "--collapse", collapse], "irlens.svg"))


def html(obj, run=False, reference=None, compare=None, inputs=None):
    """The report of `obj` (an ExportedProgram or a .pt2 path) by `irlens-cli report`: with run=True
    the profile, heatmap and flame graph; reference= a values file to compare every node with;
    compare= a second program (ExportedProgram or path); inputs= input files for the run."""
    path = program_path(obj, "irlens.html")

    def args(out):
        a = ["report", path, "-o", out]
        if run:
            a.append("--run")
        if reference is not None:
            a += ["--reference", os.fspath(reference)]
        if compare is not None:
            a += ["--compare", program_path(compare, "irlens.html(compare=...)")]
        if inputs:
            a += ["--inputs", *[os.fspath(i) for i in inputs]]
        return a

    return HtmlReport(_made_by_cli(".html", args, "irlens.html"))
