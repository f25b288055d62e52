"""The built documentation site in a real browser: every page opens offline, without an error.

Runs when ``DOCS_SITE`` names a built site folder (``.ci/docs.sh`` builds it and sets it) and
Playwright and a Chromium can be had; otherwise it skips, saying why. Headless Chromium (Debian's
``chromium``, ``DOCS_CHROMIUM`` to use another) opens every page from a loopback server and checks:

- no console error and no uncaught page error;
- no request for a local file that fails or answers 4xx/5xx, and **no request leaves the machine**
  (any host but the loopback server is blocked and reported: no web fonts, CDN scripts or remote images);
- every ``<img>`` on the page loaded (the gallery's SVGs, the environments' animations);
- the search works: typing a generator's name on the home page lists results, served and from the
  local folder (``file://``) alike;
- screenshots of the home page, the gallery and an environment page at desktop and phone widths are
  written to ``DOCS_SCREENSHOTS`` (default: ``site-screenshots`` beside the site) for a person to look at.
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
from pathlib import Path
from typing import Iterator, List

import pytest

SITE = os.environ.get("DOCS_SITE")
CHROMIUM = os.environ.get("DOCS_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run"]
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
SHOTS = ["index.html", "gallery/index.html", "environments/mazekeys-v0.html"]

pytestmark = pytest.mark.skipif(not SITE, reason="DOCS_SITE is not set: .ci/docs.sh builds the site and runs this")


@pytest.fixture(scope="module")
def site() -> Path:
    folder = Path(SITE or "").resolve()
    if not (folder / "index.html").is_file():
        pytest.fail(f"DOCS_SITE={SITE!r} holds no built site (index.html); build it: python -m mkdocs build --strict")
    return folder


@pytest.fixture(scope="module")
def server(site: Path) -> Iterator[str]:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (the docs extra)")
    if not Path(CHROMIUM).is_file():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield launched
        launched.close()


def pages(site: Path) -> List[str]:
    return sorted(str(p.relative_to(site)) for p in site.rglob("*.html"))


def open_page(browser: object, url: str, size: tuple = SIZES["desktop"]) -> tuple:
    """The page at ``url`` and what went wrong while it loaded (a list, empty when nothing did)."""
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})  # type: ignore[attr-defined]
    problems: List[str] = []
    local = url.startswith("file://") or "://127.0.0.1:" in url

    def route(r: object) -> None:
        request = r.request  # type: ignore[attr-defined]
        target = request.url
        if target.startswith(("file://", "data:", "blob:")) or "://127.0.0.1:" in target:
            r.continue_()  # type: ignore[attr-defined]
        else:
            problems.append(f"a request left the machine: {target}")
            r.abort()  # type: ignore[attr-defined]

    page.route("**/*", route)
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"failed: {r.url} ({r.failure})")
            if local and "left the machine" not in " ".join(problems) else None)
    page.on("response", lambda r: problems.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)
    page.goto(url, wait_until="load")
    broken = page.evaluate("Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0)"
                           ".map(i => i.getAttribute('src'))")
    problems += [f"image not loaded: {src}" for src in broken]
    return page, problems


def test_the_site_has_every_page(site: Path) -> None:
    found = pages(site)
    for name in ["index.html", "getting-started.html", "gallery/index.html", "environments/index.html",
                 "environments/compatibility.html", "reference/cli.html", "reference/limits.html",
                 "reference/api/mazeplugin.html", "benchmarks.html", "changelog.html"]:
        assert name in found, name
    assert sum(name.startswith("environments/maze") for name in found) >= 5


def test_every_page_opens_without_an_error(site: Path, server: str, browser: object) -> None:
    failures = []
    for name in pages(site):
        if name == "404.html":
            continue  # a server's page for missing files: its links are absolute on purpose
        page, problems = open_page(browser, server + name)
        page.close()
        failures += [f"{name}: {p}" for p in problems]
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("how", ["served", "file"])
def test_the_search_finds_a_generator(site: Path, server: str, browser: object, how: str) -> None:
    url = server + "index.html" if how == "served" else (site / "index.html").as_uri()
    page, problems = open_page(browser, url)
    page.keyboard.press("/")                      # the site's shortcut: open the search
    page.keyboard.type("kruskal", delay=20)
    page.wait_for_selector(".md-search-result__item", timeout=15000)
    assert page.locator(".md-search-result__item").count() > 0
    page.close()
    assert not problems, problems


def test_screenshots_at_desktop_and_phone_widths(site: Path, server: str, browser: object) -> None:
    out = Path(os.environ.get("DOCS_SCREENSHOTS", str(site.parent / "site-screenshots")))
    out.mkdir(parents=True, exist_ok=True)
    for name in SHOTS:
        for width, size in SIZES.items():
            page, problems = open_page(browser, server + name, size)
            path = out / f"{name.replace('/', '-').removesuffix('.html')}-{width}.png"
            page.screenshot(path=str(path))
            page.close()
            assert not problems, problems
            assert path.stat().st_size > 10_000, f"{path} is nearly empty"
