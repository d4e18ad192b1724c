package e2e

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/dragoman-translate/dragoman/adapters/webhook/signature"
)

// browserCtx starts Debian's chromium headless with a fresh profile. The
// machine has no outside network, so everything that phones home is off.
func browserCtx(t *testing.T) context.Context {
	t.Helper()
	exe, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("chromium is not installed (make deps): %v", err)
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck, chromedp.IgnoreCertErrors, chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.WindowSize(1280, 900))
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelA() })
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	// Every document records the Content-Security-Policy violations it
	// sees, so the test can check that nothing on a page breaks the policy.
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: `window.__csp = []; document.addEventListener("securitypolicyviolation", e => window.__csp.push(e.violatedDirective + " " + e.blockedURI));`,
	}); err != nil {
		t.Fatalf("install the CSP listener: %v", err)
	}
	// Destructive forms ask for confirmation: say yes.
	dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	go func() {
		for _, err := range dialogs {
			if err != nil {
				return
			}
			_, _ = chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		}
	}()
	return ctx
}

// ui drives one browser tab against a server, with a deadline per step.
type ui struct {
	t    *testing.T
	ctx  context.Context
	s    *server
	shot string // screenshot folder
}

func (u *ui) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	u.t.Helper()
	ctx, cancel := context.WithTimeout(u.ctx, 90*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		u.screenshot("failed-" + strings.ReplaceAll(what, " ", "-"))
		u.t.Fatalf("%s: %v", what, err)
	}
}

func uiRun[T any](u *ui, what string, a chromedp.Action[T]) T {
	u.t.Helper()
	ctx, cancel := context.WithTimeout(u.ctx, 90*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		u.screenshot("failed-" + strings.ReplaceAll(what, " ", "-"))
		u.t.Fatalf("%s: %v", what, err)
	}
	return v
}

func (u *ui) screenshot(name string) {
	// From the top: the sticky header would otherwise be drawn mid-page.
	_, _ = chromedp.Run(u.ctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	b, err := chromedp.Run(u.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		u.t.Logf("screenshot %s: %v", name, err)
		return
	}
	path := filepath.Join(u.shot, name+".png")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		u.t.Logf("screenshot %s: %v", name, err)
		return
	}
	u.t.Logf("screenshot: %s", path)
}

// strict checks the page in the browser against the dashboard's rules: no
// inline script, event-handler attribute or style attribute, nothing the
// Content-Security-Policy refused, no table wider than the page, and every file name, key name, URL
// and message shown with its own direction.
func (u *ui) strict(what string) {
	u.t.Helper()
	bad := uiRun(u, "check "+what, chromedp.Evaluate[[]string](`(() => {
		const bad = [];
		document.querySelectorAll("script:not([src])").forEach(() => bad.push("inline script"));
		document.querySelectorAll("*").forEach(e => { for (const a of e.attributes) if (a.name.startsWith("on") || a.name === "style") bad.push(e.tagName + " " + a.name); });
		(window.__csp || []).forEach(v => bad.push("CSP refused: " + v));
		// At the test's 1280 px nothing needs a horizontal scroll bar.
		document.querySelectorAll(".card, main").forEach(c => { if (c.scrollWidth > c.clientWidth + 1) bad.push("overflows: " + c.className + " " + c.scrollWidth + ">" + c.clientWidth); });
		document.querySelectorAll(".name, .alert, #result, #chosen, .warnings li, .error-text, [data-key] td:first-child > span:not(.muted)").forEach(e => {
			if (e.getAttribute("dir") !== "auto") bad.push("no dir=auto: " + e.outerHTML.slice(0, 80));
		});
		return bad;
	})()`))
	if len(bad) > 0 {
		u.t.Errorf("%s breaks the page rules: %v", what, bad)
	}
}

func (u *ui) open(path string) { u.t.Helper(); u.do("open "+path, chromedp.Navigate(u.s.url(path))) }

func (u *ui) text(sel string) string {
	u.t.Helper()
	return uiRun(u, "read "+sel, chromedp.Text(chromedp.CSS(sel)))
}

