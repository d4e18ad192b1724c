package dashboard

import (
	"fmt"
	"net/http"
	"time"

	"github.com/dragoman-translate/dragoman/core/service"
)

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
	u, err := d.svc.Accounts.Usage(r.Context(), s.Caller)
	p := page{Title: "Usage", Nav: "usage"}
	if err != nil {
		d.pageError(w, &p, err)
	}
	now := d.svc.Jobs.Clock.Now().UTC()
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
	days, err := d.svc.Accounts.UsageByDay(r.Context(), s.Caller)
	if err != nil {
		d.pageError(w, &p, err)
	}
	ud.Chart = newChart(days)
	p.Data = ud
	d.render(w, r, http.StatusOK, "usage", s, p)
}
