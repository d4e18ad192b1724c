package service

import (
	"net/netip"
	"net/url"
	"strings"

	"github.com/dragoman-translate/dragoman/core/webhook"
)

// webhookEvents checks and de-duplicates subscribed events.
func webhookEvents(events []string) ([]string, error) {
	if len(events) == 0 {
		return nil, fail(KindUnprocessable, "events: give at least one of %s, %s", webhook.EventJobCompleted, webhook.EventJobFailed)
	}
	seen := map[string]bool{}
	var evs []string
	for _, e := range events {
		if e != webhook.EventJobCompleted && e != webhook.EventJobFailed {
			return nil, fail(KindUnprocessable, "events: %q is not one of %s, %s", e, webhook.EventJobCompleted, webhook.EventJobFailed)
		}
		if !seen[e] {
			seen[e] = true
			evs = append(evs, e)
		}
	}
	return evs, nil
}

// checkWebhookURL accepts absolute https URLs (http too where private URLs
// are allowed). An IP literal inside the service's network is refused
// here for a clear error; every delivery checks the resolved address again
// when it connects, so names that resolve inside are refused too.
func (s *Webhooks) checkWebhookURL(raw string) error {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || !u.IsAbs() {
		return fail(KindUnprocessable, "url: not an absolute URL")
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && s.Config.AllowPrivateURLs:
	default:
		return fail(KindUnprocessable, "url: webhooks are delivered over https only")
	}
	if u.User != nil {
		return fail(KindUnprocessable, "url: credentials in the URL are not accepted")
	}
	if s.Config.AllowPrivateURLs {
		return nil
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return fail(KindUnprocessable, "url: a loopback address is not accepted")
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		ip = ip.Unmap()
		if !ip.IsGlobalUnicast() || ip.IsPrivate() {
			return fail(KindUnprocessable, "url: the address is not public")
		}
	}
	return nil
}
