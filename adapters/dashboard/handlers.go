package dashboard

import (
	"crypto/subtle"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/service"
	"github.com/dragoman-translate/dragoman/core/webhook"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// ---- sign-in ----

type signinData struct {
	Next  string
	Email string
}

func (d *Dashboard) signinPage(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(SessionCookie); err == nil {
		if _, err := d.svc.Session(r.Context(), c.Value); err == nil {
			http.Redirect(w, r, localPath(r.URL.Query().Get("next")), http.StatusSeeOther)
			return
		}
	}
	p := page{Title: "Sign in", Error: reasons[r.URL.Query().Get("reason")], Data: signinData{Next: r.URL.Query().Get("next")}}
	if r.URL.Query().Get("out") != "" {
		p.Notice = "You have signed out."
	}
	d.renderSignin(w, r, http.StatusOK, p)
}

// renderSignin gives the form a fresh CSRF token, paired with a cookie
// (there is no session yet to hold it).
func (d *Dashboard) renderSignin(w http.ResponseWriter, r *http.Request, status int, p page) {
	tok, err := account.RandomToken(24)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	setCookie(w, signinCookie, tok, time.Now().Add(time.Hour))
	p.CSRF = tok
	d.render(w, r, status, "signin", nil, p)
}

func (d *Dashboard) signin(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	email, pw, next := r.PostFormValue("email"), r.PostFormValue("password"), r.PostFormValue("next")
	data := signinData{Next: next, Email: email}
	c, err := r.Cookie(signinCookie)
	form := r.PostFormValue("csrf")
	if err != nil || form == "" || !sameOrigin(r) || subtle.ConstantTimeCompare([]byte(c.Value), []byte(form)) != 1 {
		d.renderSignin(w, r, http.StatusForbidden, page{Title: "Sign in", Data: data,
			Error: "The sign-in form expired. Please try again."})
		return
	}
	in, err := d.svc.SignIn(r.Context(), email, pw, remoteAddr(r))
	if err != nil {
		msg := d.message(err)
		if ra := retryAfter(err); ra > 0 {
			w.Header().Set("Retry-After", fmt.Sprint(ra))
			msg = fmt.Sprintf("Too many sign-in attempts. Try again in %d seconds.", ra)
		} else if kindOf(err) == service.KindUnauthenticated {
			msg = "Wrong e-mail address or password."
		}
		d.renderSignin(w, r, statusOf(err), page{Title: "Sign in", Data: data, Error: msg})
		return
	}
	clearCookie(w, signinCookie)
	setCookie(w, SessionCookie, in.Token, in.Session.ExpiresAt)
	http.Redirect(w, r, localPath(next), http.StatusSeeOther)
}

// localPath keeps a redirect on this site.
func localPath(p string) string {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.HasPrefix(p, "/\\") || strings.HasPrefix(p, "/signin") {
		return "/translate"
	}
	return p
}

func (d *Dashboard) signout(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	if c, err := r.Cookie(SessionCookie); err == nil {
		_ = d.svc.SignOut(r.Context(), c.Value)
	}
	clearCookie(w, SessionCookie)
	http.Redirect(w, r, "/signin?out=1", http.StatusSeeOther)
}

// ---- jobs ----

// structureParts splits the structure check's one-line summary,
// "fidelity: no loss (paragraphs 4, tables 2 …)", into the verdict a
// person reads first and the counts behind it.
func structureParts(s string) (verdict, details string) {
	s = strings.TrimPrefix(s, "fidelity: ")
	if i := strings.Index(s, " ("); i > 0 && strings.HasSuffix(s, ")") {
		return s[:i], s[i+2 : len(s)-1]
	}
	return s, ""
}

type jobView struct {
	*job.Job
	Step, Steps int
	Ready       bool
	HasPDF      bool // ready, and its PDF rendition was rendered
	Expired     bool
	TimeLeft    string
	Source      string // language names: jobs store codes
	Target      string
	Verdict     string // the structure check's verdict, and its counts
	Counts      string
	Route       string // "English → Spanish → French, apertium"
}

var stepOf = map[job.Stage]int{
	job.StageAccepted: 0, job.StageConverted: 1, job.StageExtracted: 2, job.StageTranslated: 3,
	job.StageAssembled: 4, job.StageLaidOut: 5, job.StageFinished: 6,
}

func (d *Dashboard) jobViews(r *http.Request, s *service.SessionCaller) ([]jobView, error) {
	// The newest page of the API's job list, through the same catalogue.
	page, err := d.svc.ListJobs(r.Context(), s.Caller, "", "", service.MaxJobPage)
	if err != nil {
		return nil, err
	}
	jobs := page.Jobs
	now := d.svc.Clock.Now()
	out := make([]jobView, 0, len(jobs))
	for _, j := range jobs {
		v := jobView{Job: j, Step: stepOf[j.Stage], Steps: 6, Source: language.NameOf(j.SourceLang), Target: language.NameOf(j.TargetLang)}
		v.Verdict, v.Counts = structureParts(j.Structure)
		v.Route = routeText(j.Route)
		if j.SourceLang == "auto" || j.SourceLang == "" {
			v.Source = "auto-detect"
			if j.DetectedLang != "" {
				v.Source = language.NameOf(j.DetectedLang) + " (detected)"
			}
		}
		switch j.Download(now, d.svc.Config.DownloadTTL) {
		case job.DownloadReady:
			v.Ready = true
			v.HasPDF = j.PDF == job.PDFReady
			left := d.svc.Config.DownloadTTL - now.Sub(*j.CompletedAt)
			v.TimeLeft = fmt.Sprintf("%d min %02d s left to download", int(left.Minutes()), int(left.Seconds())%60)
		case job.DownloadExpired:
			v.Expired = true
		}
		out = append(out, v)
	}
	return out, nil
}

func (d *Dashboard) jobsPage(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	views, err := d.jobViews(r, s)
	p := page{Title: "Jobs", Nav: "jobs", Data: views}
	if err != nil {
		p.Error = d.message(err)
	}
	d.render(w, r, http.StatusOK, "jobs", s, p)
}

func (d *Dashboard) jobRows(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	views, err := d.jobViews(r, s)
	if err != nil {
		d.writeJSONError(w, err)
		return
	}
	d.fragment(w, "jobs", "rows", views)
}

// download sends the translated .docx or, with ?format=pdf, its PDF
// rendition, through the same use cases as the API's download.
func (d *Dashboard) download(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	get, ctype := d.svc.Download, "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
	switch r.URL.Query().Get("format") {
	case "", "docx":
	case "pdf":
		get, ctype = d.svc.DownloadPDF, "application/pdf"
	default:
		d.render(w, r, http.StatusBadRequest, "error", s, page{Title: "Download", Nav: "jobs", Error: "A translation downloads as docx or pdf."})
		return
	}
	dl, err := get(r.Context(), s.Caller, r.PathValue("id"))
	if err != nil {
		d.render(w, r, statusOf(err), "error", s, page{Title: "Download", Nav: "jobs", Error: d.message(err)})
		return
	}
	defer dl.Blob.Close()
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": dl.Name}))
	w.Header().Set("Content-Type", ctype)
	http.ServeContent(w, r, "", time.Time{}, dl.Blob)
}

// ---- API keys ----

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
	keys, err := d.svc.AccountKeys(r.Context(), s.Caller)
	if err != nil && p.Error == "" {
		p.Error = d.message(err)
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
	plain, k, err := d.svc.CreateNamedKey(r.Context(), s.Caller, r.PostFormValue("name"))
	p := page{Title: "API keys", Nav: "keys"}
	if err != nil {
		p.Error = d.message(err)
		d.renderKeys(w, r, s, statusOf(err), p, keysData{})
		return
	}
	d.renderKeys(w, r, s, http.StatusOK, p, keysData{NewKey: plain, NewName: k.Name})
}

func (d *Dashboard) revokeKey(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	if err := d.svc.RevokeAccountKey(r.Context(), s.Caller, r.PathValue("id")); err != nil {
		d.renderKeys(w, r, s, statusOf(err), page{Title: "API keys", Nav: "keys", Error: d.message(err)}, keysData{})
		return
	}
	http.Redirect(w, r, "/keys?revoked=1", http.StatusSeeOther)
}

// ---- webhooks ----

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
	hooks, err := d.svc.ListWebhooks(r.Context(), s.Caller)
	if err != nil && p.Error == "" {
		p.Error = d.message(err)
	}
	wd.Hooks = hooks
	wd.Events = []string{webhook.EventJobCompleted, webhook.EventJobFailed}
	p.Data = wd
	d.render(w, r, status, "webhooks", s, p)
}

