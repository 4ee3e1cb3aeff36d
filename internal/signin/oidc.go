package signin

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/golang-jwt/jwt/v5"
	"github.com/lestrrat-go/jwx/jwk"
	"github.com/markbates/goth"
	"github.com/markbates/goth/providers/openidConnect"

	"tripplan/internal/planner"
)

// discovery is the part of an OpenID Provider's metadata the sign-in uses.
type discovery struct {
	Issuer           string `json:"issuer"`
	AuthEndpoint     string `json:"authorization_endpoint"`
	TokenEndpoint    string `json:"token_endpoint"`
	UserInfoEndpoint string `json:"userinfo_endpoint"`
	JWKSURI          string `json:"jwks_uri"`
}

// oidcProvider discovers the issuer's endpoints and sets up goth's openidConnect provider
// with them, with PKCE and a check of the ID token's signature against the issuer's keys
// (goth reads the ID token's claims without checking it).
func oidcProvider(ctx context.Context, o OIDC, callback string, hc *http.Client) (*Provider, error) {
	d, err := discover(ctx, hc, o.Issuer)
	if err != nil {
		return nil, fmt.Errorf("OpenID Connect discovery at %s: %w", o.Issuer, err)
	}
	gp, err := openidConnect.NewCustomisedURL(o.ClientID, o.Secret, callback, d.AuthEndpoint, d.TokenEndpoint, d.Issuer, d.UserInfoEndpoint, "",
		"openid", "profile", "email")
	if err != nil {
		return nil, err
	}
	gp.HTTPClient = hc
	gp.SetName("oidc")
	verify := func(ctx context.Context, s goth.Session) error {
		return verifyIDToken(ctx, hc, d, o.ClientID, s.(*openidConnect.Session).IDToken)
	}
	return &Provider{ID: "oidc", Name: cmp.Or(o.Name, "OpenID Connect"), Kind: planner.ProviderOIDC, pkce: true, goth: fixed(gp), verify: verify}, nil
}

// discover fetches the issuer's metadata; its issuer must be the configured one exactly
// (OpenID Connect Discovery §4.3).
func discover(ctx context.Context, hc *http.Client, issuer string) (*discovery, error) {
	r, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(issuer, "/")+"/.well-known/openid-configuration", nil)
	if err != nil {
		return nil, err
	}
	res, err := hc.Do(r)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %s", res.Status)
	}
	var d discovery
	if err := json.NewDecoder(io.LimitReader(res.Body, 1<<20)).Decode(&d); err != nil {
		return nil, err
	}
	switch {
	case d.Issuer != issuer:
		return nil, fmt.Errorf("the document names issuer %q", d.Issuer)
	case d.AuthEndpoint == "" || d.TokenEndpoint == "" || d.JWKSURI == "":
		return nil, errors.New("the document lacks the authorization, token or JWKS endpoint")
	}
	return &d, nil
}

// verifyIDToken checks the ID token's signature with the issuer's published keys, and its
// issuer, audience and expiry.
func verifyIDToken(ctx context.Context, hc *http.Client, d *discovery, clientID, raw string) error {
	if raw == "" {
		return errors.New("the token response has no id_token")
	}
	keys, err := jwk.Fetch(ctx, d.JWKSURI, jwk.WithHTTPClient(hc))
	if err != nil {
		return fmt.Errorf("fetch the issuer's keys: %w", err)
	}
	_, err = jwt.Parse(raw, func(t *jwt.Token) (any, error) {
		kid, _ := t.Header["kid"].(string)
		key, ok := keys.LookupKeyID(kid)
		if !ok && kid == "" && keys.Len() == 1 {
			key, ok = keys.Get(0)
		}
		if !ok {
			return nil, fmt.Errorf("no key %q in the issuer's key set", kid)
		}
		var pub any
		if err := key.Raw(&pub); err != nil {
			return nil, err
		}
		return pub, nil
	}, jwt.WithValidMethods([]string{"RS256", "RS384", "RS512", "PS256", "ES256", "ES384", "EdDSA"}),
		jwt.WithIssuer(d.Issuer), jwt.WithAudience(clientID), jwt.WithExpirationRequired())
	if err != nil {
		return fmt.Errorf("id_token: %w", err)
	}
	return nil
}
