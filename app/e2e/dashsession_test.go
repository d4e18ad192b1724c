package e2e

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"testing"
)

// dashSession is one browser-like client of the dashboard: its own
// cookie jar, redirects not followed.
type dashSession struct {
	t *testing.T
	s *server
	c *http.Client
}

// anonymous is a browser-like client with no session yet.
func anonymous(t *testing.T, s *server) *dashSession {
	jar, _ := cookiejar.New(nil)
	return &dashSession{t: t, s: s, c: &http.Client{Jar: jar, Transport: s.client.Transport, CheckRedirect: s.client.CheckRedirect}}
}

// signedIn signs email in over HTTP, as the sign-in form does.
func signedIn(t *testing.T, s *server, email, password string) *dashSession {
	t.Helper()
	d := anonymous(t, s)
	r := d.post("/signin", url.Values{"email": {email}, "password": {password}})
	if r.status != http.StatusSeeOther {
		t.Fatalf("sign in %s: %d %s", email, r.status, r.body)
	}
	return d
}

// get fetches path and returns the answer.
func (d *dashSession) get(path string) response {
	d.t.Helper()
	resp, err := d.c.Get(d.s.url(path))
	if err != nil {
		d.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return response{resp.StatusCode, resp.Header, b}
}

// csrf is the form token of the page at path (the sign-in page's without
// a session).
func (d *dashSession) csrf(path string) string {
	d.t.Helper()
	r := d.get(path)
	m := csrfField.FindSubmatch(r.body)
	if m == nil {
		d.t.Fatalf("no csrf field on %s (%d)", path, r.status)
	}
	return string(m[1])
}

// post sends form to path with the token of the page at path (/signin's
// for /signin).
func (d *dashSession) post(path string, form url.Values) response {
	d.t.Helper()
	page := path
	if path != "/signin" {
		page = "/translate"
	}
	form.Set("csrf", d.csrf(page))
	resp, err := d.c.PostForm(d.s.url(path), form)
	if err != nil {
		d.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return response{resp.StatusCode, resp.Header, b}
}
