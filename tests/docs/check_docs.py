#!/usr/bin/python3
"""The documentation check: the README is a front door and docs/ holds the rest, with nothing stale.

  check_docs.py SOURCE_DIR     check the checkout at SOURCE_DIR; exit 1 and one line per problem
  check_docs.py --self-test    build small trees with one defect each and check that each is caught

What it checks, in README.md, docs/*.md and tests/conformance/README.md:
  - README.md has fewer than 200 lines and links every docs/*.md;
  - every relative link and image resolves to a file or folder of the checkout, and every #anchor
    to a heading of its target page (headings slugged as GitHub slugs them);
  - every file in docs/screenshots/ is used by some page;
  - no page names an issue number (#12, "issue 12");
  - no page holds a date or a clock time, except docs/benchmarks.md's headings, one date each;
  - no page tells history ("no longer", "used to be", "Before, ...").
Python 3 standard library only.
"""

import os
import re
import sys
import tempfile

README_MAX_LINES = 200

ISSUE = re.compile(r"(?<![\w&/#])#\d+\b|\bissues? #?\d+\b", re.IGNORECASE)
MONTHS = (r"Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
          r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?")
ISO_DATE = re.compile(r"\b(?:19|20)\d\d-\d\d-\d\d\b")
OTHER_DATES = [re.compile(r"\b(?:%s)\.? (?:\d{1,2}, )?(?:19|20)\d\d\b" % MONTHS),
               re.compile(r"\b\d{1,2} (?:%s) (?:19|20)\d\d\b" % MONTHS)]
CLOCK = re.compile(r"\b\d{1,2}:\d\d(?::\d\d)? ?(?:UTC|GMT)\b")
HISTORY = [re.compile(p) for p in (
    r"\bno longer\b", r"\bused to be\b", r"\bpreviously\b", r"\bformerly\b", r"\bwent from\b",
    r"\bwas changed\b", r"\bthis round\b", r"\btonight\b", r"\blast night\b",
    r"(?:^|[.!?(] ?)Before(?:,| this\b| that\b)", r"\(was \d", r"\bthe old (?:code|reader|writer|binary|observer)\b")]
LINK = re.compile(r"!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_REF = re.compile(r"""<(?:img|a)\b[^>]*?\b(?:src|href)=["']([^"']+)["']""", re.IGNORECASE)
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
CODE_SPAN = re.compile(r"`+[^`\n]*`+")


def pages(root):
    """The pages checked, as paths relative to root."""
    out = ["README.md"]
    docs = os.path.join(root, "docs")
    if os.path.isdir(docs):
        out += sorted("docs/" + f for f in os.listdir(docs) if f.endswith(".md"))
    if os.path.isfile(os.path.join(root, "tests/conformance/README.md")):
        out.append("tests/conformance/README.md")
    return out


def prose_lines(text):
    """(line number, line, inside a fenced code block) for every line."""
    fence = None
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip()
        if fence is None and (stripped.startswith("```") or stripped.startswith("~~~")):
            fence = stripped[:3]
            yield number, line, True
        elif fence is not None:
            if stripped.startswith(fence):
                fence = None
            yield number, line, True
        else:
            yield number, line, False


def slug(heading):
    """GitHub's anchor for a heading: formatting dropped, lower case, punctuation out, spaces to '-'."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").lower()
    text = "".join(c for c in text if c.isalnum() or c in "_- ")
    return text.replace(" ", "-")


def anchors(text):
    seen = {}
    out = set()
    for _, line, code in prose_lines(text):
        m = None if code else HEADING.match(line)
        if not m:
            continue
        base = slug(m.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        out.add(base if count == 0 else "%s-%d" % (base, count))
    return out


def links(text):
    """(line number, target) of every link and image outside code."""
    for number, line, code in prose_lines(text):
        if code:
            continue
        bare = CODE_SPAN.sub("", line)
        for m in LINK.finditer(bare):
            yield number, m.group(1)
        for m in HTML_REF.finditer(bare):
            yield number, m.group(1)


def read(root, rel):
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        return f.read()


def check(root):
    """Every problem as 'page:line: what'."""
    problems = []
    if not os.path.isfile(os.path.join(root, "README.md")):
        return ["README.md: missing"]
    texts = {rel: read(root, rel) for rel in pages(root)}
    anchor_cache = {}

    def anchors_of(path):
        if path not in anchor_cache:
            with open(path, encoding="utf-8") as f:
                anchor_cache[path] = anchors(f.read())
        return anchor_cache[path]

    readme_lines = texts["README.md"].count("\n") + (0 if texts["README.md"].endswith("\n") else 1)
    if readme_lines >= README_MAX_LINES:
        problems.append("README.md: %d lines, the front door keeps under %d" % (readme_lines, README_MAX_LINES))

    used = {}  # absolute path -> pages linking it
    for rel, text in texts.items():
        here = os.path.dirname(os.path.join(root, rel))
        for number, target in links(text):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
                continue  # http:, https:, mailto: ...
            path_part, _, anchor = target.partition("#")
            path = os.path.normpath(os.path.join(here, path_part)) if path_part else os.path.join(root, rel)
            if not os.path.abspath(path).startswith(os.path.abspath(root) + os.sep):
                problems.append("%s:%d: '%s' leaves the checkout" % (rel, number, target))
                continue
            if not os.path.exists(path):
                problems.append("%s:%d: '%s' does not resolve (no %s)" % (rel, number, target, os.path.relpath(path, root)))
                continue
            used.setdefault(os.path.abspath(path), set()).add(rel)
            if anchor and path.endswith(".md") and anchor not in anchors_of(path):
                problems.append("%s:%d: '%s': %s has no heading with the anchor #%s"
                                % (rel, number, target, os.path.relpath(path, root), anchor))

    readme_targets = {p for p, by in used.items() if "README.md" in by}
    for rel in texts:
        if rel.startswith("docs/") and os.path.abspath(os.path.join(root, rel)) not in readme_targets:
            problems.append("README.md: does not link %s" % rel)

    shots = os.path.join(root, "docs", "screenshots")
    if os.path.isdir(shots):
        for name in sorted(os.listdir(shots)):
            if os.path.abspath(os.path.join(shots, name)) not in used:
                problems.append("docs/screenshots/%s: no page uses it (use it or delete it)" % name)

    for rel, text in texts.items():
        benchmarks = rel == "docs/benchmarks.md"
        for number, line, code in prose_lines(text):
            for m in ISSUE.finditer(line):
                problems.append("%s:%d: an issue number ('%s'): say what is, not which issue asked" % (rel, number, m.group(0)))
            heading = not code and HEADING.match(line)
            dates = ISO_DATE.findall(line)
            others = [m.group(0) for p in OTHER_DATES for m in p.finditer(line)]
            clocks = CLOCK.findall(line)
            if benchmarks and heading:
                if len(dates) + len(others) > 1:
                    problems.append("%s:%d: more than one date in a heading" % (rel, number))
            else:
                for d in dates + others + clocks:
                    where = "outside a table heading" if benchmarks else "(only benchmarks.md's table headings carry dates)"
                    problems.append("%s:%d: a date or time '%s' %s" % (rel, number, d, where))
            if not code:
                bare = CODE_SPAN.sub("", line)
                for p in HISTORY:
                    m = p.search(bare)
                    if m:
                        problems.append("%s:%d: history ('%s'): say what is; git keeps what was" % (rel, number, m.group(0).strip(". ")))
    return problems


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) != 2:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    root = os.path.abspath(argv[1])
    problems = check(root)
    for p in problems:
        print(p)
    n_pages = len(pages(root))
    if problems:
        print("docs check: %d problem(s) in %d pages" % (len(problems), n_pages))
        return 1
    print("docs check: %d pages, every link, anchor and screenshot in place, no dates, issues or history" % n_pages)
    return 0


# ---------------------------------------------------------------------------------------------- self-test

GOOD = {
    "README.md": "# tool\n\n![the window](docs/screenshots/a.png)\n\nSee [the guide](docs/guide.md#the-graph) "
                 "and [numbers](docs/benchmarks.md).\n",
    "docs/guide.md": "# Guide\n\n## The graph\n\nBoxes. [Back](../README.md). `a[0](x)` is code.\n\n"
                     "```\nprinted at 2026-01-02 in a code block? no: dates are checked there too\n```\n",
    "docs/benchmarks.md": "# Benchmarks\n\n### Latest run: 2026-12-03 00:42 UTC, load 1\n\n| a | b |\n|---|---|\n",
    "docs/screenshots/a.png": "",
}
# Each defect: the files it changes, and a word the report must contain.
DEFECTS = [
    ("long README", {"README.md": GOOD["README.md"] + "line\n" * 200}, "lines"),
    ("unlinked doc", {"docs/other.md": "# Other\n"}, "does not link docs/other.md"),
    ("broken link", {"docs/guide.md": "# Guide\n\n## The graph\n\n[x](missing.md)\n"}, "does not resolve"),
    ("broken image", {"README.md": GOOD["README.md"] + "![b](docs/screenshots/b.png)\n"}, "does not resolve"),
    ("broken anchor", {"README.md": GOOD["README.md"].replace("#the-graph", "#the-grid")}, "no heading with the anchor"),
    ("unused screenshot", {"docs/screenshots/old.png": ""}, "no page uses it"),
    ("issue number", {"docs/guide.md": GOOD["docs/guide.md"] + "Fixed in #14.\n"}, "issue number"),
    ("issue by word", {"docs/guide.md": GOOD["docs/guide.md"] + "As issue 27 asks.\n"}, "issue number"),
    ("dated prose", {"docs/guide.md": GOOD["docs/guide.md"] + "Measured on 2026-11-30.\n"}, "date"),
    ("month and year", {"docs/guide.md": GOOD["docs/guide.md"] + "Since Oct 2024 it works.\n"}, "date"),
    ("clock time", {"docs/guide.md": GOOD["docs/guide.md"] + "At 21:40 UTC it ran.\n"}, "date"),
    ("date in a benchmark's prose", {"docs/benchmarks.md": GOOD["docs/benchmarks.md"] + "Run on 2026-12-02.\n"}, "outside a table heading"),
    ("two dates in a heading", {"docs/benchmarks.md": "# B\n\n### 2026-12-02 and 2026-12-03\n"}, "more than one date"),
    ("history", {"docs/guide.md": GOOD["docs/guide.md"] + "Before, the GUI matched outputs by name.\n"}, "history"),
    ("history, another way", {"docs/guide.md": GOOD["docs/guide.md"] + "It no longer copies.\n"}, "history"),
    ("history in brackets", {"docs/guide.md": GOOD["docs/guide.md"] + "It checks (Before, it did not.)\n"}, "history"),
]


def write_tree(root, files):
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def self_test():
    failures = []
    good = dict(GOOD)
    good["docs/guide.md"] = good["docs/guide.md"].replace("2026-01-02", "a date")
    with tempfile.TemporaryDirectory() as root:
        write_tree(root, good)
        problems = check(root)
        if problems:
            failures.append("the good tree is reported: %s" % problems)
    for name, changes, word in DEFECTS:
        with tempfile.TemporaryDirectory() as root:
            write_tree(root, good)
            write_tree(root, changes)
            problems = check(root)
            if not any(word in p for p in problems):
                failures.append("%s: not caught (expected '%s' in %s)" % (name, word, problems))
    with tempfile.TemporaryDirectory() as root:  # a date inside a code block is a date too
        write_tree(root, GOOD)
        if not any("2026-01-02" in p for p in check(root)):
            failures.append("a date in a code block: not caught")
    for f in failures:
        print(f)
    print("docs check self-test: %d defects, %s" % (len(DEFECTS) + 1, "all caught" if not failures else "%d missed" % len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
