/**
 * The query of the page's URL as it is now. A list page's filter change builds on this, not on
 * the search params its render saw: a debounced search that fires just after another filter
 * changed (the router has updated the URL, the page has not re-rendered yet) must not put the
 * old filter back. react-router's functional setSearchParams reads the render's copy, so it does
 * not help here.
 */
export function currentSearch(): URLSearchParams {
  return new URLSearchParams(window.location.search);
}
