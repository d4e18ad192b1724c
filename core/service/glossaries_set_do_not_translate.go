package service

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/dragoman-translate/dragoman/core/account"
)

// Do-not-translate list limits.
const (
	MaxDoNotTranslate      = 1000 // terms per account
	MaxDoNotTranslateChars = 200  // characters per term
)

// SetDoNotTranslate replaces the caller's account's do-not-translate list,
// which the professional mode keeps as written (matched case-sensitively
// as whole words). An empty list clears it.
func (s *Glossaries) SetDoNotTranslate(ctx context.Context, c *Caller, terms []string) ([]string, error) {
	if len(terms) > MaxDoNotTranslate {
		return nil, fail(KindUnprocessable, "terms: %d terms; at most %d are allowed", len(terms), MaxDoNotTranslate)
	}
	clean := make([]string, 0, len(terms))
	first := map[string]int{}
	for i, t := range terms {
		t = strings.TrimSpace(t)
		switch {
		case t == "":
			return nil, fail(KindUnprocessable, "terms[%d]: the term is empty", i)
		case utf8.RuneCountInString(t) > MaxDoNotTranslateChars:
			return nil, fail(KindUnprocessable, "terms[%d]: the term is longer than %d characters", i, MaxDoNotTranslateChars)
		case strings.ContainsFunc(t, func(r rune) bool { return r < 0x20 || r == 0x7f }):
			return nil, fail(KindUnprocessable, "terms[%d]: the term contains a control character", i)
		}
		if j, dup := first[t]; dup {
			return nil, fail(KindUnprocessable, "terms[%d]: duplicate term %q (already terms[%d])", i, t, j)
		}
		first[t] = i
		clean = append(clean, t)
	}
	a, err := s.Accounts.UpdateAccount(ctx, c.Account.ID, func(a *account.Account) error {
		a.DoNotTranslate = clean
		if len(clean) == 0 {
			a.DoNotTranslate = nil
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("set do-not-translate list: %w", err)
	}
	return orEmpty(a.DoNotTranslate), nil
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
