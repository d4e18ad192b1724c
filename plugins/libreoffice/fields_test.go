package main

import (
	"archive/zip"
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pngWithText is a valid 1×1 PNG carrying text in a tEXt chunk, so a
// picture that LibreOffice reads and embeds shows in the output's bytes.
func pngWithText(text string) []byte {
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
	zw.Write([]byte{0, 0})
	zw.Close()
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	b.Write(chunk("IHDR", []byte{0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0}))
	b.Write(chunk("tEXt", []byte("Comment\x00"+text)))
	b.Write(chunk("IDAT", idat.Bytes()))
	b.Write(chunk("IEND", nil))
	return b.Bytes()
}

// issue 15 through the real plugin: an RTF whose INCLUDEPICTURE and
// INCLUDETEXT fields name local files converts, and no part of the
// output holds either file's unique marker (LibreOffice used to read the
// picture and embed it).
func TestRTFFieldsNamingLocalFilesLeakNothing(t *testing.T) {
	c, closeAndCheck := startHost(t)
	secrets := t.TempDir()
	picMarker, txtMarker := "DRAGOMAN-SECRET-PIC-7f3a91", "DRAGOMAN-SECRET-TXT-c04e52"
	pic, txt := filepath.Join(secrets, "photo.png"), filepath.Join(secrets, "notes.txt")
	if err := os.WriteFile(pic, pngWithText(picMarker), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(txt, []byte(txtMarker+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rtf := `{\rtf1\ansi\deff0{\fonttbl{\f0 Arial;}}
{\pard Picture {\field{\*\fldinst { INCLUDEPICTURE "file://` + pic + `" \\d }}{\fldrslt { }}}\par}
{\pard Path {\field{\*\fldinst { INCLUDEPICTURE "` + pic + `" }}{\fldrslt { }}}\par}
{\pard Text {\field{\*\fldinst { INCLUDETEXT "` + txt + `" }}{\fldrslt {included}}}\par}
}`
	var out bytes.Buffer
	if err := c.Convert(context.Background(), "rtf", strings.NewReader(rtf), &out); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(out.Bytes()), int64(out.Len()))
	if err != nil {
		t.Fatalf("output is not a zip: %v", err)
	}
	var all bytes.Buffer
	for _, f := range zr.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(&all, r)
		r.Close()
		if strings.HasPrefix(f.Name, "word/media/") {
			t.Errorf("the output embeds %s: a picture read from the file system", f.Name)
		}
	}
	for _, m := range []string{picMarker, txtMarker} {
		if bytes.Contains(all.Bytes(), []byte(m)) {
			t.Errorf("the output holds %s, read from a local file", m)
		}
	}
	for _, want := range []string{"Picture", "Path", "included"} {
		if !bytes.Contains(all.Bytes(), []byte(want)) {
			t.Errorf("text %q lost", want)
		}
	}
	closeAndCheck()
}
