package signin

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/markbates/goth"
	"github.com/markbates/goth/providers/openidConnect"

	"tripplan/internal/planner"
)

// issuer is an OpenID provider whose ID tokens are checked with go-oidc: its signature against
// the keys the issuer publishes (cached, and fetched again when a token names a key not yet
// seen, so the issuer's key rotation just works), its issuer and its expiry. The provider's
// metadata is discovered at the first use, and again at the next use after a failed discovery,
// so that the server starts while Google or Apple cannot be reached.
type issuer struct {
	url string
	hc  *http.Client

	mu sync.Mutex
	op *oidc.Provider
}

// provider is the issuer's discovered metadata and keys.
func (i *issuer) provider(ctx context.Context) (*oidc.Provider, error) {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.op != nil {
		return i.op, nil
	}
	op, err := oidc.NewProvider(oidc.ClientContext(ctx, i.hc), i.url)
	if err != nil {
		return nil, fmt.Errorf("OpenID Connect discovery at %s: %w", i.url, err)
	}
	var meta struct {
		JWKS string `json:"jwks_uri"`
	}
	if err := op.Claims(&meta); err != nil || meta.JWKS == "" {
		return nil, fmt.Errorf("OpenID Connect discovery at %s: the document names no JWKS", i.url)
	}
	i.op = op
	return op, nil
}

// verify checks the raw ID token and that its audience includes one of audiences.
func (i *issuer) verify(ctx context.Context, raw string, audiences []string) (*oidc.IDToken, error) {
	op, err := i.provider(ctx)
	if err != nil {
		return nil, err
	}
	// The audience is checked below: go-oidc checks one client id only.
	tok, err := op.Verifier(&oidc.Config{SkipClientIDCheck: true}).Verify(ctx, raw)
	if err != nil {
		return nil, fmt.Errorf("%w: id_token: %w", ErrInvalidToken, err)
	}
	if slices.ContainsFunc(tok.Audience, func(aud string) bool { return slices.Contains(audiences, aud) }) {
		return tok, nil
	}
	return nil, fmt.Errorf("%w: id_token: for audience %q, not one of ours", ErrInvalidToken, tok.Audience)
}

// oidcProvider discovers the issuer's endpoints and sets up goth's openidConnect provider
// with them, with PKCE and a check of the ID token (goth reads its claims without checking it).
func oidcProvider(ctx context.Context, o OIDC, iss *issuer, callback string) (*Provider, error) {
	op, err := iss.provider(ctx)
	if err != nil {
		return nil, err
	}
	ep := op.Endpoint()
	if ep.AuthURL == "" || ep.TokenURL == "" {
		return nil, fmt.Errorf("OpenID Connect discovery at %s: the document lacks the authorization or token endpoint", o.Issuer)
	}
	gp, err := openidConnect.NewCustomisedURL(o.ClientID, o.Secret, callback, ep.AuthURL, ep.TokenURL, o.Issuer, op.UserInfoEndpoint(), "",
		"openid", "profile", "email")
	if err != nil {
		return nil, err
	}
	gp.HTTPClient = iss.hc
	gp.SetName("oidc")
	verify := func(ctx context.Context, s goth.Session) error {
		raw := s.(*openidConnect.Session).IDToken
		if raw == "" {
			return errors.New("the token response has no id_token")
		}
		_, err := iss.verify(ctx, raw, []string{o.ClientID})
		return err
	}
	return &Provider{ID: "oidc", Name: cmp.Or(o.Name, "OpenID Connect"), Kind: planner.ProviderOIDC, pkce: true, goth: fixed(gp), verify: verify}, nil
}
