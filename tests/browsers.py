"""What the page tests share: an app served on a free local port (uvicorn in a thread), headless
Chromium from Debian's packages (driven by Selenium, which never downloads a driver here), a
viewport set exactly, and a reader of the figures a page marks with data-field.

A missing Chromium fails the test that needs it (.ci/run installs it); nothing skips."""

from __future__ import annotations

import os
import socket
import threading
import time
from contextlib import contextmanager
from html.parser import HTMLParser
from pathlib import Path

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
SIZES = {"phone": (390, 844, True), "laptop": (1366, 768, False)}


@contextmanager
def served_app(app, what: str = "the page", sock: socket.socket | None = None, **options):
    """The ASGI `app` on uvicorn in a thread of this process, on a free local port (or on `sock`, a
    listening socket the test made, e.g. by ledger.interface.board.serve.listen); yields its base URL
    (no trailing slash). `options` go to uvicorn.Config over the defaults here."""
    import uvicorn
    if sock is None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        sock.listen(64)
    config = {"log_level": "warning", "access_log": False, "lifespan": "on", "timeout_graceful_shutdown": 1,
              **options}
    server = uvicorn.Server(uvicorn.Config(app, **config))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, f"{what} did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def chromium(profile: str | Path, size: str = "laptop"):
    """A headless Chromium with its own profile folder, its window at one of SIZES."""
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    assert not missing, (f"{', '.join(missing)} missing: apt-get install -y chromium chromium-driver "
                         "(.ci/run installs them)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    os.environ.setdefault("SE_AVOID_STATS", "true")
    os.environ.setdefault("SE_OFFLINE", "true")
    width, height, _mobile = SIZES[size]
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--hide-scrollbars", f"--user-data-dir={profile}",
                 f"--window-size={width},{height}"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)


def viewport(driver, width: int, height: int, mobile: bool) -> None:
    """The page's viewport exactly (a phone's: its width, touch, the meta viewport honoured)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})


class FieldReader(HTMLParser):
    """The text of every element marked data-field, keyed by (its scope, the field): the scope is
    the nearest enclosing element carrying one of SCOPES' attributes, its value after the prefix.
    A subclass notes more as elements open (`opened`)."""

    SCOPES: tuple[tuple[str, str], ...] = ()
    VOID = frozenset({"meta", "link", "br", "img", "input", "hr", "wbr", "source"})

    def __init__(self, html: str = ""):
        super().__init__(convert_charrefs=True)
        self.stack: list[dict] = []
        self.open: list[tuple[tuple[str, str], int, list[str]]] = []
        self.found: dict[tuple[str, str], list[str]] = {}
        if html:
            self.feed(html)
            self.close()

    def scope(self) -> str:
        for attrs in reversed(self.stack):
            for attr, prefix in self.SCOPES:
                if attr in attrs:
                    return prefix + attrs[attr]
        return ""

    def opened(self, attrs: dict) -> None:
        """An element opened (before it is on the stack)."""

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        a = dict(attrs)
        self.opened(a)
        self.stack.append({**a, "_tag": tag})
        if "data-field" in a:
            self.open.append(((self.scope(), a["data-field"]), len(self.stack), []))

    def handle_startendtag(self, tag, attrs):
        pass  # <line/>, <circle/> in the SVG: no figures there

    def handle_endtag(self, tag):
        if tag in self.VOID or not self.stack:
            return
        assert self.stack[-1]["_tag"] == tag, f"</{tag}> closes <{self.stack[-1]['_tag']}>"
        depth = len(self.stack)
        while self.open and self.open[-1][1] == depth:
            key, _, parts = self.open.pop()
            self.found.setdefault(key, []).append(" ".join("".join(parts).split()))
        self.stack.pop()

    def handle_data(self, data):
        for _, _, parts in self.open:
            parts.append(data)
