package e2e

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/docx/structure"
	"github.com/dragoman-translate/dragoman/adapters/rtl/rtltest"
)

// The corpus tests send every .docx/.docm of testdata/corpus/docx and
// testdata/corpus/rtl through the real API (issue 3: the DOCX engine;
// issue 4: right-to-left layout in four directions) and check the
// downloads with the same tools a reviewer would use: the fidelity check,
// the RTL XML assertions, LibreOffice and poppler.
//
// DRAGOMAN_CORPUS_OUT=dir keeps every downloaded output there;
// DRAGOMAN_CORPUS_PDF=dir keeps the PDFs of the render checks.

const corpusRoot = "../../testdata/corpus"

// corpusFiles lists the Office Open XML documents of one corpus folder.
func corpusFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(corpusRoot, dir, "*.doc[xm]"))
	if err != nil || len(m) < 10 {
		t.Fatalf("corpus folder %s: %d documents (%v)", dir, len(m), err)
	}
	return m
}

// corpusNoText are corpus documents known to have no word to translate:
// their jobs must complete with the warning (checkJob also demands it of any
// source without text).
var corpusNoText = map[string]bool{"onlyoffice-ar-SA-new.docx": true}

// rtlSource is the language of each RTL corpus document (the corpus
// manifest's script and complex-script language).
var rtlSource = map[string]string{
	"aspose-OpenType_text_shaping.docx": "Hebrew",
	"docx4j-arabic_align.docx":          "Arabic",
	"docx4j-arabic_numbering.docx":      "Arabic",
	"docxtemplater-loop-hebrew.docx":    "Hebrew",
	"onlyoffice-ar-SA-new.docx":         "Arabic",
	"oxpt-HC002-Hebrew-01.docx":         "Hebrew",
	"oxpt-HC014-RTL-Table-01.docx":      "Hebrew",
	"oxpt-RP051-Arabic.docx":            "Arabic",
	"oxsdk-Comment028.docx":             "Arabic",
	"poi-stress004.docx":                "Persian",
	"poi-stress011.docx":                "Arabic",
}

// ltrSource is the language of the LTR corpus documents that have no
// English text at all (the others are English, or English mixed with
// another language).
var ltrSource = map[string]string{"tika-testWORD_phonetic.docx": "Japanese"}

// notEnglish are the LTR corpus documents whose text is not English, left
// out of the Apertium English→Spanish pass.
var notEnglish = map[string]bool{
	"aspose-Asian_typography.docx": true, // Chinese/Japanese
	"docx4j-Docx4j_Russian.docx":   true,
	"tika-testWORD_phonetic.docx":  true, // Japanese with ruby
}

var langCode = map[string]string{"English": "en", "French": "fr", "Spanish": "es", "Russian": "ru", "Japanese": "ja",
	"Arabic": "ar", "Hebrew": "he", "Persian": "fa"}

// scriptOf matches a letter of the language's script in output text.
var scriptOf = map[string]*regexp.Regexp{
	"English":  regexp.MustCompile(`\p{Latin}`),
	"Spanish":  regexp.MustCompile(`\p{Latin}`),
	"Russian":  regexp.MustCompile(`[\x{0400}-\x{04FF}]`),
	"Japanese": regexp.MustCompile(`[\x{3040}-\x{30FF}\x{4E00}-\x{9FFF}]`),
	"Arabic":   regexp.MustCompile(`[\x{0600}-\x{06FF}]`),
	"Hebrew":   regexp.MustCompile(`[\x{0590}-\x{05FF}]`),
}

func sourceScript(lang string) *regexp.Regexp {
	if lang == "Persian" {
		return scriptOf["Arabic"]
	}
	return scriptOf[lang]
}

var textRun = regexp.MustCompile(`<[wa]:t(?: [^>]*)?>([^<]*)</[wa]:t>`)

