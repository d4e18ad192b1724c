package rtltest

import (
	"os/exec"
	"strings"
	"sync"
)

// Fontconfig answers coverage from the installed fonts (fc-list :lang=xx).
type Fontconfig struct {
	mu    sync.Mutex
	cache map[string]map[string]bool
}

func NewFontconfig() *Fontconfig { return &Fontconfig{cache: map[string]map[string]bool{}} }

// Covers reports whether family is installed with glyphs for lang.
func (f *Fontconfig) Covers(family, lang string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	set, ok := f.cache[lang]
	if !ok {
		set = map[string]bool{}
		out, _ := exec.Command("fc-list", ":lang="+lang, "family").Output()
		for _, line := range strings.Split(string(out), "\n") {
			for _, n := range strings.Split(line, ",") {
				if n = strings.TrimSpace(n); n != "" {
					set[strings.ToLower(n)] = true
				}
			}
		}
		f.cache[lang] = set
	}
	return set[strings.ToLower(strings.TrimSpace(family))]
}
