package rtl

import (
	"bytes"
	"io"
	"unicode"
	"unicode/utf8"

	"github.com/dragoman-translate/dragoman/adapters/ooxml/xmlscan"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// nothingToDo decides, streaming each part through the tokenizer and
// building no tree, that a job needs no layout at all: the target and the
// source language are left to right and no story part nor the styles hold
// a direction flag (w:bidi, w:rtl, w:bidiVisual, in any namespace and with
// any value) or a letter of a right-to-left script. Those are the only
// things that make the tree scan (direction, relevant) call the job
// relevant, so where this says true the tree scan would report nil and copy
// the document as it came; anything it cannot read leaves the decision to
// the tree scan, which reports the error as before. A 127 MB document.xml
// of an English→Spanish job is then scanned in a few kilobytes instead of
// gigabytes of tree (issue 15 item 3, issue 13 item 4).
func (l *Layout) nothingToDo(pk *pkg, req ports.LayoutRequest) bool {
	m, err := resolveMode(req)
	if err != nil || m.targetRTL || m.sourceLangRTL {
		return false
	}
	if pk.mainDoc == "" || pk.File(pk.mainDoc) == nil {
		return false
	}
	for _, name := range append([]string{"word/styles.xml"}, pk.stories...) {
		if pk.File(name) == nil {
			continue
		}
		if found, err := pk.scanDirection(name); err != nil || found {
			return false
		}
	}
	return true
}

// scanDirection streams one part and reports whether it holds a direction
// element or right-to-left letters.
func (pk *pkg) scanDirection(name string) (bool, error) {
	rc, err := pk.Open(pk.File(name))
	if err != nil {
		return false, err
	}
	defer rc.Close()
	return hasDirection(rc)
}

// hasDirection is scanDirection on a stream.
func hasDirection(r io.Reader) (bool, error) {
	s := xmlscan.New(r)
	for {
		tok, err := s.Next()
		if err == io.EOF {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		switch tok.Kind {
		case xmlscan.Start, xmlscan.Empty:
			switch string(xmlscan.Local(tok.Name)) {
			case "bidi", "rtl", "bidiVisual":
				return true, nil
			}
		case xmlscan.Text:
			if rtlLetters(tok.Raw, true) {
				return true, nil
			}
		case xmlscan.CData:
			if rtlLetters(tok.Raw, false) {
				return true, nil
			}
		}
	}
}

// rtlLetters: raw text (escaped when escaped is set) holds a letter of a
// right-to-left script.
func rtlLetters(raw []byte, escaped bool) bool {
	if escaped && bytes.IndexByte(raw, '&') >= 0 {
		s, err := xmlscan.Unescape(raw)
		if err != nil {
			return true // unreadable: let the tree scan decide
		}
		raw = []byte(s)
	}
	for i := 0; i < len(raw); {
		if raw[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(raw[i:])
		i += n
		if inRTLBlock(r) && unicode.IsLetter(r) {
			return true
		}
	}
	return false
}