func (d *Dashboard) createWebhook(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	u, events := r.PostFormValue("url"), r.PostForm["events"]
	hook, err := d.svc.RegisterWebhook(r.Context(), s.Caller, u, events)
	p := page{Title: "Webhooks", Nav: "webhooks"}
	if err != nil {
		// The API names the field; on the form it is plain which one.
		p.Error = strings.TrimPrefix(d.message(err), "url: ")
		d.renderWebhooks(w, r, s, statusOf(err), p, webhooksData{FormURL: u, FormEvent: events})
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
	hook, err := d.svc.GetWebhook(r.Context(), s.Caller, id)
	if err != nil {
		d.render(w, r, statusOf(err), "error", s, page{Title: "Webhook", Nav: "webhooks", Error: d.message(err)})
		return
	}
	attempts, err := d.svc.WebhookDeliveries(r.Context(), s.Caller, id, 50)
	p := page{Title: "Webhook", Nav: "webhooks", Data: webhookData{Hook: hook, Attempts: attempts}}
	if err != nil {
		p.Error = d.message(err)
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
	if _, err := d.svc.TestWebhook(r.Context(), s.Caller, id); err != nil {
		d.render(w, r, statusOf(err), "error", s, page{Title: "Webhook", Nav: "webhooks", Error: d.message(err)})
		return
	}
	http.Redirect(w, r, "/webhooks/"+url.PathEscape(id)+"?pinged=1", http.StatusSeeOther)
}

func (d *Dashboard) setWebhookActive(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	id := r.PathValue("id")
	active := r.PostFormValue("active") == "true"
	if _, err := d.svc.UpdateWebhook(r.Context(), s.Caller, id, service.WebhookUpdate{Active: &active}); err != nil {
		d.render(w, r, statusOf(err), "error", s, page{Title: "Webhook", Nav: "webhooks", Error: d.message(err)})
		return
	}
	http.Redirect(w, r, "/webhooks/"+url.PathEscape(id)+"?saved=1", http.StatusSeeOther)
}

func (d *Dashboard) deleteWebhook(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	if err := d.svc.DeleteWebhook(r.Context(), s.Caller, r.PathValue("id")); err != nil {
		d.render(w, r, statusOf(err), "error", s, page{Title: "Webhook", Nav: "webhooks", Error: d.message(err)})
		return
	}
	http.Redirect(w, r, "/webhooks?deleted=1", http.StatusSeeOther)
}

// ---- usage ----

type usageData struct {
	Used      int64
	Limit     *int64
	LimitN    int64
	Left      int64
	Percent   int
	Share     string // of the limit used, for people: "<1%", "42%"
	Low, High int64  // the meter turns amber, then red, past these
	RPM       int
	Plan      string
	Period    string
	Resets    time.Time
	Unlimited bool
	Chart     chart
}

// chart is a small bar chart of words per day, drawn as SVG on the server.
type chart struct {
	Width, Height int
	Bars          []bar
	First, Last   string
	Max           int64
}

type bar struct {
	X, Y, W, H int
	Label      string
	Words      int64
}

func newChart(days []service.DayWords) chart {
	c := chart{Width: 620, Height: 120}
	if len(days) == 0 {
		return c
	}
	for _, d := range days {
		c.Max = max(c.Max, d.Words)
	}
	// The chart spans the whole month, so today's bar sits where today is
	// and the axis ends on the month's last day.
	first := days[0].Day
	last := time.Date(first.Year(), first.Month()+1, 0, 0, 0, 0, 0, time.UTC)
	step := c.Width / last.Day()
	for i, d := range days {
		h := 2
		if c.Max > 0 && d.Words > 0 {
			h = max(3, int(d.Words*int64(c.Height-4)/c.Max))
		}
		c.Bars = append(c.Bars, bar{X: i * step, Y: c.Height - h, W: step - 4, H: h, Label: d.Day.Format("2 Jan"), Words: d.Words})
	}
	c.First, c.Last = first.Format("2 Jan"), last.Format("2 Jan")
	return c
}

func (d *Dashboard) usagePage(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	u, err := d.svc.Usage(r.Context(), s.Caller)
	p := page{Title: "Usage", Nav: "usage"}
	if err != nil {
		p.Error = d.message(err)
	}
	now := d.svc.Clock.Now().UTC()
	ud := usageData{Used: u.UsedWords, Limit: u.LimitWords, Plan: u.PlanName, RPM: s.Account.Limits().RequestsPerMinute,
		Period: now.Format("January 2006"), Resets: time.Date(now.Year(), now.Month()+1, 1, 0, 0, 0, 0, time.UTC)}
	if u.LimitWords == nil {
		ud.Unlimited = true
	} else {
		ud.LimitN = *u.LimitWords
		ud.Left = max(*u.LimitWords-u.UsedWords, 0)
		if *u.LimitWords > 0 {
			ud.Percent = int(min(100, u.UsedWords*100 / *u.LimitWords))
		} else {
			ud.Percent = 100
		}
		ud.Low, ud.High = ud.LimitN*3/4, ud.LimitN*9/10
		ud.Share = fmt.Sprintf("%d%%", ud.Percent)
		if ud.Percent == 0 && u.UsedWords > 0 {
			ud.Share = "<1%"
		}
	}
	days, err := d.svc.UsageByDay(r.Context(), s.Caller)
	if err != nil && p.Error == "" {
		p.Error = d.message(err)
	}
	ud.Chart = newChart(days)
	p.Data = ud
	d.render(w, r, http.StatusOK, "usage", s, p)
}
