package dashboard

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/dragoman-translate/dragoman/core/service"
	"github.com/dragoman-translate/dragoman/core/webhook"
)

type webhooksData struct {
	Hooks     []*webhook.Webhook
	New       *webhook.Webhook // just registered: its secret is shown once
	FormURL   string
	FormEvent []string
	Events    []string
}

func (d *Dashboard) webhooksPage(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	p := page{Title: "Webhooks", Nav: "webhooks"}
	if r.URL.Query().Get("deleted") != "" {
		p.Notice = "The webhook was deleted with its delivery history."
	}
	d.renderWebhooks(w, r, s, http.StatusOK, p, webhooksData{FormEvent: []string{webhook.EventJobCompleted, webhook.EventJobFailed}})
}

func (d *Dashboard) renderWebhooks(w http.ResponseWriter, r *http.Request, s *service.SessionCaller, status int, p page, wd webhooksData) {
	hooks, err := d.svc.Webhooks.ListWebhooks(r.Context(), s.Caller)
	if err != nil {
		d.pageError(w, &p, err)
	}
	wd.Hooks = hooks
	wd.Events = []string{webhook.EventJobCompleted, webhook.EventJobFailed}
	p.Data = wd
	d.render(w, r, status, "webhooks", s, p)
}

func (d *Dashboard) createWebhook(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	u, events := r.PostFormValue("url"), r.PostForm["events"]
	hook, err := d.svc.Webhooks.RegisterWebhook(r.Context(), s.Caller, u, events)
	p := page{Title: "Webhooks", Nav: "webhooks"}
	if err != nil {
		// The API names the field; on the form it is plain which one.
		p.Error = strings.TrimPrefix(d.message(err), "url: ")
		d.renderWebhooks(w, r, s, d.status(w, err), p, webhooksData{FormURL: u, FormEvent: events})
		return
	}
	d.renderWebhooks(w, r, s, http.StatusOK, p, webhooksData{New: hook, FormEvent: []string{webhook.EventJobCompleted, webhook.EventJobFailed}})
}

type webhookData struct {
	Hook     *webhook.Webhook
	Attempts []webhook.Attempt
}

func (d *Dashboard) webhookPage(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	id := r.PathValue("id")
	hook, err := d.svc.Webhooks.GetWebhook(r.Context(), s.Caller, id)
	if err != nil {
		d.render(w, r, d.status(w, err), "error", s, page{Title: "Webhook", Nav: "webhooks", Error: d.message(err)})
		return
	}
	attempts, err := d.svc.Webhooks.WebhookDeliveries(r.Context(), s.Caller, id, 50)
	p := page{Title: "Webhook", Nav: "webhooks", Data: webhookData{Hook: hook, Attempts: attempts}}
	if err != nil {
		d.pageError(w, &p, err)
	}
	switch {
	case r.URL.Query().Get("pinged") != "":
		p.Notice = "Test ping queued: it appears below once your endpoint answers (this page refreshes itself)."
	case r.URL.Query().Get("saved") != "":
		p.Notice = "Saved."
	}
	d.render(w, r, http.StatusOK, "webhook", s, p)
}

func (d *Dashboard) testWebhook(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	id := r.PathValue("id")
	if _, err := d.svc.Webhooks.TestWebhook(r.Context(), s.Caller, id); err != nil {
		d.render(w, r, d.status(w, err), "error", s, page{Title: "Webhook", Nav: "webhooks", Error: d.message(err)})
		return
	}
	http.Redirect(w, r, "/webhooks/"+url.PathEscape(id)+"?pinged=1", http.StatusSeeOther)
}

func (d *Dashboard) setWebhookActive(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	id := r.PathValue("id")
	active := r.PostFormValue("active") == "true"
	if _, err := d.svc.Webhooks.UpdateWebhook(r.Context(), s.Caller, id, service.WebhookUpdate{Active: &active}); err != nil {
		d.render(w, r, d.status(w, err), "error", s, page{Title: "Webhook", Nav: "webhooks", Error: d.message(err)})
		return
	}
	http.Redirect(w, r, "/webhooks/"+url.PathEscape(id)+"?saved=1", http.StatusSeeOther)
}

func (d *Dashboard) deleteWebhook(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	if err := d.svc.Webhooks.DeleteWebhook(r.Context(), s.Caller, r.PathValue("id")); err != nil {
		d.render(w, r, d.status(w, err), "error", s, page{Title: "Webhook", Nav: "webhooks", Error: d.message(err)})
		return
	}
	http.Redirect(w, r, "/webhooks?deleted=1", http.StatusSeeOther)
}
