package docformat

import (
	"archive/zip"
	"bytes"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	ctDocx = `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
		`<Override PartName="/%s" ContentType="%s"/></Types>`
	relsTmpl = `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
		`<Relationship Id="rId1" Type="%s" Target="%s"/></Relationships>`
	wordMain = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
)

type part struct{ name, body string }

func buildZip(t testing.TB, parts ...part) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, p := range parts {
		w, err := zw.Create(p.name)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, p.body)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func ooxml(mainPath, contentType, relType string) []part {
	return []part{
		{"[Content_Types].xml", sprintf(ctDocx, mainPath, contentType)},
		{"_rels/.rels", sprintf(relsTmpl, relType, mainPath)},
		{mainPath, "<w:document/>"},
	}
}

func sprintf(format string, args ...any) string {
	r := format
	for _, a := range args {
		r = strings.Replace(r, "%s", a.(string), 1)
	}
	return r
}

func verifyBytes(data []byte, lim Limits) (Format, error) {
	return VerifyPackageLimits(bytes.NewReader(data), int64(len(data)), lim)
}

func TestVerifyOOXMLPackages(t *testing.T) {
	cases := []struct {
		name  string
		parts []part
		want  Format
		err   error
		msg   string
	}{
		{"transitional docx", ooxml("word/document.xml", wordMain, relOfficeDocument), DOCX, nil, ""},
		{"strict docx, main part found via rels", ooxml("word/main.xml", wordMain, relOfficeDocumentStrict), DOCX, nil, ""},
		{"docm", ooxml("word/document.xml", "application/vnd.ms-word.document.macroEnabled.main+xml", relOfficeDocument), DOCX, nil, ""},
		{"xlsx", ooxml("xl/workbook.xml", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml", relOfficeDocument), "", ErrUnsupported, "Excel"},
		{"pptx", ooxml("ppt/presentation.xml", "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml", relOfficeDocument), "", ErrUnsupported, "PowerPoint"},
		{"main part missing", ooxml("word/document.xml", wordMain, relOfficeDocument)[:2], "", ErrCorrupt, "missing"},
		{"no rels, word/document.xml", []part{{"[Content_Types].xml", "<Types/>"}, {"word/document.xml", "<w:document/>"}}, DOCX, nil, ""},
		{"no rels, no document", []part{{"[Content_Types].xml", "<Types/>"}}, "", ErrCorrupt, "without"},
		{"broken rels xml", []part{{"[Content_Types].xml", "<Types/>"}, {"_rels/.rels", "<Relationships><oops"}}, "", ErrCorrupt, "_rels"},
		{"plain zip", []part{{"readme.txt", "hello"}}, "", ErrUnsupported, "zip archive"},
		{"odt", []part{{"mimetype", odfText}, {"content.xml", "<office:document-content/>"}, {"META-INF/manifest.xml", "<manifest:manifest/>"}}, ODT, nil, ""},
		{"encrypted odt", []part{{"mimetype", odfText}, {"content.xml", "x"}, {"META-INF/manifest.xml", `<manifest:file-entry><manifest:encryption-data manifest:checksum-type="SHA1/1K"/></manifest:file-entry>`}}, "", ErrEncrypted, "password"},
		{"ods inside", []part{{"content.xml", "x"}, {"mimetype", "application/vnd.oasis.opendocument.spreadsheet"}}, "", ErrUnsupported, "spreadsheet"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := verifyBytes(buildZip(t, c.parts...), DefaultLimits)
			if got != c.want || !errors.Is(err, c.err) || (c.err == nil) != (err == nil) {
				t.Fatalf("VerifyPackage = %q, %v; want %q, %v", got, err, c.want, c.err)
			}
			if err != nil && !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("error %q does not mention %q", err, c.msg)
			}
		})
	}
}

func TestZipBombRatio(t *testing.T) {
	parts := append(ooxml("word/document.xml", wordMain, relOfficeDocument),
		part{"word/media/bomb.xml", strings.Repeat("\x00", 8<<20)}) // deflates ~1000:1
	_, err := verifyBytes(buildZip(t, parts...), DefaultLimits)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "bomb.xml") {
		t.Fatalf("err = %v, want ErrTooLarge naming the entry", err)
	}
}

// Declared sizes are what the guard sees; write entries whose central
// directory claims 600 MiB each without storing them.
func TestZipBombDeclaredTotal(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, p := range ooxml("word/document.xml", wordMain, relOfficeDocument) {
		w, _ := zw.Create(p.name)
		io.WriteString(w, p.body)
	}
	fake := make([]byte, 3<<20+1) // ratio just under the limit of 200
	for _, name := range []string{"word/a.xml", "word/b.xml"} {
		w, err := zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Deflate,
			CompressedSize64: uint64(len(fake)), UncompressedSize64: 600 << 20})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(fake)
	}
	zw.Close()
	_, err := verifyBytes(buf.Bytes(), DefaultLimits)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "uncompressed") {
		t.Fatalf("err = %v, want ErrTooLarge for the declared total", err)
	}
}

