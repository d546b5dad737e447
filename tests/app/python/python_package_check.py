#!/usr/bin/python3
"""The irlens Python package as a notebook user meets it, for tst_python_package.

    python_package_check.py PROGRAM.pt2 NODE OP   (PYTHONPATH holding app/python; IRLENS_CLI and
                                                  IRLENS_GUI naming the built executables)

NODE is a node of PROGRAM the report must hold, OP its op as the drawing labels its box. Checks what show, svg and html accept and refuse,
that svg's _repr_svg_ is SVG labelling a box OP, that html's _repr_html_ frames the whole report, that
show(path, run=True) starts irlens with --run (and it keeps running), and that `python3 -m irlens`
becomes irlens. Prints one line per check; exits 1 at the first failure.
"""

import html as html_text
import json
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import irlens
from irlens.window import gui_arguments


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what, flush=True)
    if not ok:
        sys.exit(1)


def raises(fn, kind, words):
    try:
        fn()
    except kind as e:
        return all(w in str(e) for w in words)
    return False


def main(program, node, op):
    source = os.path.dirname(os.path.dirname(os.path.abspath(irlens.__file__)))
    check(os.path.isfile(os.path.join(source, "pyproject.toml")), f"irlens imported from the sources ({irlens.__file__})")

    # what is accepted, and what is refused with a message saying what is accepted
    check(irlens.program_path(program) == os.path.abspath(program), "a path is taken as it is")
    check(raises(lambda: irlens.svg(42), TypeError, ["ExportedProgram", ".pt2", "int"]), "svg(42) refused, naming what is accepted")
    check(raises(lambda: irlens.show("/nonexistent/m.pt2"), FileNotFoundError, ["/nonexistent/m.pt2"]), "show of a missing file names it")
    check(raises(lambda: irlens.show(program, colour="red"), TypeError, ["colour", "run", "select"]), "an unknown option is refused")
    check(gui_arguments({"run": True, "select": "x", "expand_all": True, "tour": False}) == ["--run", "--select", "x", "--expand-all"],
          "keywords become the irlens flags")

    # svg: a drawing a notebook shows, naming the node
    drawing = irlens.svg(program)
    root = ET.fromstring(drawing._repr_svg_())
    check(root.tag == "{http://www.w3.org/2000/svg}svg", "_repr_svg_ is an SVG document")
    texts = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")] + \
            [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}title")]
    check(op in texts, f"the drawing labels a box {op}")

    # html: the report, framed so that its page does not touch the notebook's
    report = irlens.html(program)
    check(report.data.startswith("<!DOCTYPE html>") and 'id="irlens-data"' in report.data, "html() holds the report")
    framed = report._repr_html_()
    start = framed.index('srcdoc="') + len('srcdoc="')
    check(html_text.unescape(framed[start:framed.index('"', start)]) == report.data, "_repr_html_ frames exactly the report")
    data = report.data[report.data.index('id="irlens-data">') + len('id="irlens-data">'):]
    data = json.loads(data[:data.index("</script>")])
    check(any(n["n"] == node for n in data["nodes"]) and "run" not in data, "the report's data names the node, no run asked")
    check("run" in json.loads(irlens.html(program, run=True).data.split('id="irlens-data">')[1].split("</script>")[0]),
          "html(run=True) holds the run")

    # show: irlens started with --run, not waited for
    started = time.time()
    process = irlens.show(program, run=True)
    check(time.time() - started < 5, "show returns at once")
    check(process.args == [os.environ["IRLENS_GUI"], "--run", os.path.abspath(program)], f"irlens started as {process.args}")
    time.sleep(4)
    check(process.poll() is None, "irlens is still running 4 s later")
    process.terminate()
    process.wait(30)

    # python3 -m irlens: becomes irlens (its --version answers without a display)
    out = subprocess.run([sys.executable, "-m", "irlens", "--version"], capture_output=True, text=True, timeout=60)
    check(out.returncode == 0 and out.stdout.startswith("irlens "), f"python3 -m irlens --version: {out.stdout.strip()}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
