package ooxml

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// FuzzOpen feeds the package reader arbitrary bytes: it never panics, every
// refusal wraps ErrInvalid, and an opened package reads every part within
// the limits and writes back a package that opens again with the same
// main part.
func FuzzOpen(f *testing.F) {
	t := &testing.T{}
	f.Add(sample(t))
	f.Add(build(t, map[string]string{"word/document.xml": ctMain}, []entry{{"word/document.xml", body}}, nil))
	f.Add(build(t, nil, []entry{{"word/document.xml", body}}, nil))
	f.Add([]byte("PK\x03\x04"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		pk, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("refusal does not wrap ErrInvalid: %v", err)
			}
			return
		}
		if pk.Main() == "" || pk.File(pk.Main()) == nil {
			t.Fatalf("opened without a main part (%q)", pk.Main())
		}
		for _, fl := range pk.Files() {
			rc, err := pk.Open(fl)
			if err != nil {
				if !errors.Is(err, ErrInvalid) {
					t.Fatalf("part %s: %v", fl.Name, err)
				}
				continue
			}
			_, err = io.Copy(io.Discard, rc)
			rc.Close()
			if err != nil && !errors.Is(err, ErrInvalid) {
				t.Fatalf("reading part %s: error not wrapping ErrInvalid: %v", fl.Name, err)
			}
		}
		for _, s := range pk.Stories() {
			if b, err := pk.ReadPart(s); err == nil {
				Parse(b) // must not panic
			}
		}
		var out bytes.Buffer
		if err := pk.Write(&out, nil); err != nil {
			return // a part that cannot be copied fails the write, cleanly
		}
		again, err := Open(bytes.NewReader(out.Bytes()), int64(out.Len()))
		if err != nil {
			t.Fatalf("a written package does not open again: %v", err)
		}
		if again.Main() != pk.Main() {
			t.Fatalf("main part %q after writing, was %q", again.Main(), pk.Main())
		}
	})
}
