// Package pdftext reads the text of PDF renditions with poppler's
// pdftotext (the Debian package poppler-utils), in the order the PDF
// draws it (-raw: a text box's lines stay together), pages separated by
// form feeds. It implements ports.PDFText.
package pdftext

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// Reader runs pdftotext.
type Reader struct {
	Bin string // "" is pdftotext on PATH
}

var _ ports.PDFText = Reader{}

// maxText bounds the text read from one PDF (a rendition of a document
// the service accepted: far below this).
const maxText = 256 << 20

// PDFText is the text of the PDF read from pdf.
func (r Reader) PDFText(ctx context.Context, pdf io.Reader) (string, error) {
	bin := r.Bin
	if bin == "" {
		bin = "pdftotext"
	}
	cmd := exec.CommandContext(ctx, bin, "-raw", "-enc", "UTF-8", "-q", "-", "-")
	cmd.Stdin = pdf
	var out limited
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("pdftotext: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	if out.over {
		return "", fmt.Errorf("pdftotext: the text is over %d MB", maxText>>20)
	}
	return out.b.String(), nil
}

// limited keeps at most maxText bytes and notes more.
type limited struct {
	b    bytes.Buffer
	over bool
}

func (l *limited) Write(p []byte) (int, error) {
	if l.b.Len()+len(p) > maxText {
		l.over = true
		return len(p), nil
	}
	return l.b.Write(p)
}
