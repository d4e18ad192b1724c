package rtl

import (
	"context"
	"os/exec"
	"strings"
	"sync"
)

// FontCoverage tells whether a font family has the glyphs of a language.
type FontCoverage interface {
	Covers(family, lang string) bool
}

// KnownFonts is coverage by a fixed table of fonts known to cover each
// RTL language (Windows/Office fonts and free Noto fonts).
type KnownFonts struct{}

var knownCoverage = map[string][]string{
	"ar": {"arial", "times new roman", "tahoma", "segoe ui", "courier new", "traditional arabic", "simplified arabic", "sakkal majalla", "arabic typesetting", "microsoft sans serif", "noto naskh arabic", "noto sans arabic", "noto kufi arabic", "amiri", "scheherazade", "scheherazade new", "dejavu sans", "kacstone", "kacst one", "andalus", "aldhabi"},
	"fa": {"arial", "times new roman", "tahoma", "segoe ui", "b nazanin", "noto naskh arabic", "noto sans arabic", "vazirmatn", "amiri", "scheherazade", "scheherazade new", "dejavu sans"},
	"ur": {"urdu typesetting", "jameel noori nastaleeq", "noto nastaliq urdu", "nafees", "nafees nastaleeq", "arial", "tahoma", "times new roman", "segoe ui", "noto naskh arabic", "noto sans arabic"},
	"he": {"arial", "times new roman", "tahoma", "segoe ui", "courier new", "david", "narkisim", "miriam", "frankruehl", "gisha", "levenim mt", "david clm", "frank ruehl clm", "miriam clm", "simple clm", "noto sans hebrew", "noto serif hebrew", "ezra sil", "dejavu sans", "liberation sans", "liberation serif", "liberation mono"},
}

// Covers implements FontCoverage.
func (KnownFonts) Covers(family, lang string) bool {
	f := strings.ToLower(strings.TrimSpace(family))
	for _, k := range knownCoverage[lang] {
		if f == k {
			return true
		}
	}
	return false
}

// Fontconfig is coverage by the fonts installed on this machine
// (`fc-list :lang=xx family`), the fonts a LibreOffice-based viewer or the
// render check will really use. Results are cached per language.
type Fontconfig struct {
	mu    sync.Mutex
	cache map[string]map[string]bool
}

// Available reports whether fc-list can be run.
func (f *Fontconfig) Available() bool {
	_, err := exec.LookPath("fc-list")
	return err == nil
}

// Covers implements FontCoverage.
func (f *Fontconfig) Covers(family, lang string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.cache == nil {
		f.cache = map[string]map[string]bool{}
	}
	set, ok := f.cache[lang]
	if !ok {
		set = map[string]bool{}
		out, err := exec.CommandContext(context.Background(), "fc-list", ":lang="+lang, "family").Output()
		if err == nil {
			for _, line := range strings.Split(string(out), "\n") {
				for _, name := range strings.Split(line, ",") {
					if name = strings.TrimSpace(name); name != "" {
						set[strings.ToLower(name)] = true
					}
				}
			}
		}
		f.cache[lang] = set
	}
	return set[strings.ToLower(strings.TrimSpace(family))]
}

// defaultCSFont is the complex-script font written when a document has
// none that covers the target: free fonts (fonts-noto-core) that Word
// substitutes through the charset on machines without them.
var defaultCSFont = map[string]string{
	"ar": "Noto Naskh Arabic",
	"fa": "Noto Naskh Arabic",
	"ur": "Noto Nastaliq Urdu",
	"he": "Noto Sans Hebrew",
}

// charsetOf is the fontTable w:charset for a script (B2 Arabic, B1 Hebrew).
func charsetOf(lang string) string {
	if lang == "he" {
		return "B1"
	}
	return "B2"
}

// scriptName names a language's script in warnings.
func scriptName(lang string) string {
	switch lang {
	case "he":
		return "Hebrew"
	case "fa":
		return "Persian"
	case "ur":
		return "Urdu"
	}
	return "Arabic"
}