func (u *ui) signIn(email, password string) {
	u.t.Helper()
	u.open("/signin")
	u.do("sign in as "+email,
		chromedp.WaitVisible(chromedp.CSS("input[name=email]")),
		chromedp.SendKeys(chromedp.CSS("input[name=email]"), email),
		chromedp.SendKeys(chromedp.CSS("input[name=password]"), password),
		navClick(chromedp.CSS("#signin")),
		chromedp.WaitVisible(chromedp.CSS("main h1")),
	)
}

func (u *ui) signOut() {
	u.t.Helper()
	u.do("sign out", navClick(chromedp.CSS(`form[action="/signout"] button`)), chromedp.WaitVisible(chromedp.CSS("#signin")))
}

// navClick clicks something that loads a new page and waits for that page:
// the old document's marker is gone and the new one has loaded.
func navClick(sel chromedp.CSS) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		chromedp.Evaluate[chromedp.Void](`void (window.__oldPage = true)`),
		chromedp.Click(sel),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			for { // evaluation fails while the page changes: try again
				ok, err := chromedp.Evaluate[bool](`window.__oldPage !== true && document.readyState === "complete"`)(ctx, t)
				if err == nil && ok {
					return nil
				}
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-time.After(100 * time.Millisecond):
				}
			}
		}),
	)
}

func (u *ui) location() string { return uiRun(u, "location", chromedp.Location()) }

