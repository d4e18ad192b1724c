package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// TestDashboardSignInRules checks, below the browser, what a browser does
// not show: the cookie flags, the security headers, CSRF refusals and the
// sign-in throttle with its wait.
func TestDashboardSignInRules(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	acct := s.admin("account", "create", "--plan", "free")["account_id"].(string)
	dashUser(t, s, acct, "dee@example.com", "a long enough password")
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Transport: s.client.Transport, CheckRedirect: s.client.CheckRedirect}

	form := func() string {
		t.Helper()
		resp, err := c.Get(s.url("/signin"))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		m := csrfField.FindSubmatch(b)
		if m == nil {
			t.Fatalf("no csrf field in the sign-in page")
		}
		csp := resp.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") || resp.Header.Get("X-Frame-Options") != "DENY" ||
			resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("Strict-Transport-Security") == "" {
			t.Fatalf("security headers: %v", resp.Header)
		}
		return string(m[1])
	}
	post := func(csrf, pw string) *http.Response {
		t.Helper()
		resp, err := c.PostForm(s.url("/signin"), url.Values{"csrf": {csrf}, "email": {"dee@example.com"}, "password": {pw}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}

	// Without the form's token the sign-in is refused even with the right password.
	form()
	if r := post("forged", "a long enough password"); r.StatusCode != 403 {
		t.Fatalf("forged csrf: %d", r.StatusCode)
	}
	// The right password gives a Secure, HttpOnly, SameSite=Lax session cookie.
	r := post(form(), "a long enough password")
	if r.StatusCode != 303 || r.Header.Get("Location") != "/translate" {
		t.Fatalf("sign-in: %d %s", r.StatusCode, r.Header.Get("Location"))
	}
	var cookie string
	for _, h := range r.Header.Values("Set-Cookie") {
		if strings.HasPrefix(h, "dragoman_session=") {
			cookie = h
		}
	}
	for _, flag := range []string{"Secure", "HttpOnly", "SameSite=Lax"} {
		if !strings.Contains(cookie, flag) {
			t.Errorf("session cookie %q lacks %s", cookie, flag)
		}
	}
	// Signed in, a form without the session's token is refused.
	resp, err := c.PostForm(s.url("/keys"), url.Values{"name": {"no token"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 403 {
		t.Fatalf("POST /keys without csrf: %d", resp.StatusCode)
	}
	// A dashboard request's access line names the signed-in account.
	logged := func() bool {
		for _, l := range strings.Split(s.logs.String(), "\n") {
			if strings.Contains(l, "msg=request") && strings.Contains(l, "route=/keys") && strings.Contains(l, "account_id="+acct) {
				return true
			}
		}
		return false
	}
	for i := 0; !logged(); i++ {
		if i == 50 {
			t.Fatalf("no access line with the dashboard's account %s:\n%s", acct, s.logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	// The webhook form applies the API's SSRF rules (this server does not
	// allow private URLs): an address inside the network is refused with
	// the API's words, and nothing is registered.
	for hook, want := range map[string]string{
		"https://10.1.2.3/hook":       "not public",
		"https://169.254.169.254/x":   "not public",
		"https://localhost:8443/hook": "loopback",
		"http://example.com/hook":     "https only",
	} {
		page, err := c.Get(s.url("/webhooks"))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(page.Body)
		page.Body.Close()
		m := csrfField.FindSubmatch(b)
		if m == nil {
			t.Fatalf("no csrf field on /webhooks: %s", b)
		}
		resp, err := c.PostForm(s.url("/webhooks"), url.Values{"csrf": {string(m[1])}, "url": {hook}, "events": {"job.completed"}})
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 422 || !strings.Contains(string(body), want) || !strings.Contains(string(body), "No webhooks yet") {
			t.Errorf("webhook to %s: %d, want 422 saying %q and nothing registered", hook, resp.StatusCode, want)
		}
	}

	// A document over 50 MB that gets past the page's own check is refused
	// by the server with 413 and the limit in words, as the page shows it.
	page, err := c.Get(s.url("/translate"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(page.Body)
	page.Body.Close()
	m := csrfField.FindSubmatch(b)
	if m == nil {
		t.Fatalf("no csrf field on /translate")
	}
	const boundary = "dragomanbigupload"
	head := "--" + boundary + "\r\nContent-Disposition: form-data; name=\"target_lang\"\r\n\r\nSpanish\r\n" +
		"--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.rtf\"\r\nContent-Type: application/rtf\r\n\r\n{\\rtf1\\ansi "
	body := io.MultiReader(strings.NewReader(head), io.LimitReader(spaces{}, 52<<20), strings.NewReader("\r\n--"+boundary+"--\r\n"))
	req, _ := http.NewRequest("POST", s.url("/translate"), body)
	req.Header.Set("Content-Type", "multipart/form-data; boundary="+boundary)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-CSRF-Token", string(m[1]))
	if resp, err := c.Do(req); err != nil {
		t.Errorf("51 MB upload: %v", err)
	} else {
		msg, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 413 || !strings.Contains(string(msg), "larger than 50 MB") {
			t.Errorf("51 MB upload: %d %s", resp.StatusCode, msg)
		}
	}

	// A script's request (Accept: application/json) with a stale token is
	// refused in JSON its page can show; a form's gets the page.
	for _, accept := range []string{"application/json", "text/html"} {
		req, _ := http.NewRequest("POST", s.url("/webhooks"), strings.NewReader("url=https%3A%2F%2Fexample.com%2Fh"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Accept", accept)
		req.Header.Set("X-CSRF-Token", "stale")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var p struct{ Message string }
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		isJSON := json.Unmarshal(b, &p) == nil
		if resp.StatusCode != 403 || isJSON != (accept == "application/json") || !strings.Contains(string(b), "This form has expired") {
			t.Errorf("stale token, Accept %s: %d %s", accept, resp.StatusCode, b)
		}
	}

	// Over plain HTTP the dashboard redirects to HTTPS like the API.
	plain, err := s.client.Get("http://" + s.http + "/translate")
	if err != nil {
		t.Fatal(err)
	}
	plain.Body.Close()
	if plain.StatusCode != 308 || !strings.HasPrefix(plain.Header.Get("Location"), "https://") {
		t.Fatalf("plain http: %d %s", plain.StatusCode, plain.Header.Get("Location"))
	}

	// Five attempts a minute per address: then every attempt waits, the
	// right password too, and is told how long.
	c.Jar, _ = cookiejar.New(nil) // signed out again
	var last *http.Response
	for i := 0; i < 12; i++ {
		if last = post(form(), "wrong password"); last.StatusCode == 429 {
			break
		}
		if last.StatusCode != 401 {
			t.Fatalf("wrong password: %d", last.StatusCode)
		}
	}
	wait, _ := strconv.Atoi(last.Header.Get("Retry-After"))
	if last.StatusCode != 429 || wait < 1 {
		t.Fatalf("throttled sign-in: %d, Retry-After %q", last.StatusCode, last.Header.Get("Retry-After"))
	}
	if wait > 2 {
		if r := post(form(), "a long enough password"); r.StatusCode != 429 {
			t.Fatalf("right password while throttled: %d", r.StatusCode)
		}
	}
}

// spaces reads as an endless run of spaces.
type spaces struct{}

func (spaces) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}
