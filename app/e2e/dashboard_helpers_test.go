package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
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

// pickDocument chooses the source, then the document, then the target on
// /translate. The source comes first: a document chosen with source auto
// is detected, and the detection's answer picks the target again.
func pickDocument(source, path, target string, then ...chromedp.Action[chromedp.Void]) []chromedp.Action[chromedp.Void] {
	return append([]chromedp.Action[chromedp.Void]{
		chromedp.WaitReady(chromedp.CSS("#target option")),
		chromedp.Evaluate[chromedp.Void](`(() => {
			const s = document.getElementById("source"); s.value = ` + strconv.Quote(source) + `; s.dispatchEvent(new Event("change"));
		})()`),
		chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{path}),
		chromedp.WaitVisible(chromedp.CSS("#chosen")),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("target").value = ` + strconv.Quote(target)),
	}, then...)
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
