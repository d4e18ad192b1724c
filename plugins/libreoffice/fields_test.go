package main

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/plugins/libreoffice/pool/pooltest"
)

// issue 15 through the real plugin: an RTF whose INCLUDEPICTURE and
// INCLUDETEXT fields name local files converts, and no part of the
// output holds either file's unique marker (LibreOffice used to read the
// picture and embed it).
func TestRTFFieldsNamingLocalFilesLeakNothing(t *testing.T) {
	c, closeAndCheck := startHost(t)
	secrets := t.TempDir()
	picMarker, txtMarker := "DRAGOMAN-SECRET-PIC-7f3a91", "DRAGOMAN-SECRET-TXT-c04e52"
	pic, txt := filepath.Join(secrets, "photo.png"), filepath.Join(secrets, "notes.txt")
	if err := os.WriteFile(pic, pooltest.MarkerPNG(picMarker), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(txt, []byte(txtMarker+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rtf := pooltest.LocalFieldsRTF(pic, txt)
	var out bytes.Buffer
	if err := c.Convert(context.Background(), "rtf", bytes.NewReader(rtf), &out); err != nil {
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
	for _, want := range []string{"Picture by URL", "Picture by path", "included"} {
		if !bytes.Contains(all.Bytes(), []byte(want)) {
			t.Errorf("text %q lost", want)
		}
	}
	closeAndCheck()
}
