package dashboard

import (
	"net/http"

	"github.com/dragoman-translate/dragoman/core/service"
)

// accountPage shows who is signed in and the form to change the password.
func (d *Dashboard) accountPage(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	p := page{Title: "Your account", Nav: "account"}
	if r.URL.Query().Get("changed") != "" {
		p.Notice = "Your password was changed. Every other browser signed in as you was signed out."
	}
	d.render(w, r, http.StatusOK, "account", s, p)
}

// changePassword sets a new password and ends the user's other sessions.
func (d *Dashboard) changePassword(w http.ResponseWriter, r *http.Request, s *service.SessionCaller) {
	current, next := r.PostFormValue("current_password"), r.PostFormValue("new_password")
	if next != r.PostFormValue("confirm_password") {
		d.render(w, r, http.StatusUnprocessableEntity, "account", s, page{Title: "Your account", Nav: "account",
			Error: "The new password and its confirmation differ."})
		return
	}
	if err := d.svc.Sessions.ChangePassword(r.Context(), s, current, next); err != nil {
		d.render(w, r, d.status(w, err), "account", s, page{Title: "Your account", Nav: "account", Error: d.message(err)})
		return
	}
	http.Redirect(w, r, "/account?changed=1", http.StatusSeeOther)
}
