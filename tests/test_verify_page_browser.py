"""The report page of ``verify --report`` opened from the file system in headless Chromium
(Debian's package through Playwright: tests/chromium.py): a filter, a
sort and a level clicked, and what each shows.  Run with ``python -m pytest -q -m browser``."""
from __future__ import annotations

import shutil

import pytest

from conftest import ROOT
from chromium import TIMEOUT, browser  # noqa: F401  (the Chromium fixture)
from test_verify import run, write
from test_verify_page import WALLED, WON

pytestmark = pytest.mark.browser
LABELLED = ("difficulty-easy", "difficulty-medium", "difficulty-hard")


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """A report of five levels: the corridor (won in 3 plies), the walled one (fails) and the
    three generated levels labelled easy, medium and hard (13 to 15 plies)."""
    folder = tmp_path_factory.mktemp("report")
    write(folder, "levels/corridor.yaml", WON)
    write(folder, "levels/walled.yaml", WALLED.replace("name: Corridor", "name: Walled"))
    for name in LABELLED:
        shutil.copy(ROOT / "boards/generated" / f"{name}.yaml", folder / "levels" / f"{name}.yaml")
    result = run("verify", folder / "levels", "--report", folder / "page")
    assert result.exit_code == 1, result.output
    return folder / "page"


@pytest.fixture()
def page(browser, report):  # noqa: F811
    tab = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.set_default_timeout(TIMEOUT)
    tab.goto((report / "index.html").as_uri())
    yield tab
    assert errors == []
    tab.close()


def shown(page) -> list[str]:
    return page.eval_on_selector_all("#levels tbody tr:not([hidden]) a.level", "links => links.map(a => a.textContent)")


def test_the_index_lists_every_level_and_filters_by_status_and_label(page):
    summary = page.eval_on_selector_all("#summary span", "spans => spans.map(s => s.textContent)")
    assert summary[:3] == ["4 passed", "1 failed", "0 invalid"] and summary[3].endswith(" s")
    assert summary[4:] == ["1 easy level", "1 medium level", "1 hard level"]
    assert shown(page)[0] == "Walled"                   # the failing level first
    assert len(shown(page)) == 5 and page.inner_text("#shown") == "5 of 5 levels shown"
    page.select_option("#f-status", "fail")
    assert shown(page) == ["Walled"] and page.inner_text("#shown") == "1 of 5 levels shown"
    page.select_option("#f-status", "")
    page.select_option("#f-label", "hard")
    assert len(shown(page)) == 1 and "hard" in page.inner_text("#levels tbody tr:not([hidden])")
    page.select_option("#f-label", "")
    page.fill("#f-plies-max", "3")
    assert shown(page) == ["Corridor"]                  # won in 3 plies; the walled one is caught in 4
    page.fill("#f-plies-min", "4")
    page.fill("#f-plies-max", "5")
    assert shown(page) == ["Walled"]
    page.fill("#f-plies-min", "")
    page.fill("#f-plies-max", "")
    assert len(shown(page)) == 5


def test_sorting_by_plies_puts_the_shortest_first_and_clicking_again_reverses(page):
    page.click("#levels th[data-key=plies]")
    plies = page.eval_on_selector_all("#levels tbody tr", "rows => rows.map(r => r.dataset.plies)")
    numbers = [int(p) for p in plies]
    assert numbers == sorted(numbers) and numbers[0] == 3
    page.click("#levels th[data-key=plies]")
    again = [int(p) for p in page.eval_on_selector_all("#levels tbody tr", "rows => rows.map(r => r.dataset.plies)")]
    assert again == sorted(numbers, reverse=True)


def test_clicking_a_level_opens_its_page_and_the_line_steps_through(page):
    page.click("a.level:text-is('Corridor')")
    page.wait_for_selector("#step-picture")
    assert page.inner_text("h1") == "Corridor"
    assert "value for explorer: 100" in page.inner_text("#verdict")
    assert page.inner_text("#step-caption") == "the initial position"
    page.click("#step-next")
    assert page.inner_text("#step-caption") == "ply 1: explorer east"
    assert page.get_attribute("#step-picture", "src").endswith(".svg#step-1")
    page.click("ol.line li:has-text('ply 3')")
    assert page.inner_text("#step-caption") == "ply 3: explorer east"
    page.wait_for_function("document.getElementById('step-picture').naturalWidth > 0")
    assert page.evaluate("document.getElementById('picture').naturalWidth") > 0
    assert page.inner_text("#moves").count("yes") == 1          # only east keeps the win
    page.click("text=all levels")
    assert len(shown(page)) == 5
