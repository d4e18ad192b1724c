package dashboard

import (
	"slices"
	"strings"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// routeText shows a job's route over a chain as the jobs page does: the
// languages in order and the engines once each, "English → Spanish →
// French, apertium"; "" for a direct pair (its engine says enough).
func routeText(route []job.Leg) string {
	if len(route) < 2 {
		return ""
	}
	langs := []string{language.NameOf(route[0].Source)}
	var engines []string
	for _, l := range route {
		langs = append(langs, language.NameOf(l.Target))
		if !slices.Contains(engines, l.Engine) {
			engines = append(engines, l.Engine)
		}
	}
	return strings.Join(langs, " → ") + ", " + strings.Join(engines, " + ")
}
