package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tg "github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// tmxSeg writes tagged text as a TMX <seg>'s content: paired codes as
// <bpt>/<ept>, isolated ones as <ph>.
func tmxSeg(s string) string {
	var b strings.Builder
	var open []int
	next := 0
	for _, t := range tg.Tokenize(s) {
		switch t.Kind {
		case tg.Text:
			b.WriteString(html.EscapeString(t.Text))
		case tg.Open:
			next++
			open = append(open, next)
			fmt.Fprintf(&b, `<bpt i="%d" x="%d"/>`, next, t.ID)
		case tg.Close:
			fmt.Fprintf(&b, `<ept i="%d"/>`, open[len(open)-1])
			open = open[:len(open)-1]
		case tg.Place:
			fmt.Fprintf(&b, `<ph x="%d"/>`, t.ID)
		}
	}
	return b.String()
}

var firstOpen = regexp.MustCompile(`<g id="(\d+)">`)

// withCodes puts the source's first paired code where "[" and "]" stand
// in a translation written by hand.
func withCodes(source, memory string) string {
	m := firstOpen.FindStringSubmatch(source)
	if m == nil {
		return tg.Escape(memory)
	}
	r := strings.NewReplacer("[", `<g id="`+m[1]+`">`, "]", "</g>")
	return r.Replace(tg.Escape(memory))
}

// kindTally counts, for one flag kind, the segments it was planted in and
// found in, planted in and missed, and flagged without being planted.
type kindTally struct{ planted, found, missed, clean int }

func (k kindTally) precision() string {
	if k.found+k.clean == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(k.found)/float64(k.found+k.clean))
}

func (k kindTally) recall() string {
	if k.planted == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(k.found)/float64(k.planted))
}

// plantedKinds are the kinds of the table, in the order a person reads
// them (core/review.Kinds).
var plantedKinds = []string{"untranslated", "unknown_words", "numbers", "addresses", "placeholders", "links", "glossary",
	"do_not_translate", "overflow", "pages", "script", "length", "formatting", "route"}

