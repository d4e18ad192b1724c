package dashboard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/review"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/core/service"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// reviewPageSize is how many sentences the Review page shows at a time.
const reviewPageSize = 100

// reviewView is what the Review page shows: the job, its review, the
// filter in use and a page of its sentences, flagged ones first.
type reviewView struct {
	Job              *job.Job
	Summary          string
	Kinds            []kindCount // the kinds found, with their sentences
	Document         []review.Flag
	Kind             string // the kind filtered on, "" for any
	ToCheck          bool
	Matching         int
	Rows             []reviewRow
	Next             string // the address of the next page, "" on the last
	Source, Target   language.Language
	SrcDir, TgtDir   string
	Structure, Route string
}

type kindCount struct {
	Kind  string
	Label string
	N     int
	Href  string
}

// reviewRow is one sentence of the page.
type reviewRow struct {
	service.SegmentView
	SourceHTML, TargetHTML template.HTML
	Job                    string
	SrcDir, TgtDir         string
	SrcLang, TgtLang       string
	Severity               string // the highest of its flags, "" for none
}

// kindLabels name the kinds on the page's filters.
var kindLabels = map[review.Kind]string{
	review.Untranslated: "Untranslated", review.UnknownWords: "Unknown words", review.Numbers: "Numbers and dates",
	review.Addresses: "Web and e-mail addresses", review.Placeholders: "Placeholders", review.Links: "Links",
	review.Glossary: "Glossary", review.DoNotTranslate: "Do-not-translate terms", review.Overflow: "Text that does not fit",
	review.Pages: "Pages", review.Script: "Wrong script", review.Length: "Length", review.Formatting: "Formatting",
	review.Route: "Translated through another language",
}

func dir(l language.Language) string {
	if l.Dir == language.RTL {
		return "rtl"
	}
	return "ltr"
}

// reviewPage shows a completed job's sentences to check, the most likely
// to need a correction first, for a person to read and correct.
func (d *Dashboard) reviewPage(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	q := r.URL.Query()
	f := service.SegmentFilter{Order: service.OrderScore, Cursor: q.Get("cursor"), Limit: reviewPageSize, ToCheck: q.Get("to_check") == "1"}
	if k := q.Get("kind"); k != "" {
		f.Kinds = []review.Kind{review.Kind(k)}
	}
	id := r.PathValue("id")
	page, err := d.svc.Documents.Segments(r.Context(), s.Caller, id, f)
	if err != nil {
		d.render(w, r, d.status(w, err), "error", s, pageOf("Review", err, d))
		return
	}
	d.render(w, r, http.StatusOK, "review", s, pageWith("Review", d.reviewView(page, q.Get("kind"), f.ToCheck)))
}

func pageOf(title string, err error, d *Dashboard) page {
	return page{Title: title, Nav: "jobs", Error: d.message(err)}
}

func pageWith(title string, data any) page {
	return page{Title: title, Nav: "jobs", Data: data, Script: "review.js"}
}

func (d *Dashboard) reviewView(page *service.SegmentPage, kind string, toCheck bool) reviewView {
	j := page.Job
	src, _ := language.ByCode(j.DetectedLang)
	tgt, _ := language.ByCode(j.TargetLang)
	v := reviewView{Job: j, Kind: kind, ToCheck: toCheck, Matching: page.Matching, Source: src, Target: tgt,
		SrcDir: dir(src), TgtDir: dir(tgt), Route: routeText(j.Route)}
	v.Structure, _ = structureParts(j.Structure)
	base := "/jobs/" + j.ID + "/review"
	if sum := j.Review; sum != nil {
		v.Summary, v.Document = sum.Text(), sum.Document
		for _, k := range review.Kinds {
			if n := sum.ByKind[k]; n > 0 {
				v.Kinds = append(v.Kinds, kindCount{Kind: string(k), Label: kindLabels[k], N: n, Href: base + "?kind=" + string(k)})
			}
		}
	}
	for _, sv := range page.Segments {
		v.Rows = append(v.Rows, rowOf(j.ID, sv, src, tgt))
	}
	if page.NextCursor != "" {
		nq := url.Values{"cursor": {page.NextCursor}}
		if kind != "" {
			nq.Set("kind", kind)
		}
		if toCheck {
			nq.Set("to_check", "1")
		}
		v.Next = base + "?" + nq.Encode()
	}
	return v
}

