package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
	"github.com/dragoman-translate/dragoman/adapters/rtl/rtltest"
)

// checkerScript is the project's copy of the brief's RTL checker.
const checkerScript = "../../testdata/rtl/checker/check_rtl.py"

// rtlCheck runs the checker with its render check (LibreOffice, pdftotext)
// and returns its failures.
func rtlCheck(t *testing.T, docx, target string) []string {
	t.Helper()
	cmd := exec.Command(rtltest.PythonWithLXML(t), checkerScript, docx, target, "--render")
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir()) // soffice's profile of its own
	out, _ := cmd.CombinedOutput()
	m := regexp.MustCompile(`(?m)^(\d+) passed, (\d+) failed`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("check_rtl.py gave no verdict:\n%s", out)
	}
	var fails []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "FAIL") {
			fails = append(fails, l)
		}
	}
	if string(m[2]) != "0" && len(fails) == 0 {
		fails = append(fails, string(out))
	}
	t.Logf("check_rtl.py %s %s: %s passed, %s failed", filepath.Base(docx), target, m[1], m[2])
	return fails
}

// columns counts, in each column of the bilingual table, the paragraphs
// with text whose effective direction (direct w:bidi, else the style
// chain, else the document defaults: as Word and the checker resolve it)
// is right to left, and the others; text is each column's text.
type columns struct {
	rtl, ltr [2]int
	text     [2]strings.Builder
}

func columnsOf(t *testing.T, docx []byte) columns {
	t.Helper()
	doc, err := ooxml.Parse(docxPart(t, docx, "word/document.xml"))
	if err != nil {
		t.Fatal(err)
	}
	stylesXML := docxPart(t, docx, "word/styles.xml")
	if stylesXML == nil {
		stylesXML = []byte("<w:styles xmlns:w=\"" + ooxml.NSW + "\"/>")
	}
	styles, err := ooxml.Parse(stylesXML)
	if err != nil {
		t.Fatal(err)
	}
	type style struct {
		bidi    *bool
		basedOn string
	}
	byID := map[string]style{}
	var defaultBidi bool
	defaultPara := ""
	flag := func(ppr *ooxml.Node) *bool {
		if ppr == nil || ppr.Child("bidi") == nil {
			return nil
		}
		on := ooxml.On(ppr.Child("bidi"))
		return &on
	}
	root := styles.RootElem()
	if dd := root.Child("docDefaults"); dd != nil && dd.Child("pPrDefault") != nil {
		if b := flag(dd.Child("pPrDefault").Child("pPr")); b != nil {
			defaultBidi = *b
		}
	}
	for _, st := range root.ChildrenW("style") {
		s := style{bidi: flag(st.Child("pPr"))}
		if b := st.Child("basedOn"); b != nil {
			s.basedOn = b.AttrOr("val", "")
		}
		byID[st.AttrOr("styleId", "")] = s
		if d := st.AttrOr("default", ""); st.AttrOr("type", "") == "paragraph" && (d == "1" || d == "true") {
			defaultPara = st.AttrOr("styleId", "")
		}
	}
	var styleBidi func(id string, depth int) *bool
	styleBidi = func(id string, depth int) *bool {
		s, ok := byID[id]
		if !ok || depth > 20 {
			return nil
		}
		if s.bidi != nil {
			return s.bidi
		}
		return styleBidi(s.basedOn, depth+1)
	}
	rtl := func(p *ooxml.Node) bool {
		ppr := p.Child("pPr")
		if b := flag(ppr); b != nil {
			return *b
		}
		id := defaultPara
		if ppr != nil && ppr.Child("pStyle") != nil {
			id = ppr.Child("pStyle").AttrOr("val", "")
		}
		if b := styleBidi(id, 0); b != nil {
			return *b
		}
		return defaultBidi
	}
	var c columns
	body := doc.RootElem().Child("body")
	for _, tbl := range body.ChildrenW("tbl") {
		for _, tr := range tbl.ChildrenW("tr") {
			for i, tc := range tr.ChildrenW("tc") {
				for _, p := range tc.FindAllW("p") {
					var text strings.Builder
					for _, tx := range p.FindAllW("t") {
						text.WriteString(tx.TextOf())
					}
					if strings.TrimSpace(text.String()) == "" {
						continue
					}
					c.text[i].WriteString(text.String() + "\n")
					if rtl(p) {
						c.rtl[i]++
					} else {
						c.ltr[i]++
					}
				}
			}
		}
	}
	return c
}

