#!/usr/bin/env python3
"""Drives a real headless Chromium (chromedriver's WebDriver protocol, standard library only)
over a qijudge site served by a local static web server: visits every page reachable from the
index, checks that every link and picture resolves and that no console error is logged, that no
page is wider than the window at 1280 x 800 and at a phone's 390 x 844, that the keyboard
reaches the skip link, the navigation and a game, and takes screenshots.

Usage: site.py SITE OUTDIR NAME
Prints one JSON object (what it saw); exits 1 on the first check that fails.
"""
import functools
import http.server
import json
import os
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request

from chromium import Browser, fail

site, outdir, name = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
os.makedirs(outdir, exist_ok=True)


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(
    ("127.0.0.1", 0), functools.partial(Quiet, directory=site))
threading.Thread(target=server.serve_forever, daemon=True).start()
origin = f"http://127.0.0.1:{server.server_address[1]}"



def status(url):
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


browser = None
try:
    browser = Browser()
    s, call, run, go = browser.s, browser.call, browser.run, browser.go

    def keys(*codes):
        actions = []
        for c in codes:
            actions += [{"type": "keyDown", "value": c}, {"type": "keyUp", "value": c}]
        call("POST", f"{s}/actions", {"actions": [{"type": "key", "id": "kb", "actions": actions}]})

    def screenshot(label):
        return browser.screenshot(os.path.join(outdir, f"{name}-{label}.png"))

    console_errors = browser.console_errors

    def too_wide():
        return run("return document.documentElement.scrollWidth > window.innerWidth + 1;")

    seen = {"pages": 0, "links": 0, "pictures": 0, "screenshots": []}
    todo, visited, checked = [origin + "/index.html"], set(), {}
    while todo:
        url = todo.pop(0)
        if url in visited:
            continue
        visited.add(url)
        go(url)
        seen["pages"] += 1
        if run("return document.title;") == "":
            fail(f"{url}: no title")
        broken = run("return Array.from(document.images)"
                     ".filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src);")
        if broken:
            fail(f"{url}: pictures not shown: {broken}")
        seen["pictures"] += run("return document.images.length;")
        errors = console_errors()
        if errors:
            fail(f"{url}: console errors: {errors}")
        if not url.endswith("/replay.html") and too_wide():
            fail(f"{url}: wider than the window at 1280 x 800")
        links = run("return Array.from(document.querySelectorAll('a[href]')).map(a => a.href);")
        for link in links:
            target = urllib.parse.urldefrag(link)[0]
            if not target.startswith(origin):
                fail(f"{url}: a link out of the site: {link}")
            if target not in checked:
                checked[target] = status(target)
            if checked[target] != 200:
                fail(f"{url}: {link} answers {checked[target]}")
            seen["links"] += 1
            if target.endswith(".html") and target not in visited:
                todo.append(target)
    seen["targets"] = len(checked)
    # The index and a game page at a laptop's size and a phone's.
    games = [u for u in visited if "/games/" in u and u.endswith("/index.html")]
    in_play = [u for u in games if "/club/" in u] or games
    game = sorted(in_play)[0]
    for w, h, size in ((1280, 800, "laptop"), (390, 844, "phone")):
        call("POST", f"{s}/window/rect", {"width": w, "height": h})
        for label, url in (("index", origin + "/index.html"), ("game", game)):
            go(url)
            if too_wide():
                fail(f"{url}: wider than the window at {w} x {h}")
            seen["screenshots"].append(screenshot(f"{label}-{size}"))
    call("POST", f"{s}/window/rect", {"width": 1280, "height": 800})
    # The keyboard: the first Tab reaches the skip link, shown; Enter goes to the games; more
    # Tabs reach a game's link, and Enter opens that game's page.
    go(origin + "/index.html")
    keys("\ue004")
    first = run("var a = document.activeElement, r = a.getBoundingClientRect();"
                "return [a.className, a.getAttribute('href'), r.left >= 0 && r.top >= 0];")
    if first[:2] != ["skip", "#main"] or not first[2]:
        fail(f"the first Tab reaches {first}")
    keys("\ue007")
    if not run("return location.hash;") == "#main":
        fail("Enter on the skip link does not go to the games")
    for _ in range(60):
        keys("\ue004")
        href = run("return document.activeElement.getAttribute('href') || '';")
        if href.startswith("games/"):
            break
    else:
        fail("Tab never reaches a game")
    keys("\ue007")
    landed = run("return location.pathname;")
    if landed != "/" + href:
        fail(f"Enter on {href} opened {landed}")
    seen["keyboard"] = href
    print(json.dumps(seen))
finally:
    if browser:
        browser.close()
    server.shutdown()
