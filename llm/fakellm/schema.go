package fakellm

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// requestSchemaJSON is CreateChatCompletionRequest from OpenAI's published
// OpenAPI description, with the schemas it refers to (see
// testdata/openai/SOURCE.md for the commit and how it was extracted).
//
//go:embed testdata/openai/create_chat_completion_request.json
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
