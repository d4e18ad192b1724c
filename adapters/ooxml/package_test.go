package ooxml

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/plugins/sdk/docformat"
)

const (
	ctMain   = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
	ctHeader = "application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"
	ctFooter = "application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml"
	ctChart  = "application/vnd.openxmlformats-officedocument.drawingml.chart+xml"
	ctSet    = "application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml"
	ctCore   = "application/vnd.openxmlformats-package.core-properties+xml"
	ctStyles = "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"
	body     = `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>x</w:t></w:r></w:p></w:body></w:document>`
)

type entry struct{ name, body string }

// build makes a package: content types declaring overrides (name → type),
// then the entries; extra may add raw entries.
func build(t *testing.T, overrides map[string]string, entries []entry, extra func(*zip.Writer)) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	if overrides != nil {
		var ct strings.Builder
		ct.WriteString(`<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/>`)
		for name, typ := range overrides {
			fmt.Fprintf(&ct, `<Override PartName="/%s" ContentType="%s"/>`, name, typ)
		}
		ct.WriteString(`</Types>`)
		entries = append([]entry{{"[Content_Types].xml", ct.String()}}, entries...)
	}
	for _, e := range entries {
		w, err := zw.Create(e.name)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, e.body)
	}
	if extra != nil {
		extra(zw)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func openBytes(data []byte) (*Package, error) { return Open(bytes.NewReader(data), int64(len(data))) }

func sample(t *testing.T) []byte {
	return build(t, map[string]string{
		"word/document.xml": ctMain, "word/header2.xml": ctHeader, "word/footer1.xml": ctFooter,
		"word/charts/chart1.xml": ctChart, "word/settings.xml": ctSet, "docProps/core.xml": ctCore,
		"word/styles.xml": ctStyles, "word/glossary/header1.xml": ctHeader,
	}, []entry{
		{"word/header2.xml", body}, {"word/footer1.xml", body}, {"word/document.xml", body},
		{"word/glossary/header1.xml", body}, {"word/charts/chart1.xml", "<c/>"}, {"word/settings.xml", "<s/>"},
		{"docProps/core.xml", "<cp/>"}, {"word/styles.xml", "<st/>"}, {"word/media/image1.png", "\x89PNG not really"},
		{"word/header9.xml", body}, // named like a header, declared as plain XML: not a story
	}, nil)
}

// The content type, never the file name, decides what a part holds.
func TestClassificationByContentType(t *testing.T) {
	pk, err := openBytes(sample(t))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Kind{
		"word/document.xml": Story, "word/header2.xml": Story, "word/footer1.xml": Story,
		"word/glossary/header1.xml": Story, "word/charts/chart1.xml": Drawing, "word/settings.xml": Settings,
		"docProps/core.xml": CoreProp, "word/styles.xml": Other, "word/media/image1.png": Other,
		"word/header9.xml": Other, "[Content_Types].xml": Other,
	}
	for _, f := range pk.Files() {
		if got := pk.Kind(f); got != want[f.Name] {
			t.Errorf("%s: kind %d, want %d", f.Name, got, want[f.Name])
		}
	}
	if pk.Main() != "word/document.xml" {
		t.Errorf("main %q", pk.Main())
	}
	got := strings.Join(pk.Stories(), " ")
	if got != "word/document.xml word/footer1.xml word/glossary/header1.xml word/header2.xml" {
		t.Errorf("stories: %s", got)
	}
	if KindOf("APPLICATION/VND.MS-WORD.DOCUMENT.MACROENABLED.MAIN+XML") != Story || KindOf("application/xml") != Other {
		t.Error("KindOf is not case-insensitive on content types")
	}
}

func TestRefusesWhatIsNotAWordPackage(t *testing.T) {
	cases := map[string][]byte{
		"not a zip":        []byte("not a zip at all"),
		"no content types": build(t, nil, []entry{{"word/document.xml", body}}, nil),
		"no main document": build(t, map[string]string{"xl/workbook.xml": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"},
			[]entry{{"xl/workbook.xml", "<workbook/>"}}, nil),
		"truncated": sample(t)[:60],
	}
	for name, data := range cases {
		if _, err := openBytes(data); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", name, err)
		}
	}
	// a lenient open accepts the missing content types, by the usual names
	pk, err := OpenLenient(bytes.NewReader(cases["no content types"]), int64(len(cases["no content types"])))
	if err != nil || pk.Main() != "word/document.xml" {
		t.Fatalf("lenient: %v", err)
	}
}

func TestZipBombRatioRefused(t *testing.T) {
	data := build(t, map[string]string{"word/document.xml": ctMain}, []entry{
		{"word/document.xml", body},
		{"word/media/zeros.bin", strings.Repeat("\x00", RatioFloor*2)}, // deflates ~1000:1
	}, nil)
	_, err := openBytes(data)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "zip bomb") {
		t.Fatalf("err = %v, want a zip bomb refusal", err)
	}
	// under the floor, the ratio is not held against a part
	data = build(t, map[string]string{"word/document.xml": ctMain}, []entry{
		{"word/document.xml", body}, {"word/media/zeros.bin", strings.Repeat("\x00", RatioFloor/2)},
	}, nil)
	if _, err := openBytes(data); err != nil {
		t.Fatalf("small compressible part refused: %v", err)
	}
}

