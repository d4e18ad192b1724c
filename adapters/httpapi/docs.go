package httpapi

import (
	"embed"
	"io/fs"
	"net/http"
)

//go:embed docsui
var docsUI embed.FS

// docsCSP lets the docs page run only its own files: Swagger UI's bundle
// and the script that starts it (docsui/init.js, not inline), its style
// sheet, the contract it fetches and the requests "Try it out" sends,
// all from this origin. Swagger UI draws its icons as data: images and
// sets styles through the DOM, which style-src does not govern.
const docsCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// serveDocs serves the offline docs page at /v1/docs and its files under
// /v1/docs/, with the headers of a page that must not be framed or sniffed.
func serveDocs(mux *http.ServeMux) {
	sub, _ := fs.Sub(docsUI, "docsui")
	assets := http.StripPrefix(Prefix+"/docs/", http.FileServerFS(sub))
	mux.Handle("GET "+Prefix+"/docs/", docsHeaders(assets))
	mux.Handle("GET "+Prefix+"/docs", docsHeaders(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		b, _ := fs.ReadFile(sub, "index.html")
		_, _ = w.Write(b)
	})))
}

func docsHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", docsCSP)
		h.Set("X-Frame-Options", "DENY")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}
