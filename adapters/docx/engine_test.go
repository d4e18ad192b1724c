package docx

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// The shared test corpus (testdata/corpus): its docx/ folder and the
// Office Open XML documents of its rtl/ folder.
const corpusDir = "../../testdata/corpus"

// corpusDocs lists every .docx/.docm of the corpus's docx/ and rtl/ folders.
func corpusDocs() []string {
	var files []string
	for _, dir := range []string{"docx", "rtl"} {
		m, _ := filepath.Glob(filepath.Join(corpusDir, dir, "*.doc[xm]"))
		files = append(files, m...)
	}
	return files
}

func corpus(t testing.TB) []string {
	t.Helper()
	files := corpusDocs()
	if len(files) < 50 {
		t.Fatalf("corpus missing: %d files in %s", len(files), corpusDir)
	}
	return files
}

func extractFile(t testing.TB, path string) (*segment.Document, []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := ExtractReader(context.Background(), bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("%s: extract: %v", filepath.Base(path), err)
	}
	return doc, data
}

// translate fills every Target with fn(Source) and assembles.
func translate(t testing.TB, data []byte, doc *segment.Document, fn func(string) string) ([]byte, []string) {
	t.Helper()
	doc.EachSegment(func(_ *segment.Unit, s *segment.Segment) { s.Target = fn(s.Source) })
	var out bytes.Buffer
	warns, err := AssembleReader(context.Background(), bytes.NewReader(data), int64(len(data)), doc, &out)
	if err != nil {
		t.Fatalf("assemble: %v", err)
	}
	return out.Bytes(), warns
}

// wellFormed parses every XML part of a package with encoding/xml.
func wellFormed(t testing.TB, name string, data []byte) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("%s: output is not a zip: %v", name, err)
	}
	for _, f := range zr.File {
		if !strings.HasSuffix(f.Name, ".xml") && !strings.HasSuffix(f.Name, ".rels") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatalf("%s: %s: %v", name, f.Name, err)
		}
		d := xml.NewDecoder(rc)
		for {
			_, err := d.RawToken()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %s is not well formed: %v", name, f.Name, err)
			}
		}
		rc.Close()
	}
}

func TestIdentityRoundTrip(t *testing.T) {
	for _, path := range corpus(t) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			doc, data := extractFile(t, path)
			if len(doc.Units) == 0 && !strings.Contains(name, "ar-SA-new") && !strings.Contains(name, "AltChunk") && !strings.Contains(name, "phonetic") && !strings.Contains(name, "equation") {
				t.Fatalf("no units extracted")
			}
			out, warns := translate(t, data, doc, func(s string) string { return s })
			if len(warns) > 0 {
				t.Errorf("identity translation warned: %q", warns[:min(3, len(warns))])
			}
			wellFormed(t, name, out)
			again, err := ExtractReader(context.Background(), bytes.NewReader(out), int64(len(out)))
			if err != nil {
				t.Fatalf("re-extract: %v", err)
			}
			if a, b := doc.PlainText(), again.PlainText(); a != b {
				t.Fatalf("text changed by identity round trip:\n%s", firstDiff(a, b))
			}
			if len(again.Units) != len(doc.Units) {
				t.Fatalf("units %d -> %d", len(doc.Units), len(again.Units))
			}
			for i := range doc.Units {
				if a, b := joinSource(doc.Units[i]), joinSource(again.Units[i]); a != b {
					t.Fatalf("unit %s changed:\n%q\n%q", doc.Units[i].ID, a, b)
				}
			}
			// parts without units are copied byte for byte
			assertUntouchedCopied(t, data, out)
		})
	}
}

func joinSource(u segment.Unit) string {
	var b strings.Builder
	for _, s := range u.Segments {
		b.WriteString(s.Source)
	}
	return b.String()
}

func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-80)
	return "source: …" + a[lo:min(len(a), i+80)] + "\noutput: …" + b[lo:min(len(b), i+80)]
}

func assertUntouchedCopied(t *testing.T, src, out []byte) {
	t.Helper()
	zs, _ := zip.NewReader(bytes.NewReader(src), int64(len(src)))
	zo, _ := zip.NewReader(bytes.NewReader(out), int64(len(out)))
	pk, err := ooxml.Open(bytes.NewReader(src), int64(len(src)))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]ooxml.Kind{}
	for _, f := range pk.Files() {
		kinds[f.Name] = pk.Kind(f)
	}
	byName := map[string]*zip.File{}
	for _, f := range zo.File {
		byName[f.Name] = f
	}
	for _, f := range zs.File {
		o := byName[f.Name]
		if o == nil {
			t.Fatalf("entry %s lost", f.Name)
		}
		if kinds[f.Name] != ooxml.Other {
			continue
		}
		if o.CRC32 != f.CRC32 || o.CompressedSize64 != f.CompressedSize64 || o.Method != f.Method {
			t.Fatalf("entry %s not copied raw", f.Name)
		}
	}
	if len(zo.File) != len(zs.File) {
		t.Fatalf("entries %d -> %d", len(zs.File), len(zo.File))
	}
}

func TestBadPackages(t *testing.T) {
	cases := map[string]string{
		"poi-ExternalEntityInText.docx":      "DTD",
		"aspose-Corrupted_document.docx":     "",
		"poi-truncated62886.docx":            "",
		"poi-bug53475-password-is-pass.docx": "",
	}
	for name, want := range cases {
		data, err := os.ReadFile(filepath.Join(corpusDir, "bad", name))
		if err != nil {
			t.Fatal(err)
		}
		_, err = ExtractReader(context.Background(), bytes.NewReader(data), int64(len(data)))
		if err == nil {
			t.Errorf("%s: extracted without error", name)
			continue
		}
		if !errors.Is(err, ErrNotDocx) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want ErrNotDocx mentioning %q", name, err, want)
		}
	}
}
