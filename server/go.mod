module github.com/tatib/tatib/server

go 1.26.8

require (
	github.com/go-chi/chi/v5 v5.2.3
	github.com/invopop/jsonschema v0.14.0
	github.com/jmoiron/sqlx v1.4.0
	github.com/lib/pq v1.10.9
	github.com/peterldowns/pgtestdb v0.1.1
	github.com/pressly/goose/v3 v3.26.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/xuri/excelize/v2 v2.9.1
	golang.org/x/crypto v0.58.0
)

require (
	github.com/bahlo/generic-list-go v0.2.0 // indirect
	github.com/buger/jsonparser v1.1.2 // indirect
	github.com/pb33f/ordered-map/v2 v2.3.1 // indirect
	github.com/skip2/go-qrcode v0.0.0-20200617195104-da1b6568686e // indirect
	go.yaml.in/yaml/v4 v4.0.0-rc.2 // indirect
)

require (
	github.com/go-pdf/fpdf v0.9.0
	github.com/gorilla/websocket v1.5.3
	github.com/mfridman/interpolate v0.0.2 // indirect
	github.com/peterldowns/pgtestdb/migrators/goosemigrator v0.1.1 // indirect
	github.com/richardlehane/mscfb v1.0.4 // indirect
	github.com/richardlehane/msoleps v1.0.4 // indirect
	github.com/sethvargo/go-retry v0.3.0 // indirect
	github.com/tiendc/go-deepcopy v1.6.0 // indirect
	github.com/xuri/efp v0.0.1 // indirect
	github.com/xuri/nfp v0.0.1 // indirect
	go.uber.org/multierr v1.11.0 // indirect
	golang.org/x/net v0.60.0 // indirect
	golang.org/x/sync v0.24.0
	golang.org/x/text v0.43.0
)
