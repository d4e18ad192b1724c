package dashboard

import (
	"crypto/subtle"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/service"
)

type signinData struct {
	Next  string
	Email string
}

func (d *Dashboard) signinPage(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(SessionCookie); err == nil {
		if _, err := d.svc.Session(r.Context(), c.Value); err == nil {
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
	in, err := d.svc.SignIn(r.Context(), email, pw, remoteAddr(r))
	if err != nil {
		msg := d.message(err)
		if ra := retryAfter(err); ra > 0 {
			w.Header().Set("Retry-After", fmt.Sprint(ra))
			msg = fmt.Sprintf("Too many sign-in attempts. Try again in %d seconds.", ra)
		} else if kindOf(err) == service.KindUnauthenticated {
			msg = "Wrong e-mail address or password."
		}
		d.renderSignin(w, r, statusOf(err), page{Title: "Sign in", Data: data, Error: msg})
		return
	}
	clearCookie(w, signinCookie)
	setCookie(w, SessionCookie, in.Token, in.Session.ExpiresAt)
	http.Redirect(w, r, localPath(next), http.StatusSeeOther)
}

// localPath keeps a redirect on this site.
func localPath(p string) string {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.HasPrefix(p, "/\\") || strings.HasPrefix(p, "/signin") {
		return "/translate"
	}
	return p
}

func (d *Dashboard) signout(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	if c, err := r.Cookie(SessionCookie); err == nil {
		_ = d.svc.SignOut(r.Context(), c.Value)
	}
	clearCookie(w, SessionCookie)
	http.Redirect(w, r, "/signin?out=1", http.StatusSeeOther)
}
