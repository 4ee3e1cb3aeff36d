package signin

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"tripplan/internal/planner"
)

// The real issuers of Google's and Apple's ID tokens, and the bases of Kakao's and Naver's
// APIs, which apps' tokens are checked with.
const (
	GoogleIssuer = "https://accounts.google.com"
	AppleIssuer  = "https://appleid.apple.com"
	KakaoAPI     = "https://kapi.kakao.com"
	NaverAPI     = "https://openapi.naver.com"
)

// ErrInvalidToken is wrapped by the errors of Native.SignIn for a token that is not valid:
// refused by the provider, or an ID token that is forged, expired, from another issuer or for
// another client. Its other errors mean the provider could not be asked.
var ErrInvalidToken = errors.New("the token is not valid")

// Native is a provider that apps sign in with through its own SDK (POST /auth/{provider}/token):
// the app hands over what the SDK got, and the server checks it with the provider.
type Native struct {
	ID   string           // in the path: google, kakao, naver, apple, oidc
	Kind planner.Provider // as the web flow stores it, so both find the same user
	// AccessToken: the app sends the provider's access token (Kakao, Naver), which the
	// provider's user API is asked about; else its ID token (Google, Apple, OpenID Connect).
	AccessToken bool
	check       func(ctx context.Context, token string) (planner.User, error)
}

// SignIn checks the token and returns its account as a user to sign in.
func (n *Native) SignIn(ctx context.Context, token string) (planner.User, error) {
	for i := range len(token) {
		if token[i] < 0x21 || token[i] > 0x7e {
			return planner.User{}, fmt.Errorf("%w: not a token", ErrInvalidToken)
		}
	}
	return n.check(ctx, token)
}

// Native is the provider apps may sign in with under the id, or nil.
func (ps *Providers) Native(id string) *Native {
	for _, n := range ps.native {
		if n.ID == id {
			return n
		}
	}
	return nil
}

// natives are the providers cfg lets apps sign in with. An ID-token provider is on when its
// web client is configured or apps' client ids are listed (the token's audience must be one
// of them all); Kakao and Naver are on when their web client is configured.
func natives(cfg Config, hc *http.Client, oidcIssuer *issuer) ([]*Native, error) {
	var out []*Native
	audiences := func(web bool, webID string, apps []string) []string {
		if web {
			return append([]string{webID}, apps...)
		}
		return apps
	}
	if auds := audiences(cfg.Google.enabled(), cfg.Google.ID, cfg.GoogleClientIDs); len(auds) > 0 {
		iss := &issuer{url: cmp.Or(cfg.GoogleIssuer, GoogleIssuer), hc: hc}
		out = append(out, idTokenNative("google", planner.ProviderGoogle, iss, auds))
	}
	if cfg.Kakao.enabled() {
		out = append(out, &Native{ID: "kakao", Kind: planner.ProviderKakao, AccessToken: true, check: kakaoUser(cmp.Or(cfg.KakaoAPI, KakaoAPI), hc)})
	}
	if cfg.Naver.enabled() {
		out = append(out, &Native{ID: "naver", Kind: planner.ProviderNaver, AccessToken: true, check: naverUser(cmp.Or(cfg.NaverAPI, NaverAPI), hc)})
	}
	if auds := audiences(cfg.Apple.enabled(), cfg.Apple.ClientID, cfg.AppleClientIDs); len(auds) > 0 {
		iss := &issuer{url: cmp.Or(cfg.AppleIssuer, AppleIssuer), hc: hc}
		out = append(out, idTokenNative("apple", planner.ProviderApple, iss, auds))
	}
	if auds := audiences(cfg.OIDC.enabled(), cfg.OIDC.ClientID, cfg.OIDCClientIDs); len(auds) > 0 {
		if oidcIssuer == nil {
			return nil, errors.New("OpenID Connect app client ids need the provider's issuer")
		}
		out = append(out, idTokenNative("oidc", planner.ProviderOIDC, oidcIssuer, auds))
	}
	return out, nil
}

