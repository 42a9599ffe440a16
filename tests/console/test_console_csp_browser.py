"""Issue 19, "Security", in headless Chromium: the pages work under the console's Content-Security-Policy
(every page connects and draws its view, no violation reported), the pairing QR renders as an image (item 2),
and another site cannot frame a page (frame-ancestors 'none'). The daemon and the console are separate
processes on a fake table (test_console_browser.serve_table)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_kit import chromium
from console.test_console_browser import serve_table, sit
from daemon_kit import CONFIG
from playwright.sync_api import Browser, ConsoleMessage, Page, expect

pytestmark = pytest.mark.slow   # Chromium: 20 s


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    yield from serve_table(tmp_path_factory.mktemp("csp"), CONFIG)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from chromium()


def watched(browser: Browser, width: int = 390, height: int = 844) -> tuple[Page, list[str]]:
    """A page in its own context, with every CSP violation and script error it reports."""
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    problems: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or message.type == "error":
            problems.append(message.text)

    page.on("console", on_console)
    page.on("pageerror", lambda error: problems.append(str(error)))
    return page, problems


def test_every_page_works_under_the_policy_and_the_qr_renders(table: tuple[Path, dict[str, str]],
                                                               browser: Browser) -> None:
    """Host (and its QR codes), dealer, board and the virtual-hardware panel: each connects its WebSocket
    (connect-src 'self' covers ws:), runs its scripts and draws the view; the panel's display frames are
    data: images. The QR's ``<img>`` has a natural size (a broken image has 0)."""
    _folder, urls = table
    host, problems = watched(browser)
    host.goto(urls["host"])
    expect(host.locator("#link")).to_have_text("connected", timeout=10000)
    host.click("button[data-pair=dealer]")
    qr = host.locator("#qr img")
    expect(qr).to_be_visible()
    # Playwright's wait_for_function compiles its predicate in the page, which this very policy forbids
    # ('unsafe-eval'): poll through evaluate, which the browser runs outside the page's policy
    deadline = time.monotonic() + 10
    while not qr.evaluate("img => img.complete") and time.monotonic() < deadline:
        host.wait_for_timeout(50)
    assert qr.evaluate("img => img.naturalWidth") > 100
    for page in ("dealer", "board", "panel"):
        host.goto(urls["host"].split("/host")[0] + f"/{page}")
        expect(host.locator("#link")).to_have_text("connected", timeout=10000)
    expect(host.locator("img").first).to_be_visible(timeout=10000)      # the panel's displays, data: PNGs
    assert problems == []


def test_another_site_cannot_frame_a_page(table: tuple[Path, dict[str, str]], browser: Browser) -> None:
    """A page of another origin framing the host's page (on a loopback console without a token: the
    clickjacking case) gets Chromium's error frame, never the page. The positive control: the same page
    served through the test's proxy without the two headers loads in the frame."""
    _folder, urls = table
    host_page = urls["host"].split("?")[0]
    for strip in (False, True):
        page, _problems = watched(browser)
        page.route("http://evil.example/", lambda route: route.fulfill(
            content_type="text/html", body=f'<iframe id="f" src="{host_page}"></iframe>'))
        if strip:
            page.route(host_page, lambda route: route.fulfill(response=(answer := route.fetch()), headers={
                k: v for k, v in answer.headers.items()
                if k.lower() not in ("content-security-policy", "x-frame-options")}))
        page.goto("http://evil.example/")
        page.wait_for_timeout(1000)
        framed = [frame.url for frame in page.frames if frame != page.main_frame]
        assert framed == ([host_page] if strip else ["chrome-error://chromewebdata/"]), strip
        page.context.close()


def test_a_message_of_an_earlier_hand_clears_at_the_next(table: tuple[Path, dict[str, str]],
                                                          browser: Browser) -> None:
    """Issue 19 (low): a line stayed two hands later. The host's top-up
    above the home maximum (BET-16: 100 big blinds of 3 = 300) is refused and said; the dealer starts the
    hand (START): the host's line is cleared, the page no longer shows an answer of the hand before."""
    _folder, urls = table
    host, problems = watched(browser)
    host.goto(urls["host"])
    expect(host.locator("#link")).to_have_text("connected", timeout=10000)
    for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
        sit(host, seat, name, 250)
    host.select_option("#topup select", "1")
    host.fill("#topup input[name=amount]", "1000")
    host.click("#topup button")
    expect(host.locator("#message")).to_contain_text("300", timeout=10000)
    dealer, _ = watched(browser, 768, 1024)
    dealer.goto(urls["dealer"])
    expect(dealer.locator("#link")).to_have_text("connected", timeout=10000)
    dealer.click("#start")
    expect(host.locator("#hand")).to_have_text("#1", timeout=10000)
    expect(host.locator("#message")).to_have_text("")
    assert problems == []


def test_the_host_revokes_a_paired_tv_from_the_page(table: tuple[Path, dict[str, str]], browser: Browser) -> None:
    """The TV opens the board's URL: it is paired with a token of its own and listed on the host's page;
    Revoke closes the TV's page at once (it says it reconnects and cannot), and its cookie opens nothing
    after (401). The host's own device stays paired."""
    _folder, urls = table
    tv, _problems = watched(browser, 1920, 1080)
    tv.goto(urls["board"])
    expect(tv.locator("#link")).to_have_text("connected", timeout=10000)
    host, problems = watched(browser)
    host.goto(urls["host"])
    expect(host.locator("#link")).to_have_text("connected", timeout=10000)
    boards = host.locator("#devices li", has_text="board:")
    expect(boards).to_have_count(1, timeout=10000)
    boards.get_by_role("button", name="Revoke").click()
    expect(host.locator("#message")).to_contain_text("revoked")
    expect(boards).to_have_count(0)
    expect(tv.locator("#link")).not_to_have_text("connected", timeout=10000)
    assert tv.request.get(urls["board"].split("?")[0]).status == 401
    expect(host.locator("#devices li", has_text="(this device)")).to_have_count(1)
    assert problems == []
