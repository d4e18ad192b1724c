package pluginhost

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

// converter dispatches a conversion to the first plugin that lists the
// source format.
type converter struct{ procs []*process }

func (c *converter) Formats() []string {
	var out []string
	for _, p := range c.procs {
		p.mu.Lock()
		for _, f := range p.formats {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
		p.mu.Unlock()
	}
	return out
}

// Convert streams in through the plugin; a crash midway wraps
// ErrPluginCrashed (the caller must reopen its input to retry).
func (c *converter) Convert(ctx context.Context, format string, in io.Reader, out io.Writer) error {
	format = strings.ToLower(strings.TrimPrefix(format, "."))
	for _, p := range c.procs {
		p.mu.Lock()
		ok := slices.Contains(p.formats, format)
		p.mu.Unlock()
		if !ok {
			continue
		}
		raw, gen, err := p.get()
		if err != nil {
			return err
		}
		return p.failed(gen, errorFromSDK(raw.(*sdk.ConverterClient).Convert(ctx, format, in, out)))
	}
	return fmt.Errorf("no converter plugin handles .%s (have: %s)", format, strings.Join(c.Formats(), ", "))
}

// RenderPDF renders a document (docx, or a source format) to PDF through
// the first converter plugin that renders PDFs (the LibreOffice plugin's
// warm pool). Without one it fails with ErrNoPDFRenderer.
func (c *converter) RenderPDF(ctx context.Context, format string, in io.Reader, out io.Writer) error {
	format = strings.ToLower(strings.TrimPrefix(format, "."))
	for _, p := range c.procs {
		p.mu.Lock()
		ok := slices.Contains(p.targets, sdk.TargetPDF) && (format == "docx" || slices.Contains(p.formats, format))
		p.mu.Unlock()
		if !ok {
			continue
		}
		raw, gen, err := p.get()
		if err != nil {
			return err
		}
		return described(p.failed(gen, errorFromSDK(raw.(*sdk.ConverterClient).RenderPDF(ctx, format, in, out))))
	}
	return fmt.Errorf("%w (.%s)", ErrNoPDFRenderer, format)
}

// describedError is a failure the plugin put in words (a gRPC status
// whose message is for people: an error it returned, Unknown, or an
// sdk.Error that retrying may help, Aborted): a job's warning or error
// quotes the words, not "rpc error: code = Unknown desc = …".
type describedError struct {
	msg string
	err error
}

func (e describedError) Error() string { return e.msg }
func (e describedError) Unwrap() error { return e.err }

func described(err error) error {
	if st, ok := status.FromError(err); ok && err != nil && (st.Code() == codes.Aborted || st.Code() == codes.Unknown) && st.Message() != "" {
		return describedError{st.Message(), err}
	}
	return err
}

// RendersPDF reports whether a converter plugin renders PDFs.
func (c *converter) RendersPDF() bool {
	for _, p := range c.procs {
		p.mu.Lock()
		ok := slices.Contains(p.targets, sdk.TargetPDF)
		p.mu.Unlock()
		if ok {
			return true
		}
	}
	return false
}

// ErrNoPDFRenderer: no converter plugin renders PDFs.
var ErrNoPDFRenderer = errors.New("no converter plugin renders PDFs (install dragoman-converter-libreoffice)")