// Declared sizes are checked before anything is read.
func TestDeclaredTotalRefused(t *testing.T) {
	fake := make([]byte, 3<<20+1) // ratio just under MaxRatio
	data := build(t, map[string]string{"word/document.xml": ctMain}, []entry{{"word/document.xml", body}}, func(zw *zip.Writer) {
		for _, name := range []string{"word/a.bin", "word/b.bin"} {
			w, err := zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Deflate,
				CompressedSize64: uint64(len(fake)), UncompressedSize64: 600 << 20})
			if err != nil {
				t.Fatal(err)
			}
			w.Write(fake)
		}
	})
	_, err := openBytes(data)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "expands to more than") {
		t.Fatalf("err = %v, want the declared total refused", err)
	}
}

func TestEntryLimit(t *testing.T) {
	data := build(t, map[string]string{"word/document.xml": ctMain}, []entry{{"word/document.xml", body}}, func(zw *zip.Writer) {
		for i := 0; i < MaxEntries; i++ {
			zw.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("m/%d", i), Method: zip.Store})
		}
	})
	_, err := openBytes(data)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "entries") {
		t.Fatalf("err = %v, want too many entries", err)
	}
}

// A part that inflates past what its header declares is stopped by what
// is really read, not by the header.
func TestLyingHeaderStoppedOnRead(t *testing.T) {
	data := build(t, map[string]string{"word/document.xml": ctMain}, []entry{{"word/document.xml", body}}, func(zw *zip.Writer) {
		var comp bytes.Buffer
		fw := zip.NewWriter(&comp) // deflate a real stream, then lie about its size
		w, _ := fw.Create("x")
		w.Write(bytes.Repeat([]byte("a"), 1<<20))
		fw.Close()
		zr, _ := zip.NewReader(bytes.NewReader(comp.Bytes()), int64(comp.Len()))
		raw, _ := zr.File[0].OpenRaw()
		rawBytes, _ := io.ReadAll(raw)
		h := &zip.FileHeader{Name: "word/lie.xml", Method: zip.Deflate, CRC32: zr.File[0].CRC32,
			CompressedSize64: uint64(len(rawBytes)), UncompressedSize64: 10}
		rw, _ := zw.CreateRaw(h)
		rw.Write(rawBytes)
	})
	pk, err := openBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pk.ReadPart("word/lie.xml"); err == nil {
		t.Fatal("a part larger than its header was read without error")
	}
}

// Untouched entries are copied still compressed, byte for byte; changed
// ones read back as written; the order is kept.
func TestWriteCopiesRawAndReplaces(t *testing.T) {
	src := sample(t)
	pk, err := openBytes(src)
	if err != nil {
		t.Fatal(err)
	}
	changed := `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body/></w:document>`
	var out bytes.Buffer
	if err := pk.Write(&out, map[string][]byte{"word/document.xml": []byte(changed)}); err != nil {
		t.Fatal(err)
	}
	back, err := openBytes(out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Files()) != len(pk.Files()) {
		t.Fatalf("entries %d -> %d", len(pk.Files()), len(back.Files()))
	}
	for i, f := range pk.Files() {
		o := back.Files()[i]
		if o.Name != f.Name {
			t.Fatalf("entry %d: %s became %s", i, f.Name, o.Name)
		}
		if f.Name == "word/document.xml" {
			got, err := back.ReadPart(f.Name)
			if err != nil || string(got) != changed {
				t.Fatalf("changed part reads back %q, %v", got, err)
			}
			continue
		}
		if !bytes.Equal(rawOf(t, f), rawOf(t, o)) || f.CRC32 != o.CRC32 || f.Method != o.Method {
			t.Errorf("%s: not copied raw", f.Name)
		}
	}
	// with nothing changed, the entries round-trip unchanged
	var same bytes.Buffer
	if err := back.Write(&same, nil); err != nil {
		t.Fatal(err)
	}
	again, _ := openBytes(same.Bytes())
	for i, f := range back.Files() {
		if !bytes.Equal(rawOf(t, f), rawOf(t, again.Files()[i])) {
			t.Errorf("%s changed on a second write", f.Name)
		}
	}
}

