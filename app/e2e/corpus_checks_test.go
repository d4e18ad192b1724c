package e2e

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/docx/structure"
	"github.com/dragoman-translate/dragoman/adapters/rtl/rtltest"
)

// corpusNoText are corpus documents known to have no word to translate:
// their jobs must complete with the warning (checkJob also demands it of any
// source without text).
var corpusNoText = map[string]bool{"onlyoffice-ar-SA-new.docx": true}

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
