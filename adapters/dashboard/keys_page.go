package dashboard

import (
	"net/http"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/service"
)

type keysData struct {
	Keys    []account.KeyInfo
	NewKey  string
	NewName string
}

func (d *Dashboard) keysPage(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	p := page{Title: "API keys", Nav: "keys"}
	if r.URL.Query().Get("revoked") != "" {
		p.Notice = "The key was revoked: requests with it now get 403."
	}
	d.renderKeys(w, r, s, http.StatusOK, p, keysData{})
}

func (d *Dashboard) renderKeys(w http.ResponseWriter, r *http.Request, s *service.SessionCaller, status int, p page, kd keysData) {
	keys, err := d.svc.Accounts.AccountKeys(r.Context(), s.Caller)
	if err != nil {
		d.pageError(w, &p, err)
	}
	// Newest first reads better in a list people add to.
	for i, j := 0, len(keys)-1; i < j; i, j = i+1, j-1 {
		keys[i], keys[j] = keys[j], keys[i]
	}
	kd.Keys = keys
	p.Data = kd
	d.render(w, r, status, "keys", s, p)
}

func (d *Dashboard) createKey(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	plain, k, err := d.svc.Accounts.CreateNamedKey(r.Context(), s.Caller, r.PostFormValue("name"))
	p := page{Title: "API keys", Nav: "keys"}
	if err != nil {
		d.pageError(w, &p, err)
		d.renderKeys(w, r, s, p.status, p, keysData{})
		return
	}
	d.renderKeys(w, r, s, http.StatusOK, p, keysData{NewKey: plain, NewName: k.Name})
}

func (d *Dashboard) revokeKey(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	if err := d.svc.Accounts.RevokeAccountKey(r.Context(), s.Caller, r.PathValue("id")); err != nil {
		d.renderKeys(w, r, s, d.status(w, err), page{Title: "API keys", Nav: "keys", Error: d.message(err)}, keysData{})
		return
	}
	http.Redirect(w, r, "/keys?revoked=1", http.StatusSeeOther)
}
