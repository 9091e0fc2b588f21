"""The admin console in headless Chromium, against a live server (scripts/console-test.sh).

Walks the Double 11 story from the browser: sign in, search the routes, try a link and read the
drawn trace, add a degrade rule (product pages to the Double 11 venue) whose impact preview lists
the sampled product links, apply it and see /resolve change, then roll back from the history and
see /resolve restored. The Analytics page draws its chart, and an unmatched link opens a rule
for it, previewed. Then markup in route ids, targets and URLs must show as text and never
run. With --screenshots DIR, saves a 1280x800 PNG of each page there.

Every wait is explicit (WebDriverWait on a condition), never a fixed sleep.
"""

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as conditions
from selenium.webdriver.support.ui import Select, WebDriverWait

DEGRADE_RULE = "double11-degrade"
XSS_ID = 'xss.<img src=x onerror="window.__xss=1">'
XSS_MARKUP = '"><script>window.__xss=1</script><img src=x onerror="window.__xss=1;alert(1)">'


class Console:
    """The server (over HTTP) and the browser (over WebDriver) of one test run."""

    def __init__(self, base, token, screenshots):
        self.base = base
        self.token = token
        self.screenshots = screenshots
        options = Options()
        options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--window-size=1280,800", "--hide-scrollbars", "--force-device-scale-factor=1",
                         "--no-first-run", "--disable-extensions", "--lang=en-US"]:
            options.add_argument(argument)
        service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
        self.driver = webdriver.Chrome(service=service, options=options)
        # The page's viewport, and so each screenshot, is exactly 1280x800.
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})
        self.wait = WebDriverWait(self.driver, 20)

    # HTTP, outside the browser

    def http(self, method, path, body=None, admin=True):
        headers = {"Content-Type": "application/json"}
        if admin:
            headers["Authorization"] = f"Bearer {self.token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=20) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def resolve(self, url):
        status, _, body = self.http("GET", "/resolve?url=" + urllib.parse.quote(url, safe=""), admin=False)
        return status, json.loads(body)

    # The browser

    def by_id(self, element_id):
        return self.wait.until(conditions.visibility_of_element_located((By.ID, element_id)))

    def open_page(self, name):
        # A fresh load each time (the tab's session storage keeps the token): a change of the
        # hash alone would leave the marks of the page shown before until it re-renders.
        self.driver.get("about:blank")
        self.driver.get(f"{self.base}/console#{name}")
        self.wait.until(lambda d: d.find_element(By.ID, "page").get_attribute("data-page") == name)

    def wait_loaded(self, after="0"):
        """Waits for the current page's data to load after the stamp `after`."""
        self.wait.until(lambda d: int(d.find_element(By.ID, "page").get_attribute("data-loaded") or "0") > int(after))
        return self.driver.find_element(By.ID, "page").get_attribute("data-loaded")

    def type_into(self, element_id, text):
        field = self.by_id(element_id)
        field.clear()
        field.send_keys(text)

    def notice(self, contains):
        self.wait.until(lambda d: contains in d.find_element(By.ID, "notice").text)
        return self.driver.find_element(By.ID, "notice").text

    def screenshot(self, name):
        if self.screenshots:
            self.driver.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
            self.driver.save_screenshot(os.path.join(self.screenshots, f"{name}.png"))

    def assert_no_script_ran(self):
        assert self.driver.execute_script("return window.__xss") is None, "injected markup ran a script"
        try:
            alert = self.driver.switch_to.alert
            text = alert.text
            alert.dismiss()
            raise AssertionError(f"an alert opened: {text}")
        except NoAlertPresentException:
            pass


def test_served_with_headers(console):
    status, headers, body = console.http("GET", "/console", admin=False)
    assert status == 200, status
    policy = headers.get("Content-Security-Policy", "")
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy, policy
    assert "unsafe-inline" not in policy, policy
    assert headers.get("X-Content-Type-Options") == "nosniff"
    assert b"Switchboard" in body


def test_traffic(console):
    """Recent traffic for the hit counts and the impact preview: product pages and a few others."""
    for item in range(1, 13):
        status, answer = console.resolve(f"shopapp://product/{item}")
        assert status == 200 and answer["routeId"] == "product.detail", answer
    for url in ["shopapp://cart", "shopapp://search/shoes", "shopapp://user/me"]:
        console.resolve(url)


