package dashboard

import (
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/service"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
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
	Languages  []string // a glossary's languages, by name
	Form       glossaryForm
}

// glossaryForm is the new-glossary form, kept as typed when refused.
type glossaryForm struct {
	Name, Source, Target, Entries string
}

func (d *Dashboard) termsPage(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	p := page{Title: "Terminology", Nav: "terms"}
	terms, err := d.svc.Glossaries.DoNotTranslate(r.Context(), s.Caller)
	if err != nil {
		d.pageError(w, &p, err)
	}
	switch q := r.URL.Query(); {
	case q.Get("saved") != "":
		p.Notice = "Saved: " + strconv.Itoa(len(terms)) + " terms. Jobs in professional mode keep them as written."
	case q.Get("created") != "":
		p.Notice = "The glossary was created: choose it on the Translate page."
	case q.Get("deleted") != "":
		p.Notice = "The glossary was deleted."
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
	td.Languages = d.glossaryLanguages(r)
	if td.Form.Source == "" {
		td.Form.Source, td.Form.Target = "English", "Spanish"
	}
	p.Data = td
	d.render(w, r, status, "terms", s, p)
}

func (d *Dashboard) glossaryViews(r *http.Request, s *service.SessionCaller) ([]glossaryView, error) {
	gs, err := d.svc.Glossaries.ListGlossaries(r.Context(), s.Caller)
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
	if _, err := d.svc.Glossaries.SetDoNotTranslate(r.Context(), s.Caller, terms); err != nil {
		msg := termIndex.ReplaceAllStringFunc(d.message(err), func(m string) string { return lineOf(m, lines) })
		d.renderTerms(w, r, s, d.status(w, err), page{Title: "Terminology", Nav: "terms", Error: msg},
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

// glossaryLanguages is every language the engines translate from or to,
// by name, for the new-glossary form.
func (d *Dashboard) glossaryLanguages(r *http.Request) []string {
	pairs, err := d.svc.Languages.TargetsBySource(r.Context())
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for src, ts := range pairs {
		for _, n := range append([]string{src}, ts...) {
			if n != "auto" && !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	sort.Strings(out)
	return out
}

// createGlossary stores a glossary pasted (or read from a file by the
// page's script) as CSV, TSV or TBX text, through the API's use case: the
// same parser, limits and messages as POST /v1/glossaries.
func (d *Dashboard) createGlossary(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	// The form was parsed (up to net/http's 10 MB) for its CSRF token; the
	// glossary's own 2 MiB limit is the parser's, in its words.
	f := glossaryForm{Name: r.PostFormValue("name"), Source: r.PostFormValue("source_lang"),
		Target: r.PostFormValue("target_lang"), Entries: r.PostFormValue("entries")}
	g, err := d.svc.Glossaries.CreateGlossary(r.Context(), s.Caller, service.GlossaryRequest{
		Name: f.Name, SourceLang: f.Source, TargetLang: f.Target, File: []byte(f.Entries), FromFile: true,
	})
	if err != nil {
		terms, _ := d.svc.Glossaries.DoNotTranslate(r.Context(), s.Caller)
		d.renderTerms(w, r, s, d.status(w, err), page{Title: "Terminology", Nav: "terms", Error: "Glossary: " + d.message(err)},
			termsData{Terms: strings.Join(terms, "\n"), Count: len(terms), Form: f})
		return
	}
	http.Redirect(w, r, "/terms?created="+url.QueryEscape(g.ID), http.StatusSeeOther)
}

func (d *Dashboard) deleteGlossary(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	if err := d.svc.Glossaries.DeleteGlossary(r.Context(), s.Caller, r.PathValue("id")); err != nil {
		d.render(w, r, d.status(w, err), "error", s, page{Title: "Terminology", Nav: "terms", Error: d.message(err)})
		return
	}
	http.Redirect(w, r, "/terms?deleted=1", http.StatusSeeOther)
}
