package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The dashboard in Chromium: "Bilingual too" ticked on the translate page
// gives the job's row a "Download bilingual" link, which downloads the
// English source beside its Arabic translation; a job without it has no
// such link. axe finds no serious or critical issue on either page.
func TestDashboardBilingual(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	acct := s.admin("account", "create", "--plan", "pro", "--name", "Acme")["account_id"].(string)
	dashUser(t, s, acct, "ana@example.com", "correct horse battery")
	shots, _ := os.MkdirTemp("", "dragoman-dashboard-bilingual-")
	t.Logf("screenshots in %s", shots)
	u := &ui{t: t, ctx: browserCtx(t), s: s, shot: shots}
	src := axeSource(t)
	u.signIn("ana@example.com", "correct horse battery")
	doc, _ := filepath.Abs(englishDocx)

	submit := func(bilingual bool) string {
		t.Helper()
		u.open("/translate")
		u.do("choose English → Arabic", pickDocument("English", doc, "Arabic")...)
		if bilingual {
			u.do("tick Bilingual too", chromedp.Click(chromedp.CSS("label.option:has(#bilingual)")))
			if !uiRun(u, "ticked", chromedp.Evaluate[bool](`document.getElementById("bilingual").checked`)) {
				t.Fatal("clicking Bilingual too did not tick it")
			}
			u.checkAxe(src, "/translate with Bilingual too ticked")
		}
		u.do("translate", chromedp.Click(chromedp.CSS("#submit")), chromedp.WaitVisible(chromedp.CSS("#job-rows tr[data-status]")))
		return strings.TrimPrefix(uiRun(u, "job id", chromedp.Evaluate[string](`document.querySelector("#job-rows tr[data-status]").id`)), "job-")
	}
	withIt, without := submit(true), submit(false)
	if withIt == without {
		t.Fatalf("the two submissions show one job %s", withIt)
	}
	u.do("both complete", chromedp.WaitVisible(chromedp.CSS(`#job-`+withIt+`[data-status="completed"] a.download`)),
		chromedp.WaitVisible(chromedp.CSS(`#job-`+without+`[data-status="completed"] a.download`)))
	link := "#job-" + withIt + " a.bilingual"
	if got := uiRun(u, "links", chromedp.Evaluate[[]string](`[...document.querySelectorAll("#job-rows a.bilingual")].map(a => a.closest("tr").id + " " + a.textContent.trim() + " " + a.getAttribute("href"))`)); len(got) != 1 ||
		got[0] != "job-"+withIt+" Download bilingual /jobs/"+withIt+"/download?format=bilingual" {
		t.Errorf("bilingual links on the jobs page: %q, want one, on job %s", got, withIt)
	}
	u.screenshot("jobs-bilingual")
	u.strict("jobs page with a bilingual job")
	u.checkAxe(src, "/jobs with a bilingual job")

	dir := t.TempDir()
	got := u.download(link, dir)
	checkBilingual(t, "the dashboard's bilingual download", got)
	api := s.getPatiently("/v1/jobs/"+withIt+"/download?format=bilingual", s.keyFor(t, acct))
	if b := readFile(t, got); api.status != 200 || string(b) != string(api.body) {
		t.Errorf("the dashboard's bilingual download (%d bytes) is not the API's (%d, %d bytes)", len(b), api.status, len(api.body))
	}
	// The job without it: the dashboard's address answers with a page
	// saying why, not a file.
	u.open("/jobs/" + without + "/download?format=bilingual")
	deadline := time.Now().Add(10 * time.Second)
	for body := u.text("body"); !strings.Contains(body, "without bilingual"); body = u.text("body") {
		if time.Now().After(deadline) {
			t.Fatalf("the bilingual address of a job without it shows %q", body)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
