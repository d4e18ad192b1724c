package pluginhost

import (
	"strings"
	"sync"
)

// stderrTail keeps the last lines a plugin process wrote to its stderr,
// so that a plugin that exits before its handshake (a setting it cannot
// parse, a missing program) is quoted in the start error: go-plugin's own
// error speaks only of the empty stdout, and logs stderr at debug level.
type stderrTail struct {
	mu   sync.Mutex
	text []byte
}

// stderrKeep is how much of a plugin's stderr is kept.
const stderrKeep = 2048

func (t *stderrTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.text = append(t.text, p...)
	if over := len(t.text) - stderrKeep; over > 0 {
		t.text = append(t.text[:0], t.text[over:]...)
	}
	return len(p), nil
}

// last is the last line the plugin wrote that is not a log line of its
// own (hclog's JSON, which the host logs already), or "".
func (t *stderrTail) last() string {
	if t == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.text)), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" && !strings.HasPrefix(l, "{") {
			return l
		}
	}
	return ""
}
