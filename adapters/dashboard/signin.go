package dashboard

import (
	"crypto/subtle"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"

	"github.com/dragoman-translate/dragoman/adapters/problem"
	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/service"
)

type signinData struct {
	Next  string
	Email string
}

func (d *Dashboard) signinPage(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(SessionCookie); err == nil {
		if _, err := d.svc.Sessions.Session(r.Context(), c.Value); err == nil {
			http.Redirect(w, r, localPath(r.URL.Query().Get("next")), http.StatusSeeOther)
			return
		}
	}
	p := page{Title: "Sign in", Error: reasons[r.URL.Query().Get("reason")], Data: signinData{Next: r.URL.Query().Get("next")}}
	if r.URL.Query().Get("out") != "" {
		p.Notice = "You have signed out."
	}
	d.renderSignin(w, r, http.StatusOK, p)
}

// renderSignin gives the form a fresh CSRF token, paired with a cookie
// (there is no session yet to hold it).
func (d *Dashboard) renderSignin(w http.ResponseWriter, r *http.Request, status int, p page) {
	tok, err := account.RandomToken(24)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	setCookie(w, signinCookie, tok, time.Now().Add(time.Hour))
	p.CSRF = tok
	d.render(w, r, status, "signin", nil, p)
}

func (d *Dashboard) signin(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	email, pw, next := r.PostFormValue("email"), r.PostFormValue("password"), r.PostFormValue("next")
	data := signinData{Next: next, Email: email}
	c, err := r.Cookie(signinCookie)
	form := r.PostFormValue("csrf")
	if err != nil || form == "" || !sameOrigin(r) || subtle.ConstantTimeCompare([]byte(c.Value), []byte(form)) != 1 {
		d.renderSignin(w, r, http.StatusForbidden, page{Title: "Sign in", Data: data,
			Error: "The sign-in form expired. Please try again."})
		return
	}
	in, err := d.svc.Sessions.SignIn(r.Context(), email, pw, remoteAddr(r))
	if err != nil {
		msg := d.message(err)
		if ra := problem.Of(err).RetryAfter; kindOf(err) == service.KindRateLimited {
			msg = fmt.Sprintf("Too many sign-in attempts. Try again in %d seconds.", ra)
		} else if kindOf(err) == service.KindUnauthenticated {
			msg = "Wrong e-mail address or password."
		}
		d.renderSignin(w, r, d.status(w, err), page{Title: "Sign in", Data: data, Error: msg})
		return
	}
	clearCookie(w, signinCookie)
	setCookie(w, SessionCookie, in.Token, in.Session.ExpiresAt)
	http.Redirect(w, r, localPath(next), http.StatusSeeOther)
}

// home is where a sign-in lands without a usable next.
const home = "/translate"

// localPath keeps a redirect after sign-in on this site: only a path of
// this origin is taken. Browsers drop tabs and line breaks from a URL and
// read a backslash as a slash, so "/\t/evil.example" would become the
// other host's "//evil.example": any control character, space or
// backslash is refused, as is anything with a scheme or a host.
func localPath(p string) string {
	if len(p) < 1 || p[0] != '/' || (len(p) > 1 && p[1] == '/') ||
		strings.ContainsFunc(p, func(r rune) bool { return r == '\\' || unicode.IsControl(r) || unicode.IsSpace(r) }) {
		return home
	}
	u, err := url.Parse(p)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" ||
		!strings.HasPrefix(u.Path, "/") || strings.HasPrefix(u.Path, "//") || strings.HasPrefix(u.Path, "/signin") {
		return home
	}
	return p
}

func (d *Dashboard) signout(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	if c, err := r.Cookie(SessionCookie); err == nil {
		_ = d.svc.Sessions.SignOut(r.Context(), c.Value)
	}
	clearCookie(w, SessionCookie)
	http.Redirect(w, r, "/signin?out=1", http.StatusSeeOther)
}
