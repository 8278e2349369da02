package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// azure is what a BaseURL says about Azure OpenAI.
type azure struct {
	host bool // an Azure OpenAI or AI Foundry resource: the key goes in api-key
	// deployment: a classic deployment URL,
	// https://NAME.openai.azure.com/openai/deployments/DEPLOYMENT, which
	// needs the api-version query parameter.
	deployment bool
	apiVersion string
}

var azureHosts = []string{".openai.azure.com", ".cognitiveservices.azure.com", ".services.ai.azure.com"}

// azureDeploymentPath is a classic deployment URL's path.
var azureDeploymentPath = regexp.MustCompile(`^/openai/deployments/[^/]+/?$`)

func azureOf(u *url.URL) azure {
	host := strings.ToLower(u.Hostname())
	var a azure
	a.host = slices.ContainsFunc(azureHosts, func(s string) bool { return strings.HasSuffix(host, s) })
	if a.host && azureDeploymentPath.MatchString(u.Path) {
		a.deployment = true
		a.apiVersion = u.Query().Get("api-version")
		if a.apiVersion == "" {
			a.apiVersion = DefaultAzureAPIVersion
		}
	}
	return a
}

// azureForms is the message for an Azure URL the client cannot use.
const azureForms = "for Azure OpenAI use https://NAME.openai.azure.com/openai/v1 (any model; model is the deployment name) " +
	"or https://NAME.openai.azure.com/openai/deployments/DEPLOYMENT, optionally with ?api-version=VERSION (default " + DefaultAzureAPIVersion + ")"

// checkAzure refuses a query on any URL but an Azure deployment URL's
// api-version, and an Azure URL of neither documented form.
func checkAzure(u *url.URL) error {
	a := azureOf(u)
	path := strings.TrimRight(u.Path, "/")
	switch {
	case a.host && strings.HasSuffix(path, "/chat/completions"):
		return fmt.Errorf("BaseURL %q must not end in /chat/completions: %s", u.Redacted(), azureForms)
	case a.host && !a.deployment && path != "/openai/v1":
		return fmt.Errorf("BaseURL %q is an Azure host but not an API root: %s", u.Redacted(), azureForms)
	case u.RawQuery == "":
		return nil
	case !a.deployment:
		return fmt.Errorf("BaseURL must not carry a query (only an Azure deployment URL may, for api-version)")
	}
	for k := range u.Query() {
		if k != "api-version" {
			return fmt.Errorf("BaseURL query parameter %q is not used; an Azure deployment URL takes only api-version", k)
		}
	}
	return nil
}

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
