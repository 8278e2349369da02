package fakellm

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// requestSchemaJSON is the chat completions request body as OpenAI's API
// reference documents it, written here from that reference: the fields a
// request may carry and their types.
//
//go:embed chat_completions_request.schema.json
var requestSchemaJSON []byte

var requestSchema = sync.OnceValues(func() (*jsonschema.Resolved, error) {
	var s jsonschema.Schema
	if err := json.Unmarshal(requestSchemaJSON, &s); err != nil {
		return nil, err
	}
	return s.Resolve(nil)
})

// ValidateRequest reports whether body is a chat completions request as
// OpenAI documents it. The server refuses every request that is not, as a
// strict endpoint would, so every test that talks to the fake checks the
// bodies the client sends.
func ValidateRequest(body []byte) error {
	rs, err := requestSchema()
	if err != nil {
		return fmt.Errorf("fakellm: the request schema: %w", err)
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return err
	}
	return rs.Validate(v)
}
