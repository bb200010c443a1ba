// Package client is where oapi-codegen puts a Go client of Tatib's OpenAPI document
// (oapi-codegen.yaml). Nothing uses it: server/internal/api's TestOpenAPIGoClient generates it
// from the document as the server serves it, into a temporary file laid over this package
// (go build -overlay), and fails unless it compiles.
package client
