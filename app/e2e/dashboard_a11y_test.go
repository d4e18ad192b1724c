package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// axeSource is axe-core's browser build from npm (NPM_PACKAGES).
func axeSource(t *testing.T) string {
	t.Helper()
	root, err := exec.Command("npm", "root", "-g").Output()
	if err != nil {
		t.Fatalf("npm root -g: %v (make deps installs npm and axe-core)", err)
	}
	b, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(root)), "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatalf("axe-core is not installed (make deps): %v", err)
	}
	return string(b)
}

// axeViolation is one rule axe-core found broken, with where.
type axeViolation struct {
	ID      string `json:"id"`
	Impact  string `json:"impact"`
	Help    string `json:"help"`
	Targets []string
}

// axe runs axe-core in the page and returns its critical and serious
// violations (WCAG 2.2 A and AA and best practices).
func (u *ui) axe(src string) []axeViolation {
	u.t.Helper()
	if !uiRun(u, "load axe-core", chromedp.Evaluate[bool](src+";typeof axe === 'object'")) {
		u.t.Fatal("axe-core did not load")
	}
	raw := uiRun(u, "run axe-core", chromedp.Evaluate[string](`axe.run(document, {resultTypes: ["violations"]}).then(r => JSON.stringify(
		r.violations.filter(v => v.impact === "critical" || v.impact === "serious").map(v => ({
			id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map(n => n.target.join(" ") + " " + n.html.slice(0, 120))})))) `,
		chromedp.EvalAwaitPromise))
	var out []struct {
		axeViolation
		Targets []string `json:"targets"`
	}
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		u.t.Fatalf("axe-core result %q: %v", raw, err)
	}
	vs := make([]axeViolation, len(out))
	for i, o := range out {
		vs[i] = o.axeViolation
		vs[i].Targets = o.Targets
	}
	return vs
}

// checkAxe fails for every critical or serious violation on the open page.
func (u *ui) checkAxe(src, what string) int {
	u.t.Helper()
	vs := u.axe(src)
	for _, v := range vs {
		u.t.Errorf("%s: axe-core %s (%s): %s, on %d elements: %v", what, v.ID, v.Impact, v.Help, len(v.Targets), v.Targets[:min(len(v.Targets), 3)])
	}
	return len(vs)
}

// checkSkipLink: the first Tab on a page reaches a link to the main
// content, and following it moves the focus there.
func (u *ui) checkSkipLink(what string) {
	u.t.Helper()
	got := uiRun(u, "skip link on "+what, chromedp.Evaluate[[]string](`(() => {
		const first = [...document.querySelectorAll("a[href], button, input, select, textarea, [tabindex]")]
			.find(e => e.tabIndex >= 0 && !e.disabled);
		if (!first) return ["", "", ""];
		const target = first.getAttribute("href") || "";
		const main = target.startsWith("#") ? document.getElementById(target.slice(1)) : null;
		return [first.textContent.trim(), target, main ? main.tagName : ""];
	})()`))
	if len(got) != 3 || !strings.Contains(strings.ToLower(got[0]), "skip to") || (got[2] != "MAIN" && got[1] != "#ui") {
		u.t.Errorf("%s: the first focusable element is %q → %q (%s), want a skip link to <main>", what, got[0], got[1], got[2])
	}
}

// TestDashboardAccessibility runs axe-core from npm in headless Chromium on
// every page of the dashboard, signed out and signed in, and on the API's
// docs page: no critical or serious violation, and a skip link first on
// each dashboard page.
func TestDashboardAccessibility(t *testing.T) {
	src := axeSource(t)
	s := startServer(t, []string{"--allow-private-urls"}, "DRAGOMAN_ENGINES=pseudo")
	acct, key, _ := s.account("pro")
	dashUser(t, s, acct, "a11y@example.com", "correct horse battery")

	// Something on every page: a completed job with a long file name, a
	// failed one, a webhook with a delivery, a glossary.
	long := filepath.Join(t.TempDir(), "quarterly-report-for-the-board-of-directors-with-every-appendix-and-annex-final-version.docx")
	b, err := os.ReadFile(englishDocx)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(long, b, 0o644); err != nil {
		t.Fatal(err)
	}
	done := s.uploadFile(key, long, map[string]string{"target_lang": "Arabic", "source_lang": "English"}).json(t)["job_id"].(string)
	s.waitJob(key, done, 2*60e9)
	bad := s.upload(key, "broken.docx", strings.NewReader("PK\x03\x04 not a zip at all"), map[string]string{"target_lang": "Spanish", "source_lang": "English"})
	if id, ok := bad.json(t)["job_id"].(string); ok {
		s.waitJob(key, id, 60e9)
	}
	hook := s.do("POST", "/v1/webhooks", key, strings.NewReader(`{"url":"https://hooks.example.org/dragoman","events":["job.completed"]}`), "application/json").json(t)["id"].(string)
	s.do("POST", "/v1/glossaries", key, strings.NewReader(`{"name":"Billing","source_lang":"English","target_lang":"Spanish","entries":[{"source":"invoice","target":"factura"}]}`), "application/json")

	u := &ui{t: t, ctx: browserCtx(t), s: s, shot: t.TempDir()}
	found := 0
	u.open("/signin")
	found += u.checkAxe(src, "/signin")
	u.checkSkipLink("/signin")
	u.signIn("a11y@example.com", "correct horse battery")
	for _, p := range []string{"/translate", "/jobs", "/jobs/" + done + "/preview", "/keys", "/webhooks", "/webhooks/" + hook, "/terms", "/usage", "/no-such-page"} {
		u.open(p)
		u.do("wait for "+p, chromedp.WaitVisible(chromedp.CSS("main")))
		found += u.checkAxe(src, p)
		u.checkSkipLink(p)
	}
	// The API reference (Swagger UI, embedded): as it opens, and with an
	// operation expanded.
	u.open("/v1/docs")
	u.do("wait for the docs", chromedp.WaitVisible(chromedp.CSS(".opblock-summary-control")))
	found += u.checkAxe(src, "/v1/docs")
	u.checkSkipLink("/v1/docs")
	u.do("expand an operation", chromedp.Click(chromedp.CSS(".opblock-summary-control")), chromedp.WaitVisible(chromedp.CSS(".opblock-body")))
	found += u.checkAxe(src, "/v1/docs, an operation expanded")
	t.Logf("%d critical or serious axe-core violations", found)
}