// TestPlantedDefects (issue 28 §4) measures the review on documents with
// defects planted where they are known: for every flag kind, how many
// planted defects it finds (recall) and how many of its flags fall on
// correct sentences (precision). Each document is translated once to
// learn its segments; the account's memory then gets a translation per
// sentence, correct or with its defect, and the document is translated
// again: the memory's sentences as stored, the others by Apertium, every
// one checked as the job's review checks them, the layout documents
// rendered to PDF by LibreOffice. `go test ./app/e2e -run
// TestPlantedDefects -v` prints the README's table.
func TestPlantedDefects(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=apertium")
	_, key, _ := s.account("enterprise")
	g := s.do("POST", "/v1/glossaries", key, strings.NewReader(plantedGlossary), "application/json")
	if g.status != 201 && g.status != 200 {
		t.Fatalf("glossary: %d %s", g.status, g.body)
	}
	gid := g.json(t)["glossary_id"].(string)
	dnt, _ := json.Marshal(map[string]any{"terms": plantedDNT})
	if r := s.do("PUT", "/v1/account/do-not-translate", key, bytes.NewReader(dnt), "application/json"); r.status != 200 {
		t.Fatalf("do-not-translate: %d %s", r.status, r.body)
	}
	docs := plantedDocs()
	run := func(d plantedDoc, pdf bool) (string, map[string]any) {
		f := map[string]string{"source_lang": d.from, "target_lang": d.to}
		if d.to == "Spanish" {
			f["glossary_id"] = gid
		}
		if pdf {
			f["pdf"] = "true"
		}
		r := s.upload(key, d.name, bytes.NewReader(d.docx()), f)
		if r.status != 202 {
			t.Fatalf("%s: %d %s", d.name, r.status, r.body)
		}
		id := r.json(t)["job_id"].(string)
		j := s.waitJob(key, id, 5*time.Minute)
		if j["status"] != "completed" {
			t.Fatalf("%s: %v", d.name, j)
		}
		for _, w := range asList(j["warnings"]) {
			if m, _ := w.(string); internalMessage.MatchString(m) {
				t.Errorf("%s: an internal message among the warnings: %q", d.name, m)
			}
		}
		return id, j
	}

	// The memory: each sentence's translation, by its source as segmented.
	var tmx strings.Builder
	tmx.WriteString(`<?xml version="1.0" encoding="UTF-8"?><tmx version="1.4"><header creationtool="dragoman-test" creationtoolversion="1" segtype="sentence" o-tmf="none" adminlang="en" srclang="*all*" datatype="plaintext"/><body>`)
	langs := map[string][2]string{"Spanish": {"en", "es"}, "Urdu": {"hi", "ur"}}
	_, fillTgt := fillerLines(100)
	for _, d := range docs {
		id, _ := run(d, false)
		list, _ := segmentsOf(t, s, key, id, "?limit=500")
		want := map[string]string{}
		for _, sn := range d.sentences {
			if sn.memory != "" {
				want[plainOf(sn)] = sn.memory
			}
		}
		for i, l := range d.extra {
			want[l] = fillTgt[i]
		}
		for _, sg := range list.Segments {
			mem, ok := want[tg.Plain(sg.Source)]
			if !ok {
				continue
			}
			delete(want, tg.Plain(sg.Source))
			l := langs[d.to]
			fmt.Fprintf(&tmx, `<tu><tuv xml:lang="%s"><seg>%s</seg></tuv><tuv xml:lang="%s"><seg>%s</seg></tuv></tu>`, l[0], tmxSeg(sg.Source), l[1], tmxSeg(withCodes(sg.Source, mem)))
		}
		if len(want) > 0 {
			t.Fatalf("%s: sentences not found as segments: %v", d.name, want)
		}
	}
	tmx.WriteString(`</body></tmx>`)
	if r := s.do("POST", "/v1/memory.tmx", key, strings.NewReader(tmx.String()), "application/x-tmx+xml"); r.status != 200 {
		t.Fatalf("memory import: %d %s", r.status, r.body)
	}

	tally := map[string]*kindTally{}
	for _, k := range plantedKinds {
		tally[k] = &kindTally{}
	}
	segments := 0
	for _, d := range docs {
		id, j := run(d, d.pdf)
		list, _ := segmentsOf(t, s, key, id, "?limit=500")
		planted := map[string][]string{}
		limit := map[string]bool{}
		for _, sn := range d.sentences {
			planted[plainOf(sn)] = sn.kinds
			limit[plainOf(sn)] = sn.limit
		}
		for _, sg := range list.Segments {
			segments++
			want := planted[tg.Plain(sg.Source)]
			var got []string
			for _, f := range sg.Flags {
				got = append(got, f.Kind)
			}
			for _, k := range plantedKinds {
				switch p, f := slices.Contains(want, k), slices.Contains(got, k); {
				case p && f:
					tally[k].planted++
					tally[k].found++
				case p:
					tally[k].planted++
					tally[k].missed++
					if !limit[tg.Plain(sg.Source)] {
						t.Errorf("%s: the %s planted in %q was not found (flags %v, target %q)", d.name, k, sg.Source, got, sg.Target)
					}
				case f:
					tally[k].clean++
					t.Errorf("%s: a %s flag on a correct sentence %q → %q", d.name, k, sg.Source, sg.Target)
				}
			}
		}
		// Pages: a flag about the document.
		grew := false
		if rv, _ := j["review"].(map[string]any); rv != nil {
			for _, f := range asList(rv["document"]) {
				grew = grew || f.(map[string]any)["kind"] == "pages"
			}
		}
		switch {
		case d.pages && grew:
			tally["pages"].planted++
			tally["pages"].found++
		case d.pages:
			tally["pages"].planted++
			tally["pages"].missed++
			t.Errorf("%s: the page it grew was not found: %v", d.name, j["review"])
		case grew:
			tally["pages"].clean++
			t.Errorf("%s: a pages flag on a document that did not grow", d.name)
		}
	}

	var b strings.Builder
	fmt.Fprintf(&b, "| flag kind | planted | found | missed | flags on correct sentences | precision | recall |\n|---|---:|---:|---:|---:|---:|---:|\n")
	for _, k := range plantedKinds {
		c := tally[k]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %s | %s |\n", k, c.planted, c.found, c.missed, c.clean, c.precision(), c.recall())
		if c.planted == 0 {
			t.Errorf("no %s defect was planted", k)
		}
	}
	t.Logf("%d segments in %d documents (pages: per document)\n%s", segments, len(docs), b.String())
}

// plainOf is a sentence's source as plain text.
func plainOf(s sentence) string { return s.text }

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}