// user makes a dashboard user with a known password.
func dashUser(t *testing.T, s *server, acct, email, password string) string {
	t.Helper()
	pw := filepath.Join(t.TempDir(), "pw")
	if err := os.WriteFile(pw, []byte(password+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	u := s.admin("user", "create", "--account", acct, "--email", email, "--password-file", pw)
	if _, shown := u["password"]; shown {
		t.Fatal("a password given in a file is printed back")
	}
	return u["user_id"].(string)
}

// TestDashboardInABrowser drives the real binary with headless Chromium:
// sign-in, translation with live progress and download, keys that work on
// the API at once, a signed webhook test ping with its history, and an
// account that sees nothing of another.
func TestDashboardInABrowser(t *testing.T) {
	rcv := newReceiver(t, 0)
	s := startServer(t, []string{"--allow-private-urls"}, "DRAGOMAN_ENGINES=pseudo")
	acctA := s.admin("account", "create", "--plan", "starter", "--name", "Acme")["account_id"].(string)
	acctB := s.admin("account", "create", "--plan", "free", "--name", "Other")["account_id"].(string)
	dashUser(t, s, acctA, "Ana@Example.com", "correct horse battery")
	dashUser(t, s, acctB, "bo@example.org", "another long password")
	// Without --password-file a one-time password is printed, and it works.
	oneTime := s.admin("user", "create", "--account", acctA, "--email", "carla@example.com")
	carlaPW, _ := oneTime["password"].(string)
	if len(carlaPW) < 16 {
		t.Fatalf("one-time password: %v", oneTime)
	}

	// Screenshots outlive the test (t.TempDir would delete them) so a
	// person can look at them; they go to the system's temp dir, never
	// into the repository.
	shots := os.Getenv("DASHBOARD_SCREENSHOTS")
	if shots == "" {
		var err error
		if shots, err = os.MkdirTemp("", "dragoman-dashboard-shots-"); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("screenshots in %s", shots)
	u := &ui{t: t, ctx: browserCtx(t), s: s, shot: shots}

	// Signed out, every page leads to the sign-in form.
	u.open("/jobs")
	if loc := u.location(); !strings.Contains(loc, "/signin?next=%2Fjobs") {
		t.Fatalf("signed out /jobs went to %s", loc)
	}
	// A wrong password is refused in words.
	u.signIn("ana@example.com", "wrong password!")
	if msg := u.text(".alert.error"); !strings.Contains(msg, "Wrong e-mail address or password") {
		t.Fatalf("wrong password: %q", msg)
	}
	u.screenshot("01-signin-refused")
	u.signIn("ANA@example.com ", "correct horse battery")
	if loc := u.location(); !strings.HasSuffix(loc, "/translate") {
		t.Fatalf("after sign-in: %s (%s)", loc, u.text("main"))
	}
	u.screenshot("02-translate")
	u.strict("translate page")

	// The pickers follow the pair-aware listing: for each source only the
	// targets it reaches, never itself.
	pairs := uiRun(u, "languages", chromedp.Evaluate[map[string][]string](`JSON.parse(document.getElementById("translate-form").dataset.pairs)`))
	lastSource := uiRun(u, "last source", chromedp.Evaluate[string](`Array.from(document.querySelectorAll("#source option")).pop().value`))
	for _, src := range []string{"auto", "English", lastSource} {
		opts := uiRun(u, "targets from "+src, chromedp.Evaluate[[]string](`(() => {
			const s = document.getElementById("source"); s.value = `+strconv.Quote(src)+`; s.dispatchEvent(new Event("change"));
			return Array.from(document.querySelectorAll("#target option")).map(o => o.value);
		})()`))
		if len(pairs[src]) == 0 || strings.Join(opts, ",") != strings.Join(pairs[src], ",") || (src != "auto" && slices.Contains(opts, src)) {
			t.Errorf("targets offered from %s: %v, listing says %v", src, opts, pairs[src])
		}
	}
	if n := uiRun(u, "sources", chromedp.Evaluate[int](`document.querySelectorAll("#source option").length`)); n < 3 {
		t.Errorf("%d source choices", n)
	}
	// Each mode comes with a one-line explanation; PDF is an opt-in.
	modes := uiRun(u, "modes", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll(".mode")).map(m => m.querySelector("input").value + ": " + m.querySelector(".muted").textContent)`))
	if len(modes) != 4 {
		t.Errorf("modes: %v", modes)
	}
	for i, want := range []string{"professional: ", "full: ", "literal: ", "extreme: "} {
		if i >= len(modes) || !strings.HasPrefix(modes[i], want) || len(modes[i]) < len(want)+20 {
			t.Errorf("mode %d: %v", i, modes)
		}
	}
	if pdfBox := u.text(`label.option`); !strings.Contains(pdfBox, "PDF too") ||
		uiRun(u, "pdf unchecked", chromedp.Evaluate[bool](`document.getElementById("pdf").checked`)) {
		t.Errorf("the PDF option: %q, or checked by default", pdfBox)
	}
	// A document over the limit is refused in words before it is sent.
	big := filepath.Join(t.TempDir(), "big.docx")
	if err := os.Truncate(mustCreate(t, big), 51<<20); err != nil {
		t.Fatal(err)
	}
	u.do("choose a 51 MB file",
		chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{big}),
		chromedp.WaitVisible(chromedp.CSS("#chosen")),
		chromedp.Click(chromedp.CSS("#submit")),
		chromedp.WaitVisible(chromedp.CSS("#result.error")),
	)
	if msg := u.text("#result"); !strings.Contains(msg, "too large") || !strings.Contains(msg, "50 MB") {
		t.Fatalf("413 in words: %q", msg)
	}
	u.open("/translate")

	// Translate a corpus document to Spanish, then to Arabic, and watch the
	// jobs page (never reloaded) reach completed for both.
	doc, _ := filepath.Abs("../../testdata/corpus/docx/oxpt-WC043-Nested-Table.docx")
	// Errors are shown in words: a file that is not a document is 422.
	notDoc := filepath.Join(t.TempDir(), "notes.docx")
	if err := os.WriteFile(notDoc, []byte("just some text, not a document"), 0o644); err != nil {
		t.Fatal(err)
	}
	u.do("upload a non-document",
		chromedp.WaitReady(chromedp.CSS("#target option")),
		chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{notDoc}),
		chromedp.WaitVisible(chromedp.CSS("#chosen")),
		chromedp.Click(chromedp.CSS("#submit")),
		chromedp.WaitVisible(chromedp.CSS("#result.error")),
	)
	if msg := u.text("#result"); !strings.Contains(msg, "cannot be translated") {
		t.Fatalf("422 in words: %q", msg)
	}
	u.screenshot("02b-translate-refused")
	// The Arabic one goes under an Arabic name with markup and a bidi
	// override in it, which must show as text in its own direction, and
	// asks for a PDF too.
	arabicName := "تقرير <b>الربع\u202e.docx"
	arabicDoc := filepath.Join(t.TempDir(), arabicName)
	if b, err := os.ReadFile(doc); err != nil || os.WriteFile(arabicDoc, b, 0o644) != nil {
		t.Fatalf("copy %s: %v", doc, err)
	}
	u.open("/translate")
	for i, target := range []string{"Spanish", "Arabic"} {
		if i > 0 {
			u.open("/translate")
		}
		file, pdf := doc, "false"
		if target == "Arabic" {
			file, pdf = arabicDoc, "true"
		}
		u.do("upload to "+target,
			chromedp.WaitReady(chromedp.CSS("#target option")),
			// The progress bar's states are kept across the page change.
			chromedp.Evaluate[chromedp.Void](`(() => {
				sessionStorage.setItem("progress", "");
				const p = document.getElementById("progress");
				new MutationObserver(() => sessionStorage.setItem("progress", sessionStorage.getItem("progress") + (p.hidden ? "h" : "v") + p.value + " "))
					.observe(p, { attributes: true });
			})()`),
			chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{file}),
			chromedp.WaitVisible(chromedp.CSS("#chosen")),
			chromedp.SetValue(chromedp.CSS("#source"), "English"),
			chromedp.Evaluate[chromedp.Void](`document.getElementById("source").dispatchEvent(new Event("change"))`),
			chromedp.SetValue(chromedp.CSS("#target"), target),
			chromedp.Evaluate[chromedp.Void](`document.getElementById("pdf").checked = `+pdf),
			chromedp.Click(chromedp.CSS("#submit")),
			chromedp.WaitVisible(chromedp.CSS("#result.ok")),
		)
		if i == 0 {
			u.screenshot("03-translate-queued")
			u.strict("translate page, queued")
		}
		u.do("jobs page", chromedp.WaitVisible(chromedp.CSS("#job-rows tr[data-status]")))
		// The bar was shown and reached 100 %.
		if p := uiRun(u, "progress states", chromedp.Evaluate[string](`sessionStorage.getItem("progress")`)); !strings.Contains(p, "v100") {
			t.Errorf("upload progress bar states: %q", p)
		}
	}
	uiRun(u, "mark the page", chromedp.Evaluate[bool](`window.__notReloaded = true`))
	seen := map[string]bool{}
	deadline := time.Now().Add(3 * time.Minute)
	for {
		statuses := uiRun(u, "read statuses", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#job-rows tr[data-status]")).map(r => r.dataset.status)`))
		for _, st := range statuses {
			seen[st] = true
		}
		// A job on its way shows the stage it reached, with a bar.
		if unfinished := uiRun(u, "unfinished rows", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#job-rows tr[data-status=pending], #job-rows tr[data-status=processing]")).map(r => (r.querySelector("progress") ? "bar " : "") + r.innerText)`)); len(unfinished) > 0 {
			for _, r := range unfinished {
				if !strings.HasPrefix(r, "bar ") || !strings.Contains(r, "stage: ") {
					t.Errorf("an unfinished job's row lacks its stage: %q", r)
				}
			}
			seen["stage shown"] = true
		}
		if len(statuses) == 2 && statuses[0] == "completed" && statuses[1] == "completed" {
			break
		}
		if strings.Contains(strings.Join(statuses, ","), "failed") {
			t.Fatalf("a job failed: %s", u.text("#job-rows"))
		}
		if time.Now().After(deadline) {
			t.Fatalf("jobs did not complete: %v", statuses)
		}
		time.Sleep(500 * time.Millisecond)
	}
	if !uiRun(u, "still the same page", chromedp.Evaluate[bool](`window.__notReloaded === true`)) {
		t.Fatal("the jobs page reloaded instead of updating itself")
	}
	t.Logf("statuses seen while watching: %v", seen)
	u.screenshot("04-jobs-completed")
	u.strict("jobs page")
	rows := u.text("#job-rows")
	for _, want := range []string{"oxpt-WC043-Nested-Table.docx", "Arabic", "Spanish", "engine: pseudo", "right-to-left layout", "full", "structure check: no loss"} {
		if !strings.Contains(rows, want) {
			t.Errorf("jobs page lacks %q:\n%s", want, rows)
		}
	}
	if left := regexp.MustCompile(`\b\d{1,2} min \d\d s left to download`).FindAllString(rows, -1); len(left) != 2 {
		t.Errorf("time left in the download window: %q in\n%s", left, rows)
	}
	if words := uiRun(u, "words", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#job-rows td.num")).map(c => c.textContent.trim())`)); len(words) != 2 || words[0] == "—" || words[0] != words[1] {
		t.Errorf("words per job: %v", words)
	}
	arabicJob := strings.TrimPrefix(uiRun(u, "job id", chromedp.Evaluate[string](`document.querySelector("#job-rows tr[data-status]").id`)), "job-")
	// The Arabic name is text in its own direction, isolated from its
	// neighbours: no element made of its markup, its bidi override gone.
	arabicRow := "#job-" + arabicJob
	if got := uiRun(u, "the Arabic name", chromedp.Evaluate[[]string](`(() => {
		const n = document.querySelector("`+arabicRow+` .name");
		return [n.textContent, n.getAttribute("dir"), getComputedStyle(n).unicodeBidi, String(n.querySelector("b") !== null)];
	})()`)); got[0] != strings.ReplaceAll(arabicName, "\u202e", "") || got[1] != "auto" || got[2] != "isolate" || got[3] != "false" {
		t.Errorf("the Arabic file name on the jobs page: %q", got)
	}
	// Only the job that asked for a PDF offers one.
	if n := uiRun(u, "pdf links", chromedp.Evaluate[int](`document.querySelectorAll("#job-rows a.pdf").length`)); n != 1 ||
		uiRun(u, "arabic pdf link", chromedp.Evaluate[bool](`document.querySelector("`+arabicRow+` a.pdf") !== null`)) == false {
		t.Errorf("PDF links: %d, want one, on the Arabic job", n)
	}

	// Download the Arabic translation through the browser and check it.
	dlDir := t.TempDir()
	download := func(link string) string {
		t.Helper()
		progress := chromedp.Events(u.ctx, browser.DownloadProgress)
		u.do("download "+link,
			chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
				_, err := chromedp.Call(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
					Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dlDir, EventsEnabled: boolPtr(true),
				})
				return err
			}),
			chromedp.Click(chromedp.CSS(link)),
		)
		for ev, err := range progress {
			if err != nil {
				t.Fatalf("download %s: %v", link, err)
			}
			if ev.State == browser.DownloadProgressStateCanceled {
				t.Fatalf("download %s cancelled", link)
			}
			if ev.State == browser.DownloadProgressStateCompleted {
				return filepath.Join(dlDir, ev.GUID)
			}
		}
		t.Fatalf("download %s: no more events", link)
		return ""
	}
	got := download(arabicRow + " a.download")
	check := exec.Command(filepath.Join(binaries(t), "dragoman"), "fidelity", doc, got)
	if out, err := check.CombinedOutput(); err != nil {
		t.Fatalf("the downloaded file fails the structure check: %v\n%s", err, out)
	}
	// The PDF asked for with "PDF too" downloads as a PDF with the
	// translation's pages.
	pdfFile := download(arabicRow + " a.pdf")
	if b, err := os.ReadFile(pdfFile); err != nil || !bytes.HasPrefix(b, []byte("%PDF-")) || len(b) < 1000 {
		t.Fatalf("the PDF download: %v, %d bytes, starts %q", err, len(b), b[:min(len(b), 8)])
	}
	if out, err := exec.Command("pdfinfo", pdfFile).CombinedOutput(); err != nil || !regexp.MustCompile(`Pages:\s+[1-9]`).Match(out) {
		t.Fatalf("pdfinfo on the PDF download: %v\n%s", err, out)
	}

	// The preview shows both sides as page images, rendered through
	// LibreOffice and pdftoppm.
	u.open("/jobs")
	u.do("open the preview", navClick(chromedp.CSS("#job-"+arabicJob+" a.preview-link")), chromedp.WaitVisible(chromedp.CSS("#preview")))
	loaded := uiRun(u, "both sides render", chromedp.Poll[bool](`(() => {
		const sides = Array.from(document.querySelectorAll("#preview .side"));
		return sides.length === 2 && sides.every(s => { const i = s.querySelector("img.page"); return i && i.complete && i.naturalWidth > 100; });
	})()`, chromedp.WithPollingTimeout(80*time.Second)))
	if !loaded {
		t.Fatalf("preview: %s", u.text("#preview"))
	}
	// Pages load lazily: the browser fetches a page image when it nears the view.
	if lazy := uiRun(u, "lazy pages", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#preview img.page")).map(i => i.loading)`)); len(lazy) < 2 || slices.ContainsFunc(lazy, func(l string) bool { return l != "lazy" }) {
		t.Errorf("preview page images: loading %v", lazy)
	}
	if n := uiRun(u, "preview pdf", chromedp.Evaluate[int](`document.querySelectorAll(".head a.pdf").length`)); n != 1 {
		t.Errorf("the preview of a job with a PDF offers %d PDF links", n)
	}
	u.strict("preview page")
	u.screenshot("04b-preview")

	// A document can also be fetched from its address.
	docSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, doc) }))
	defer docSrv.Close()
	u.open("/translate")
	u.do("submit by URL",
		chromedp.WaitReady(chromedp.CSS("#target option")),
		chromedp.SendKeys(chromedp.CSS("#url"), docSrv.URL+"/fetched.docx"),
		chromedp.SetValue(chromedp.CSS("#target"), "French"),
		chromedp.Click(chromedp.CSS("#submit")),
		chromedp.WaitVisible(chromedp.CSS("#result.ok")),
		chromedp.WaitVisible(chromedp.CSS(`#job-rows tr[data-status="completed"]:first-child`), chromedp.RetryInterval(500*time.Millisecond)),
	)
	if first := u.text("#job-rows tr:first-child"); !strings.Contains(first, "fetched.docx") || !strings.Contains(first, "French") {
		t.Fatalf("the fetched job: %s", first)
	}

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

	// A disabled user and a suspended account are refused with the reason.
	u.signIn("carla@example.com", carlaPW) // the one-time password works
	if loc := u.location(); !strings.HasSuffix(loc, "/translate") {
		u.screenshot("failed-carla")
		t.Fatalf("carla's sign-in: %s: %s", loc, u.text("main"))
	}
	u.open("/jobs")
	if !strings.Contains(u.text("#job-rows"), "oxpt-WC043") {
		t.Errorf("a second user of the account does not see its jobs")
	}
	s.admin("user", "disable", "--account", acctA, "--user", "carla@example.com")
	// The live page notices that its session ended and goes to sign-in.
	u.do("the jobs page notices", chromedp.WaitVisible(chromedp.CSS("#signin")))
	u.signIn("carla@example.com", carlaPW)
	if msg := u.text(".alert.error"); !strings.Contains(msg, "disabled") {
		t.Errorf("disabled user: %q", msg)
	}
	s.admin("account", "suspend", "--account", acctB)
	u.signIn("bo@example.org", "another long password")
	if msg := u.text(".alert.error"); !strings.Contains(msg, "suspended") {
		t.Errorf("suspended account: %q", msg)
	}
	u.screenshot("11-suspended")
}

func boolPtr(b bool) *bool { return &b }

// mustCreate creates an empty file and returns its path.
func mustCreate(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}
