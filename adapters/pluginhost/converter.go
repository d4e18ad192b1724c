package pluginhost

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

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
