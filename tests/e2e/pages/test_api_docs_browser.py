"""The interactive API docs (`/api/docs`, Swagger UI) in Chromium under their Content-Security-Policy: the page
renders the operations and runs a request, with no policy violation (a violation is a console error, which
fails the test), and another site cannot frame it."""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import Served


def test_swagger_ui_works_under_its_policy_and_runs_a_request(site: Served, page: Any) -> None:
    answer = page.goto(site.url + "/api/docs")
    headers = answer.headers
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert "'unsafe-inline'" not in headers["content-security-policy"]
    assert headers["x-frame-options"] == "DENY"
    page.wait_for_selector(".opblock-summary", timeout=30_000)
    assert page.locator(".opblock").count() > 10
    # Run GET /api/games (the list) from the page: Swagger UI fetches it from this site (connect-src 'self').
    operation = page.locator(
        ".opblock-get", has=page.locator(".opblock-summary-path[data-path='/api/games']")
    )
    operation.locator(".opblock-summary").first.click()
    operation.get_by_role("button", name="Try it out").click()
    operation.get_by_role("button", name="Execute").click()
    status = operation.locator(".live-responses-table tbody .response-col_status").first
    status.wait_for(timeout=15_000)
    assert status.inner_text().strip() == "200"


def test_another_site_cannot_frame_the_docs(site: Served, page: Any, problems: list[str]) -> None:
    page.set_content(f'<iframe id="docs" src="{site.url}/api/docs" width="800" height="600"></iframe>')
    page.wait_for_timeout(1500)
    framed = page.frame_locator("#docs")
    assert framed.locator(".opblock-summary").count() == 0
    # Chromium says why it refused, as a console error: the one expected here.
    refused = [text for text in problems if "frame" in text.lower()]
    assert refused, problems
    problems[:] = [text for text in problems if text not in refused]
