package pluginhost

import "strings"

// DefaultEngines is used when DRAGOMAN_ENGINES is empty.
var DefaultEngines = []string{"apertium"}

// ParseEngines reads DRAGOMAN_ENGINES: engine names separated by commas,
// in priority order. Blanks and repeats are dropped; empty means
// DefaultEngines.
func ParseEngines(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, name := range strings.Split(s, ",") {
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, name)
	}
	if len(out) == 0 {
		return append([]string(nil), DefaultEngines...)
	}
	return out
}
