package e2e

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/rtl/rtltest"
)

// mixedBody is a document nobody tuned for (issue 10): mostly Latin
// (French) text, but right-to-left paragraphs with Arabic runs and a
// bidiVisual table whose cells are bidi.
const mixedBody = `<w:p><w:r><w:t>Le rapport annuel présente les résultats du groupe, ses filiales, ses marchés et ses perspectives pour les années à venir, avec les comptes consolidés de l'exercice.</w:t></w:r></w:p>` +
	`<w:p><w:pPr><w:bidi/></w:pPr><w:r><w:rPr><w:rtl/></w:rPr><w:t>التقرير السنوي للمجموعة</w:t></w:r></w:p>` +
	`<w:p><w:pPr><w:bidi/></w:pPr><w:r><w:t>Les chiffres sont donnés en euros et arrondis au millier le plus proche.</w:t></w:r></w:p>` +
	`<w:tbl><w:tblPr><w:bidiVisual/><w:tblW w:w="5000" w:type="pct"/></w:tblPr><w:tblGrid><w:gridCol w:w="4500"/><w:gridCol w:w="4500"/></w:tblGrid>` +
	`<w:tr><w:tc><w:p><w:pPr><w:bidi/></w:pPr><w:r><w:t>Année de référence</w:t></w:r></w:p></w:tc><w:tc><w:p><w:pPr><w:bidi/></w:pPr><w:r><w:rPr><w:rtl/></w:rPr><w:t>السنة المالية</w:t></w:r></w:p></w:tc></w:tr></w:tbl>` +
	`<w:p><w:r><w:t>Fin du rapport.</w:t></w:r></w:p>`

// mixedDocx writes english.docx with mixedBody as its body.
func mixedDocx(t *testing.T) string {
	t.Helper()
	return docxFrom(t, "mixed.docx", withBody(mixedBody), map[string]func(string) string{
		"word/_rels/document.xml.rels": func(s string) string {
			return strings.Replace(s, "</Relationships>", `<Relationship Id="rIdStyles" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`, 1)
		},
		"[Content_Types].xml": func(s string) string {
			return strings.Replace(s, "</Types>", `<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`, 1)
		},
		// A style sheet as Word writes one: Latin fonts only in the defaults.
		"word/styles.xml": func(string) string {
			return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/><w:sz w:val="22"/><w:lang w:val="fr-FR"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr/></w:pPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style></w:styles>`
		},
	})
}

// TestDirectionFromTheDocument (issue 10 §1 and §3): a mixed-direction
// document sent with source auto comes out fully LTR in English (every
// table with an explicit bidiVisual=0) and fully RTL in Arabic, both
// passing the brief's XML and render checks; the 202 carries rtl_fidelity
// whenever direction matters, for an English document to Arabic too.
func TestDirectionFromTheDocument(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	_, key, _ := s.account("pro")
	r := s.uploadFile(key, englishDocx, map[string]string{"target_lang": "Arabic"})
	if r.status != 202 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if r.json(t)["rtl_fidelity"] == nil {
		t.Error("target Arabic, source auto: no rtl_fidelity in the 202")
	}
	src := mixedDocx(t)
	srcData, _ := os.ReadFile(src)
	fc := rtltest.NewFontconfig()
	stats := map[*corpusJob]rtltest.Stats{}
	var jobs []*corpusJob
	for _, to := range []string{"English", "Arabic"} {
		r := s.uploadFile(key, src, map[string]string{"target_lang": to})
		if r.status != 202 {
			t.Fatalf("%d %s", r.status, r.body)
		}
		acc := r.json(t)
		if acc["rtl_fidelity"] == nil {
			t.Errorf("mixed document to %s: no rtl_fidelity in the 202", to)
		}
		id := acc["job_id"].(string)
		st := s.waitJob(key, id, 2*time.Minute)
		if st["status"] != "completed" || st["rtl_fidelity"] == nil {
			t.Fatalf("mixed document to %s: %v", to, st)
		}
		if w := fmt.Sprint(st["warnings"]); !strings.Contains(w, "mixes languages (French") || !strings.Contains(w, "Arabic") {
			t.Errorf("mixed document to %s: no mixed-language warning: %s", to, w)
		}
		out := s.do("GET", "/v1/jobs/"+id+"/download", key, nil, "").body
		rtl := to == "Arabic"
		fs, stat, err := rtltest.CheckXML(srcData, out, rtltest.Target{RTL: rtl, Lang: langCode[to], Covers: fc.Covers})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fs {
			t.Errorf("mixed document to %s: %s", to, f)
		}
		doc := string(docxPart(t, out, "word/document.xml"))
		if !rtl && (strings.Contains(doc, "<w:bidi/>") || strings.Count(doc, `<w:bidiVisual w:val="0"/>`) != 1) {
			t.Errorf("English output not fully LTR:\n%s", doc)
		}
		if rtl && strings.Contains(doc, `<w:bidi w:val="0"/>`) {
			t.Errorf("Arabic output not fully RTL:\n%s", doc)
		}
		j := &corpusJob{src: src, from: "French", to: to, out: out}
		stats[j] = stat
		jobs = append(jobs, j)
	}
	checkRenders(t, stats, jobs...)
}