def test_sign_in(console):
    driver = console.driver
    driver.get(console.base + "/console")
    console.type_into("token", "wrong-token")
    driver.find_element(By.CSS_SELECTOR, "#login-form button").click()
    error = console.by_id("login-error")
    assert "not accepted" in error.text, error.text
    assert driver.execute_script("return sessionStorage.length") == 0
    console.type_into("token", console.token)
    driver.find_element(By.CSS_SELECTOR, "#login-form button").click()
    console.wait.until(lambda d: d.find_element(By.ID, "nav").is_displayed())
    console.wait_loaded()
    assert driver.execute_script("return sessionStorage.getItem('switchboard.adminToken')") == console.token
    # The token is never in the page or its address.
    assert console.token not in driver.page_source and console.token not in driver.current_url


def test_search_routes(console):
    driver = console.driver
    console.open_page("routes")
    stamp = console.wait_loaded()
    rows = driver.find_elements(By.CSS_SELECTOR, "#routes-rows tr")
    assert len(rows) > 10, len(rows)
    console.type_into("routes-module", "product")
    console.type_into("routes-prefix", "product.d")
    driver.find_element(By.CSS_SELECTOR, "#routes-search button[type=submit]").click()
    console.wait_loaded(stamp)
    ids = [row.get_attribute("data-id") for row in driver.find_elements(By.CSS_SELECTOR, "#routes-rows tr")]
    assert ids and all(i.startswith("product.d") for i in ids), ids
    detail = driver.find_element(By.CSS_SELECTOR, "#routes-rows tr[data-id='product.detail']")
    cells = [cell.text for cell in detail.find_elements(By.TAG_NAME, "td")]
    assert cells[1] == "product" and "/product/:id<int>" in cells[2] and "ProductDetail" in cells[3], cells
    assert int(cells[5].replace(",", "")) >= 1, f"hits: {cells}"
    assert "ios: " in cells[6] and "android: " in cells[6] and "preview: " in cells[6], f"/open sends: {cells}"
    # Pages come from the server: 25 a page, then the rest behind Next, and back.
    console.type_into("routes-module", "")
    console.type_into("routes-prefix", "")
    stamp = console.wait_loaded()
    Select(driver.find_element(By.ID, "routes-size")).select_by_value("25")
    stamp = console.wait_loaded(stamp)
    first = [row.get_attribute("data-id") for row in driver.find_elements(By.CSS_SELECTOR, "#routes-rows tr")]
    assert len(first) == 25, first
    driver.find_element(By.ID, "routes-next").click()
    stamp = console.wait_loaded(stamp)
    second = [row.get_attribute("data-id") for row in driver.find_elements(By.CSS_SELECTOR, "#routes-rows tr")]
    assert second and not set(first) & set(second) and len(first) + len(second) == 36, second
    assert not driver.find_element(By.ID, "routes-next").is_enabled()
    driver.find_element(By.ID, "routes-previous").click()
    stamp = console.wait_loaded(stamp)
    assert [row.get_attribute("data-id") for row in driver.find_elements(By.CSS_SELECTOR, "#routes-rows tr")] == first
    Select(driver.find_element(By.ID, "routes-size")).select_by_value("50")
    console.wait_loaded(stamp)
    console.screenshot("routes")


def test_try_link(console):
    driver = console.driver
    console.open_page("try")
    console.type_into("try-url", "https://shop.example.com/item.html?id=42")
    Select(driver.find_element(By.ID, "try-platform")).select_by_value("ios")
    console.type_into("try-app-version", "5.2.0")
    driver.find_element(By.ID, "try-go").click()
    router = console.by_id("trace-router")
    rules = driver.find_element(By.ID, "trace-rules")
    fired = rules.find_elements(By.CSS_SELECTOR, "li[data-result='fired']")
    assert [item.get_attribute("data-rule") for item in fired] == ["legacy-item-page"], rules.text
    assert "shopapp://product/42" in fired[0].text
    steps = router.find_elements(By.CSS_SELECTOR, "li.walk-step")
    assert len(steps) >= 2, router.text
    assert any(step.get_attribute("data-depth") == "1" for step in steps), router.text
    assert "product.detail" in driver.find_element(By.ID, "trace-route").text
    assert "matched" in driver.find_element(By.ID, "try-verdict").text
    console.screenshot("try")


