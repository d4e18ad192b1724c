package rtltest

// sheet resolves effective properties: direct, then the style chain
// (basedOn), then the default paragraph style, then docDefaults.
type sheet struct {
	byID        map[string]*el
	defaultPara string
	pPrDefault  *el
	rPrDefault  *el
}

func newSheet(styles *el) *sheet {
	s := &sheet{byID: map[string]*el{}}
	if styles == nil {
		return s
	}
	for _, st := range styles.kids {
		if st.w("style") {
			s.byID[st.attr["styleId"]] = st
			if t := st.attr["type"]; (t == "paragraph" || t == "") && (st.attr["default"] == "1" || st.attr["default"] == "true") {
				s.defaultPara = st.attr["styleId"]
			}
		}
		if st.w("docDefaults") {
			s.pPrDefault = st.kid("pPrDefault").kid("pPr")
			s.rPrDefault = st.kid("rPrDefault").kid("rPr")
		}
	}
	return s
}

// chain lists a style and its ancestors.
func (s *sheet) chain(id string) []*el {
	var out []*el
	for i := 0; i < 32; i++ {
		st := s.byID[id]
		if st == nil {
			break
		}
		out = append(out, st)
		b := st.kid("basedOn")
		if b == nil {
			break
		}
		id = b.attr["val"]
	}
	return out
}

func (s *sheet) paraStyle(p *el) string {
	if ps := p.kid("pPr").kid("pStyle"); ps != nil && s.byID[ps.attr["val"]] != nil {
		return ps.attr["val"]
	}
	return s.defaultPara
}

// pProp finds a paragraph property element through the hierarchy.
func (s *sheet) pProp(p *el, local string) *el {
	if e := p.kid("pPr").kid(local); e != nil {
		return e
	}
	for _, st := range s.chain(s.paraStyle(p)) {
		if e := st.kid("pPr").kid(local); e != nil {
			return e
		}
	}
	return s.pPrDefault.kid(local)
}

func (s *sheet) bidi(p *el) bool {
	v, _ := flag(s.pProp(p, "bidi"))
	return v
}

// rProp finds a run property through run, character style, paragraph
// style and defaults.
func (s *sheet) rProp(p, r *el, local string) *el {
	rpr := r.kid("rPr")
	if e := rpr.kid(local); e != nil {
		return e
	}
	if rs := rpr.kid("rStyle"); rs != nil {
		for _, st := range s.chain(rs.attr["val"]) {
			if e := st.kid("rPr").kid(local); e != nil {
				return e
			}
		}
	}
	for _, st := range s.chain(s.paraStyle(p)) {
		if e := st.kid("rPr").kid(local); e != nil {
			return e
		}
	}
	return s.rPrDefault.kid(local)
}
