// Package dashboard serves the account dashboard at / beside the API:
// server-rendered html/template pages, a little plain JavaScript and CSS,
// every asset embedded so it works offline. It signs people in with a
// password and a database session, and calls the same core use cases as
// the API (core/service), so quota, keys and webhooks have one
// implementation.
package dashboard

import (
	"context"
	"crypto/subtle"
	"embed"
	"errors"
	"html/template"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/httpapi"
	"github.com/dragoman-translate/dragoman/adapters/problem"
	"github.com/dragoman-translate/dragoman/core/failure"
	"github.com/dragoman-translate/dragoman/core/service"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Cookie names. The session cookie is Secure, HttpOnly and SameSite=Lax;
// the pre-session one carries the sign-in form's CSRF token.
const (
	SessionCookie = "dragoman_session"
	signinCookie  = "dragoman_signin"
)

// Dashboard is the browser face of the service.
type Dashboard struct {
	svc   service.UseCases
	log   *slog.Logger
	pages map[string]*template.Template
	mux   *http.ServeMux
}

// New builds the dashboard and its routes.
func New(svc service.UseCases, log *slog.Logger) *Dashboard {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	d := &Dashboard{svc: svc, log: log, pages: parsePages(), mux: http.NewServeMux()}
	static, _ := fs.Sub(staticFS, "static")
	files := http.FileServerFS(static)
	d.mux.Handle("GET /static/", http.StripPrefix("/static/", cacheFor(time.Hour, files)))
	d.mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/static/favicon.svg", http.StatusMovedPermanently)
	})

	d.mux.HandleFunc("GET /signin", d.signinPage)
	d.mux.HandleFunc("POST /signin", d.signin)
	d.mux.HandleFunc("POST /signout", d.authed(d.signout))
	d.mux.HandleFunc("GET /{$}", d.authed(func(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
		http.Redirect(w, r, "/translate", http.StatusSeeOther)
	}))
	d.mux.HandleFunc("GET /translate", d.authed(d.translatePage))
	d.mux.HandleFunc("POST /translate", d.authed(d.translate))
	d.mux.HandleFunc("GET /languages.json", d.authed(d.languages))
	d.mux.HandleFunc("POST /detect", d.authed(d.detect))
	d.mux.HandleFunc("GET /jobs", d.authed(d.jobsPage))
	d.mux.HandleFunc("GET /jobs/rows", d.authed(d.jobRows))
	d.mux.HandleFunc("GET /jobs/{id}/download", d.authed(d.download))
	d.mux.HandleFunc("POST /jobs/{id}/confirm", d.authed(d.confirmJob))
	d.mux.HandleFunc("POST /jobs/{id}/cancel", d.authed(d.cancelJob))
	d.mux.HandleFunc("GET /jobs/{id}/preview", d.authed(d.previewPage))
	d.mux.HandleFunc("GET /jobs/{id}/review", d.authed(d.reviewPage))
	d.mux.HandleFunc("PATCH /jobs/{id}/segments/{sid}", d.authed(d.editSegment))
	d.mux.HandleFunc("GET /jobs/{id}/preview/{side}", d.authed(d.previewPages))
	d.mux.HandleFunc("GET /jobs/{id}/preview/{side}/{n}", d.authed(d.previewImage))
	d.mux.HandleFunc("GET /keys", d.authed(d.keysPage))
	d.mux.HandleFunc("POST /keys", d.authed(d.createKey))
	d.mux.HandleFunc("POST /keys/{id}/revoke", d.authed(d.revokeKey))
	d.mux.HandleFunc("GET /webhooks", d.authed(d.webhooksPage))
	d.mux.HandleFunc("POST /webhooks", d.authed(d.createWebhook))
	d.mux.HandleFunc("GET /webhooks/{id}", d.authed(d.webhookPage))
	d.mux.HandleFunc("POST /webhooks/{id}/test", d.authed(d.testWebhook))
	d.mux.HandleFunc("POST /webhooks/{id}/active", d.authed(d.setWebhookActive))
	d.mux.HandleFunc("POST /webhooks/{id}/delete", d.authed(d.deleteWebhook))
	d.mux.HandleFunc("GET /terms", d.authed(d.termsPage))
	d.mux.HandleFunc("POST /terms/do-not-translate", d.authed(d.saveTerms))
	d.mux.HandleFunc("POST /terms/glossaries", d.authed(d.createGlossary))
	d.mux.HandleFunc("POST /terms/glossaries/{id}/delete", d.authed(d.deleteGlossary))
	d.mux.HandleFunc("GET /usage", d.authed(d.usagePage))
	d.mux.HandleFunc("GET /account", d.authed(d.accountPage))
	d.mux.HandleFunc("POST /account/password", d.authed(d.changePassword))
	d.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		d.render(w, r, http.StatusNotFound, "error", nil, page{Title: "Not found", Error: "There is no page at this address."})
	})
	return d
}

// Handler serves the dashboard with its security headers.
func (d *Dashboard) Handler() http.Handler { return securityHeaders(d.mux) }

