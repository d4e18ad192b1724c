package pluginhost

import (
	"testing"

	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

// A converter says in its formats answer how many documents it converts at
// once (the LibreOffice plugin: its pool's size), so the host's metric
// needs nothing of the plugin's insides; one that does not say, as one
// built before the field, still loads and counts 0.
func TestConverterSaysHowManyDocumentsAtOnce(t *testing.T) {
	for _, c := range []struct {
		env  string
		want int
	}{{"3", 3}, {"", 0}} {
		t.Setenv("DRAGOMAN_UPPERCONV_MAX_CONCURRENT", c.env)
		h := newHost(t, pluginDir, []string{"pseudo"})
		conv, ok := h.Converter().(sdk.ConcurrencyReporter)
		if !ok {
			t.Fatal("the host's converter does not report its plugins' concurrency")
		}
		if got := conv.MaxConcurrent(); got != c.want || len(h.Converter().Formats()) != 1 {
			t.Errorf("DRAGOMAN_UPPERCONV_MAX_CONCURRENT=%q: %d documents at once, formats %v; want %d", c.env, got, h.Converter().Formats(), c.want)
		}
	}
}
