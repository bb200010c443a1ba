// The repository root is a module only for main.go, the Wails CLI's shim
// (see docs/desktop.md); the code lives in the nested modules.
module github.com/tatib/tatib

go 1.26.8
