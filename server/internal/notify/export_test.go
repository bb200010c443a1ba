package notify

// ViolationsSQL is violationsSQL, for the test that compares it with the
// function notify_violations.
const ViolationsSQL = violationsSQL
