package pooltest

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
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
