package e2e

import (
	"strings"
	"time"

	"github.com/chromedp/chromedp"
)

// keys makes a key on the keys page and revokes it.
func (tour *browserTour) keys() {
	t, s, u := tour.t, tour.s, tour.u
	// A key made here works on the API at once; revoked, it gets 403.
	u.open("/keys")
	u.do("create key",
		chromedp.SendKeys(chromedp.CSS("#key-name"), "نظام الفوترة"),
		navClick(chromedp.CSS("#create-key")),
		chromedp.WaitVisible(chromedp.CSS("#new-key")),
	)
	key := uiRun(u, "read the new key", chromedp.Value(chromedp.CSS("#new-key")))
	u.do("copy the key", chromedp.Click(chromedp.CSS(`[data-copy="new-key"]`)))
	if !uiRun(u, "copied", chromedp.Poll[bool](`document.querySelector('[data-copy="new-key"]').textContent === "Copied"`, chromedp.WithPollingTimeout(10*time.Second))) {
		t.Error("the copy button did not say it copied")
	}
	u.screenshot("05-key-created")
	u.strict("keys page")
	if r := s.do("GET", "/v1/usage", key, nil, ""); r.status != 200 || !contains(r.body, `"plan_name":"starter"`) {
		t.Fatalf("new key on /v1/usage: %d %s", r.status, r.body)
	}
	u.open("/keys")
	if page := u.text("main"); strings.Contains(page, key) {
		t.Fatal("the key is shown again")
	}
	if list := u.text("table"); !strings.Contains(list, "نظام الفوترة") || !strings.Contains(list, key[:8]) || strings.Contains(list, key) || strings.Contains(list, "never") {
		t.Fatalf("key list (name, prefix, never the key, last use): %s", list)
	}
	u.do("revoke key", navClick(chromedp.CSS("button.danger")), chromedp.WaitVisible(chromedp.CSS(".alert.notice")))
	u.screenshot("06-key-revoked")
	if r := s.do("GET", "/v1/usage", key, nil, ""); r.status != 403 {
		t.Fatalf("revoked key on /v1/usage: %d %s", r.status, r.body)
	}
}
