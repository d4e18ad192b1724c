// Package pooltest is test support for the LibreOffice converter: documents
// built to make conversion slow, so tests of the conversion timeout need
// no large file in the repository.
package pooltest

import (
	"archive/zip"
	"bytes"
	"fmt"
	"hash/crc32"
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
func SlowODT(rows int) []byte {
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
