package e2e

import (
	"strings"
	"time"

	"github.com/chromedp/chromedp"
)

// usage checks the usage page of the starter account.
func (tour *browserTour) usage() {
	t, u := tour.t, tour.u
	u.open("/usage")
	if usage := u.text("main"); !strings.Contains(usage, "of 100,000") || !strings.Contains(usage, "30 API requests per minute") ||
		!strings.Contains(usage, "Starter") || !strings.Contains(usage, "<1% used") || !strings.Contains(usage, "words left") {
		t.Fatalf("usage page: %s", usage)
	}
	if m := uiRun(u, "usage bar", chromedp.Evaluate[[]float64](`(m => [m.value, m.max])(document.getElementById("usage-meter"))`)); len(m) != 2 || m[0] < 1 || m[1] != 100000 {
		t.Errorf("usage bar: value/max %v", m)
	}
	if bars := uiRun(u, "chart", chromedp.Evaluate[int](`document.querySelectorAll("#usage-chart rect.used").length`)); bars != 1 {
		t.Errorf("words-per-day chart: %d days with words, want 1 (today)", bars)
	}
	u.screenshot("09-usage")
	u.strict("usage page")
}

// otherAccountSeesNothing signs in as the other account, which sees none of
// the first one's jobs, keys and webhooks, not even by address.
func (tour *browserTour) otherAccountSeesNothing() {
	t, u := tour.t, tour.u
	arabicJob, hookPath, rcv := tour.arabicJob, tour.hookPath, tour.rcv
	// Another account sees none of it, not even by address.
	u.signOut()
	u.signIn("bo@example.org", "another long password")
	for path, empty := range map[string]string{"/jobs": "No jobs yet", "/keys": "No keys yet", "/webhooks": "No webhooks yet"} {
		u.open(path)
		if body := u.text("main"); !strings.Contains(body, empty) || strings.Contains(body, "oxpt") || strings.Contains(body, "نظام") || strings.Contains(body, "تقرير") || strings.Contains(body, rcv.srv.URL) {
			t.Errorf("account B on %s: %s", path, body)
		}
		if empty := u.text("tr.empty"); strings.Contains(empty, "\n") {
			t.Errorf("the empty list on %s breaks into lines: %q", path, empty)
		}
		u.screenshot("10-other-account-" + strings.TrimPrefix(path, "/"))
	}
	for _, p := range []string{"/jobs/" + arabicJob + "/download", "/jobs/" + arabicJob + "/download?format=pdf", "/jobs/" + arabicJob + "/preview", hookPath} {
		u.open(p)
		if body := u.text("main"); !strings.Contains(body, "not found") {
			t.Errorf("account B on %s: %s", p, body)
		}
	}
	if st := uiRun(u, "B fetches A's preview page", chromedp.Evaluate[int](`fetch("/jobs/`+arabicJob+`/preview/translation/1").then(r => r.status)`, chromedp.EvalAwaitPromise)); st != 404 {
		t.Errorf("account B on A's preview image: %d", st)
	}
}

// limits runs the other account out of words and requests: a failed job,
// then 402 and 429 in words.
func (tour *browserTour) limits() {
	t, s, u := tour.t, tour.s, tour.u
	acctB, doc := tour.acctB, tour.doc
	// A job that fails (B's plan has 1 word left, the document needs
	// more) shows as failed with its error, in words.
	s.admin("account", "set-plan", "--account", acctB, "--plan", "free", "--limit-words", "1")
	u.open("/translate")
	u.do("submit a job that fails",
		chromedp.WaitReady(chromedp.CSS("#target option")),
		chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{doc}),
		chromedp.WaitVisible(chromedp.CSS("#chosen")),
		chromedp.Click(chromedp.CSS("#submit")),
		chromedp.WaitVisible(chromedp.CSS("#job-rows tr[data-status=failed]"), chromedp.RetryInterval(500*time.Millisecond)),
	)
	if failed := u.text("#job-rows tr[data-status=failed]"); !strings.Contains(failed, "failed") || !strings.Contains(failed, "Word quota exceeded") || strings.Contains(failed, "right-to-left") {
		t.Errorf("the failed job's row: %s", failed)
	}
	u.screenshot("10b-failed-job")
	u.strict("jobs page with a failed job")
	// B's words are used up: 402 in words. Submitting again and again
	// spends the free plan's 10 requests a minute: 429 with the wait.
	s.admin("account", "set-plan", "--account", acctB, "--plan", "free", "--limit-words", "0")
	limited := false
	for i := 0; i < 25 && !limited; i++ {
		u.open("/translate")
		u.do("submit as B",
			chromedp.WaitReady(chromedp.CSS("#target option")),
			chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{doc}),
			chromedp.WaitVisible(chromedp.CSS("#chosen")),
			chromedp.Click(chromedp.CSS("#submit")),
			chromedp.WaitVisible(chromedp.CSS("#result.error")),
		)
		msg := u.text("#result")
		switch {
		case i == 0 && !strings.Contains(msg, "words for this month are used up"):
			t.Fatalf("402 in words: %q", msg)
		case strings.Contains(msg, "Too many requests right now. Try again in"):
			limited = true
		case !strings.Contains(msg, "used up"):
			t.Fatalf("B's upload %d: %q", i+1, msg)
		}
	}
	if !limited {
		t.Fatal("25 submissions in a row were never rate limited")
	}
	u.screenshot("09b-rate-limited")
	u.strict("translate page, rate limited")
	u.signOut()
}
