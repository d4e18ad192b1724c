package docformat

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestSniffHeads(t *testing.T) {
	cases := []struct {
		name, head string
		want       Format
		err        error
		msg        string // part of the error message
	}{
		{"empty", "", "", ErrUnsupported, "empty"},
		{"ole2", "\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1rest", DOC, nil, ""},
		{"rtf", `{\rtf1\ansi hello}`, RTF, nil, ""},
		{"rtf after BOM and space", "\xEF\xBB\xBF \r\n\t{\\rtf1 x}", RTF, nil, ""},
		{"rtf-like", `{\rt hello}`, "", ErrUnsupported, ""},
		{"wordml by element", `<?xml version="1.0"?><?mso-application progid="Word.Document"?><w:wordDocument xmlns:w="x">`, WordML, nil, ""},
		{"wordml by namespace", `<?xml version="1.0"?><doc xmlns:a="http://schemas.microsoft.com/office/word/2003/wordml">`, WordML, nil, ""},
		{"flat odt", `<?xml version="1.0"?><office:document office:mimetype="application/vnd.oasis.opendocument.text">`, "", ErrUnsupported, ".fodt"},
		{"html", "<!DOCTYPE html><html><body>hi</body></html>", "", ErrUnsupported, "HTML"},
		{"other xml", `<?xml version="1.0"?><svg/>`, "", ErrUnsupported, "XML"},
		{"pdf", "%PDF-1.7\n...", "", ErrUnsupported, "PDF"},
		{"png", "\x89PNG\r\n\x1a\n", "", ErrUnsupported, "PNG"},
		{"text", "Just some plain text.", "", ErrUnsupported, "not a known document format"},
		{"zip header cut", "PK\x03\x04\x14\x00", "", ErrCorrupt, "truncated"},
		{"odt", zipHead("mimetype", "application/vnd.oasis.opendocument.text"), ODT, nil, ""},
		{"ott", zipHead("mimetype", "application/vnd.oasis.opendocument.text-template"), ODT, nil, ""},
		{"ods", zipHead("mimetype", "application/vnd.oasis.opendocument.spreadsheet"), "", ErrUnsupported, "spreadsheet"},
		{"odp", zipHead("mimetype", "application/vnd.oasis.opendocument.presentation"), "", ErrUnsupported, "presentation"},
		{"epub", zipHead("mimetype", "application/epub+zip"), "", ErrUnsupported, "epub"},
		{"junk mimetype", zipHead("mimetype", "\x89PNG\x00\x01"), "", ErrCorrupt, "mimetype"},
		{"other zip", zipHead("[Content_Types].xml", "<Types/>"), DOCX, nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Sniff([]byte(c.head))
			if got != c.want || !errors.Is(err, c.err) || (c.err == nil) != (err == nil) {
				t.Fatalf("Sniff = %q, %v; want %q, %v", got, err, c.want, c.err)
			}
			if err != nil && !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("error %q does not mention %q", err, c.msg)
			}
		})
	}
}

// zipHead builds the start of a zip: one stored local file entry.
func zipHead(name, content string) string {
	var b strings.Builder
	le32 := func(v int) { b.Write([]byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)}) }
	le16 := func(v int) { b.Write([]byte{byte(v), byte(v >> 8)}) }
	b.WriteString("PK\x03\x04")
	le16(20)           // version
	le16(0)            // flags
	le16(0)            // stored
	le32(0)            // time, date
	le32(0)            // crc (not checked by Sniff)
	le32(len(content)) // compressed size
	le32(len(content)) // uncompressed size
	le16(len(name))
	le16(0)
	b.WriteString(name)
	b.WriteString(content)
	return b.String()
}

func TestPrintableKeepsMessagesSafe(t *testing.T) {
	got := printable("a\x00b\nc\x7f" + strings.Repeat("é", 100))
	if strings.ContainsAny(got, "\x00\n\x7f") {
		t.Fatalf("control characters kept: %q", got)
	}
	if n := len([]rune(got)); n != 81 {
		t.Fatalf("length %d runes, want 80 + ellipsis", n)
	}
}

func FuzzSniff(f *testing.F) {
	f.Add([]byte("PK\x03\x04"))
	f.Add([]byte(zipHead("mimetype", "application/vnd.oasis.opendocument.text")))
	f.Add([]byte(`{\rtf1}`))
	f.Fuzz(func(t *testing.T, head []byte) {
		format, err := Sniff(head)
		if (format == "") == (err == nil) {
			t.Fatalf("Sniff = %q, %v: exactly one must be set", format, err)
		}
	})
}

// A streaming zip writer (Go's zip.Writer.CreateHeader, many others)
// stores the mimetype entry with its sizes in a data descriptor after the
// data, leaving 0 in the local header: still an .odt (it was refused as
// "the mimetype entry does not hold a media type").
func TestODTWithDataDescriptor(t *testing.T) {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: "mimetype", Method: zip.Store})
	io.WriteString(w, "application/vnd.oasis.opendocument.text")
	w, _ = zw.Create("META-INF/manifest.xml")
	io.WriteString(w, `<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>`)
	w, _ = zw.Create("content.xml")
	io.WriteString(w, `<office:document-content/>`)
	zw.Close()
	if f, err := Sniff(b.Bytes()); f != ODT || err != nil {
		t.Fatalf("Sniff = %q, %v, want odt", f, err)
	}
	if f, err := VerifyPackage(bytes.NewReader(b.Bytes()), int64(b.Len())); f != ODT || err != nil {
		t.Fatalf("VerifyPackage = %q, %v, want odt", f, err)
	}
}