// idTokenNative signs in with an ID token of iss for one of audiences; the account is its
// subject, as goth's google (whose user id is the same account id), apple and openidConnect
// read it in the web flow.
func idTokenNative(id string, kind planner.Provider, iss *issuer, audiences []string) *Native {
	return &Native{ID: id, Kind: kind, check: func(ctx context.Context, raw string) (planner.User, error) {
		tok, err := iss.verify(ctx, raw, audiences)
		if err != nil {
			return planner.User{}, err
		}
		var c struct {
			Nickname   string `json:"nickname"`
			Name       string `json:"name"`
			GivenName  string `json:"given_name"`
			FamilyName string `json:"family_name"`
			Picture    string `json:"picture"`
			Email      string `json:"email"`
		}
		if err := tok.Claims(&c); err != nil {
			return planner.User{}, fmt.Errorf("%w: id_token claims: %w", ErrInvalidToken, err)
		}
		u, err := account(kind, tok.Subject, c.Picture, c.Email, c.Nickname, c.Name, c.GivenName+c.FamilyName)
		if err != nil {
			return planner.User{}, fmt.Errorf("%w: %w", ErrInvalidToken, err)
		}
		return u, nil
	}}
}

// kakaoUser asks Kakao's user API (GET /v2/user/me) whose the access token is. The account id is
// Kakao's numeric user id, as goth's kakao reads it; the names and picture are the profile's.
func kakaoUser(api string, hc *http.Client) func(context.Context, string) (planner.User, error) {
	return func(ctx context.Context, token string) (planner.User, error) {
		type profile struct {
			Nickname     string `json:"nickname"`
			ProfileImage string `json:"profile_image"`
		}
		var me struct {
			ID         json.Number `json:"id"`
			Properties profile     `json:"properties"`
			Account    struct {
				Profile struct {
					Nickname        string `json:"nickname"`
					ProfileImageURL string `json:"profile_image_url"`
				} `json:"profile"`
			} `json:"kakao_account"`
		}
		if err := userInfo(ctx, hc, api+"/v2/user/me", token, &me); err != nil {
			return planner.User{}, err
		}
		if _, err := strconv.ParseInt(me.ID.String(), 10, 64); err != nil {
			return planner.User{}, fmt.Errorf("kakao answered the user id %q", me.ID)
		}
		p := me.Account.Profile
		return account(planner.ProviderKakao, me.ID.String(), cmp.Or(me.Properties.ProfileImage, p.ProfileImageURL), "",
			me.Properties.Nickname, p.Nickname)
	}
}

// naverUser asks Naver's profile API (GET /v1/nid/me) whose the access token is; the account is
// the profile's id, as goth's naver reads it.
func naverUser(api string, hc *http.Client) func(context.Context, string) (planner.User, error) {
	return func(ctx context.Context, token string) (planner.User, error) {
		var me struct {
			ResultCode string `json:"resultcode"`
			Response   struct {
				ID           string `json:"id"`
				Nickname     string `json:"nickname"`
				Name         string `json:"name"`
				Email        string `json:"email"`
				ProfileImage string `json:"profile_image"`
			} `json:"response"`
		}
		if err := userInfo(ctx, hc, api+"/v1/nid/me", token, &me); err != nil {
			return planner.User{}, err
		}
		if me.ResultCode != "00" {
			return planner.User{}, fmt.Errorf("%w: naver answered result code %q", ErrInvalidToken, me.ResultCode)
		}
		r := me.Response
		return account(planner.ProviderNaver, r.ID, r.ProfileImage, r.Email, r.Nickname, r.Name)
	}
}

// userInfo asks a provider's API at url who the access token belongs to, into v. A token the
// provider refuses (400, 401, 403) is ErrInvalidToken; any other failure is the provider's.
func userInfo(ctx context.Context, hc *http.Client, url, token string, v any) error {
	r, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	r.Header.Set("Authorization", "Bearer "+token)
	res, err := hc.Do(r)
	if err != nil {
		return fmt.Errorf("user info: %w", err)
	}
	defer res.Body.Close()
	switch res.StatusCode {
	case http.StatusOK:
	case http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden:
		return fmt.Errorf("%w: %s answered %s", ErrInvalidToken, url, res.Status)
	default:
		return fmt.Errorf("user info: %s answered %s", url, res.Status)
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, 1<<20)).Decode(v); err != nil {
		return fmt.Errorf("user info from %s: %w", url, err)
	}
	return nil
}