// allText is the text of every w:t and a:t of every XML part: body,
// headers, notes, comments, charts, diagrams.
func allText(t *testing.T, docx []byte) string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(docx), int64(len(docx)))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, f := range zr.File {
		if !strings.HasSuffix(f.Name, ".xml") {
			continue
		}
		for _, m := range textRun.FindAllSubmatch(docxPart(t, docx, f.Name), -1) {
			b.Write(m[1])
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// corpusJob is one document sent through the API and what came back.
type corpusJob struct {
	src, from, to string
	accepted      map[string]any // the 202 body
	status        map[string]any // the terminal job status
	out           []byte         // the downloaded .docx
	err           error
	srcText       string // the source's w:t and a:t text (set by checkJob)
}

// hasText: the source has a letter to translate.
func (j *corpusJob) hasText() bool { return anyLetter.MatchString(j.srcText) }

var anyLetter = regexp.MustCompile(`\pL`)

func (j *corpusJob) name() string { return filepath.Base(j.src) }

// label names the job in messages and its output file uniquely.
func (j *corpusJob) label() string {
	return strings.TrimSuffix(j.name(), filepath.Ext(j.name())) + "." + langCode[j.from] + "-" + langCode[j.to]
}

func (j *corpusJob) rtlTarget() bool {
	return j.to == "Arabic" || j.to == "Hebrew" || j.to == "Persian"
}
func (j *corpusJob) rtlSource() bool {
	return j.from == "Arabic" || j.from == "Hebrew" || j.from == "Persian"
}

// corpusAccount is an enterprise account whose per-minute limit does not
// throttle a whole corpus uploaded at once.
func corpusAccount(s *server) string {
	id, key, _ := s.account("enterprise")
	s.admin("account", "set-plan", "--account", id, "--plan", "enterprise", "--requests-per-minute", "100000")
	return key
}

// try is server.do for goroutines: it returns errors instead of failing
// the test from a goroutine that is not the test's.
func (s *server) try(method, path, key string, body io.Reader, contentType string) (response, error) {
	req, err := http.NewRequestWithContext(context.Background(), method, s.url(path), body)
	if err != nil {
		return response{}, err
	}
	req.Header.Set("X-API-Key", key)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return response{resp.StatusCode, resp.Header, b}, err
}

// run uploads, polls (every second: the specification recommends 2 to 5 s
// for clients; tests may be keener) and downloads one job.
func (j *corpusJob) run(s *server, key string) error {
	data, err := os.ReadFile(j.src)
	if err != nil {
		return err
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("source_lang", j.from)
	mw.WriteField("target_lang", j.to)
	mw.WriteField("translation_mode", "full")
	fw, _ := mw.CreateFormFile("file", j.name())
	fw.Write(data)
	mw.Close()
	r, err := s.try("POST", "/v1/translate", key, &body, mw.FormDataContentType())
	if err != nil {
		return err
	}
	if r.status != http.StatusAccepted {
		return fmt.Errorf("translate: %d %s", r.status, r.body)
	}
	if err := json.Unmarshal(r.body, &j.accepted); err != nil {
		return err
	}
	id, _ := j.accepted["job_id"].(string)
	deadline := time.Now().Add(5 * time.Minute)
	for {
		r, err := s.try("GET", "/v1/jobs/"+id, key, nil, "")
		if err != nil {
			return err
		}
		if r.status != 200 {
			return fmt.Errorf("poll: %d %s", r.status, r.body)
		}
		j.status = nil
		if err := json.Unmarshal(r.body, &j.status); err != nil {
			return err
		}
		if st := j.status["status"]; st == "completed" || st == "failed" {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("still %v after 5 minutes", j.status["status"])
		}
		time.Sleep(time.Second)
	}
	if j.status["status"] != "completed" {
		return fmt.Errorf("job failed: %v", j.status["error"])
	}
	d, err := s.try("GET", "/v1/jobs/"+id+"/download", key, nil, "")
	if err != nil {
		return err
	}
	if d.status != 200 {
		return fmt.Errorf("download: %d %s", d.status, d.body)
	}
	j.out = d.body
	return nil
}

// runCorpusJobs runs the jobs, a few uploads at a time so the server's queue,
// not the client, decides the pace.
func runCorpusJobs(t *testing.T, s *server, key string, jobs []*corpusJob) {
	t.Helper()
	start := time.Now()
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			j.err = j.run(s, key)
		}()
	}
	wg.Wait()
	t.Logf("%d jobs through the API in %s", len(jobs), time.Since(start).Round(time.Millisecond))
	if keep := os.Getenv("DRAGOMAN_CORPUS_OUT"); keep != "" {
		var done []*corpusJob
		for _, j := range jobs {
			if j.err == nil {
				done = append(done, j)
			}
		}
		os.MkdirAll(keep, 0o755)
		writeOutputs(t, keep, done)
	}
}

// checkJob applies the checks every corpus job must pass: completed (with
// the warning if there is nothing to translate), the status' fidelity
// summary set, no loss by the fidelity check between upload and download,
// text in the target's script, and rtl_fidelity null exactly for LTR→LTR
// of a document with nothing right to left.
func checkJob(t *testing.T, j *corpusJob) bool {
	t.Helper()
	if j.err != nil {
		t.Errorf("%s: %v", j.label(), j.err)
		return false
	}
	src, err := os.ReadFile(j.src)
	if err != nil {
		t.Fatal(err)
	}
	j.srcText = allText(t, src)
	warnings, _ := j.status["warnings"].([]any)
	warned := strings.Contains(fmt.Sprint(warnings), "no translatable text")
	if corpusNoText[j.name()] && !warned {
		t.Errorf("%s: no text, but no warning saying so: %v", j.label(), warnings)
	}
	if warned != !j.hasText() {
		t.Errorf("%s: warned of no translatable text: %v; the source's text: %.80q", j.label(), warned, j.srcText)
	}
	if f, _ := j.status["fidelity"].(string); !strings.HasPrefix(f, "fidelity: no loss") {
		t.Errorf("%s: job fidelity summary = %q", j.label(), f)
	}
	rep, err := structure.CompareReaders(bytes.NewReader(src), int64(len(src)), bytes.NewReader(j.out), int64(len(j.out)))
	if err != nil {
		t.Errorf("%s: fidelity check: %v", j.label(), err)
		return false
	}
	if rep.Lost() {
		t.Errorf("%s: %s", j.label(), rep.Summary())
	}
	// The pseudo engine rewrites text of the source's script; Apertium
	// leaves unknown words as they are: either way, letters of the target's
	// script appear wherever the source had letters of its own.
	if sourceScript(j.from).MatchString(j.srcText) && !scriptOf[j.to].MatchString(allText(t, j.out)) {
		t.Errorf("%s: no %s letter in the output", j.label(), j.to)
	}
	direction := j.rtlSource() || j.rtlTarget() || rtlContent(t, src)
	for _, body := range []map[string]any{j.accepted, j.status} {
		rf, present := body["rtl_fidelity"]
		if !present {
			t.Errorf("%s: no rtl_fidelity field", j.label())
		} else if direction != (rf != nil) {
			t.Errorf("%s: rtl_fidelity = %v; want it null exactly for LTR→LTR", j.label(), rf)
		}
	}
	return true
}

// rtlStory are the parts whose paragraphs the layout converts.
var rtlStory = regexp.MustCompile(`^word/(document|header\d*|footer\d*|footnotes|endnotes|comments)\.xml$`)

// rtlMarkup is a paragraph, table, section or run set right to left.
var rtlMarkup = regexp.MustCompile(`<w:(bidi|bidiVisual|rtl)(/>| w:val="(1|true|on)")`)

// rtlContent: the document has something right to left (letters of an RTL
// script, or direction markup), so even an LTR→LTR job gets a layout pass
// and an rtl_fidelity (issue 10 §1).
func rtlContent(t *testing.T, docx []byte) bool {
	zr, err := zip.NewReader(bytes.NewReader(docx), int64(len(docx)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if !rtlStory.MatchString(f.Name) {
			continue
		}
		part := docxPart(t, docx, f.Name)
		if rtlMarkup.Match(part) {
			return true
		}
		for _, m := range textRun.FindAllSubmatch(part, -1) {
			if scriptOf["Arabic"].Match(m[1]) || scriptOf["Hebrew"].Match(m[1]) {
				return true
			}
		}
	}
	return false
}

// checkLayoutXML runs rtltest's XML assertions on one output.
func checkLayoutXML(t *testing.T, j *corpusJob, fc *rtltest.Fontconfig) rtltest.Stats {
	t.Helper()
	src, err := os.ReadFile(j.src)
	if err != nil {
		t.Fatal(err)
	}
	target := rtltest.Target{RTL: j.rtlTarget(), Lang: langCode[j.to], Covers: fc.Covers,
		ForceTwins: j.rtlTarget() && !j.rtlSource()}
	fs, st, err := rtltest.CheckXML(src, j.out, target)
	if err != nil {
		t.Errorf("%s: %v", j.label(), err)
	}
	n := 0
	for _, f := range fs {
		if !target.RTL && !j.rtlSource() && strings.HasPrefix(f.Rule, "3 ") {
			continue // LTR→LTR gets no layout pass: tables stay as they were
		}
		if n++; n > 10 {
			t.Errorf("%s: … %d findings in all", j.label(), len(fs))
			break
		}
		t.Errorf("%s: %s", j.label(), f)
	}
	return st
}

// writeOutputs stores the downloads under dir, one file per job.
func writeOutputs(t *testing.T, dir string, jobs []*corpusJob) []string {
	t.Helper()
	var paths []string
	for _, j := range jobs {
		p := filepath.Join(dir, j.label()+".docx")
		if err := os.WriteFile(p, j.out, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// toPDFs converts the outputs to PDF in two soffice processes (one per
// core of the CI machine), each with its own profile. A document
// LibreOffice cannot load gets no PDF: its entry is "" and the test fails.
func toPDFs(t *testing.T, jobs []*corpusJob) []string {
	t.Helper()
	for _, tool := range []string{"soffice", "pdftotext", "pdffonts"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is required (apt-get install libreoffice-writer poppler-utils): %v", tool, err)
		}
	}
	start := time.Now()
	pdfs := make([]string, len(jobs))
	half := (len(jobs) + 1) / 2
	var wg sync.WaitGroup
	for _, part := range [][2]int{{0, half}, {half, len(jobs)}} {
		if part[0] == part[1] {
			continue
		}
		dir := t.TempDir()
		docs := writeOutputs(t, dir, jobs[part[0]:part[1]])
		wg.Add(1)
		go func() {
			defer wg.Done()
			args := append([]string{"-env:UserInstallation=file://" + filepath.Join(dir, "profile"),
				"--headless", "--norestore", "--convert-to", "pdf", "--outdir", dir}, docs...)
			out, err := exec.Command("soffice", args...).CombinedOutput()
			if err != nil {
				t.Errorf("soffice: %v\n%s", err, out)
			}
			for i, d := range docs {
				pdf := strings.TrimSuffix(d, ".docx") + ".pdf"
				if _, err := os.Stat(pdf); err != nil {
					t.Errorf("%s: LibreOffice could not convert the output to PDF", jobs[part[0]+i].label())
					continue
				}
				pdfs[part[0]+i] = pdf
			}
		}()
	}
	wg.Wait()
	t.Logf("%d outputs converted to PDF by LibreOffice in %s", len(jobs), time.Since(start).Round(time.Millisecond))
	return pdfs
}

// checkPDFs converts every output and demands text in each PDF.
func checkPDFs(t *testing.T, jobs []*corpusJob) {
	t.Helper()
	for i, pdf := range toPDFs(t, jobs) {
		if pdf == "" {
			continue
		}
		out, err := exec.Command("pdftotext", pdf, "-").Output()
		if err != nil {
			t.Errorf("%s: pdftotext: %v", jobs[i].label(), err)
			continue
		}
		// Sources without w:t text (only equations, or an altChunk that
		// LibreOffice does not import) may render blank.
		if len(strings.TrimSpace(string(out))) == 0 && jobs[i].hasText() {
			t.Errorf("%s: LibreOffice rendered no text", jobs[i].label())
		}
	}
}

// passing keeps the jobs that passed checkJob.
func passing(t *testing.T, jobs []*corpusJob) []*corpusJob {
	var ok []*corpusJob
	for _, j := range jobs {
		if checkJob(t, j) {
			ok = append(ok, j)
		}
	}
	return ok
}

// TestCorpusPseudo: every corpus document in every direction through the
// pseudo engine (growth, reordering, target script): LTR → Russian and
// Japanese (LTR→LTR), LTR → Arabic and Hebrew, RTL → English, RTL → RTL
// (Hebrew → Arabic, Arabic and Persian → Hebrew).
func TestCorpusPseudo(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	key := corpusAccount(s)
	var ltrLTR, ltrRTL, rtlLTR, rtlRTL []*corpusJob
	for i, p := range corpusFiles(t, "docx") {
		from := "English"
		if l := ltrSource[filepath.Base(p)]; l != "" {
			from = l
		}
		to := []string{"Russian", "Japanese"}[i%2]
		if to == from {
			to = "Russian"
		}
		ltrLTR = append(ltrLTR, &corpusJob{src: p, from: from, to: to})
		ltrRTL = append(ltrRTL, &corpusJob{src: p, from: from, to: "Arabic"}, &corpusJob{src: p, from: from, to: "Hebrew"})
	}
	for _, p := range corpusFiles(t, "rtl") {
		from := rtlSource[filepath.Base(p)]
		if from == "" {
			t.Fatalf("%s: add its language to rtlSource", p)
		}
		to := "Hebrew"
		if from == "Hebrew" {
			to = "Arabic"
		}
		rtlLTR = append(rtlLTR, &corpusJob{src: p, from: from, to: "English"})
		rtlRTL = append(rtlRTL, &corpusJob{src: p, from: from, to: to})
	}
	var all []*corpusJob
	for _, g := range [][]*corpusJob{ltrLTR, ltrRTL, rtlLTR, rtlRTL} {
		all = append(all, g...)
	}
	runCorpusJobs(t, s, key, all)

	fc := rtltest.NewFontconfig()
	stats := map[*corpusJob]rtltest.Stats{}
	for _, j := range passing(t, all) {
		stats[j] = checkLayoutXML(t, j, fc)
	}
	// Issue 3: every output opens in LibreOffice with text. Issue 4: a
	// handful rendered and checked for edges and the fonts really used.
	var open []*corpusJob
	for _, j := range append(append(ltrLTR, rtlLTR...), rtlRTL...) {
		if j.err == nil {
			open = append(open, j)
		}
	}
	checkPDFs(t, open)
	checkRenders(t, stats, pickJob(ltrRTL, "aspose-Nested_tables.docx", "Arabic"), pickJob(ltrRTL, "tika-testWORD_various.docx", "Hebrew"),
		pickJob(ltrRTL, "aspose-Footnotes_and_endnotes.docx", "Arabic"), pickJob(rtlLTR, "oxpt-HC014-RTL-Table-01.docx", "English"),
		pickJob(rtlLTR, "docx4j-arabic_align.docx", "English"), pickJob(rtlRTL, "oxpt-HC002-Hebrew-01.docx", "Arabic"))
}

// pickJob finds the job of one document and target.
func pickJob(jobs []*corpusJob, name, to string) *corpusJob {
	for _, j := range jobs {
		if j.name() == name && j.to == to {
			return j
		}
	}
	panic("no job for " + name + " → " + to)
}

var defaultCSFont = regexp.MustCompile(`(?s)<w:rPrDefault>.*?<w:rFonts [^>]*w:cs="([^"]+)"`)

// checkRenders lays the outputs out with LibreOffice and applies the
// render checks of rtltest: lines of the target direction start at its edge
// (end-aligned paragraphs excepted), and the complex-script font of an RTL
// output is really used.
func checkRenders(t *testing.T, stats map[*corpusJob]rtltest.Stats, jobs ...*corpusJob) {
	t.Helper()
	var ok []*corpusJob
	for _, j := range jobs {
		if _, done := stats[j]; done {
			ok = append(ok, j)
		}
	}
	pdfs := toPDFs(t, ok)
	ctx := context.Background()
	for i, j := range ok {
		if pdfs[i] == "" {
			continue
		}
		pages, err := rtltest.Layout(ctx, pdfs[i])
		if err != nil {
			t.Fatal(err)
		}
		fonts, err := rtltest.Fonts(ctx, pdfs[i])
		if err != nil {
			t.Fatal(err)
		}
		left, right, err := rtltest.PageEdges(j.out)
		if err != nil {
			t.Fatalf("%s: %v", j.label(), err)
		}
		rt := rtltest.RenderTarget{RTL: j.rtlTarget(), Left: left, Right: right, EndAligned: stats[j].EndAligned}
		if !rt.RTL {
			rt.EndAligned = stats[j].EndAlignedLTR
		} else if m := defaultCSFont.FindSubmatch(docxPart(t, j.out, "word/styles.xml")); m != nil {
			rt.CSFont = string(m[1])
		} else {
			t.Errorf("%s: no complex-script font in the document defaults", j.label())
		}
		for _, f := range rtltest.CheckRender(pages, fonts, rt) {
			t.Errorf("%s: %s", j.label(), f)
		}
		if keep := os.Getenv("DRAGOMAN_CORPUS_PDF"); keep != "" {
			b, _ := os.ReadFile(pdfs[i])
			os.WriteFile(filepath.Join(keep, j.label()+".pdf"), b, 0o644)
		}
	}
}

// TestCorpusApertium: the English documents of the corpus to Spanish with
// the real Apertium engine, checked like the pseudo ones and opened in
// LibreOffice.
func TestCorpusApertium(t *testing.T) {
	s := startServer(t, nil) // apertium is the default engine
	key := corpusAccount(s)
	var jobs []*corpusJob
	for _, p := range corpusFiles(t, "docx") {
		if !notEnglish[filepath.Base(p)] {
			jobs = append(jobs, &corpusJob{src: p, from: "English", to: "Spanish"})
		}
	}
	runCorpusJobs(t, s, key, jobs)
	ok := passing(t, jobs)
	for _, j := range ok {
		if j.hasText() && j.status["engine"] != "apertium" {
			t.Errorf("%s: engine %v", j.label(), j.status["engine"])
		}
	}
	checkPDFs(t, ok)
}

// docxPart reads one part of a package.
func docxPart(t *testing.T, docx []byte, name string) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(docx), int64(len(docx)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if f.Name == name {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			b, err := io.ReadAll(rc)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
	}
	return nil
}