func TestZipEntryLimit(t *testing.T) {
	parts := ooxml("word/document.xml", wordMain, relOfficeDocument)
	for i := 0; i < 20; i++ {
		parts = append(parts, part{sprintf("word/media/i%s.png", string(rune('a'+i))), "x"})
	}
	lim := DefaultLimits
	lim.MaxEntries = 10
	if _, err := verifyBytes(buildZip(t, parts...), lim); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	lim.MaxEntries = 23
	if _, err := verifyBytes(buildZip(t, parts...), lim); err != nil {
		t.Fatalf("23 entries within the limit: %v", err)
	}
}

// The guard trusts declared sizes because archive/zip refuses to inflate an
// entry past its declared size; this pins that behaviour of the library.
func TestDeclaredSizeBindsReads(t *testing.T) {
	body := []byte(strings.Repeat("A", 1000))
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.CreateRaw(&zip.FileHeader{Name: "word/document.xml", Method: zip.Store,
		CRC32: crc32.ChecksumIEEE(body), CompressedSize64: uint64(len(body)), UncompressedSize64: 10})
	w.Write(body)
	zw.Close()
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := zr.File[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, rc)
	if err == nil || n > 10 {
		t.Fatalf("read %d bytes, err %v: a lying entry must fail at its declared size", n, err)
	}
}

func TestTruncatedPackagesAreCorrupt(t *testing.T) {
	full := buildZip(t, ooxml("word/document.xml", wordMain, relOfficeDocument)...)
	for _, cut := range []int{len(full) - 1, len(full) - 22, len(full) / 2, 40} {
		_, err := verifyBytes(full[:cut], DefaultLimits)
		if !errors.Is(err, ErrCorrupt) {
			t.Errorf("cut at %d of %d: err = %v, want ErrCorrupt", cut, len(full), err)
		}
	}
}

func TestRTFStructure(t *testing.T) {
	cases := []struct {
		rtf string
		ok  bool
	}{
		{`{\rtf1 hello}`, true},
		{`{\rtf1 {\b bold} \{ not a group \} \\}`, true},
		{`{\rtf1 {\pict\bin4 {{{{}}`, true},      // \bin data holds braces
		{`{\rtf1 {\pict\bin4 }}}}}}`, true},      // and closing ones
		{"{\\rtf1 {\\b bold}", false},            // truncated
		{`{\rtf1 }}`, false},                     // closes too much
		{`{\rtf1 {\pict\bin100 }}`, false},       // binary data cut short
		{"{\\rtf1 \\u1488?\\'e0}\r\n\x00", true}, // trailing bytes after the document
	}
	for _, c := range cases {
		err := verifyRTF(strings.NewReader(c.rtf))
		if (err == nil) != c.ok || (err != nil && !errors.Is(err, ErrCorrupt)) {
			t.Errorf("verifyRTF(%q) = %v, want ok=%v", c.rtf, err, c.ok)
		}
	}
}

func BenchmarkVerifyDOCX(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(corpusDir, "poi-45690.docm"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := VerifyPackage(bytes.NewReader(data), int64(len(data))); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerifyRTF(b *testing.B) {
	data := []byte(`{\rtf1\ansi` + strings.Repeat(`{\b bold} \'e0\u1488? text text text\par `, 1<<15) + "}")
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := VerifyPackage(bytes.NewReader(data), int64(len(data))); err != nil {
			b.Fatal(err)
		}
	}
}

// Entry names that leave the package, and entries given twice, are refused
// at upload (issue 26: they were copied into the translated .docx).
func TestUnsafeAndDuplicateEntries(t *testing.T) {
	base := ooxml("word/document.xml", wordMain, relOfficeDocument)
	if _, err := verifyBytes(buildZip(t, base...), DefaultLimits); err != nil {
		t.Fatalf("clean package: %v", err)
	}
	for _, extra := range []part{
		{"word/document.xml", "<w:document/>"}, {"WORD/Document.xml", "<w:document/>"},
		{"../evil.xml", "x"}, {"word/../../evil.xml", "x"}, {"/etc/evil.xml", "x"}, {`word\evil.xml`, "x"},
		{`C:/evil.xml`, "x"}, {"word//evil.xml", "x"}, {"./evil.xml", "x"}, {"word/evil\x00.xml", "x"},
	} {
		_, err := verifyBytes(buildZip(t, append(append([]part{}, base...), extra)...), DefaultLimits)
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "zip entry") {
			t.Errorf("entry %q: %v, want refused as corrupt naming the entry", extra.name, err)
		}
	}
	// A folder entry and names with dots inside are fine.
	ok := append(append([]part{}, base...), part{"word/media/", ""}, part{"word/media/image.1.png", "x"}, part{"customXml/..item.xml", "x"})
	if _, err := verifyBytes(buildZip(t, ok...), DefaultLimits); err != nil {
		t.Errorf("ordinary names: %v", err)
	}
}
