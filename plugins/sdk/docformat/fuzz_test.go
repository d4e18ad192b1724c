package docformat

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzVerifyPackage feeds the whole-file check (RTF group balance, ODT and
// DOCX zip checks, OLE2 directory) arbitrary bytes: it never panics,
// answers a format or an error (never both), every error is one of the
// package's kinds, and a format it accepts agrees with what Sniff said
// from the head (a zip is tentatively DOCX until its directory is read).
func FuzzVerifyPackage(f *testing.F) {
	f.Add([]byte(`{\rtf1\ansi{\fonttbl{\f0 Times;}}\f0 hello \'e9{\*\x y}}`))
	f.Add([]byte(`{\rtf1 {unclosed}`))
	f.Add([]byte(`{\rtf1\bin4 }}}}}`))
	f.Add(buildZip(f, part{"mimetype", "application/vnd.oasis.opendocument.text"},
		part{"META-INF/manifest.xml", `<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>`},
		part{"content.xml", "<office:document-content/>"}))
	f.Add([]byte(zipHead("mimetype", "application/vnd.oasis.opendocument.text")))
	f.Add(buildZip(f, ooxml("word/document.xml", wordMain,
		"http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument")...))
	f.Add([]byte("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := Limits{MaxUnpacked: 1 << 20, MaxEntries: 100, MaxRatio: 200, RatioFloor: 64 << 10}
		format, err := VerifyPackageLimits(bytes.NewReader(data), int64(len(data)), lim)
		if (format == "") == (err == nil) {
			t.Fatalf("VerifyPackage = %q, %v: exactly one must be set", format, err)
		}
		if err != nil {
			if !errors.Is(err, ErrUnsupported) && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrEncrypted) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("error of no known kind: %v", err)
			}
			return
		}
		sniffed, err := Sniff(data[:min(len(data), SniffSize)])
		if err != nil {
			t.Fatalf("verified as %s, but Sniff refused the head: %v", format, err)
		}
		if sniffed != format && sniffed != DOCX {
			t.Fatalf("verified as %s, sniffed as %s", format, sniffed)
		}
	})
}
