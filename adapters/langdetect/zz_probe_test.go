package langdetect

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

func TestZZProbe(t *testing.T) {
	d := New()
	files, _ := os.ReadDir("/tmp/reach-det")
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), ".txt") {
			continue
		}
		b, _ := os.ReadFile("/tmp/reach-det/" + f.Name())
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		n := len(lines)
		got := map[string]int{}
		for k := 0; k < 60; k++ {
			p := lines[k%n] + " " + lines[(k+7)%n] + " " + lines[(k+23)%n]
			c, _ := d.Detect(p)
			got[c]++
		}
		var keys []string
		for k := range got {
			keys = append(keys, fmt.Sprintf("%s:%d", k, got[k]))
		}
		sort.Strings(keys)
		t.Logf("%s -> %v", f.Name(), keys)
	}
}
