"""A headless Chromium driven through chromedriver's WebDriver protocol, with the standard
library only: what the browser tests (replay.py, site.py) share."""
import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def fail(what):
    """Prints what failed as the script's JSON answer and exits 1."""
    print(json.dumps({"failed": what}))
    sys.exit(1)


class Browser:
    """One chromedriver and one browser session at 1280 x 800, its console logged."""

    def __init__(self):
        port = free_port()
        self.driver = subprocess.Popen(
            ["chromedriver", f"--port={port}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{port}"
        self.session = None
        for _ in range(100):
            try:
                self.call("GET", "/status")
                break
            except OSError:
                time.sleep(0.1)
        args = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", f"--user-data-dir={tempfile.mkdtemp()}", "--window-size=1280,800",
        ]
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": "/usr/bin/chromium", "args": args},
            "goog:loggingPrefs": {"browser": "ALL"},
        }}}
        self.session = self.call("POST", "/session", caps)["sessionId"]
        self.s = f"/session/{self.session}"

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.loads(r.read() or b"null")["value"]

    def run(self, script, *a):
        return self.call("POST", f"{self.s}/execute/sync", {"script": script, "args": list(a)})

    def go(self, url):
        self.call("POST", f"{self.s}/url", {"url": url})

    def screenshot(self, path):
        import base64
        with open(path, "wb") as f:
            f.write(base64.b64decode(self.call("GET", f"{self.s}/screenshot")))
        return path

    def console_errors(self):
        logs = self.call("POST", f"{self.s}/se/log", {"type": "browser"})
        return [e["message"] for e in logs if e.get("level") in ("SEVERE", "ERROR")]

    def close(self):
        if self.session:
            try:
                self.call("DELETE", f"/session/{self.session}")
            except OSError:
                pass
        self.driver.terminate()
        self.driver.wait()
