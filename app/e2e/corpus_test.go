package e2e

import (
	"path/filepath"
	"testing"

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

// TestCorpusPseudo: every corpus document in every direction through the
// pseudo engine (growth, reordering, target script): LTR → Russian and
// Japanese (LTR→LTR), LTR → Arabic and Hebrew, RTL → English, RTL → RTL
// (Hebrew → Arabic, Arabic and Persian → Hebrew).
func TestCorpusPseudo(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	key := enterpriseKey(t, s)
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

// TestCorpusApertium: the English documents of the corpus to Spanish with
// the real Apertium engine, checked like the pseudo ones and opened in
// LibreOffice.
func TestCorpusApertium(t *testing.T) {
	s := startServer(t, nil) // apertium is the default engine
	key := enterpriseKey(t, s)
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
	reviewOnCorpus(t, s, key, jobs)
}
