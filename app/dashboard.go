package main

import (
	"log/slog"
	"net/http"
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/dashboard"
	"github.com/dragoman-translate/dragoman/adapters/httpapi"
	"github.com/dragoman-translate/dragoman/core/service"
)

func newDashboard(uc service.UseCases, log *slog.Logger) *dashboard.Dashboard {
	return dashboard.New(uc, log)
}

// site serves the API under /v1 (and the contract's /api/webhooks) and the
// dashboard everywhere else, on the same servers and so under the same
// HTTPS and redirect rules.
func site(api http.Handler, dash *dashboard.Dashboard) http.Handler {
	d := dash.Handler()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if under(r.URL.Path, httpapi.Prefix) || under(r.URL.Path, "/api") {
			api.ServeHTTP(w, r)
			return
		}
		d.ServeHTTP(w, r)
	})
}

func under(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}
