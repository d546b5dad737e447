#!/usr/bin/python3
"""Opens an irlens HTML report in headless Chromium and uses it as a person would, through the
DevTools protocol over --remote-debugging-pipe (a tiny client: JSON messages ended by a NUL byte on
file descriptors 3 and 4). Real mouse and key events, dispatched at the positions the page reports.

    browser_check.py CHROMIUM REPORT.html --module blocks.0 --search softmax [--screenshot OUT.png]

Prints one JSON object: each check's result and what it saw, the console errors and uncaught
exceptions, the page's own render times. Exits 0 when every check passed, 1 otherwise, 2 when the
browser could not be driven (its stderr is printed). Standard library only.
"""

import argparse
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time


class Browser:
    def __init__(self, chromium, profile):
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()
        # out of the way of 3 and 4, which the child's dup2 writes
        child_r = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD, 10)
        child_w = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD, 10)

        def wire():
            os.dup2(child_r, 3)
            os.dup2(child_w, 4)

        args = [chromium, "--headless=new", "--remote-debugging-pipe", "--disable-gpu", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--user-data-dir=" + profile,
                "--window-size=1366,768", "about:blank"]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")  # Chromium refuses to run its sandbox as root
        self.stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(args, preexec_fn=wire, pass_fds=(3, 4), stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=self.stderr)
        for fd in (to_browser_r, from_browser_w, child_r, child_w):
            os.close(fd)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.session = None

    def send(self, method, params=None, session=True, timeout=60):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            reply = self.read(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def read(self, deadline):
        while b"\0" not in self.buffer:
            left = deadline - time.time()
            if left <= 0 or not select.select([self.from_browser], [], [], left)[0]:
                raise TimeoutError("the browser did not answer in time")
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("the browser closed the pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def wait_event(self, method, timeout=60):
        deadline = time.time() + timeout
        for e in self.events:
            if e.get("method") == method:
                return e
        while True:
            e = self.read(deadline)
            self.events.append(e)
            if e.get("method") == method:
                return e

    def evaluate(self, expression):
        r = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expression[:80]}...: {r['exceptionDetails'].get('exception', {}).get('description')}")
        return r["result"].get("value")

    def click(self, x, y):
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def settle(self):
        """Lets the page finish what the last event started (two animation frames)."""
        self.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")

    def close(self):
        try:
            self.send("Browser.close", session=False, timeout=10)
        except Exception:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


# The centre of the first element `selector` matches, scrolled into view; null when none.
CENTRE = """(() => {{ const e = {find}; if (!e) return null; e.scrollIntoView({{block: 'center', inline: 'center'}});
  const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + Math.min(r.height / 2, 10)]; }})()"""


def centre_of(browser, find):
    browser.settle()
    return browser.evaluate(CENTRE.format(find=find))


def run_checks(browser, report, module, query):
    checks = {}
    data = browser.evaluate("JSON.parse(document.getElementById('irlens-data').textContent)")
    with open(report, encoding="utf-8") as f:
        text = f.read()
    start = text.index('id="irlens-data">') + len('id="irlens-data">')
    on_disk = json.loads(text[start:text.index("</script>", start)])
    checks["data read back"] = {"ok": len(data["nodes"]) == len(on_disk["nodes"]) > 0, "nodes": len(data["nodes"])}
    checks["drawn"] = {"ok": browser.evaluate("document.querySelectorAll('#graph-a g.box').length") > 0,
                       "boxes": browser.evaluate("document.querySelectorAll('#graph-a g.box').length"),
                       "render ms": browser.evaluate("irlensReport.views[0].lastRenderMs")}

    # a click on an op box shows that node's target
    name = browser.evaluate("document.querySelector('#graph-a g.box[data-node]')?.getAttribute('data-node')")
    at = centre_of(browser, "document.querySelector('#graph-a g.box[data-node] rect')")
    if at:
        browser.click(*at)
        browser.settle()
    shown = browser.evaluate("document.getElementById('node-target')?.textContent")
    expected = next((n["t"] for n in on_disk["nodes"] if n["n"] == name), None)
    checks["click shows the target"] = {"ok": bool(name) and shown == expected, "node": name, "shown": shown, "expected": expected}

    # search: typed into the field, Enter goes to the first hit
    at = centre_of(browser, "document.getElementById('search')")
    browser.click(*at)
    browser.send("Input.insertText", {"text": query})
    for kind in ("keyDown", "keyUp"):
        browser.send("Input.dispatchKeyEvent", {"type": kind, "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13,
                                                "nativeVirtualKeyCode": 13, **({"text": "\r"} if kind == "keyDown" else {})})
    browser.settle()
    count = browser.evaluate("document.getElementById('hitcount').textContent")
    target = browser.evaluate("document.getElementById('node-target')?.textContent") or ""
    selected = browser.evaluate("document.querySelector('#graph-a g.box.sel')?.getAttribute('data-node')")
    expected_hits = sum(1 for n in on_disk["nodes"] if query in n["n"].lower() or query in n["t"].lower()
                        or (n["m"] and query in on_disk["modules"][n["m"]]["p"].lower()))
    checks["search"] = {"ok": count == f"1 of {expected_hits} hits" and expected_hits > 0 and query in target and selected is not None,
                        "count": count, "expected hits": expected_hits, "selected target": target, "selected box": selected}

    # the module opens: close everything, then click the module's box
    index = next(k for k, m in enumerate(on_disk["modules"]) if m["p"] == module)
    shown_index = on_disk["modules"][index].get("by", index)
    browser.click(*centre_of(browser, "document.getElementById('collapse-all')"))
    before = browser.evaluate(f"document.querySelectorAll('#graph-a g.frame[data-module=\"{shown_index}\"]').length")
    browser.click(*centre_of(browser, f"document.querySelector('#graph-a g.box[data-module=\"{shown_index}\"] rect')"))
    browser.settle()
    after = browser.evaluate(f"document.querySelectorAll('#graph-a g.frame[data-module=\"{shown_index}\"]').length")
    # boxes drawn inside the module's frame
    inside = browser.evaluate(f"""(() => {{
        const f = document.querySelector('#graph-a g.frame[data-module="{shown_index}"] > rect');
        if (!f) return 0;
        const r = f.getBoundingClientRect();
        return [...document.querySelectorAll('#graph-a g.box')].filter(g => {{
          const b = g.getBoundingClientRect();
          return b.left >= r.left && b.right <= r.right && b.top >= r.top && b.bottom <= r.bottom; }}).length; }})()""")
    checks["module opens"] = {"ok": before == 0 and after == 1 and inside > 0, "module": module, "frames before": before,
                              "frames after": after, "boxes inside": inside,
                              "render ms": browser.evaluate("irlensReport.views[0].lastRenderMs")}

    if "run" in on_disk:
        rows = browser.evaluate("document.querySelectorAll('#pane tbody tr').length")
        heat = browser.evaluate("[...document.querySelectorAll('#graph-a g.box[data-node] > rect:last-of-type')]"
                                ".filter(r => (r.getAttribute('fill') || '').startsWith('rgb(')).length")
        checks["profile and heatmap"] = {"ok": rows > 0 and heat > 0, "profile rows": rows, "heat-coloured boxes": heat}
    return checks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("chromium")
    ap.add_argument("report")
    ap.add_argument("--module", required=True)
    ap.add_argument("--search", required=True)
    ap.add_argument("--screenshot")
    a = ap.parse_args()
    profile = tempfile.mkdtemp(prefix="irlens-chromium-")
    browser = Browser(a.chromium, profile)
    result = {}
    try:
        target = browser.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        browser.session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
        for domain in ("Page.enable", "Runtime.enable", "Log.enable"):
            browser.send(domain)
        browser.send("Emulation.setDeviceMetricsOverride", {"width": 1366, "height": 768, "deviceScaleFactor": 1, "mobile": False})
        started = time.time()
        browser.send("Page.navigate", {"url": "file://" + os.path.abspath(a.report)})
        browser.wait_event("Page.loadEventFired", timeout=120)
        result["load seconds"] = round(time.time() - started, 2)
        result["checks"] = run_checks(browser, a.report, a.module, a.search.lower())
        if a.screenshot:
            # the module left open, the next search hit selected inside it, the profile below
            browser.evaluate("irlensReport.nextHit(1)")
            browser.evaluate("document.querySelector('#tabs button[data-tab=profile]')?.click()")
            browser.settle()
            shot = browser.send("Page.captureScreenshot", {"format": "png"})
            with open(a.screenshot, "wb") as f:
                f.write(base64.b64decode(shot["data"]))
    except Exception as e:  # the browser could not be driven: say how, with its own words
        browser.close()
        browser.stderr.seek(0)
        print(json.dumps({"driver error": f"{type(e).__name__}: {e}",
                          "browser stderr": browser.stderr.read().decode(errors="replace")[-4000:]}, indent=1))
        shutil.rmtree(profile, ignore_errors=True)
        return 2
    browser.close()
    shutil.rmtree(profile, ignore_errors=True)
    errors = []
    for e in browser.events:
        m, p = e.get("method"), e.get("params", {})
        if m == "Runtime.exceptionThrown":
            errors.append(p["exceptionDetails"].get("exception", {}).get("description") or p["exceptionDetails"].get("text"))
        elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            errors.append(" ".join(str(x.get("value", x.get("description"))) for x in p.get("args", [])))
        elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
            errors.append(p["entry"].get("text"))
    result["console errors"] = errors
    print(json.dumps(result, indent=1))
    return 0 if not errors and all(c["ok"] for c in result["checks"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
