package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
)

// reservedBody are the request members the client sets itself; ExtraBody
// may not set them, since a wrong one would break the tool loop or the
// answer's decoding.
var reservedBody = []string{"model", "messages", "tools", "tool_choice", "response_format", "stream", "stream_options", "n"}

// reservedHeaders are the headers the client sets itself.
var reservedHeaders = []string{"Authorization", "Api-Key", "Content-Type", "Accept", "Content-Length", "Host", "Transfer-Encoding"}

var (
	headerName    = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
	effortPattern = regexp.MustCompile(`^[a-z][a-z_-]{0,19}$`)
)

// CheckExtras validates o's ExtraBody and ExtraHeaders, as New does: a
// member or header the client sets itself is refused, and so is a member
// another option sets (reasoning_effort, max_completion_tokens). Each
// error names the option.
func CheckExtras(o Options) []error {
	var errs []error
	for k, v := range o.ExtraBody {
		switch {
		case slices.Contains(reservedBody, k):
			errs = append(errs, fmt.Errorf("ExtraBody may not set %q: the client sets it", k))
		case k == "reasoning_effort" && o.ReasoningEffort != "", k == "max_completion_tokens" && o.MaxOutputTokens != 0:
			errs = append(errs, fmt.Errorf("ExtraBody sets %q, which ReasoningEffort or MaxOutputTokens sets too: set it once", k))
		case !json.Valid(v):
			errs = append(errs, fmt.Errorf("ExtraBody %q is not valid JSON", k))
		}
	}
	for k, v := range o.ExtraHeaders {
		switch {
		case !headerName.MatchString(k):
			errs = append(errs, fmt.Errorf("ExtraHeaders: %q is not a header name", k))
		case slices.Contains(reservedHeaders, http.CanonicalHeaderKey(k)):
			errs = append(errs, fmt.Errorf("ExtraHeaders may not set %s: the client sets it", k))
		case strings.ContainsAny(v, "\r\n\x00"):
			errs = append(errs, fmt.Errorf("ExtraHeaders: the value of %s contains a line break", k))
		}
	}
	return errs
}

// compactBody returns ExtraBody with each value compacted, so requests
// carry no stray whitespace.
func compactBody(in map[string]json.RawMessage) map[string]json.RawMessage {
	if len(in) == 0 {
		return nil
	}
	out := make(map[string]json.RawMessage, len(in))
	for k, v := range in {
		var b bytes.Buffer
		if json.Compact(&b, v) == nil {
			out[k] = b.Bytes()
		}
	}
	return out
}
