// Package preview renders documents to page images with LibreOffice
// (document to PDF) and poppler's pdftoppm (PDF to PNG), for the
// dashboard's side-by-side preview.
package preview

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// Renderer makes the PDF of a document with its PDF renderer when set
// (the converter plugin's warm LibreOffice pool); otherwise it runs one
// LibreOffice at a time, each with its own throwaway profile. A document whose ext is "pdf" is
// already rendered and goes straight to pdftoppm.
type Renderer struct {
	PDF      ports.PDFRenderer // nil: a fresh soffice per render
	Office   string            // soffice binary
	PDFToPPM string            // pdftoppm binary
	DPI      int               // page image resolution
	Timeout  time.Duration     // per render
	slot     chan struct{}
}

var _ ports.PageRenderer = (*Renderer)(nil)

// New finds soffice and pdftoppm on PATH; a missing one makes every render
// fail with an error that says which.
func New() *Renderer {
	r := &Renderer{DPI: 80, Timeout: 2 * time.Minute, slot: make(chan struct{}, 1)}
	for _, n := range []string{"soffice", "libreoffice"} {
		if p, err := exec.LookPath(n); err == nil {
			r.Office = p
			break
		}
	}
	r.PDFToPPM, _ = exec.LookPath("pdftoppm")
	return r
}

// ErrUnavailable is returned when LibreOffice or pdftoppm is not installed.
var ErrUnavailable = errors.New("page previews need LibreOffice and poppler-utils (pdftoppm) on the server")

// RenderPages renders doc to PNG pages.
func (r *Renderer) RenderPages(ctx context.Context, doc io.Reader, ext string, max int) ([][]byte, error) {
	ext = strings.Trim(strings.ToLower(ext), ".")
	if ext == "" || strings.ContainsAny(ext, `/\`) {
		ext = "docx"
	}
	if r.PDFToPPM == "" || r.Office == "" && r.PDF == nil && ext != "pdf" {
		return nil, ErrUnavailable
	}
	select {
	case r.slot <- struct{}{}:
		defer func() { <-r.slot }()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	ctx, cancel := context.WithTimeout(ctx, r.Timeout)
	defer cancel()
	dir, err := os.MkdirTemp("", "dragoman-preview-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	pdf := filepath.Join(dir, "document.pdf")
	if ext != "pdf" && r.PDF != nil {
		if err := r.renderPooled(ctx, doc, ext, pdf); err != nil {
			return nil, err
		}
		ext, doc = "pdf", nil
	}
	if ext == "pdf" {
		if doc != nil {
			if err := writeFile(pdf, doc); err != nil {
				return nil, err
			}
		}
		return r.pages(ctx, dir, pdf, max)
	}
	in := filepath.Join(dir, "document."+ext)
	f, err := os.Create(in)
	if err != nil {
		return nil, err
	}
	_, err = io.Copy(f, doc)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	office := exec.CommandContext(ctx, r.Office, "--headless", "--norestore", "--nologo", "--nodefault", "--nolockcheck",
		"-env:UserInstallation=file://"+filepath.Join(dir, "profile"), "--convert-to", "pdf", "--outdir", dir, in)
	office.Env = append(os.Environ(), "HOME="+dir)
	if out, err := office.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("render to PDF: %v: %s", err, bytes.TrimSpace(out))
	}
	if _, err := os.Stat(pdf); err != nil {
		return nil, fmt.Errorf("render to PDF: LibreOffice wrote no PDF")
	}
	return r.pages(ctx, dir, pdf, max)
}

// renderPooled renders doc to the file pdf on the warm pool.
func (r *Renderer) renderPooled(ctx context.Context, doc io.Reader, ext, pdf string) error {
	f, err := os.Create(pdf)
	if err != nil {
		return err
	}
	err = r.PDF.RenderPDF(ctx, ext, doc, f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("render to PDF: %w", err)
	}
	return nil
}

func writeFile(path string, r io.Reader) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// pages turns the PDF into PNG pages with pdftoppm.
func (r *Renderer) pages(ctx context.Context, dir, pdf string, max int) ([][]byte, error) {
	ppm := exec.CommandContext(ctx, r.PDFToPPM, "-png", "-r", fmt.Sprint(r.DPI), "-f", "1", "-l", fmt.Sprint(max), pdf, filepath.Join(dir, "page"))
	if out, err := ppm.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("render pages: %v: %s", err, bytes.TrimSpace(out))
	}
	// pdftoppm names pages page-1.png or page-01.png by the page count.
	names, _ := filepath.Glob(filepath.Join(dir, "page-*.png"))
	sort.Slice(names, func(i, j int) bool {
		return len(names[i]) < len(names[j]) || len(names[i]) == len(names[j]) && names[i] < names[j]
	})
	var pages [][]byte
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		pages = append(pages, b)
	}
	if len(pages) == 0 {
		return nil, fmt.Errorf("render pages: the PDF has no pages")
	}
	return pages, nil
}
