// Writes into the staff app's index.html (build only) what src/early.ts preloads on a page
// behind sign-in, and the script itself, ahead of the app's:
//   <script type="application/json" id="tatib-early">{"shell":[…],"catalogues":{…}}</script>
//   <script type="module" async crossorigin src="/assets/early-….js"></script>
// async: a deferred script (a module script's default) waits for the page's stylesheets; this
// one needs none, and runs as soon as it has arrived.
// shell: what the app shell loads beyond the first download (the shell and the dashboard are
// in it: src/app/router.tsx): the navigation's labels; catalogues: the dashboard's texts (the
// namespaces its route names, src/features/dashboard/index.tsx) per language. Files
// index.html already loads are left out. The list lives in the HTML (never
// cached), not in the script (cached for a year under its hashed name), so the two always agree.
// The family portal's page (ortu.html) is left as it is.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
const abs = (p) => path.join(src, p);

export const EARLY_ENTRY = abs('early.ts');
const SHELL = ['\0virtual:tatib-nav'];
/** The dashboard's namespaces: its own and those its route names. */
const DASHBOARD_NAMESPACES = ['dashboard', 'violation-source'];

/** The files loading `chunk` fetches: itself, its static imports, their styles. */
function filesOf(bundle, chunk, out = new Set()) {
  if (out.has(chunk.fileName)) return out;
  out.add(chunk.fileName);
  for (const css of chunk.viteMetadata?.importedCss ?? []) out.add(css);
  for (const i of chunk.imports) filesOf(bundle, bundle[i], out);
  return out;
}

export function earlyFiles(bundle, base = '/') {
  const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
  const byModule = (id) => chunks.find((c) => c.moduleIds.includes(id));
  // A module of style imports only (app/shellStyles.ts) leaves no chunk behind: Vite drops the
  // empty chunk and keeps its stylesheet, an asset named after the module.
  const cssOf = (id) =>
    Object.values(bundle)
      .filter((a) => a.type === 'asset' && a.fileName.endsWith('.css'))
      .filter((a) => (a.names ?? [a.name]).some((n) => n && path.parse(n).name === path.parse(id).name))
      .map((a) => a.fileName);
  const html = chunks.find((c) => c.isEntry && c.facadeModuleId?.endsWith('/index.html'));
  if (!html) throw new Error('early-preload: no chunk for index.html');
  const loaded = filesOf(bundle, html);
  const list = (ids) => {
    const out = new Set();
    for (const id of ids) {
      const chunk = byModule(id);
      const css = chunk ? [] : cssOf(id);
      if (!chunk && css.length === 0) throw new Error(`early-preload: ${id} is in no chunk`);
      if (chunk) filesOf(bundle, chunk, out);
      for (const f of css) out.add(f);
    }
    return [...out].filter((f) => !loaded.has(f));
  };
  const shell = list(SHELL);
  const url = (f) => base + f;
  const catalogues = {};
  for (const lang of ['id', 'en']) {
    catalogues[lang] = list(DASHBOARD_NAMESPACES.map((ns) => abs(`features/${ns}/i18n/${lang}.json`))).map(url);
  }
  return {
    shell: shell.map(url),
    catalogues,
  };
}

export function earlyPreload() {
  return {
    name: 'tatib-early-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle || path.basename(ctx.filename) !== 'index.html') return html;
        const early = Object.values(ctx.bundle).find((c) => c.type === 'chunk' && c.facadeModuleId === EARLY_ENTRY);
        if (!early) throw new Error('early-preload: src/early.ts is not an entry of the build');
        const data = JSON.stringify(earlyFiles(ctx.bundle)).replace(/</g, '\\u003c');
        const tags =
          `<script type="application/json" id="tatib-early">${data}</script>\n` +
          `    <script type="module" async crossorigin src="/${early.fileName}"></script>\n    `;
        const at = html.indexOf('<script type="module"');
        if (at < 0) throw new Error('early-preload: index.html has no module script');
        return html.slice(0, at) + tags + html.slice(at);
      },
    },
  };
}
