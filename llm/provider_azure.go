package llm

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
)

// Azure OpenAI (https://learn.microsoft.com/azure/ai-foundry/openai/reference):
// the key in the api-key header, and two URL forms: the v1 API root
// https://NAME.openai.azure.com/openai/v1 (model is the deployment name),
// or a classic deployment URL .../openai/deployments/DEPLOYMENT that needs
// the api-version query parameter. Its content filter refuses a prompt
// with a 400 whose code is content_filter (see moderated).

// defaultAzureAPIVersion is the api-version sent to an Azure OpenAI
// deployment URL that names none: the latest generally available one
// Azure documents for chat completions with tools.
const defaultAzureAPIVersion = "2024-10-21"

func init() {
	register(&provider{
		name:     "azure",
		hosts:    []string{".openai.azure.com", ".cognitiveservices.azure.com", ".services.ai.azure.com"},
		checkURL: checkAzure,
		endpoint: azureEndpoint,
		auth:     func(h http.Header, key string) { h.Set("api-key", key) },
		stream:   true,
	})
}

// azureDeploymentPath is a classic deployment URL's path.
var azureDeploymentPath = regexp.MustCompile(`^/openai/deployments/[^/]+/?$`)

// azureForms is the message for an Azure URL the client cannot use.
const azureForms = "for Azure OpenAI use https://NAME.openai.azure.com/openai/v1 (any model; model is the deployment name) " +
	"or https://NAME.openai.azure.com/openai/deployments/DEPLOYMENT, optionally with ?api-version=VERSION (default " + defaultAzureAPIVersion + ")"

// checkAzure accepts the two documented forms, and an api-version query
// only on a deployment URL.
func checkAzure(u *url.URL) error {
	deployment := azureDeploymentPath.MatchString(u.Path)
	path := strings.TrimRight(u.Path, "/")
	switch {
	case strings.HasSuffix(path, "/chat/completions"):
		return fmt.Errorf("BaseURL %q must not end in /chat/completions: %s", u.Redacted(), azureForms)
	case !deployment && path != "/openai/v1":
		return fmt.Errorf("BaseURL %q is an Azure host but not an API root: %s", u.Redacted(), azureForms)
	case u.RawQuery == "":
		return nil
	case !deployment:
		return fmt.Errorf("BaseURL must not carry a query (only an Azure deployment URL may, for api-version)")
	}
	for k := range u.Query() {
		if k != "api-version" {
			return fmt.Errorf("BaseURL query parameter %q is not used; an Azure deployment URL takes only api-version", k)
		}
	}
	return nil
}

// azureEndpoint adds api-version to a deployment URL's endpoint.
func azureEndpoint(u *url.URL) string {
	e := *u
	e.RawQuery = ""
	e = *e.JoinPath("chat", "completions")
	if azureDeploymentPath.MatchString(u.Path) {
		v := u.Query().Get("api-version")
		if v == "" {
			v = defaultAzureAPIVersion
		}
		e.RawQuery = url.Values{"api-version": {v}}.Encode()
	}
	return e.String()
}
