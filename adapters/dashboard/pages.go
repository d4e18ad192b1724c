package dashboard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dragoman-translate/dragoman/adapters/problem"
	"github.com/dragoman-translate/dragoman/core/service"
)

// page is what every template gets.
type page struct {
	Title   string
	Nav     string // the menu entry to highlight
	Email   string
	Account string
	Plan    string
	CSRF    string
	Error   string
	Notice  string
	Data    any
	Script  string // a script of the page's own, beside dashboard.js

	status int // of the failure in Error, when the page could not show all it should (pageError)
}

var pageNames = []string{"signin", "error", "translate", "jobs", "keys", "webhooks", "webhook", "usage", "preview", "terms", "account", "review"}

var funcs = template.FuncMap{
	"when": func(t time.Time) string {
		if t.IsZero() {
			return "—"
		}
		return t.UTC().Format("2 Jan 2006, 15:04 UTC")
	},
	"whenp": func(t *time.Time) string {
		if t == nil {
			return "never"
		}
		return t.UTC().Format("2 Jan 2006, 15:04 UTC")
	},
	"iso": func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"ms": func(d time.Duration) string {
		if d > 0 && d < time.Millisecond {
			return "<1 ms"
		}
		return fmt.Sprintf("%d ms", d.Milliseconds())
	},
	"sentence": func(s string) string { return sentence(s) },
	// breakable lets a long file name wrap between its words.
	"breakable": breakable,
	// failure is a job's error in a person's words.
	"failure": func(s string) string { return sentence(peoplesWords(s)) },
	"num": func(n any) string {
		s := fmt.Sprint(n)
		if len(s) <= 3 || strings.HasPrefix(s, "-") {
			return s
		}
		var b strings.Builder
		for i, c := range s {
			if i > 0 && (len(s)-i)%3 == 0 {
				b.WriteByte(',')
			}
			b.WriteRune(c)
		}
		return b.String()
	},
	"hasPrefix": strings.HasPrefix,
	"has": func(list []string, s string) bool {
		for _, v := range list {
			if v == s {
				return true
			}
		}
		return false
	},
}

func parsePages() map[string]*template.Template {
	out := map[string]*template.Template{}
	for _, n := range pageNames {
		out[n] = template.Must(template.New(n).Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/"+n+".html"))
	}
	return out
}

// render writes a whole page; s may be nil (signed out).
func (d *Dashboard) render(w http.ResponseWriter, r *http.Request, status int, name string, s *service.SessionCaller, p page) {
	if s != nil {
		p.Email, p.CSRF = s.User.Email, s.Session.CSRF
		p.Account, p.Plan = s.Account.Name, s.Account.Limits().Name
	}
	if status < 400 && p.status >= 400 {
		status = p.status
	}
	p.Error = sentence(peoplesWords(p.Error))
	var buf bytes.Buffer
	if err := d.pages[name].ExecuteTemplate(&buf, "layout", p); err != nil {
		d.log.Error("render page", "page", name, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// pageError notes on p the first failure of what it shows: its message,
// and its status (with Retry-After) for the page, so a page the database
// or the document store could not fill answers 503 as the API would, not
// 200 with a notice.
func (d *Dashboard) pageError(w http.ResponseWriter, p *page, err error) {
	if p.Error != "" {
		return
	}
	p.Error, p.status = d.message(err), d.status(w, err)
}

// fragment writes one named template of a page (live updates).
func (d *Dashboard) fragment(w http.ResponseWriter, name, tmpl string, data any) {
	var buf bytes.Buffer
	if err := d.pages[name].ExecuteTemplate(&buf, tmpl, data); err != nil {
		d.log.Error("render fragment", "page", name, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(buf.Bytes())
}

// writeJSONError answers a script's request with the API's error body:
// an RFC 9457 problem (message and retry_after as extension members).
func (d *Dashboard) writeJSONError(w http.ResponseWriter, err error) {
	p := problem.Of(err)
	msg := peoplesWords(d.message(err))
	p.Detail, p.Message = msg, msg
	problem.Write(w, nil, p)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// sentence starts a core message (written lower-case for the API) with a
// capital and ends it with a full stop, for a page.
func sentence(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "!") && !strings.HasSuffix(s, "?") {
		s += "."
	}
	return s
}