// Parts replaced with SetPart read back as they now are, through ReadPart
// and Open, and WriteTo writes them with every other entry copied raw: the
// package assembled in memory is written once.
func TestSetPartHoldsReplacementsUntilWritten(t *testing.T) {
	src := sample(t)
	pk, err := openBytes(src)
	if err != nil {
		t.Fatal(err)
	}
	doc := []byte(`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body/></w:document>`)
	if err := pk.SetPart("word/document.xml", doc); err != nil {
		t.Fatal(err)
	}
	if err := pk.SetPart("word/new.xml", doc); err == nil {
		t.Error("a part the package does not have was accepted")
	}
	if got, err := pk.ReadPart("word/document.xml"); err != nil || !bytes.Equal(got, doc) {
		t.Fatalf("ReadPart after SetPart: %q, %v", got, err)
	}
	rc, err := pk.Open(pk.File("word/document.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(rc); !bytes.Equal(got, doc) {
		t.Fatalf("Open after SetPart reads %q", got)
	}
	var out bytes.Buffer
	n, err := pk.WriteTo(&out)
	if err != nil || n != int64(out.Len()) {
		t.Fatalf("WriteTo: %d of %d bytes, %v", n, out.Len(), err)
	}
	back, err := openBytes(out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range pk.Files() {
		o := back.Files()[i]
		if f.Name == "word/document.xml" {
			if got, _ := back.ReadPart(o.Name); !bytes.Equal(got, doc) {
				t.Errorf("the replaced part was written as %q", got)
			}
			continue
		}
		if !bytes.Equal(rawOf(t, f), rawOf(t, o)) {
			t.Errorf("%s: not copied raw", f.Name)
		}
	}
}

func rawOf(t *testing.T, f *zip.File) []byte {
	t.Helper()
	r, err := f.OpenRaw()
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The upload check (plugins/sdk/docformat) and the package model share
// their limits: a bomb one refuses, the other refuses too.
func TestBombRefusedByUploadCheckAndPackageModel(t *testing.T) {
	bomb := build(t, map[string]string{"word/document.xml": ctMain}, []entry{
		{"word/document.xml", body}, {"word/media/zeros.bin", strings.Repeat("\x00", RatioFloor*2)},
	}, nil)
	if _, err := docformat.VerifyPackage(bytes.NewReader(bomb), int64(len(bomb))); !errors.Is(err, docformat.ErrTooLarge) {
		t.Errorf("upload check: %v", err)
	}
	if _, err := openBytes(bomb); !errors.Is(err, ErrInvalid) {
		t.Errorf("package model: %v", err)
	}
}

// expandingXML is WordprocessingML text of about n bytes made of varied
// words, so that it compresses like real text (well under the ratio limit).
func expandingXML(n int) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`)
	b.Grow(n + 1024)
	words := make([]string, 4096)
	for i := range words {
		words[i] = fmt.Sprintf("w%x ", i*7919)
	}
	x := uint32(2463534242)
	for b.Len() < n {
		b.WriteString("<w:p><w:r><w:t>")
		for i := 0; i < 12; i++ {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			b.WriteString(words[x%4096])
		}
		b.WriteString("</w:t></w:r></w:p>")
	}
	b.WriteString(`</w:body></w:document>`)
	return b.String()
}

// A document that expands (issue 15: a 2.8 MB .docx whose document.xml
// unpacks to 200 MB at 73:1, under the ratio limit) is refused by both the
// upload check and the package model: no XML part over MaxXMLPart.
func TestExpandingXMLPartRefused(t *testing.T) {
	big := expandingXML(MaxXMLPart + 1<<20)
	doc := build(t, map[string]string{"word/document.xml": ctMain}, []entry{{"word/document.xml", big}}, nil)
	t.Logf("%d MB of XML in a %.1f MB package (%d:1)", len(big)>>20, float64(len(doc))/(1<<20), len(big)/len(doc))
	if len(big)/len(doc) >= MaxRatio {
		t.Fatalf("the test document compresses %d:1: the ratio limit, not the part limit, would refuse it", len(big)/len(doc))
	}
	_, err := docformat.VerifyPackage(bytes.NewReader(doc), int64(len(doc)))
	if !errors.Is(err, docformat.ErrTooLarge) || !strings.Contains(err.Error(), "word/document.xml") {
		t.Errorf("upload check: %v, want too large naming the part", err)
	}
	if _, err := openBytes(doc); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "XML part") {
		t.Errorf("package model: %v, want refused", err)
	}
	// Just under the limit is accepted by both.
	ok := build(t, map[string]string{"word/document.xml": ctMain}, []entry{{"word/document.xml", expandingXML(MaxXMLPart - 1<<20)}}, nil)
	if _, err := docformat.VerifyPackage(bytes.NewReader(ok), int64(len(ok))); err != nil {
		t.Errorf("upload check refuses a %d MB part: %v", (MaxXMLPart-1<<20)>>20, err)
	}
	pk, err := openBytes(ok)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pk.ReadPart("word/document.xml"); err != nil {
		t.Errorf("reading a part under the limit: %v", err)
	}
}
