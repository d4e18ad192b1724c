package e2e

import (
	"bytes"
	"encoding/json"
	"html"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// glossaryCorpusDoc is a corpus document (see testdata/corpus/PROVENANCE.tsv)
// with terms that occur both as words and inside longer words.
const glossaryCorpusDoc = "../../testdata/corpus/docx/onlyoffice-sample.docx"

// corpusGlossary: targets are made-up words, so that the engines can never
// write them themselves. "document" and "file" also occur inside
// "documents" and "files", which must stay the engine's; "document" alone
// is only ever part of "document editors", the longer term.
var corpusGlossary = []struct{ source, target string }{
	{"document editors", "Editoresdoc"},
	{"document", "Documentox"},
	{"Google Docs", "Gdocsia"},
	{"Google", "Gugelia"},
	{"file", "Fichox"},
	{"time", "Tiempox"},
}

// docxParagraphs is the text of each paragraph of document.xml, in order.
func docxParagraphs(t *testing.T, docx []byte) []string {
	t.Helper()
	xml := docxPart(t, docx, "word/document.xml")
	if xml == nil {
		t.Fatal("no word/document.xml")
	}
	tRe := regexp.MustCompile(`(?s)<w:t(?: [^>]*)?>(.*?)</w:t>`)
	var out []string
	for _, p := range bytes.Split(xml, []byte("</w:p>")) {
		var b strings.Builder
		for _, m := range tRe.FindAllSubmatch(p, -1) {
			b.WriteString(html.UnescapeString(string(m[1])))
		}
		out = append(out, b.String())
	}
	return out
}

// expectedTerms counts, per paragraph of the source, the glossary targets
// a correct enforcement writes: an oracle of its own (ASCII word
// boundaries, longest term first), not the core's matcher.
func expectedTerms(paras []string) []map[string]int {
	out := make([]map[string]int, len(paras))
	for i, p := range paras {
		out[i] = map[string]int{}
		for _, g := range corpusGlossary { // listed longest first where terms overlap
			re := regexp.MustCompile(`\b` + regexp.QuoteMeta(g.source) + `\b`)
			out[i][g.target] += len(re.FindAllStringIndex(p, -1))
			p = re.ReplaceAllString(p, "\x00")
		}
	}
	return out
}

// countWord counts w in s as a whole word (not glued to letters or digits).
func countWord(s, w string) int {
	return len(regexp.MustCompile(`(^|[^\pL\pN])`+regexp.QuoteMeta(w)+`($|[^\pL\pN])`).FindAllStringIndex(s, -1))
}

// A glossary changes the output of the pseudo engine and of Apertium on a
// corpus document exactly where its terms occur: each paragraph carries
// the target terms its source had, never glued inside another word, and
// paragraphs without terms come out as they do without the glossary.
func TestGlossaryOnCorpusDocument(t *testing.T) {
	src, err := os.ReadFile(glossaryCorpusDoc)
	if err != nil {
		t.Fatal(err)
	}
	srcParas := docxParagraphs(t, src)
	want := expectedTerms(srcParas)
	total := 0
	for _, m := range want {
		for _, n := range m {
			total += n
		}
	}
	if total < 8 || want[0]["Documentox"] != 0 {
		t.Fatalf("the oracle found %d terms: %v", total, want)
	}
	for _, engine := range []string{"pseudo", "apertium"} {
		t.Run(engine, func(t *testing.T) {
			s := startServer(t, nil, "DRAGOMAN_ENGINES="+engine)
			_, key, _ := s.account("pro")
			var entries []map[string]string
			for _, g := range corpusGlossary {
				entries = append(entries, map[string]string{"source": g.source, "target": g.target})
			}
			body, _ := json.Marshal(map[string]any{"name": "Sample terms", "source_lang": "English", "target_lang": "Spanish", "entries": entries})
			r := s.do("POST", "/v1/glossaries", key, bytes.NewReader(body), "application/json")
			if r.status != 201 {
				t.Fatalf("create glossary: %d %s", r.status, r.body)
			}
			gid := r.json(t)["glossary_id"].(string)

			translate := func(fields map[string]string) ([]string, map[string]any) {
				t.Helper()
				r := s.uploadFile(key, glossaryCorpusDoc, fields)
				if r.status != 202 {
					t.Fatalf("translate: %d %s", r.status, r.body)
				}
				id := r.json(t)["job_id"].(string)
				j := s.waitJob(key, id, 3*time.Minute)
				if j["status"] != "completed" {
					t.Fatalf("job: %v", j)
				}
				d := s.do("GET", "/v1/jobs/"+id+"/download", key, nil, "")
				if d.status != 200 {
					t.Fatalf("download: %d", d.status)
				}
				return docxParagraphs(t, d.body), j
			}
			fields := map[string]string{"source_lang": "English", "target_lang": "Spanish", "translation_mode": "full"}
			plain, _ := translate(fields)
			fields["glossary_id"] = gid
			withG, j := translate(fields)
			if len(plain) != len(srcParas) || len(withG) != len(srcParas) {
				t.Fatalf("paragraphs: source %d, output %d and %d", len(srcParas), len(plain), len(withG))
			}

			glued := regexp.MustCompile(`[\pL\pN](Editoresdoc|Documentox|Gdocsia|Gugelia|Fichox|Tiempox)|(Editoresdoc|Documentox|Gdocsia|Gugelia|Fichox|Tiempox)[\pL\pN]`)
			applied := 0
			for i, p := range withG {
				terms := 0
				for _, g := range corpusGlossary {
					if got := countWord(p, g.target); got != want[i][g.target] {
						t.Errorf("paragraph %d %q: %d × %q, want %d (source %q)", i, p, got, g.target, want[i][g.target], srcParas[i])
					}
					if strings.Contains(plain[i], g.target) {
						t.Errorf("paragraph %d: %q without the glossary", i, g.target)
					}
					terms += want[i][g.target]
				}
				applied += terms
				if terms > 0 {
					t.Logf("paragraph %d: %q", i, p)
				}
				if glued.MatchString(p) {
					t.Errorf("paragraph %d: a term was placed inside a word: %q", i, p)
				}
				if terms == 0 && p != plain[i] {
					t.Errorf("paragraph %d has no term but changed:\n with    %q\n without %q", i, p, plain[i])
				}
				if terms > 0 && p == plain[i] {
					t.Errorf("paragraph %d has terms but did not change: %q", i, p)
				}
			}
			warn := ""
			for _, w := range j["warnings"].([]any) {
				if s, _ := w.(string); strings.HasPrefix(s, `glossary "Sample terms": `) {
					warn += s
				}
			}
			// The document model holds each text once; document.xml may hold
			// a text box twice (DrawingML and its VML fallback).
			m := regexp.MustCompile(`: (\d+) term occurrence\(s\) applied`).FindStringSubmatch(warn)
			if m == nil {
				t.Fatalf("no glossary report in the warnings %v", j["warnings"])
			}
			t.Logf("%s", warn)
			if n, _ := strconv.Atoi(m[1]); n == 0 || n > applied || strings.Contains(warn, "dropped") {
				t.Errorf("report %q; %d terms in document.xml", warn, applied)
			}
		})
	}
}
