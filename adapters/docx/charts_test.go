package docx_test

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/docx"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// apertiumSpanish translates every segment with Apertium (English to
// Spanish) in one call, one segment per paragraph (a blank line between
// segments keeps Apertium from joining neighbours); segments with codes keep
// their source (the plugin's tag handling is not what is tested here).
func apertiumSpanish(t *testing.T, doc *segment.Document) {
	t.Helper()
	var plain []*segment.Segment
	doc.EachSegment(func(_ *segment.Unit, s *segment.Segment) {
		if !strings.ContainsAny(s.Source, "<\n") && strings.TrimSpace(s.Source) != "" {
			plain = append(plain, s)
		}
	})
	var in strings.Builder
	for _, s := range plain {
		in.WriteString(tagged.Plain(s.Source) + "\n\n")
	}
	cmd := exec.Command("apertium", "-u", "eng-spa")
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("apertium eng-spa (apt-get install -y apertium-eng-spa): %v", err)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n\n")
	if len(lines) != len(plain) {
		t.Fatalf("apertium returned %d lines for %d segments", len(lines), len(plain))
	}
	for i, s := range plain {
		s.Target = tagged.Escape(lines[i])
	}
}

// rewriteZip copies a package with some entries' text replaced.
func rewriteZip(t *testing.T, src []byte, repl map[string]*strings.Replacer) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(src), int64(len(src)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		for prefix, r := range repl {
			if strings.HasPrefix(f.Name, prefix) {
				b = []byte(r.Replace(string(b)))
			}
		}
		w, _ := zw.Create(f.Name)
		w.Write(b)
	}
	zw.Close()
	return buf.Bytes()
}

// TestChartAndSmartArtApertium: a chart document and a SmartArt document
// translated to Spanish with Apertium show the translated series names,
// category labels and diagram text in LibreOffice's PDF (issue 10 item 6).
// The SmartArt sample's Lorem ipsum is replaced by English, in its data
// and its cached drawing alike, so that Apertium has words it knows.
func TestChartAndSmartArtApertium(t *testing.T) {
	words := strings.NewReplacer(">Lorem<", ">Green house<", ">Ipsum<", ">Black dog<", ">dolor<", ">Red car<",
		">sit<", ">Small table<", ">amet<", ">Old book<", ">consectetur<", ">Open window<")
	smart := rewriteZip(t, read(t, doc("aspose-SmartArt.docx")), map[string]*strings.Replacer{"word/diagrams/": words})
	chart := read(t, doc("aspose-Combo_chart.docx"))
	dir := t.TempDir()
	ctx := context.Background()
	var outs []string
	for name, src := range map[string][]byte{"smartart.docx": smart, "chart.docx": chart} {
		d, err := docx.ExtractReader(ctx, bytes.NewReader(src), int64(len(src)))
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range d.Units {
			if strings.Contains(u.Part, "diagrams/drawing") {
				t.Errorf("%s: the cached drawing makes units of its own (%s); it must share the data's", name, u.ID)
			}
		}
		apertiumSpanish(t, d)
		var out bytes.Buffer
		if _, err := docx.AssembleReader(ctx, bytes.NewReader(src), int64(len(src)), d, &out); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		outs = append(outs, p)
	}
	args := append([]string{"-env:UserInstallation=file://" + filepath.Join(dir, "profile"),
		"--headless", "--norestore", "--convert-to", "pdf", "--outdir", dir}, outs...)
	if b, err := exec.Command("soffice", args...).CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, b)
	}
	text := func(name string) string {
		b, err := exec.Command("pdftotext", filepath.Join(dir, strings.TrimSuffix(name, ".docx")+".pdf"), "-").Output()
		if err != nil {
			t.Fatalf("pdftotext %s: %v", name, err)
		}
		return strings.Join(strings.Fields(string(b)), " ")
	}
	check := func(name string, want, gone []string) {
		got := text(name)
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q not in the rendered PDF: %.600s", name, w, got)
			}
		}
		for _, g := range gone {
			if strings.Contains(got, g) {
				t.Errorf("%s: source text %q still rendered: %.600s", name, g, got)
			}
		}
	}
	// series names (legend) and category labels (axis) come from the caches
	check("chart.docx", []string{"Serie 1", "Serie 2", "Categoría 1", "Categoría 4"}, []string{"Series 1", "Category 1", "Category 4"})
	// LibreOffice draws SmartArt from the cached drawing
	check("smartart.docx", []string{"Casa verde", "Perro negro", "Coche rojo"}, []string{"Green house", "Black dog", "Red car"})
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
