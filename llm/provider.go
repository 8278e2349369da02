package llm

import (
	"encoding/json"
	"fmt"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// provider is what differs between the OpenAI-compatible endpoints of
// model providers, each as its documentation says. A family's file
// declares one and registers it; the generic OpenAI-compatible default
// (genericProvider) covers everything else. Adding a provider is one file
// and its test.
//
// What a request needs (URL form, key header, request adjustments,
// streaming) comes from the one provider a client uses: detected from the
// base URL, or named by Options.Provider. What an answer means (a
// context-length refusal, a refusal of tools, a rate limit's reset) is
// read with every family's wording and headers: a local server behind a
// plain URL is detected as generic, and a gateway relays its upstream's
// errors and headers as they are.
type provider struct {
	name string
	// hosts are host-name suffixes (lower case) that identify the
	// provider; port is a local server's default port, used when the
	// host is a loopback or private address.
	hosts []string
	port  string

	// checkURL refuses a base URL of a form the provider does not serve;
	// nil accepts an API root without a query.
	checkURL func(u *url.URL) error
	// endpoint is the chat completions URL for a base URL checkURL
	// accepted; nil means {base}/chat/completions.
	endpoint func(u *url.URL) string
	// auth puts the API key in the provider's header; nil means
	// Authorization: Bearer.
	auth func(h http.Header, key string)
	// adjust changes a request's top-level members (encoded) for what the
	// provider refuses or names otherwise (a token field, temperature).
	adjust func(model string, body map[string]json.RawMessage)

	// stream says the provider documents streaming with usage, so
	// requests stream unless Options.Stream says otherwise; streamOnly
	// reports a model that only answers a streamed request.
	stream     bool
	streamOnly func(model string) bool
	// streamRefusals are its messages (lower case) refusing a request
	// without stream; the client then streams.
	streamRefusals []string

	// contextPhrases are the provider's wording (lower case) of a prompt
	// longer than the window, in an error's message, type or code, and
	// contextStatuses the HTTP statuses that refusal comes with (nil: 400
	// and 413); the same words with another status are not one.
	contextPhrases  []string
	contextStatuses []int
	// toolsRefusals are its messages refusing tool definitions, each with
	// the setting that enables them.
	toolsRefusals []toolsRefusal
	// resetAfter reads the provider's own rate-limit headers: how long
	// until the limit that was hit resets.
	resetAfter func(h http.Header, now time.Time) (time.Duration, bool)
}

// toolsRefusal is a server's message refusing tool definitions, and the
// setting that makes it accept them.
type toolsRefusal struct{ phrase, fix string }

// genericName is the name of the generic OpenAI-compatible provider.
const genericName = "openai-compatible"

// genericProvider is any OpenAI-compatible server: the key as a bearer
// token, {base}/chat/completions, no streaming unless asked (an unknown
// server may not report usage in a stream), and OpenAI's own wording and
// headers (see provider_openai.go).
var genericProvider = &provider{
	name:           genericName,
	contextPhrases: openAIContextPhrases,
	resetAfter:     openAIResetAfter,
}

// registry is every provider family but the generic one, by name.
var registry = map[string]*provider{}

// register adds a provider family; each family's file calls it from init.
func register(p *provider) {
	if _, dup := registry[p.name]; dup || p.name == genericName {
		panic("llm: provider " + p.name + " registered twice")
	}
	registry[p.name] = p
}

// ProviderNames are the values Options.Provider takes besides "" (detect
// by URL), sorted: the provider families and the generic
// "openai-compatible".
func ProviderNames() []string {
	names := []string{genericName}
	for n := range registry {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// providerNamed is the provider called name, or detected from u when name
// is "".
func providerNamed(name string, u *url.URL) (*provider, error) {
	switch {
	case name == "":
		return detect(u), nil
	case name == genericName:
		return genericProvider, nil
	}
	if p, ok := registry[name]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("provider %q (Options.Provider) is not one of %s", name, strings.Join(ProviderNames(), ", "))
}

// detect is the provider a base URL names by its host, or by a local
// server's default port; the generic one when none does.
func detect(u *url.URL) *provider {
	host := strings.ToLower(u.Hostname())
	for _, name := range slices.Sorted(maps.Keys(registry)) {
		p := registry[name]
		if slices.ContainsFunc(p.hosts, func(s string) bool { return host == strings.TrimPrefix(s, ".") || strings.HasSuffix(host, s) }) {
			return p
		}
	}
	if local(host) {
		for _, name := range slices.Sorted(maps.Keys(registry)) {
			if p := registry[name]; p.port != "" && p.port == u.Port() {
				return p
			}
		}
	}
	return genericProvider
}

// local reports a host that is this machine or a private network's (a
// loopback or private address, a name without a dot such as a compose
// service's, .local, .internal): where a self-hosted server's default
// port says what it is.
func local(host string) bool {
	if !strings.Contains(host, ".") || strings.HasSuffix(host, ".local") || strings.HasSuffix(host, ".internal") {
		return true
	}
	if ip := net.ParseIP(host); ip != nil {
		return ip.IsLoopback() || ip.IsPrivate()
	}
	return false
}

// families is the generic provider and every registered one, in name
// order: whose wording an answer is read with.
func families() []*provider {
	out := []*provider{genericProvider}
	for _, name := range slices.Sorted(maps.Keys(registry)) {
		out = append(out, registry[name])
	}
	return out
}

// chatURL is p's chat completions URL for u.
func (p *provider) chatURL(u *url.URL) string {
	if p.endpoint != nil {
		return p.endpoint(u)
	}
	e := *u
	e.RawQuery = ""
	return e.JoinPath("chat", "completions").String()
}

// check refuses a base URL p does not serve.
func (p *provider) check(u *url.URL) error {
	if p.checkURL != nil {
		return p.checkURL(u)
	}
	if u.RawQuery != "" {
		return fmt.Errorf("BaseURL must not carry a query (only an Azure deployment URL may, for api-version)")
	}
	return nil
}

// refusalStatuses are the statuses p's context refusal comes with.
func (p *provider) refusalStatuses() []int {
	if p.contextStatuses != nil {
		return p.contextStatuses
	}
	return defaultRefusalStatuses
}

// defaultRefusalStatuses: a request refused (400), or too large (413).
var defaultRefusalStatuses = []int{http.StatusBadRequest, http.StatusRequestEntityTooLarge}

// setKey puts key in p's header.
func (p *provider) setKey(h http.Header, key string) {
	if p.auth != nil {
		p.auth(h, key)
		return
	}
	h.Set("Authorization", "Bearer "+key)
}

// streams reports whether a request for model is streamed: always where
// the model answers only that way, else as set, else where the provider
// documents it.
func (p *provider) streams(model string, set *bool) bool {
	switch {
	case p.streamOnly != nil && p.streamOnly(model):
		return true
	case set != nil:
		return *set
	}
	return p.stream
}
