package pooltest

import (
	"archive/zip"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
)

// MarkerPNG is a valid 1×1 PNG carrying marker in a tEXt chunk, so a
// picture LibreOffice reads and embeds shows in the output's bytes.
func MarkerPNG(marker string) []byte {
	chunk := func(typ string, data []byte) []byte {
		var b bytes.Buffer
		binary.Write(&b, binary.BigEndian, uint32(len(data)))
		b.WriteString(typ)
		b.Write(data)
		binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(typ), data...)))
		return b.Bytes()
	}
	var idat bytes.Buffer
	zw := zlib.NewWriter(&idat)
	zw.Write([]byte{0, 0}) // filter byte, one grey pixel
	zw.Close()
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	b.Write(chunk("IHDR", []byte{0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0}))
	b.Write(chunk("tEXt", []byte("Comment\x00"+marker)))
	b.Write(chunk("IDAT", idat.Bytes()))
	b.Write(chunk("IEND", nil))
	return b.Bytes()
}

// LocalFieldsRTF is an RTF whose fields name the picture pic and the
// text file txt in every form a field can name a local file. Its text
// outside the fields: "Picture by URL", "Picture by path", "Split",
// "Text"; the fields' own results: "included", "linked".
func LocalFieldsRTF(pic, txt string) []byte {
	return []byte(`{\rtf1\ansi\deff0{\fonttbl{\f0 Arial;}}
{\pard Picture by URL {\field{\*\fldinst { INCLUDEPICTURE "file://` + pic + `" \\d }}{\fldrslt { }}}\par}
{\pard Picture by path {\field{\*\fldinst { INCLUDEPICTURE "` + pic + `" }}{\fldrslt { }}}\par}
{\pard Split {\field{\*\fldinst {INCLUDE}{PICTURE "file://` + pic + `"}}{\fldrslt { }}}\par}
{\pard Text {\field{\*\fldinst { INCLUDETEXT "` + txt + `" }}{\fldrslt {included}}}\par}
{\pard Linked {\field{\*\fldinst { LINK Word.Document.8 "` + txt + `" "" \\a }}{\fldrslt {linked}}}\par}
}`)
}

// NestedTablesODT is a small .odt whose body is depth tables nested one
// in another, each of one cell: about 10 KB for 3,000 levels, and
// LibreOffice's layout time grows much faster than its size (issue 26:
// 3,000 levels held an instance for the whole 120 s timeout).
func NestedTablesODT(depth int) []byte {
	var content bytes.Buffer
	content.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" office:version="1.2"><office:body><office:text>`)
	for range depth {
		content.WriteString(`<table:table><table:table-column/><table:table-row><table:table-cell>`)
	}
	content.WriteString(`<text:p>deep</text:p>`)
	for range depth {
		content.WriteString(`</table:table-cell></table:table-row></table:table>`)
	}
	content.WriteString(`</office:text></office:body></office:document-content>`)
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	writeODTHead(zw)
	w, _ := zw.Create("content.xml")
	w.Write(content.Bytes())
	zw.Close()
	return b.Bytes()
}

// NestedTablesRTF is NestedTablesODT in RTF: depth levels of one-cell
// tables (\itap), the innermost holding a paragraph.
func NestedTablesRTF(depth int) []byte {
	var b bytes.Buffer
	b.WriteString(`{\rtf1\ansi\deff0{\fonttbl{\f0 Arial;}}` + "\n")
	b.WriteString(fmt.Sprintf(`\pard\intbl\itap%d deep\nestcell{\*\nesttableprops\trowd\cellx%d\nestrow}`+"\n", depth, 1000))
	for level := depth - 1; level >= 1; level-- {
		if level == 1 {
			b.WriteString(`\pard\intbl\itap1\cell\trowd\cellx9000\row` + "\n")
			break
		}
		b.WriteString(fmt.Sprintf(`\pard\intbl\itap%d\nestcell{\*\nesttableprops\trowd\cellx%d\nestrow}`+"\n", level, 1000+level))
	}
	b.WriteString(`\pard after\par}`)
	return b.Bytes()
}
