package httpapi

import (
	"strings"

	"github.com/dragoman-translate/dragoman/plugins/sdk/docformat"
)

// description is the contract's introduction; the formats it names are
// plugins/sdk/docformat's.
var description = strings.Replace(descriptionText, "(formats)", "("+strings.Join(docformat.Extensions(), ", ")+")", 1)

const descriptionText = `Dragoman translates word-processing documents (formats) and returns a .docx that looks like the original, with right-to-left layout when the target is Hebrew, Arabic, Persian or Urdu.

Flow: POST /translate (or /translate-url) → 202 with a job id → poll GET /jobs/{job_id} every 2–5 s → GET /jobs/{job_id}/download within 10 minutes of completion. Or register a webhook and receive a signed POST when the job finishes.

Authentication: every endpoint except GET /health, GET /ready and GET /problems/{code} needs the X-API-Key header. Missing or invalid key: 401; revoked key or suspended account: 403. A job of another account is 404.

Suspended accounts: from the suspension on, the account's keys get 403 and its jobs still pending or processing are stopped at their next stage (or before they would complete): each ends failed with the error "the account was suspended: the job was stopped and its words were not charged", its reserved words are given back, its files deleted, and job.failed is sent to its webhooks. Jobs completed before stay charged; resuming does not restart the stopped ones.

Request bodies: every body must start within 30 s, keep up at least 500 bytes a second on average after that, and be complete within 10 minutes (the server's --upload-idle-timeout, --body-min-rate and --upload-timeout); a body that misses one is answered 408 (code request_timeout, the message names the bound) and the connection is closed. A multipart body cut short anywhere, even inside a part's headers, or without its closing boundary is 422 and makes no job. One client address may hold a bounded number of connections (--max-conns-per-ip, default 128); more are closed when accepted.

Documents: the type is decided by content; a .docx is read part by part at upload with the same parser and limits as the pipeline, so a part with a DTD or entity declarations, nested more than 4,096 elements deep or not well-formed is 422 naming the part, as is a zip entry given twice or named outside the package (../, an absolute path, a backslash).

Probes: GET /health is the liveness check (the process answers); GET /ready is the readiness check (200 when the database, the event bus, the document store and the plugins answer, 503 naming what failed otherwise).

Request ids: every response carries X-Request-ID, the client's own when it sent a plain token of up to 128 characters, generated otherwise; quote it when reporting a problem.

Webhooks: register at /v1/webhooks (also served at /api/webhooks, the specification's path); list, update, delete, send a test ping and read the delivery history. Deliveries are signed with the header X-Webhook-Signature: sha256=&lt;lowercase hex HMAC-SHA256 of the raw body, keyed with the secret&gt;. Their bodies and headers are described in this document's webhooks section (job.completed, job.failed, webhook.test).

Errors: every error is an RFC 9457 problem (application/problem+json): type (/v1/problems/{code}, relative to the server; GET it for the type's description), title, status, detail and instance (the request path), with the extension members code, message (the same text as detail), optional errors[] (location and message of each invalid field) and, with 429, retry_after; request values are never echoed. An unknown path is 404, a known path with another method 405 with Allow.

Limits: 50 MB per document; per-account requests per minute (free 10, starter 30, pro 60; 429 with Retry-After in seconds); monthly words (free 10,000, starter 100,000, pro unlimited; 402 when exhausted). Words are counted per Unicode word boundaries; Chinese and Japanese count one word per character, Thai/Lao/Khmer/Myanmar per character group (see the README).`
