package langdetect

import (
	"fmt"
	"testing"
)

func TestZZConf(t *testing.T) {
	d := New()
	s := readSentences(t)
	for _, code := range []string{"frp", "oc", "sc", "br", "szl", "tl_none", "es", "fr", "ca", "pt", "it", "ro", "eu", "en", "id", "ms", "nl", "af"} {
		if s[code] == nil {
			continue
		}
		line := ""
		for i, p := range paragraphs(s[code]) {
			if i >= 12 {
				break
			}
			c, conf := d.Detect(p)
			line += fmt.Sprintf("%s:%.2f ", c, conf)
		}
		t.Logf("%s: %s", code, line)
	}
}
