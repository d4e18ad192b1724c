package e2e

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// redirectForms are next= values a browser could read as another host or
// a script (issue 26: "/\t/evil.example/phish" went to evil.example).
var redirectForms = []string{
	"/\t/evil.example/phish", "/\n/evil.example", "/\r\n/evil.example", "\t//evil.example", " //evil.example",
	"//evil.example", "///evil.example", `/\evil.example`, `\\evil.example`, `/\/evil.example`, `/%5Cevil.example`,
	"/%09/evil.example", "/%2F%2Fevil.example", "https://evil.example/", "HTTPS:evil.example", "//user@evil.example",
	"javascript:alert(document.domain)", "JaVaScRiPt:alert(1)", "data:text/html,<script>alert(1)</script>",
	"/\u00a0/evil.example", "/\x00/evil.example",
}

// stays says whether a redirect's Location stays on the server: a path
// with nothing a browser would drop or turn into a slash.
func stays(loc string) bool {
	return strings.HasPrefix(loc, "/") && !strings.HasPrefix(loc, "//") &&
		!strings.ContainsAny(loc, "\\\t\r\n\x00 ") && !strings.Contains(loc, "\u00a0")
}

// TestSignInRedirectsStayHome: whatever next says, the redirect after
// sign-in (and from the sign-in page with a session) is a path of this
// site; a plain path is kept.
func TestSignInRedirectsStayHome(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	acct := s.admin("account", "create", "--plan", "free")["account_id"].(string)
	dashUser(t, s, acct, "red@example.com", "a long enough password")
	d := signedIn(t, s, "red@example.com", "a long enough password")
	for _, next := range append(redirectForms, "/jobs") {
		r := d.get("/signin?next=" + url.QueryEscape(next))
		loc := r.header.Get("Location")
		if r.status != 303 || !stays(loc) || (next == "/jobs") != (loc == "/jobs") {
			t.Errorf("signed in, /signin?next=%q: %d to %q", next, r.status, loc)
		}
	}
	// Signing in with the form's hidden next (throttled to 5 a minute per
	// user, so a few forms only).
	for _, next := range []string{"/\t/evil.example/phish", `/\evil.example`, "/keys"} {
		r := anonymous(t, s).post("/signin", url.Values{"email": {"red@example.com"}, "password": {"a long enough password"}, "next": {next}})
		if loc := r.header.Get("Location"); r.status != 303 || !stays(loc) || (next == "/keys") != (loc == "/keys") {
			t.Errorf("sign-in with next=%q: %d to %q", next, r.status, loc)
		}
	}
}

// TestDashboardFaultsInABrowser drives Chromium: a crafted next stays on
// the site, the API docs render under their Content-Security-Policy with
// no violation, and a password changed in the dashboard ends the user's
// other session but not this one.
func TestDashboardFaultsInABrowser(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	acct := s.admin("account", "create", "--plan", "free", "--name", "Acme")["account_id"].(string)
	dashUser(t, s, acct, "pat@example.com", "the first long password")
	other := signedIn(t, s, "pat@example.com", "the first long password") // another browser
	u := &ui{t: t, ctx: browserCtx(t), s: s, shot: t.TempDir()}
	u.signIn("pat@example.com", "the first long password")
	home := s.url("/")

	// Chromium followed "/\t/evil.example/phish" to evil.example.
	for _, next := range []string{"/%09/evil.example/phish", "/%5C/evil.example", "%2F%09%2Fevil.example", "javascript:alert(1)"} {
		u.open("/signin?next=" + next)
		u.do("wait for "+next, chromedp.WaitVisible(chromedp.CSS("main h1")))
		if loc := u.location(); !strings.HasPrefix(loc, home) {
			t.Errorf("next=%s took Chromium to %s", next, loc)
		}
	}

	// The docs page: Swagger UI renders the contract with nothing refused.
	u.open("/v1/docs")
	u.do("render the docs", chromedp.WaitVisible(chromedp.CSS(".swagger-ui .info .title")),
		chromedp.WaitVisible(chromedp.CSS(".opblock-tag")))
	if title := u.text(".swagger-ui .info .title"); !strings.Contains(title, "Dragoman") {
		t.Errorf("docs title %q", title)
	}
	u.do("open an operation", chromedp.Click(chromedp.CSS(".opblock-summary")), chromedp.WaitVisible(chromedp.CSS(".opblock-body")))
	time.Sleep(300 * time.Millisecond) // let late styles and images load
	if v := uiRun(u, "CSP violations", chromedp.Evaluate[[]string](`window.__csp || ["no listener"]`)); len(v) > 0 {
		t.Errorf("the docs page broke its CSP: %v", v)
	}
	r := s.do("GET", "/v1/docs", "", nil, "")
	if csp := r.header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") ||
		!strings.Contains(csp, "frame-ancestors 'none'") || r.header.Get("X-Frame-Options") != "DENY" || r.header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("docs headers: %v", r.header)
	}

	// The password, changed here, ends the other browser's session.
	u.open("/account")
	u.strict("account page")
	u.do("change the password",
		chromedp.SendKeys(chromedp.CSS("#current-password"), "the first long password"),
		chromedp.SendKeys(chromedp.CSS("#new-password"), "the second long password"),
		chromedp.SendKeys(chromedp.CSS("#confirm-password"), "the second long password"),
		navClick(chromedp.CSS("#change-password")))
	if msg := u.text(".alert.notice"); !strings.Contains(msg, "signed out") {
		t.Fatalf("after the change: %q (%s)", msg, u.text("main"))
	}
	u.open("/jobs")
	if loc := u.location(); !strings.HasSuffix(loc, "/jobs") {
		t.Errorf("this browser was signed out by its own change: %s", loc)
	}
	if r := other.get("/jobs"); r.status != 303 || !strings.HasPrefix(r.header.Get("Location"), "/signin") {
		t.Errorf("the other session after the change: %d %s", r.status, r.header.Get("Location"))
	}
	if r := anonymous(t, s).post("/signin", url.Values{"email": {"pat@example.com"}, "password": {"the first long password"}}); r.status != 401 {
		t.Errorf("the old password: %d", r.status)
	}
	signedIn(t, s, "pat@example.com", "the second long password")
}
