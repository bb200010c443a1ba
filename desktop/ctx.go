package main

import (
	"context"
	"net/url"
)

type ctxKey int

const (
	targetKey ctxKey = iota
	usedTokenCtxKey
)

func withTarget(ctx context.Context, u *url.URL) context.Context {
	return context.WithValue(ctx, targetKey, u)
}

func targetFrom(ctx context.Context) *url.URL {
	u, _ := ctx.Value(targetKey).(*url.URL)
	return u
}

func withUsedToken(ctx context.Context, tok string) context.Context {
	return context.WithValue(ctx, usedTokenCtxKey, tok)
}

func usedToken(ctx context.Context) string {
	s, _ := ctx.Value(usedTokenCtxKey).(string)
	return s
}