def test_degrade_preview_apply(console):
    driver = console.driver
    console.open_page("rules")
    console.wait_loaded()
    driver.find_element(By.ID, "rule-add").click()
    console.type_into("rule-id", DEGRADE_RULE)
    console.type_into("rule-match", r"^shopapp://product/(\d+)$")
    console.type_into("rule-target", "shopapp://venue/double11?item=$1")
    driver.find_element(By.ID, "rule-preview").click()
    preview = console.by_id("preview")
    console.wait.until(lambda d: d.find_element(By.ID, "preview-host").get_attribute("data-previewed") == "yes"
                       or d.find_elements(By.ID, "preview-error"))
    assert not driver.find_elements(By.ID, "preview-error"), preview.text
    changed = int(driver.find_element(By.ID, "preview-changed").text)
    assert changed >= 12, preview.text
    assert "product.detail" in preview.text and "marketing.venue" in preview.text, preview.text
    assert "shopapp://product/" in preview.text, preview.text
    console.screenshot("rules-preview")
    # Nothing changed yet.
    assert console.resolve("shopapp://product/7")[1]["routeId"] == "product.detail"
    driver.find_element(By.ID, "preview-apply").click()
    console.notice("Applied")
    console.wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f"#rules-rows tr[data-id='{DEGRADE_RULE}']"))
    answer = console.resolve("shopapp://product/7")[1]
    assert answer["routeId"] == "marketing.venue" and answer["ruleIds"] == [DEGRADE_RULE], answer


def test_history_diff_and_rollback(console):
    driver = console.driver
    console.open_page("history")
    console.wait_loaded()
    top = driver.find_element(By.CSS_SELECTOR, "#history-rows tr")
    version = int(top.get_attribute("data-version"))
    assert "rules.add" in top.text and DEGRADE_RULE in top.text, top.text
    console.type_into("diff-from", str(version - 1))
    console.type_into("diff-to", str(version))
    driver.find_element(By.CSS_SELECTOR, "#diff-form button[type=submit]").click()
    added = console.wait.until(conditions.visibility_of_element_located((By.CSS_SELECTOR, "#diff-result .diff-item.added")))
    assert DEGRADE_RULE in added.text, added.text
    driver.find_element(By.CSS_SELECTOR, f"button[data-rollback='{version - 1}']").click()
    preview = console.by_id("preview")
    console.wait.until(lambda d: d.find_element(By.ID, "preview-host").get_attribute("data-previewed") == "yes"
                       or d.find_elements(By.ID, "preview-error"))
    assert not driver.find_elements(By.ID, "preview-error"), preview.text
    assert int(driver.find_element(By.ID, "preview-changed").text) >= 12, preview.text
    assert "marketing.venue" in preview.text and "product.detail" in preview.text, preview.text
    console.screenshot("history")
    driver.find_element(By.ID, "preview-apply").click()
    console.notice("Applied")
    answer = console.resolve("shopapp://product/7")[1]
    assert answer["routeId"] == "product.detail" and not answer.get("ruleIds"), answer
    console.wait.until(lambda d: "rollback" in d.find_element(By.CSS_SELECTOR, "#history-rows tr").text)


def admin_rule_ids(console):
    _, _, body = console.http("GET", "/admin/rules")
    return [rule["id"] for rule in json.loads(body)["rules"] if rule["source"] == "admin"]


def preview_and_apply(console, button):
    """Clicks `button`, waits for the impact preview, applies it and waits for the rules to reload."""
    driver = console.driver
    stamp = driver.find_element(By.ID, "page").get_attribute("data-loaded")
    button.click()
    console.by_id("preview")
    console.wait.until(lambda d: d.find_element(By.ID, "preview-host").get_attribute("data-previewed") == "yes")
    driver.find_element(By.ID, "preview-apply").click()
    console.notice("Applied")
    console.wait_loaded(stamp)


