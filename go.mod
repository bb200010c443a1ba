// The repository root is a module only for main.go, the Wails CLI's shim
// (see docs/desktop.md); the code lives in the nested modules.
module github.com/tatib/tatib

go 1.26.8

require github.com/wailsapp/wails/v2 v2.16.0

require (
	github.com/leaanthony/slicer v1.6.0 // indirect
	github.com/leaanthony/u v1.1.1 // indirect
)