// A bilingual document through the real server, English to Arabic and
// back: the translation column right to left and passing the RTL checker
// with its render check, the source column keeping its own direction;
// bilingual_url on the job, ?format=bilingual under the download rules.
func TestBilingualBothDirections(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	_, key, _ := s.account("pro")
	dir := t.TempDir()

	run := func(in, from, to string) (job map[string]any, bilingual, target []byte) {
		r := s.uploadFile(key, in, map[string]string{"target_lang": to, "source_lang": from, "bilingual": "true"})
		if r.status != 202 {
			t.Fatalf("%s→%s: %d %s", from, to, r.status, r.body)
		}
		id := r.json(t)["job_id"].(string)
		job = s.waitJob(key, id, 3*time.Minute)
		if job["status"] != "completed" || job["bilingual_url"] != "/v1/jobs/"+id+"/download?format=bilingual" {
			t.Fatalf("%s→%s job: %v", from, to, job)
		}
		d := s.getPatiently("/v1/jobs/"+id+"/download?format=bilingual", key)
		if d.status != 200 || !strings.Contains(d.header.Get("Content-Disposition"), ".bilingual.docx") {
			t.Fatalf("bilingual download: %d %v", d.status, d.header)
		}
		o := s.getPatiently("/v1/jobs/"+id+"/download", key)
		return job, d.body, o.body
	}

	// English → Arabic.
	_, bi, arabic := run(englishDocx, "English", "Arabic")
	biPath := filepath.Join(dir, "english.ar.bilingual.docx")
	os.WriteFile(biPath, bi, 0o644)
	c := columnsOf(t, bi)
	// Every paragraph of the English source (6, one in a nested table
	// cell) stays left to right; every one of the Arabic translation is
	// right to left.
	if c.rtl[0] != 0 || c.ltr[0] != 6 || c.rtl[1] != 6 || c.ltr[1] != 0 {
		t.Errorf("English→Arabic columns: source %d RTL / %d LTR paragraphs, translation %d RTL / %d LTR", c.rtl[0], c.ltr[0], c.rtl[1], c.ltr[1])
	}
	if !strings.Contains(c.text[0].String(), "The red car is in the street.") || !hasArabicScript(c.text[1].String()) || hasArabicScript(c.text[0].String()) {
		t.Errorf("the columns do not hold the English source and the Arabic translation:\n%s\n%s", c.text[0].String(), c.text[1].String())
	}
	for _, f := range rtlCheck(t, biPath, "rtl") {
		t.Errorf("English→Arabic bilingual: %s", f)
	}

	// Arabic → English: the Arabic output is the source now.
	arPath := filepath.Join(dir, "arabic.docx")
	os.WriteFile(arPath, arabic, 0o644)
	_, bi, _ = run(arPath, "Arabic", "English")
	biPath = filepath.Join(dir, "arabic.en.bilingual.docx")
	os.WriteFile(biPath, bi, 0o644)
	c = columnsOf(t, bi)
	if c.rtl[0] != 6 || c.ltr[0] != 0 || c.rtl[1] != 0 || c.ltr[1] != 6 {
		t.Errorf("Arabic→English columns: source %d RTL / %d LTR paragraphs, translation %d RTL / %d LTR", c.rtl[0], c.ltr[0], c.rtl[1], c.ltr[1])
	}
	for _, f := range rtlCheck(t, biPath, "ltr") {
		t.Errorf("Arabic→English bilingual: %s", f)
	}

	// Without bilingual: no bilingual_url, and ?format=bilingual is 404.
	r := s.uploadFile(key, englishDocx, map[string]string{"target_lang": "Arabic", "source_lang": "English"})
	id := r.json(t)["job_id"].(string)
	if j := s.waitJob(key, id, 3*time.Minute); j["bilingual_url"] != nil {
		t.Errorf("bilingual_url of a job that did not ask: %v", j["bilingual_url"])
	}
	if d := s.getPatiently("/v1/jobs/"+id+"/download?format=bilingual", key); d.status != 404 || !contains(d.body, "without bilingual") {
		t.Errorf("bilingual download of a job without it: %d %s", d.status, d.body)
	}
}

// A document with headings, lists, bold and pictures: both columns keep
// them (the pictures twice, the lists counting apart), the translation
// column passes the RTL checker with its render check, and the English
// column stays left to right.
func TestBilingualKeepsFormatting(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	_, key, _ := s.account("pro")
	doc := "../../testdata/corpus/docx/aspose-Formatted_elements.docx"
	r := s.uploadFile(key, doc, map[string]string{"target_lang": "Arabic", "source_lang": "English", "bilingual": "true"})
	if r.status != 202 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	id := r.json(t)["job_id"].(string)
	if j := s.waitJob(key, id, 3*time.Minute); j["status"] != "completed" || j["bilingual_url"] == nil {
		t.Fatalf("job %v", j)
	}
	bi := s.getPatiently("/v1/jobs/"+id+"/download?format=bilingual", key).body
	path := filepath.Join(t.TempDir(), "formatted.ar.bilingual.docx")
	os.WriteFile(path, bi, 0o644)

	src, _ := os.ReadFile(doc)
	body := string(docxPart(t, bi, "word/document.xml"))
	srcBody := string(docxPart(t, src, "word/document.xml"))
	// (Bold: the document's one bold run, in both columns; the content
	// control of its table of contents is unwrapped, its end properties
	// with it.)
	if n := strings.Count(body, "<w:b/>"); n < 2 {
		t.Errorf("%d bold runs, want the source's one in each column", n)
	}
	for _, what := range []string{"<wp:inline", `w:val="Heading`, "<w:numId "} {
		if got, want := strings.Count(body, what), 2*strings.Count(srcBody, what); got < want {
			t.Errorf("%s: %d in the bilingual document, want at least %d (twice the source's)", what, got, want)
		}
	}
	c := columnsOf(t, bi)
	if c.rtl[0] != 0 || c.ltr[0] < 10 || c.rtl[1] < 10 {
		t.Errorf("columns: source %d RTL / %d LTR paragraphs, translation %d RTL / %d LTR", c.rtl[0], c.ltr[0], c.rtl[1], c.ltr[1])
	}
	for _, f := range rtlCheck(t, path, "rtl") {
		t.Errorf("bilingual: %s", f)
	}
}
