package main

// Platform is what the services need from the desktop: dialogs, events to
// the page, OS notifications and the window. wailsPlatform implements it.
type Platform interface {
	SaveDialog(SaveDialog) (path string, err error) // "" when cancelled
	OpenDialog(OpenDialog) (path string, err error) // "" when cancelled
	Emit(event string, data any)
	Notify(Notification) error
	ShowWindow()
}

// FileFilter limits a file dialog to a pattern such as "*.xlsx".
type FileFilter struct {
	DisplayName string `json:"displayName"`
	Pattern     string `json:"pattern"`
}

// SaveDialog describes a native save dialog.
type SaveDialog struct {
	Title            string
	DefaultDirectory string
	DefaultFilename  string
	Filters          []FileFilter
}

// OpenDialog describes a native open dialog.
type OpenDialog struct {
	Title            string
	DefaultDirectory string
	Filters          []FileFilter
}

// Notification is one OS popup; URL is the page a click opens.
type Notification struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Body  string `json:"body"`
	URL   string `json:"url,omitempty"`
}

// Event names sent to the page, namespaced like tiny-rdm's.
const (
	EventNotification = "tatib:notification" // a real-time notification: Notification
	EventNavigate     = "tatib:navigate"     // open a page of the app: the path as a string
	// EventNotificationClick names the popup (its ID) the user clicked.
	EventNotificationClick = "tatib:notification-click"
	EventSignedOut         = "tatib:signed-out" // the session ended (401 or sign out)
	EventRealtime          = "tatib:realtime"   // the real-time channel's state: RealtimeStatus
)
