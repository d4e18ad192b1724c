package e2e

import (
	"regexp"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/dragoman-translate/dragoman/adapters/webhook/signature"
)

// webhooks adds, pings, disables, enables and deletes webhooks.
func (tour *browserTour) webhooks() {
	t, s, u := tour.t, tour.s, tour.u
	rcv := tour.rcv
	// A webhook to a local receiver: the secret is shown once, the test
	// ping arrives signed with it, and the history shows the delivery.
	u.open("/webhooks")
	u.do("add webhook",
		chromedp.SendKeys(chromedp.CSS("#hook-url"), rcv.srv.URL+"/hook"),
		navClick(chromedp.CSS("#add-hook")),
		chromedp.WaitVisible(chromedp.CSS("#new-secret")),
	)
	secret := uiRun(u, "read the secret", chromedp.Value(chromedp.CSS("#new-secret")))
	if n := uiRun(u, "copy button", chromedp.Evaluate[int](`document.querySelectorAll('[data-copy="new-secret"]').length`)); n != 1 {
		t.Error("the webhook secret has no copy button")
	}
	u.screenshot("07-webhook-added")
	u.strict("webhooks page")
	u.do("open webhook", navClick(chromedp.CSS(".newsecret a")), chromedp.WaitVisible(chromedp.CSS("#ping")))
	u.do("ping", navClick(chromedp.CSS("#ping")), chromedp.WaitVisible(chromedp.CSS(".alert.notice")))
	d := rcv.wait(t, 1, time.Minute)[0]
	if err := signature.Verify(secret, d.body, d.sig); err != nil || d.event != "webhook.test" {
		t.Fatalf("test ping: event %q, signature: %v", d.event, err)
	}
	u.do("history shows the delivery", chromedp.WaitVisible(chromedp.CSS("#attempts tr.attempt"), chromedp.RetryInterval(time.Second)))
	waitAttemptResult(u, "first-child")
	// Attempt, result, HTTP status and latency; no error.
	if h := uiRun(u, "history row", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#attempts tr.attempt:first-child td")).map(c => c.textContent.trim())`)); len(h) != 7 ||
		h[1] != "webhook.test" || h[2] != "1" || h[3] != "succeeded" || h[4] != "204" || !regexp.MustCompile(`^(<1|\d+) ms$`).MatchString(h[5]) || h[6] != "" {
		t.Fatalf("history: %q", h)
	}
	u.screenshot("08-webhook-history")
	u.strict("webhook page")
	if strings.Contains(u.text("main"), secret) {
		t.Fatal("the webhook secret is shown again")
	}
	hookPath := strings.TrimPrefix(u.location(), s.url(""))
	if i := strings.IndexByte(hookPath, '?'); i > 0 {
		hookPath = hookPath[:i]
	}
	// Disable, enable, and a second webhook, to an endpoint that fails,
	// whose failed ping shows in its history with the error, deleted again.
	u.do("disable webhook", navClick(chromedp.CSS(`form[action$="/active"] button`)), chromedp.WaitVisible(chromedp.CSS(".alert.notice")))
	if h := u.text(".head"); !strings.Contains(h, "disabled") {
		t.Fatalf("after disable: %s", h)
	}
	u.do("enable webhook", navClick(chromedp.CSS(`form[action$="/active"] button`)), chromedp.WaitVisible(chromedp.CSS("#ping")))
	u.open("/webhooks")
	broken := newReceiver(t, 1000)
	u.do("add a second webhook",
		chromedp.SendKeys(chromedp.CSS("#hook-url"), broken.srv.URL+"/other"),
		chromedp.Click(chromedp.CSS(`input[value="job.completed"]`)), // only job.failed
		navClick(chromedp.CSS("#add-hook")),
		chromedp.WaitVisible(chromedp.CSS("#new-secret")),
		navClick(chromedp.CSS(".newsecret a")),
		navClick(chromedp.CSS("#ping")),
		chromedp.WaitVisible(chromedp.CSS("#attempts tr.attempt"), chromedp.RetryInterval(time.Second)),
	)
	waitAttemptResult(u, "last-child")
	if h := uiRun(u, "failed history row", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#attempts tr.attempt:last-child td")).map(c => c.textContent.trim())`)); len(h) != 7 ||
		h[2] != "1" || h[3] == "succeeded" || h[4] != "500" || h[6] == "" {
		t.Errorf("a failed delivery in the history: %q", h)
	}
	u.screenshot("08b-webhook-failing")
	u.strict("failing webhook page")
	u.do("delete the second webhook",
		navClick(chromedp.CSS(`form[action$="/delete"] button`)),
		chromedp.WaitVisible(chromedp.CSS(".alert.notice")),
	)
	if list := u.text("table"); strings.Contains(list, "/other") || !strings.Contains(list, "/hook") {
		t.Fatalf("after deleting the second webhook: %s", list)
	}
	if strings.Contains(u.text("main"), secret) {
		t.Fatal("the webhook secret is shown on the list")
	}
	// The API's SSRF rules apply: without --allow-private-urls this server
	// would refuse; here a non-http scheme shows the API's own message.
	u.do("refused webhook URL",
		chromedp.SendKeys(chromedp.CSS("#hook-url"), "ftp://example.com/x"),
		navClick(chromedp.CSS("#add-hook")),
		chromedp.WaitVisible(chromedp.CSS(".alert.error")),
	)
	if msg := u.text(".alert.error"); !strings.Contains(msg, "https") {
		t.Fatalf("ftp webhook: %q", msg)
	}
	tour.hookPath = hookPath
}

// waitAttemptResult waits until the history's row (first-child or
// last-child) has a result: the page may show the attempt still in
// progress (the receiver has the request, its answer is not recorded
// yet), and the history refreshes itself until it is.
func waitAttemptResult(u *ui, row string) {
	u.t.Helper()
	u.do("the delivery's result shows", chromedp.Poll[chromedp.Void](`(() => {
		const c = document.querySelector("#attempts tr.attempt:`+row+` td:nth-child(4)");
		return c !== null && c.textContent.trim() !== "in_progress";
	})()`, chromedp.WithPollingInterval(500*time.Millisecond), chromedp.WithPollingTimeout(time.Minute)))
}
