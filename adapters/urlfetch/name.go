package urlfetch

import (
	"mime"
	"net/http"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"
)

// fallbackName is used when neither header nor URL gives a usable name.
const fallbackName = "document"

// fileName takes the name from Content-Disposition, else from the final
// URL's last path segment.
func fileName(resp *http.Response) string {
	if cd := resp.Header.Get("Content-Disposition"); cd != "" {
		if _, params, err := mime.ParseMediaType(cd); err == nil {
			if n := sanitizeName(params["filename"]); n != "" {
				return n
			}
		}
	}
	if resp.Request != nil && resp.Request.URL != nil {
		if n := sanitizeName(path.Base(resp.Request.URL.Path)); n != "" {
			return n
		}
	}
	return fallbackName
}

// sanitizeName keeps a base name only: no directories (either slash), no
// control or bidi-override characters (which disguise extensions), at most
// 200 bytes. "" if nothing usable is left.
func sanitizeName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, name)
	name = strings.Trim(name, " .")
	for len(name) > 200 {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	return name
}
