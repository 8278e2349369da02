package fakegithub

import (
	"strconv"
	"strings"
)

// Pagination defaults and cap of GitHub's REST lists.
const (
	defaultPerPage = 30
	maxPerPage     = 100
)

// paginate returns the slice of items the request's per_page and page
// select, and sets a Link header formatted like GitHub's: rel="prev",
// rel="next", rel="last", rel="first", in that order, each present only
// when it applies.
func paginate[T any](c *call, items []T) []T {
	q := c.r.URL.Query()
	per, err := strconv.Atoi(q.Get("per_page"))
	if err != nil || per <= 0 {
		per = defaultPerPage
	}
	per = min(per, maxPerPage)
	page, err := strconv.Atoi(q.Get("page"))
	if err != nil || page <= 0 {
		page = 1
	}
	last := max((len(items)+per-1)/per, 1)

	var links []string
	if page > 1 {
		links = append(links, c.pageLink(page-1, "prev"))
	}
	if page < last {
		links = append(links, c.pageLink(page+1, "next"), c.pageLink(last, "last"))
	}
	if page > 1 {
		links = append(links, c.pageLink(1, "first"))
	}
	if len(links) > 0 {
		c.header.Set("Link", strings.Join(links, ", "))
	}

	lo := min((page-1)*per, len(items))
	hi := min(lo+per, len(items))
	return items[lo:hi]
}

// pageLink is the request's own URL with page replaced, keeping the other
// query parameters in the order the client sent them, as GitHub does.
func (c *call) pageLink(page int, rel string) string {
	var kept []string
	for _, kv := range strings.Split(c.r.URL.RawQuery, "&") {
		if kv != "" && !strings.HasPrefix(kv, "page=") {
			kept = append(kept, kv)
		}
	}
	kept = append(kept, "page="+strconv.Itoa(page))
	return "<" + c.s.URL + c.r.URL.EscapedPath() + "?" + strings.Join(kept, "&") + `>; rel="` + rel + `"`
}