func rowOf(jobID string, sv service.SegmentView, src, tgt language.Language) reviewRow {
	row := reviewRow{SegmentView: sv, Job: jobID, SrcDir: dir(src), TgtDir: dir(tgt), SrcLang: src.Code, TgtLang: tgt.Code,
		SourceHTML: chips(sv.Source, sv.Codes), TargetHTML: chips(sv.Target, sv.Codes)}
	for _, f := range sv.Flags {
		if rank[f.Severity] > rank[review.Severity(row.Severity)] {
			row.Severity = string(f.Severity)
		}
	}
	return row
}

var rank = map[review.Severity]int{review.Low: 1, review.Medium: 2, review.High: 3}

// codeNames say what a chip stands for, to a screen reader and in its
// tooltip.
var codeNames = map[string]string{"fmt": "formatting", "link": "link", "fn": "footnote reference", "en": "endnote reference",
	"tab": "tab", "br": "line break", "image": "image", "field": "field", "bookmark": "bookmark", "comment": "comment mark",
	"sym": "symbol", "ins": "tracked insertion", "sdt": "content control", "ruby": "phonetic guide", "dir": "direction", "tag": "smart tag"}

// chips renders tagged text for the page: the text escaped, each inline
// code a chip that cannot be edited into (contenteditable="false"), which
// carries its tag for the editor to write back. A chip takes its side's
// direction, so its angle (mirrored in right-to-left text) points at the
// words it opens or closes.
func chips(s string, codes []segment.Code) template.HTML {
	types := map[int]string{}
	for _, c := range codes {
		types[c.ID] = c.Type
	}
	name := func(id int) string {
		if n := codeNames[types[id]]; n != "" {
			return n
		}
		return "formatting"
	}
	var b strings.Builder
	var open []int
	chip := func(tag, label, text, class string) {
		fmt.Fprintf(&b, `<span class="chip %s" contenteditable="false" role="img" data-tag="%s" aria-label="%s" title="%s">%s</span>`,
			class, template.HTMLEscapeString(tag), label, label, text)
	}
	for _, t := range tagged.Tokenize(s) {
		switch t.Kind {
		case tagged.Text:
			b.WriteString(template.HTMLEscapeString(t.Text))
		case tagged.Open:
			open = append(open, t.ID)
			chip(fmt.Sprintf(`<g id="%d">`, t.ID), name(t.ID)+" "+strconv.Itoa(t.ID)+" begins", strconv.Itoa(t.ID)+"⟩", "open "+types[t.ID])
		case tagged.Close:
			id := open[len(open)-1]
			open = open[:len(open)-1]
			chip("</g>", name(id)+" "+strconv.Itoa(id)+" ends", "⟨"+strconv.Itoa(id), "close "+types[id])
		case tagged.Place:
			chip(fmt.Sprintf(`<x id="%d"/>`, t.ID), name(t.ID)+" "+strconv.Itoa(t.ID), "◆"+strconv.Itoa(t.ID), "place "+types[t.ID])
		}
	}
	return template.HTML(b.String())
}

// editAnswer is what the page's script gets back from an edit.
type editAnswer struct {
	Revision int    `json:"revision"`
	Summary  string `json:"summary"`
	Row      string `json:"row"` // the sentence's row, rendered again
}

// editSegment saves a sentence a person corrected on the Review page, as
// PATCH /v1/jobs/{job_id}/segments/{segment_id} does.
func (d *Dashboard) editSegment(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	var body struct {
		Target string `json:"target"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&body); err != nil {
		d.writeJSONError(w, &service.Error{Kind: service.KindUnprocessable, Message: "the edit is not JSON with a target"})
		return
	}
	var base *int
	if h := strings.Trim(strings.TrimPrefix(r.Header.Get("If-Match"), "W/"), `"`); h != "" {
		n, err := strconv.Atoi(h)
		if err != nil {
			d.writeJSONError(w, &service.Error{Kind: service.KindStale, Message: "the page's revision is unreadable: reload it"})
			return
		}
		base = &n
	}
	j, sv, err := d.svc.Documents.EditSegment(r.Context(), s.Caller, r.PathValue("id"), r.PathValue("sid"), body.Target, base)
	if err != nil {
		d.writeJSONError(w, err)
		return
	}
	src, _ := language.ByCode(j.DetectedLang)
	tgt, _ := language.ByCode(j.TargetLang)
	var row bytes.Buffer
	if err := d.pages["review"].ExecuteTemplate(&row, "row", rowOf(j.ID, *sv, src, tgt)); err != nil {
		d.writeJSONError(w, err)
		return
	}
	w.Header().Set("ETag", strconv.Quote(strconv.Itoa(j.Revision)))
	writeJSON(w, http.StatusOK, editAnswer{Revision: j.Revision, Summary: j.Review.Text(), Row: row.String()})
}
