package service

import "context"

// QuoteURL quotes the document at rawURL as SubmitURL would submit it:
// the options are checked before the fetch, and the fetched document is
// deleted once quoted.
func (s *Jobs) QuoteURL(ctx context.Context, c *Caller, rawURL string, r SubmitRequest) (*Quote, error) {
	u, err := s.checkURL(rawURL)
	if err != nil {
		return nil, err
	}
	if _, err := s.batchOptions(ctx, c, r); err != nil {
		return nil, err
	}
	up, err := s.receiveURL(ctx, u, &r)
	if err != nil {
		return nil, err
	}
	return s.QuoteUpload(ctx, c, up, r)
}
