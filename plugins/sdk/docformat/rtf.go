package docformat

import (
	"bufio"
	"io"
	"strconv"
)

// verifyRTF checks that every group opened is closed, skipping escaped
// braces and \binN data. A truncated RTF ends inside a group.
func verifyRTF(r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	depth := 0
	for {
		c, err := br.ReadByte()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		switch c {
		case '{':
			depth++
		case '}':
			depth--
			if depth < 0 {
				return corrupt("RTF closes a group it never opened")
			}
		case '\\':
			if err := skipControl(br); err != nil && err != io.EOF {
				return err
			}
		}
	}
	if depth > 0 {
		return corrupt("RTF is truncated: unclosed groups: %d", depth)
	}
	return nil
}

// skipControl consumes a control symbol or word after a backslash and, for
// \binN, the N raw bytes that follow it.
func skipControl(br *bufio.Reader) error {
	c, err := br.ReadByte()
	if err != nil {
		return err
	}
	if !isASCIILetter(c) {
		return nil // control symbol such as \{ \} \\ \'
	}
	word := []byte{c}
	for {
		c, err = br.ReadByte()
		if err != nil {
			return err
		}
		if !isASCIILetter(c) {
			break
		}
		if len(word) < 32 {
			word = append(word, c)
		}
	}
	var num []byte
	if c == '-' || isDigit(c) {
		for {
			num = append(num, c)
			if c, err = br.ReadByte(); err != nil {
				return err
			}
			if !isDigit(c) || len(num) > 12 {
				break
			}
		}
	}
	if c != ' ' { // a space delimits the word and is consumed with it
		if err := br.UnreadByte(); err != nil {
			return err
		}
	}
	if string(word) == "bin" {
		n, _ := strconv.ParseInt(string(num), 10, 64)
		if n > 0 {
			if _, err := br.Discard(int(min(n, 1<<31))); err != nil {
				return corrupt("RTF is truncated inside binary data")
			}
		}
	}
	return nil
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool       { return '0' <= c && c <= '9' }
