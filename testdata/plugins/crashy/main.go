// Command crashy is a test provider: it echoes segments and misbehaves on
// request, so the host's restart logic can be tested with real processes.
package main

import (
	"context"
	"errors"
	"os"
	"strconv"
	"time"

	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

type echo struct{}

func (echo) Capabilities(context.Context) (sdk.Capabilities, error) {
	return sdk.Capabilities{Name: "crashy", Pairs: []sdk.Pair{{Source: "en", Target: "de"}}}, nil
}

func (echo) Translate(ctx context.Context, req sdk.TranslateRequest) (sdk.TranslateResult, error) {
	out := make([]string, len(req.Segments))
	for i, s := range req.Segments {
		switch s {
		case "__crash__":
			os.Exit(3)
		case "__fail__":
			return sdk.TranslateResult{}, errors.New("crashy: the vendor refused the request (HTTP 456)")
		case "__sleep__":
			select {
			case <-time.After(time.Minute):
			case <-ctx.Done():
			}
		case "__env__":
			s = os.Getenv("DRAGOMAN_CRASHY_GREETING")
		case "__warn__":
			sdk.Logger().Warn("asked to warn", "segment", i)
		case "__pid__":
			s = strconv.Itoa(os.Getpid())
		}
		out[i] = s
	}
	return sdk.TranslateResult{Segments: out}, nil
}

// main serves, after noting the start in the file DRAGOMAN_CRASHY_STARTS
// names (when set); while the file DRAGOMAN_CRASHY_REFUSE names exists, it
// exits at once instead, as a plugin that cannot start does.
func main() {
	if f := os.Getenv("DRAGOMAN_CRASHY_STARTS"); f != "" {
		if w, err := os.OpenFile(f, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
			w.WriteString("start\n")
			w.Close()
		}
	}
	if f := os.Getenv("DRAGOMAN_CRASHY_REFUSE"); f != "" {
		if _, err := os.Stat(f); err == nil {
			os.Stderr.WriteString("crashy: told not to start\n")
			os.Exit(4)
		}
	}
	sdk.ServeProvider(echo{})
}