def test_edit_move_delete_and_time(console):
    driver = console.driver
    for rule in [{"id": "sale-a", "match": "^shopapp://sale/a$", "target": "shopapp://venue/a"},
                 {"id": "sale-b", "match": "^shopapp://sale/b$", "target": "shopapp://venue/b",
                  "when": {"activeFrom": "2030-01-01T00:00:00Z"}}]:
        assert console.http("POST", "/admin/rules", rule)[0] == 201
    console.open_page("rules")
    console.wait_loaded()
    # Move sale-b above sale-a.
    row = driver.find_element(By.CSS_SELECTOR, "#rules-rows tr[data-id='sale-b']")
    preview_and_apply(console, row.find_element(By.CSS_SELECTOR, "button[title='Move up']"))
    assert admin_rule_ids(console) == ["sale-b", "sale-a"], admin_rule_ids(console)
    # Edit sale-a's target: the form keeps the id and the rule's place.
    driver.find_element(By.CSS_SELECTOR, "button[data-edit='sale-a']").click()
    console.type_into("rule-target", "shopapp://venue/a2")
    preview_and_apply(console, driver.find_element(By.ID, "rule-preview"))
    assert console.resolve("shopapp://sale/a")[1]["rewrittenURL"] == "shopapp://venue/a2"
    assert admin_rule_ids(console) == ["sale-b", "sale-a"]
    # A time window: sale-b is not active now, and is at a time given on Try a link.
    console.open_page("try")
    console.type_into("try-url", "shopapp://sale/b")
    driver.find_element(By.ID, "try-go").click()
    console.by_id("trace-router")
    assert driver.find_element(By.CSS_SELECTOR, "#trace-rules li[data-rule='sale-b']").get_attribute("data-result") == "conditionFalse"
    stamp = driver.find_element(By.ID, "page").get_attribute("data-resolved")
    driver.execute_script("document.getElementById('try-time').value = '2030-06-01T12:00:00'")
    driver.find_element(By.ID, "try-go").click()
    console.wait.until(lambda d: d.find_element(By.ID, "page").get_attribute("data-resolved") != stamp)
    assert driver.find_element(By.CSS_SELECTOR, "#trace-rules li[data-rule='sale-b']").get_attribute("data-result") == "fired"
    assert "marketing.venue" in driver.find_element(By.ID, "trace-route").text
    # Delete both.
    console.open_page("rules")
    console.wait_loaded()
    for rule in ["sale-a", "sale-b"]:
        preview_and_apply(console, driver.find_element(By.CSS_SELECTOR, f"button[data-delete='{rule}']"))
    assert admin_rule_ids(console) == []


def test_status(console):
    console.open_page("status")
    console.wait_loaded()
    state = console.by_id("status-state").text
    assert "Ready" in state and "Admin version" in state, state
    assert "ok" in console.by_id("status-reload").text
    assert "file" in console.by_id("status-store").text
    console.screenshot("status")


def test_analytics(console):
    """The Analytics page: the chart of resolutions renders, the top routes are listed, and a link
    nothing matched opens the rule editor with its shape filled in and the impact previewed."""
    driver = console.driver
    for click in ["AB12", "CD34", "EF56"]:
        status, answer = console.resolve(f"shopapp://retired-campaign/spring?cid={click}")
        assert status == 404, answer
    console.open_page("analytics")
    console.wait_loaded()
    chart = console.by_id("analytics-chart")
    bars = chart.find_elements(By.CSS_SELECTOR, "rect.bar")
    assert bars, chart.get_attribute("outerHTML")
    assert sum(int(bar.get_attribute("data-count")) for bar in bars) >= 15, chart.get_attribute("outerHTML")
    assert any(float(bar.get_attribute("height")) > 0 for bar in bars), chart.get_attribute("outerHTML")
    assert "product.detail" in console.by_id("analytics-routes").text
    link = "shopapp://retired-campaign/spring?cid=XX00"
    row = console.wait.until(lambda d: d.find_element(By.CSS_SELECTOR, f"#analytics-orphans tr[data-link='{link}']"))
    assert "3" in row.text, row.text
    console.screenshot("analytics")
    row.find_element(By.CSS_SELECTOR, "button[data-make-rule]").click()
    console.wait.until(lambda d: d.find_element(By.ID, "page").get_attribute("data-page") == "rules")
    console.wait.until(lambda d: d.find_element(By.ID, "preview-host").get_attribute("data-previewed") == "yes"
                       or d.find_elements(By.ID, "preview-error"))
    assert not driver.find_elements(By.ID, "preview-error"), console.by_id("preview").text
    assert driver.find_element(By.ID, "rule-match").get_attribute("value") \
        == r"^shopapp:\/\/retired-campaign\/spring\?cid=[^&#]*$"
    assert driver.find_element(By.ID, "rule-target").get_attribute("value") == "shopapp://retired-campaign/spring"
    console.screenshot("analytics-rule")


