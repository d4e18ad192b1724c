package signature_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/webhook/signature"
)

// A receiver checks the signature on the raw body before parsing it.
func ExampleVerify() {
	secret := "8c1f2a4be7d9035c6a1e0f9b2d4c7a8e5f3b1d0c9a8e7f6d5c4b3a2918070615" // from registration

	handler := func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		if err := signature.Verify(secret, body, r.Header.Get("X-Webhook-Signature")); err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		// Parse body now; de-duplicate by its "id".
		w.WriteHeader(http.StatusNoContent)
	}

	body := `{"id":"5b0f6d2e-3c1a-5e8b-9f47-0d2c6a1b3e4f","event":"job.completed"}`
	for _, header := range []string{signature.Sign(secret, []byte(body)), "sha256=0000"} {
		req := httptest.NewRequest("POST", "/hooks/dragoman", strings.NewReader(body))
		req.Header.Set("X-Webhook-Signature", header)
		rec := httptest.NewRecorder()
		handler(rec, req)
		fmt.Println(rec.Code)
	}
	// Output:
	// 204
	// 401
}
