package httpguard

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

const form = "--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.rtf\"\r\n\r\n{\\rtf1 x}\r\n" +
	"--B\r\nContent-Disposition: form-data; name=\"target_lang\"\r\n\r\nHebrew\r\n--B--\r\n"

// readAll reads every part and returns the fields read and the error
// that ended the body.
func readAll(body io.Reader) (map[string]string, error) {
	m := NewMultipart(body, "B")
	got := map[string]string{}
	for {
		p, err := m.NextPart()
		if err != nil {
			return got, err
		}
		b, err := io.ReadAll(p)
		if err != nil {
			return got, err
		}
		got[p.FormName()] = string(b)
	}
}

// A body cut anywhere, inside a part's headers too, is ErrTruncated or
// io.ErrUnexpectedEOF, never a clean end; the whole body ends with io.EOF,
// however the reads split it.
func TestMultipartTellsACutBody(t *testing.T) {
	for _, r := range []io.Reader{strings.NewReader(form), iotest.OneByteReader(strings.NewReader(form)),
		iotest.HalfReader(strings.NewReader(form)), strings.NewReader(strings.TrimSuffix(form, "\r\n"))} {
		got, err := readAll(r)
		if !errors.Is(err, io.EOF) || got["target_lang"] != "Hebrew" {
			t.Fatalf("whole body: %v, %v", got, err)
		}
	}
	end := strings.Index(form, "--B--")
	for cut := 1; cut < end+4; cut++ {
		for _, r := range []io.Reader{strings.NewReader(form[:cut]), iotest.OneByteReader(strings.NewReader(form[:cut]))} {
			got, err := readAll(r)
			if !errors.Is(err, io.ErrUnexpectedEOF) && (err == nil || errors.Is(err, io.EOF)) {
				t.Fatalf("cut at %d (%q…): fields %v, error %v; want unexpected EOF", cut, form[max(cut-12, 0):cut], got, err)
			}
		}
	}
	// The case of issue 26: cut inside the second part's headers.
	cut := strings.Index(form, "name=\"target_l")
	if _, err := readAll(strings.NewReader(form[:cut])); !errors.Is(err, ErrTruncated) {
		t.Errorf("cut in a part's headers: %v, want ErrTruncated", err)
	}
	// An empty form (only the closing delimiter) is whole.
	if _, err := readAll(strings.NewReader("--B--\r\n")); err != io.EOF {
		t.Errorf("empty form: %v", err)
	}
}