def test_markup_never_runs(console):
    driver = console.driver
    route = {"id": XSS_ID, "module": "xss", "pattern": "/xss/:id",
             "target": {"page": XSS_MARKUP}, "web": "https://m.shop.example.com/x?q=" + urllib.parse.quote(XSS_MARKUP)}
    status, _, body = console.http("POST", "/admin/routes", route)
    if status != 201:
        # Ids that refuse markup: the module, target and web URL still carry it.
        route["id"] = "xss.route"
        status, _, body = console.http("POST", "/admin/routes", route)
    assert status == 201, body
    rule = {"id": "xss-rule", "match": "^shopapp://xss-rule/", "target": "shopapp://x/" + urllib.parse.quote(XSS_MARKUP)}
    assert console.http("POST", "/admin/rules", rule)[0] == 201
    console.resolve("shopapp://xss/1")
    console.open_page("routes")
    stamp = console.wait_loaded()
    console.type_into("routes-module", "xss")
    console.type_into("routes-prefix", "")
    driver.find_element(By.CSS_SELECTOR, "#routes-search button[type=submit]").click()
    console.wait_loaded(stamp)
    row = driver.find_element(By.CSS_SELECTOR, "#routes-rows tr")
    assert route["id"] in row.text and "<script>window.__xss=1</script>" in row.text, row.text
    assert not driver.find_elements(By.CSS_SELECTOR, "#routes-rows img, #routes-rows script")
    console.assert_no_script_ran()
    console.open_page("rules")
    console.wait_loaded()
    console.assert_no_script_ran()
    console.open_page("history")
    console.wait_loaded()
    assert route["id"] in driver.find_element(By.ID, "history-rows").text
    console.assert_no_script_ran()
    console.open_page("try")
    console.type_into("try-url", "shopapp://xss/1")
    driver.find_element(By.ID, "try-go").click()
    console.by_id("trace-router")
    result = console.by_id("try-result")
    assert "<script>window.__xss=1</script>" in result.text and route["id"] in result.text, result.text
    assert not driver.find_elements(By.CSS_SELECTOR, "#try-result img, #try-result script")
    console.assert_no_script_ran()


def test_sign_out(console):
    driver = console.driver
    driver.find_element(By.ID, "sign-out").click()
    console.by_id("login")
    assert driver.execute_script("return sessionStorage.getItem('switchboard.adminToken')") is None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("base", help="the server's base URL, http://127.0.0.1:PORT")
    parser.add_argument("--screenshots", help="a directory for a PNG of each page")
    arguments = parser.parse_args()
    token = os.environ["SWITCHBOARD_CONSOLE_TOKEN"]
    started = time.monotonic()
    console = Console(arguments.base, token, arguments.screenshots)
    steps = [test_served_with_headers, test_traffic, test_sign_in, test_search_routes, test_try_link, test_degrade_preview_apply,
             test_history_diff_and_rollback, test_edit_move_delete_and_time, test_status, test_analytics, test_markup_never_runs, test_sign_out]
    try:
        for step in steps:
            step_started = time.monotonic()
            step(console)
            print(f"console-test: ok {step.__name__} ({time.monotonic() - step_started:.1f} s)", flush=True)
    except Exception:
        print(f"console-test: FAILED at {step.__name__}; the page shows:\n{console.driver.find_element(By.TAG_NAME, 'body').text}",
              file=sys.stderr)
        raise
    finally:
        console.driver.quit()
    print(f"console-test: all {len(steps)} steps passed in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
