#!/usr/bin/env python3
"""Drives a real headless Chromium (through chromedriver's WebDriver protocol, standard library
only) over a qijudge replay page: loads it, steps forward and back with the buttons, the keyboard,
the move list and the address, and takes screenshots.

Usage: replay.py PAGE.html OUTDIR NAME
Prints one JSON object (what it saw); exits 1 on the first check that fails.
"""
import json
import os
import re
import sys

from chromium import Browser, fail

page, outdir, name = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
os.makedirs(outdir, exist_ok=True)

browser = None
try:
    browser = Browser()
    s, call, run = browser.s, browser.call, browser.run

    def element(css):
        found = call("POST", f"{s}/element", {"using": "css selector", "value": css})
        return list(found.values())[0]

    def click(css):
        call("POST", f"{s}/element/{element(css)}/click", {})

    def ply():
        return int(run("return document.body.getAttribute('data-ply');"))

    def shown():
        return run("return Array.from(document.querySelectorAll('g.frame'))"
                   ".filter(g => !g.classList.contains('hidden')).map(g => g.id);")

    def screenshot(label):
        return browser.screenshot(os.path.join(outdir, f"{name}-{label}.png"))

    url = "file://" + page
    call("POST", f"{s}/url", {"url": url})
    last = int(run("return document.querySelectorAll('g.frame').length;")) - 1
    seen = {"frames": last + 1, "title": run("return document.title;"), "screenshots": []}
    if last < 1:
        fail("fewer than two positions")
    if ply() != 0 or shown() != ["f0"]:
        fail(f"start: ply {ply()}, shown {shown()}")
    seen["screenshots"].append(screenshot("start"))
    for _ in range(3):
        click("#next")
    if ply() != 3 or shown() != ["f3"]:
        fail(f"after three steps forward: ply {ply()}, shown {shown()}")
    counter = run("return document.getElementById('where').textContent;")
    if "ply 3 of" not in counter and "turn 3 of" not in counter:
        fail("the counter does not say ply 3")
    click("#prev")
    if ply() != 2 or shown() != ["f2"]:
        fail(f"after a step back: ply {ply()}")
    # The keyboard: ArrowRight twice, ArrowLeft once.
    body = element("body")
    call("POST", f"{s}/element/{body}/value", {"text": "\ue014\ue014\ue012"})
    if ply() != 3:
        fail(f"keyboard: ply {ply()}")
    seen["screenshots"].append(screenshot("ply3"))
    state3 = run("return document.getElementById('s3').textContent;")
    if "ply 3" not in state3 and "turn 3" not in state3:
        fail(f"the state of ply 3 says {state3!r}")
    # End and Home step to the ends and leave the page where it is (the board in sight), on a
    # page taller than the window as on a laptop's 1280 x 800.
    run("window.scrollTo(0, 0);")
    seen["scrollable"] = run("return document.documentElement.scrollHeight > window.innerHeight;")
    for key, want in (("\ue010", last), ("\ue011", 0)):
        call("POST", f"{s}/element/{body}/value", {"text": key})
        if ply() != want:
            fail(f"key {key!r}: ply {ply()}, not {want}")
        if run("return window.scrollY;") != 0:
            fail(f"key {key!r} scrolled the page to {run('return window.scrollY;')}")
    click("#last")
    if ply() != last or shown() != [f"f{last}"]:
        fail(f"last: ply {ply()}")
    in_sight = run("var l = document.getElementById('moves'), c = l.querySelector('li.current');"
                   "return c.offsetTop >= l.scrollTop && "
                   "c.offsetTop + c.offsetHeight <= l.scrollTop + l.clientHeight + 1;")
    if not in_sight:
        fail("the last move is out of sight in the move list")
    seen["end"] = run(f"return document.getElementById('s{last}').textContent;")
    seen["screenshots"].append(screenshot("end"))
    click("#first")
    if ply() != 0:
        fail("first")
    # A move in the list, and an address that names a ply.
    pick = min(5, last)
    click(f"#m{pick} a")
    if ply() != pick or run("return location.hash;") != f"#ply={pick}":
        fail(f"move list: ply {ply()}")
    call("POST", f"{s}/url", {"url": url + "#ply=" + str(last - 1)})
    if ply() != last - 1:
        fail(f"address #ply={last - 1}: ply {ply()}")
    # Every move in the list, in order: each shows its own position and only that one.
    # The counter and the heading of the state shown name that ply too.
    for k in range(1, last + 1):
        click(f"#m{k} a")
        if ply() != k or shown() != [f"f{k}"]:
            fail(f"move {k} in the list: ply {ply()}, shown {shown()}")
        where = run("return document.getElementById('where').textContent;")
        if not where.endswith(f" {k} of {last}"):
            fail(f"move {k} in the list: the counter says {where!r}")
        heading = run(f"return document.querySelector('#s{k} h2').textContent;")
        if not re.search(rf"\b(ply|turn) {k}\b", heading):
            fail(f"move {k} in the list: the heading says {heading!r}")
    seen["clicked"] = last
    # No error in the browser's console (a script error, a refused resource).
    errors = browser.console_errors()
    if errors:
        fail(f"console errors: {errors}")
    seen["console_errors"] = 0
    # Nothing was fetched: the page is whole.
    fetched = run("return performance.getEntriesByType('resource').map(e => e.name);")
    if fetched:
        fail(f"the page fetched {fetched}")
    seen["fetched"] = fetched
    # The page's own fonts (a page with Chinese text carries the board's CJK font), by state:
    # one the move list uses is loaded by now.
    seen["fonts"] = run("return Array.from(document.fonts).map(f => f.family + ' ' + f.status);")
    print(json.dumps(seen))
finally:
    if browser:
        browser.close()
