package dashboard

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/language"
	"github.com/dragoman-translate/dragoman/core/service"
)

// ---- terminology: the do-not-translate list and the glossaries ----

type glossaryView struct {
	*glossary.Glossary
	Source, Target string // language names: glossaries store codes
}

type termsData struct {
	Terms      string // the list, one term a line, as it is or as typed
	Count      int
	Max        int
	MaxChars   int
	Glossaries []glossaryView
	GlossError string
}

func (d *Dashboard) termsPage(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	p := page{Title: "Terminology", Nav: "terms"}
	terms, err := d.svc.DoNotTranslate(r.Context(), s.Caller)
	if err != nil {
		p.Error = d.message(err)
	}
	if r.URL.Query().Get("saved") != "" {
		p.Notice = "Saved: " + strconv.Itoa(len(terms)) + " terms. Jobs in professional mode keep them as written."
	}
	d.renderTerms(w, r, s, http.StatusOK, p, termsData{Terms: strings.Join(terms, "\n"), Count: len(terms)})
}

func (d *Dashboard) renderTerms(w http.ResponseWriter, r *http.Request, s *service.SessionCaller, status int, p page, td termsData) {
	td.Max, td.MaxChars = service.MaxDoNotTranslate, service.MaxDoNotTranslateChars
	gs, err := d.glossaryViews(r, s)
	if err != nil {
		td.GlossError = sentence(d.message(err))
	}
	td.Glossaries = gs
	p.Data = td
	d.render(w, r, status, "terms", s, p)
}

func (d *Dashboard) glossaryViews(r *http.Request, s *service.SessionCaller) ([]glossaryView, error) {
	gs, err := d.svc.ListGlossaries(r.Context(), s.Caller)
	if err != nil {
		return nil, err
	}
	out := make([]glossaryView, 0, len(gs))
	for _, g := range gs {
		out = append(out, glossaryView{Glossary: g, Source: language.NameOf(g.SourceLang), Target: language.NameOf(g.TargetLang)})
	}
	return out, nil
}

// saveTerms replaces the do-not-translate list with the textarea's lines
// through the API's use case, so limits and messages are the API's; blank
// lines are skipped, and the API's "terms[i]" becomes the line it came from.
func (d *Dashboard) saveTerms(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
	text := r.PostFormValue("terms")
	var terms []string
	var lines []int // terms[i] came from line lines[i]
	for i, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		terms = append(terms, l)
		lines = append(lines, i+1)
	}
	if _, err := d.svc.SetDoNotTranslate(r.Context(), s.Caller, terms); err != nil {
		msg := termIndex.ReplaceAllStringFunc(d.message(err), func(m string) string { return lineOf(m, lines) })
		d.renderTerms(w, r, s, statusOf(err), page{Title: "Terminology", Nav: "terms", Error: msg},
			termsData{Terms: text, Count: len(terms)})
		return
	}
	http.Redirect(w, r, "/terms?saved=1", http.StatusSeeOther)
}

var termIndex = regexp.MustCompile(`terms\[(\d+)\]`)

// lineOf turns one "terms[i]" into "line N", N the line terms[i] came from.
func lineOf(m string, lines []int) string {
	i, _ := strconv.Atoi(termIndex.FindStringSubmatch(m)[1])
	if i < len(lines) {
		return "line " + strconv.Itoa(lines[i])
	}
	return m
}
