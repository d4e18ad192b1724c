// Package pooltest is test support for the LibreOffice converter: documents
// built to make conversion slow, so tests of the conversion timeout need
// no large file in the repository.
package pooltest

import (
	"archive/zip"
	"bytes"
	"fmt"
	"hash/crc32"
	"io"
)

// TestTimeout is the conversion timeout of tests that convert real
// documents: ten minutes a document, so a loaded machine slows them down
// without failing them. The product's own timeout (120 s by default) is
// tested on its own, with SlowODT and a short timeout.
const TestTimeout = "10m"

// SlowODT builds an .odt that takes LibreOffice far longer than a few
// seconds to convert: one table of rows×8 cells, each its own paragraph
// (tables are the slowest thing Writer lays out), in a small zip. Time
// grows with the square of rows: 500 rows took 3.4 s on a warm instance,
// 2000 rows 63 s.
func SlowODT(rows int) []byte { return PaddedSlowODT(rows, 0) }

// PaddedSlowODT is SlowODT with pad bytes of XML comment in content.xml:
// a document that is large to the converter's timeout rule (which counts
// unpacked XML) without taking longer to convert than SlowODT(rows).
func PaddedSlowODT(rows, pad int) []byte {
	var content bytes.Buffer
	content.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" office:version="1.2"><office:body><office:text><table:table table:name="T"><table:table-column table:number-columns-repeated="8"/>`)
	for r := 0; r < rows; r++ {
		content.WriteString("<table:table-row>")
		for c := 0; c < 8; c++ {
			fmt.Fprintf(&content, "<table:table-cell><text:p>row %d cell %d of a table built to be slow</text:p></table:table-cell>", r, c)
		}
		content.WriteString("</table:table-row>")
	}
	content.WriteString(`</table:table></office:text></office:body></office:document-content>`)
	if pad > 0 {
		content.WriteString("<!--")
		content.Write(bytes.Repeat([]byte("padding "), pad/8+1))
		content.WriteString("-->")
	}
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	// The mimetype entry comes first, stored, with its sizes in the local
	// header (no data descriptor), as ODF requires and sniffers read it.
	mt := []byte("application/vnd.oasis.opendocument.text")
	w, _ := zw.CreateRaw(&zip.FileHeader{Name: "mimetype", Method: zip.Store, CRC32: crc32.ChecksumIEEE(mt),
		CompressedSize64: uint64(len(mt)), UncompressedSize64: uint64(len(mt))})
	w.Write(mt) // a bytes.Buffer does not fail
	for _, f := range []struct{ name, body string }{
		{"META-INF/manifest.xml", `<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`},
		{"content.xml", content.String()},
	} {
		w, _ := zw.Create(f.name)
		w.Write([]byte(f.body))
	}
	zw.Close()
	return b.Bytes()
}

// words is a deterministic stream of made-up words, varied enough that a
// document of them does not compress to nothing.
type words struct{ state uint32 }

var syllables = []string{"ka", "lo", "mi", "ren", "to", "sa", "vel", "in", "dor", "ua", "pe", "st", "ri", "gon", "ma", "el"}

func (w *words) next() string {
	var b []byte
	n := 1 + w.rand()%4
	for range n {
		b = append(b, syllables[w.rand()%uint32(len(syllables))]...)
	}
	return string(b)
}

func (w *words) rand() uint32 {
	w.state = w.state*1664525 + 1013904223 // a fixed LCG: the same document every time
	return w.state >> 8
}

// sentence is about twelve words ending with a full stop.
func (w *words) sentence() string {
	var b bytes.Buffer
	for i := range 12 {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w.next())
	}
	b.WriteString(".")
	return b.String()
}

// LargeRTF builds a text-only RTF of at least size bytes: paragraphs of
// made-up sentences, for measuring conversion time against size.
func LargeRTF(size int) []byte {
	var b bytes.Buffer
	b.WriteString(`{\rtf1\ansi\deff0{\fonttbl{\f0 Times New Roman;}}` + "\n")
	w := &words{state: 1}
	for b.Len() < size {
		b.WriteString(`{\pard `)
		for range 5 {
			b.WriteString(w.sentence())
			b.WriteByte(' ')
		}
		b.WriteString("\\par}\n")
	}
	b.WriteString("}")
	return b.Bytes()
}

// LargeODT builds an .odt of at least size bytes (compressed): paragraphs
// of made-up sentences, for measuring conversion time against size.
func LargeODT(size int) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	writeODTHead(zw)
	w, _ := zw.Create("content.xml")
	io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:text>`)
	words := &words{state: 1}
	for b.Len() < size {
		io.WriteString(w, "<text:p>")
		for range 5 {
			io.WriteString(w, words.sentence()+" ")
		}
		io.WriteString(w, "</text:p>\n")
	}
	io.WriteString(w, `</office:text></office:body></office:document-content>`)
	zw.Close()
	return b.Bytes()
}

// writeODTHead writes the mimetype entry first, stored, with its sizes in
// the local header (no data descriptor), as ODF requires and sniffers
// read it, and a manifest naming content.xml.
func writeODTHead(zw *zip.Writer) {
	mt := []byte("application/vnd.oasis.opendocument.text")
	w, _ := zw.CreateRaw(&zip.FileHeader{Name: "mimetype", Method: zip.Store, CRC32: crc32.ChecksumIEEE(mt),
		CompressedSize64: uint64(len(mt)), UncompressedSize64: uint64(len(mt))})
	w.Write(mt) // a bytes.Buffer does not fail
	w, _ = zw.Create("META-INF/manifest.xml")
	io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`)
}
