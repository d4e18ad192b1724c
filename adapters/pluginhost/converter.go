package pluginhost

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

// converter dispatches a conversion to the first plugin that lists the
// source format.
type converter struct{ procs []*process }

var _ sdk.ConcurrencyReporter = (*converter)(nil)

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

// MaxConcurrent is the most documents the converter plugins convert at
// once, as they said at start (the LibreOffice plugin: its pool's size);
// a plugin that does not say counts 0.
func (c *converter) MaxConcurrent() int {
	n := 0
	for _, p := range c.procs {
		p.mu.Lock()
		n += p.maxConc
		p.mu.Unlock()
	}
	return n
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
		return p.failed(gen, errorFromSDK(raw.(*sdk.ConverterClient).Convert(forTenant(ctx), format, in, out)))
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
		return described(p.failed(gen, errorFromSDK(raw.(*sdk.ConverterClient).RenderPDF(forTenant(ctx), format, in, out))))
	}
	return fmt.Errorf("%w (.%s)", ErrNoPDFRenderer, format)
}

// forTenant names the account a call works for (ports.WithAccount) to
// the plugin, so it can share scarce instances fairly between accounts.
// The plugin gets an opaque key, never the account's id.
func forTenant(ctx context.Context) context.Context {
	id := ports.AccountOf(ctx)
	if id == "" {
		return ctx
	}
	sum := sha256.Sum256([]byte("dragoman-tenant\x00" + id))
	return sdk.WithTenant(ctx, hex.EncodeToString(sum[:8]))
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
