package webhook

import "encoding/json"

// payloadJobID is the job a delivery is about, for its log lines.
func payloadJobID(payload []byte) string {
	var p struct {
		Data struct {
			JobID string `json:"job_id"`
		} `json:"data"`
	}
	_ = json.Unmarshal(payload, &p)
	return p.Data.JobID
}
