package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dragoman-translate/dragoman/plugins/libreoffice/pool"
	"github.com/dragoman-translate/dragoman/plugins/sdk"
	"github.com/dragoman-translate/dragoman/plugins/sdk/docformat"
)

// maxInput bounds the spooled upload; the API already refuses over 50 MB.
const maxInput = 64 << 20

// converter turns .doc, .odt, .rtf and Word 2003 XML into .docx. The
// content decides the format, not the name the host passes: an RTF named
// .doc converts as RTF, a Word binary named .docm as Word.
type converter struct {
	pool    *pool.Pool
	tempDir string
}

// Formats are the source formats as docformat names them: the pool's
// source kinds.
func (c *converter) Formats() []string {
	out := make([]string, len(pool.Sources))
	for i, k := range pool.Sources {
		out[i] = k.Name
	}
	return out
}

var _ sdk.ConcurrencyReporter = (*converter)(nil)

// MaxConcurrent is the pool's size: one document per LibreOffice instance
// (DRAGOMAN_LIBREOFFICE_POOL_SIZE, default the number of CPUs).
func (c *converter) MaxConcurrent() int { return c.pool.Size() }

// Health fails while no LibreOffice instance can be started.
func (c *converter) Health(context.Context) error { return c.pool.Health() }

// Convert spools in to a temp file (the format checks need random
// access), checks it and converts it. Errors are *sdk.Error whose message
// is fit for the job's error field: BadInput for the document's own
// faults, TooSlow, RetryMayHelp (LibreOffice crashed) and Unavailable (no
// LibreOffice) for the rest; failures of this process's own are gRPC
// Internal.
func (c *converter) Convert(ctx context.Context, format string, in io.Reader, out io.Writer) error {
	return c.run(ctx, in, out, false)
}

var _ sdk.PDFRenderer = (*converter)(nil)

// RenderPDF renders a .docx (the translated output) or any of the source
// formats to PDF on the same warm pool, for previews and PDF downloads.
// The content decides the format, as for Convert.
func (c *converter) RenderPDF(ctx context.Context, format string, in io.Reader, out io.Writer) error {
	return c.run(ctx, in, out, true)
}

// run spools in, sniffs it and converts it to .docx, or renders it to PDF,
// in the turn of the tenant the host named (instances are shared fairly
// between accounts).
func (c *converter) run(ctx context.Context, in io.Reader, out io.Writer, pdf bool) error {
	ctx = pool.WithTenant(ctx, sdk.Tenant(ctx))
	f, err := os.CreateTemp(c.tempDir, "dragoman-convert-*")
	if err != nil {
		return status.Error(codes.Internal, err.Error())
	}
	defer os.Remove(f.Name())
	defer f.Close()
	n, err := io.Copy(f, io.LimitReader(in, maxInput+1))
	if err != nil {
		return status.Error(codes.Internal, "receiving the document: "+err.Error())
	}
	if n > maxInput {
		return status.Error(codes.InvalidArgument, fmt.Sprintf("the document is larger than %d MB", maxInput>>20))
	}
	kind, err := sniff(f, n, pdf)
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	switch {
	case err == nil && pdf:
		err = c.pool.RenderPDF(ctx, kind, f, out)
	case err == nil:
		err = c.pool.Convert(ctx, kind, f, out)
	}
	return asStatus(err)
}

// sniff maps the verified content to what LibreOffice must read it as; a
// .docx is accepted only for a PDF rendition (it needs no conversion).
func sniff(r io.ReaderAt, size int64, pdf bool) (pool.Kind, error) {
	if size == 0 {
		return pool.Kind{}, &pool.Error{Reason: pool.Empty}
	}
	f, err := docformat.VerifyPackage(r, size)
	switch {
	case errors.Is(err, docformat.ErrEncrypted):
		return pool.Kind{}, &pool.Error{Reason: pool.PasswordProtected, Detail: err.Error()}
	case errors.Is(err, docformat.ErrUnsupported):
		return pool.Kind{}, &pool.Error{Reason: pool.Unsupported, Detail: err.Error()}
	case err != nil:
		return pool.Kind{}, &pool.Error{Reason: pool.Corrupt, Detail: err.Error()}
	}
	for _, k := range pool.Sources {
		if k.Name == string(f) {
			return k, nil
		}
	}
	if f == docformat.DOCX && pdf {
		return pool.DOCX, nil
	}
	return pool.Kind{}, &pool.Error{Reason: pool.Unsupported, Detail: fmt.Sprintf("%s needs no conversion", f)}
}

func asStatus(err error) error {
	if err == nil {
		return nil
	}
	var pe *pool.Error
	if !errors.As(err, &pe) {
		return status.Error(codes.Internal, err.Error())
	}
	// A document past a cap or over its budget is its own fault (BadInput):
	// trying again would cost as much and fail as surely.
	hint, ok := map[pool.Reason]sdk.Retry{
		pool.TimedOut:    sdk.TooSlow,
		pool.Crashed:     sdk.RetryMayHelp,
		pool.Unavailable: sdk.Unavailable,
	}[pe.Reason]
	if !ok {
		hint = sdk.BadInput
	}
	return &sdk.Error{Retry: hint, Message: pe.Error()}
}
