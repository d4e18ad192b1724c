package xmlscan

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Unescape decodes the five predefined entities and character references.
// Any other entity is an error: without a DTD none can be defined.
func Unescape(b []byte) (string, error) {
	i := indexByte(b, '&')
	if i < 0 {
		return string(b), nil
	}
	var sb strings.Builder
	sb.Grow(len(b))
	for {
		sb.Write(b[:i])
		b = b[i:]
		j := indexByte(b, ';')
		if j < 0 {
			return "", fmt.Errorf("xml: unterminated entity %q", truncate(b))
		}
		ent := string(b[1:j])
		switch ent {
		case "lt":
			sb.WriteByte('<')
		case "gt":
			sb.WriteByte('>')
		case "amp":
			sb.WriteByte('&')
		case "quot":
			sb.WriteByte('"')
		case "apos":
			sb.WriteByte('\'')
		default:
			if len(ent) < 2 || ent[0] != '#' {
				return "", fmt.Errorf("xml: undefined entity &%s;", ent)
			}
			var n uint64
			var err error
			if ent[1] == 'x' || ent[1] == 'X' {
				n, err = strconv.ParseUint(ent[2:], 16, 32)
			} else {
				n, err = strconv.ParseUint(ent[1:], 10, 32)
			}
			if err != nil || !ValidChar(rune(n)) {
				return "", fmt.Errorf("xml: bad character reference &%s;", ent)
			}
			sb.WriteRune(rune(n))
		}
		b = b[j+1:]
		i = indexByte(b, '&')
		if i < 0 {
			sb.Write(b)
			return sb.String(), nil
		}
	}
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

func truncate(b []byte) []byte {
	if len(b) > 20 {
		return b[:20]
	}
	return b
}

// ValidChar reports whether r may appear in an XML 1.0 document.
func ValidChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		(r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF)
}

// EscapeText appends s escaped for character data or attribute values,
// dropping characters XML cannot carry, so output is always well formed.
func EscapeText(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '<':
				dst = append(dst, "&lt;"...)
			case c == '>':
				dst = append(dst, "&gt;"...)
			case c == '&':
				dst = append(dst, "&amp;"...)
			case c == '"':
				dst = append(dst, "&quot;"...)
			case c < 0x20 && c != '\t' && c != '\n' && c != '\r':
				// not representable in XML 1.0: dropped
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError || n > 1 {
			if ValidChar(r) {
				dst = append(dst, s[i:i+n]...)
			}
		}
		i += n
	}
	return dst
}

// checkEntities reports an error for any entity reference other than the
// predefined ones and valid character references, without allocating.
func checkEntities(b []byte) error {
	for {
		i := indexByte(b, '&')
		if i < 0 {
			return nil
		}
		b = b[i:]
		j := indexByte(b, ';')
		if j < 0 || j > 12 {
			return fmt.Errorf("xml: bad entity reference %q", truncate(b))
		}
		ent := b[1:j]
		switch string(ent) {
		case "lt", "gt", "amp", "quot", "apos":
		default:
			if _, err := Unescape(b[:j+1]); err != nil {
				return err
			}
		}
		b = b[j+1:]
	}
}
