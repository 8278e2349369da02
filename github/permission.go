package github

import (
	"context"
	"fmt"
	"net/http"

	"github.com/review-my-code-bot/rmc/snapshot"
)

// Permission returns login's role on repo: "admin", "maintain", "write",
// "triage", "read" or "none". It reads role_name, the precise role (the
// legacy "permission" field reports maintain as write and triage as read),
// and falls back to "permission" where a server does not send role_name. A
// login GitHub does not know is "none".
func (c *Client) Permission(ctx context.Context, repo snapshot.Repo, login string) (snapshot.Role, error) {
	u := fmt.Sprintf("repos/%s/%s/collaborators/%s/permission", repo.Owner, repo.Name, login)
	req, err := c.rest.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		return "", err
	}
	var level struct {
		Permission string `json:"permission"`
		RoleName   string `json:"role_name"`
	}
	_, err = c.rest.Do(ctx, req, &level)
	if IsStatus(wrap(scopeRead, "", err), http.StatusNotFound) {
		return snapshot.RoleNone, nil
	}
	if err != nil {
		return "", wrap(scopeRead, fmt.Sprintf("read the permission of %s on %s", login, repo), err)
	}
	if level.RoleName != "" {
		return snapshot.Role(level.RoleName), nil
	}
	if level.Permission == "" {
		return snapshot.RoleNone, nil
	}
	return snapshot.Role(level.Permission), nil
}
