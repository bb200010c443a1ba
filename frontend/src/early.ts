// The staff app's first script: a few hundred bytes that index.html runs before the app's own
// code (src/main.tsx) has downloaded. On a page behind sign-in it starts, at once and side by
// side, the downloads the signed-in first screen waits for beyond the first download (which
// holds the shell and the dashboard): the navigation's labels, the dashboard's texts when the
// address is the dashboard, and GET /auth/me. Without it they start only once the app's code
// has arrived and run (a second and more on a school's slow network).
// It only asks the browser to fetch: the app loads and runs these files as it always did, and
// its own /auth/me call is answered by the preloaded response. The lists are written into
// index.html at build time (scripts/early-preload.mjs); this file imports nothing.

/** Pages that show no app shell: the sign-in page, the gate kiosk, the public report pages. */
const NO_SHELL = /^\/(sign-in|kiosk|lapor|ortu)(\/|$)/;
/** The addresses that open the dashboard ("/" leads there for most roles). */
const DASHBOARD = /^\/(dashboard\/?)?$/;

/** What scripts/early-preload.mjs writes into index.html. */
interface EarlyFiles {
  shell: string[];
  /** The dashboard's catalogues per language. */
  catalogues: Record<string, string[]>;
}

function preload(href: string, as: 'script' | 'style' | 'fetch') {
  const link = document.createElement('link');
  link.rel = as === 'script' ? 'modulepreload' : 'preload';
  if (as !== 'script') link.as = as;
  // As the app's own requests go (Vite's loader, fetch with credentials "same-origin"), so the
  // browser hands them these responses.
  link.crossOrigin = 'anonymous';
  link.href = href;
  document.head.appendChild(link);
}

function storedLanguage(): string {
  try {
    return localStorage.getItem('tatib.language') ?? 'id';
  } catch {
    return 'id';
  }
}

function start() {
  const data = document.getElementById('tatib-early');
  if (!data?.textContent || NO_SHELL.test(location.pathname)) return;
  const files = JSON.parse(data.textContent) as EarlyFiles;
  preload('/api/v1/auth/me', 'fetch');
  const wanted = [...files.shell];
  if (DASHBOARD.test(location.pathname)) {
    // Indonesian always: it is every other language's fallback.
    wanted.push(...(files.catalogues.id ?? []));
    const lang = storedLanguage();
    if (lang !== 'id') wanted.push(...(files.catalogues[lang] ?? []));
  }
  for (const href of new Set(wanted)) preload(href, href.endsWith('.css') ? 'style' : 'script');
}

start();