// csp allows nothing but the dashboard's own files: no inline script or
// style, no framing, forms post only here.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
		h.Set("Strict-Transport-Security", "max-age=63072000")
		if !strings.HasPrefix(r.URL.Path, "/static/") {
			h.Set("Cache-Control", "no-store")
		}
		next.ServeHTTP(w, r)
	})
}

func cacheFor(d time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age="+strconv.Itoa(int(d.Seconds())))
		next.ServeHTTP(w, r)
	})
}

type authedHandler func(w http.ResponseWriter, r *http.Request, s *service.SessionCaller)

// authed resolves the session cookie; every unsafe method must also carry
// the session's CSRF token (form field csrf or header X-CSRF-Token) and,
// when the browser sends one, a same-origin Origin.
func (d *Dashboard) authed(h authedHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var tok string
		if c, err := r.Cookie(SessionCookie); err == nil {
			tok = c.Value
		}
		s, err := d.svc.Sessions.Session(r.Context(), tok)
		if err != nil {
			if kindOf(err) == service.KindUnauthenticated || kindOf(err) == service.KindForbidden {
				if tok != "" {
					clearCookie(w, SessionCookie)
				}
				if wantsJSON(r) || r.Method != http.MethodGet {
					d.writeJSONError(w, err)
					return
				}
				q := url.Values{"next": {r.URL.RequestURI()}}
				if reason := reasonOf(err); reason != "" {
					q.Set("reason", reason)
				}
				http.Redirect(w, r, "/signin?"+q.Encode(), http.StatusSeeOther)
				return
			}
			d.fail(w, r, err)
			return
		}
		httpapi.NoteAccount(r.Context(), s.Account.ID)
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			if !sameOrigin(r) || !validCSRF(r, s.Session.CSRF) {
				const expired = "This form has expired or did not come from this dashboard. Reload the page and try again."
				if wantsJSON(r) { // a script's request (review.js) shows the message
					d.writeJSONError(w, &service.Error{Kind: service.KindForbidden, Message: expired})
					return
				}
				d.render(w, r, http.StatusForbidden, "error", s, page{Title: "Form expired", Error: expired})
				return
			}
		}
		h(w, r, s)
	}
}

func validCSRF(r *http.Request, want string) bool {
	got := r.Header.Get("X-CSRF-Token")
	// A multipart body is streamed by its handler: never parse it here.
	if got == "" && !strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/") {
		got = r.PostFormValue("csrf")
	}
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// sameOrigin refuses a request whose Origin names another site.
func sameOrigin(r *http.Request) bool {
	o := r.Header.Get("Origin")
	if o == "" || o == "null" {
		return o == ""
	}
	u, err := url.Parse(o)
	return err == nil && strings.EqualFold(u.Host, r.Host)
}

func wantsJSON(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "application/json")
}

func setCookie(w http.ResponseWriter, name, value string, expires time.Time) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: value, Path: "/", Expires: expires,
		Secure: true, HttpOnly: true, SameSite: http.SameSiteLaxMode})
}

func clearCookie(w http.ResponseWriter, name string) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: "", Path: "/", MaxAge: -1,
		Secure: true, HttpOnly: true, SameSite: http.SameSiteLaxMode})
}

// remoteAddr is the client's address for sign-in throttling.
func remoteAddr(r *http.Request) string {
	h, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return h
}

// status is the HTTP status of err, as the API answers it (problem.Of),
// with its Retry-After header set on w: a page refused while the database
// or the document store is down says when to come back, as the API does.
func (d *Dashboard) status(w http.ResponseWriter, err error) int {
	p := problem.Of(err)
	if p.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(p.RetryAfter))
	}
	return p.Status
}

// message is what a person reads for err: the API's detail (problem.Of)
// in a page's words. What the person is not told is logged.
func (d *Dashboard) message(err error) string {
	p := problem.Of(err)
	switch {
	case p.Status == http.StatusServiceUnavailable:
		d.log.Warn("dashboard request refused: a dependency is unavailable", "err", failure.Raw(err))
	case p.Status != http.StatusInternalServerError:
	case errors.Is(err, context.Canceled):
		return "the request was cancelled"
	default:
		d.log.Error("dashboard request failed", "err", failure.Raw(err))
		return "Something went wrong on our side. Try again in a moment."
	}
	return p.Detail
}

func (d *Dashboard) fail(w http.ResponseWriter, r *http.Request, err error) {
	if wantsJSON(r) {
		d.writeJSONError(w, err)
		return
	}
	d.render(w, r, d.status(w, err), "error", nil, page{Title: "Error", Error: d.message(err)})
}

// Why a session ended, as a fixed code in the sign-in URL: the page shows
// its own text, never text from the address, so a link cannot put words
// in the dashboard's mouth.
var reasons = map[string]string{
	"expired":   "Your session expired: sign in again.",
	"disabled":  "This user has been disabled: ask your account's administrator.",
	"suspended": "This account is suspended: contact support to restore it.",
}

func reasonOf(err error) string {
	m := err.Error()
	for code := range reasons {
		if strings.Contains(m, code) {
			return code
		}
	}
	return ""
}

// kindOf is the kind of a core error, 0 for an internal one.
func kindOf(err error) service.Kind {
	var se *service.Error
	if errors.As(err, &se) {
		return se.Kind
	}
	return 0
}
