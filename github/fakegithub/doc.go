// Package fakegithub is an in-process fake of GitHub's REST and GraphQL API.
//
// It stands in for GitHub in the project's tests and in the action's offline
// demo mode, so it never imports "testing": New starts a real HTTP server
// (net/http/httptest) and any client — go-github, githubv4, or the built
// binary pointed at it through GITHUB_API_URL and GITHUB_GRAPHQL_URL — talks
// to it over HTTP exactly as it would to api.github.com.
//
// The fake aims to answer like GitHub as documented, not like a particular
// client expects: status codes, error bodies, Link headers, rate-limit
// headers and login spellings follow docs.github.com. Where GitHub's
// behaviour is subtle the code says so next to the implementation.
//
// REST routes live at the root (/repos/..., /user) and GraphQL at POST
// /graphql. GraphQL documents are validated against GitHub's published
// schema (schema.graphql, see LICENSE-schema.md) and run by a small generic
// executor; a field the executor does not implement produces a loud GraphQL
// error naming the type and field rather than a silent null.
//
// Identity: every request must carry a token registered with AddToken.
// REST renders a bot's login with its "[bot]" suffix and type "Bot";
// GraphQL's Actor.login leaves the suffix off, while Query.viewer.login keeps
// it — the same asymmetry real GitHub has.
//
// State lives in maps behind one mutex. Database ids come from one counter
// starting at 1000, and a deterministic clock starting at
// 2026-01-01T00:00:00Z advances one second for every object created or
// edited, so timestamps and orderings are stable across runs.
//
// Observability and failure: Requests, Writes, Unhandled and GraphQLErrors
// record what clients did; Inject adds faults (5xx, timeouts, secondary rate
// limits, lost responses) and OnWrite lets a test stop the world after the
// k-th write.
//
// Seeding helpers (AddPR, AddThread, ...) panic on inconsistent input such as
// an unknown pull request: a mis-seeded fake is a bug in the caller, and a
// panic names it at the line that made it.
package fakegithub
