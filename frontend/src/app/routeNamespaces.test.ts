import { describe, expect, it } from 'vitest';

// Every route declares the other features' catalogues its page can show (FeatureRoute.namespaces):
// the router mounts the page once they are loaded. A catalogue the page meets only later (a
// component of another feature shown after a click) would otherwise suspend the page mid-use,
// and on Preact the route's boundary mounts it again, emptying a form. This test follows the
// imports from each route's page module through src/ and compares what it finds with the list.

const sources = import.meta.glob<string>(['../**/*.ts', '../**/*.tsx', '!../**/*.test.ts', '!../**/*.test.tsx'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** "../features/x/pages/Y.tsx" → "features/x/pages/Y.tsx" (paths relative to src/). */
const files = new Map(Object.entries(sources).map(([k, v]) => [k.replace(/^\.\.\//, ''), v]));

function resolve(from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith('@/')) base = spec.slice(2);
  else if (spec.startsWith('.')) {
    const parts = from.split('/').slice(0, -1);
    for (const seg of spec.split('/')) {
      if (seg === '..') parts.pop();
      else if (seg !== '.') parts.push(seg);
    }
    base = parts.join('/');
  } else return null; // a package
  for (const cand of [base, `${base}.tsx`, `${base}.ts`, `${base}/index.tsx`, `${base}/index.ts`]) {
    if (files.has(cand)) return cand;
  }
  return null;
}

const IMPORT = /(?:from\s+|import\s*\(\s*|import\s+)'([^']+)'/g;
const USE_T = /useTranslation\(\s*'([a-z-]+)'/g;

/** The namespaces a module and everything it imports (in src/) name in useTranslation. */
function namespacesOf(entry: string): Set<string> {
  const seen = new Set<string>();
  const out = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    const src = files.get(f) ?? '';
    for (const m of src.matchAll(USE_T)) out.add(m[1] ?? '');
    for (const m of src.matchAll(IMPORT)) {
      const r = resolve(f, m[1] ?? '');
      // The feature registries and the router pull in every page; a page never imports them for their pages.
      if (r && r !== 'registry.ts' && r !== 'registry.tsx' && !r.startsWith('app/router')) stack.push(r);
    }
  }
  return out;
}

interface Route {
  feature: string;
  path: string;
  module: string;
  declared: string[];
}

/** Each feature's routes, read from its index.tsx: the page module behind `element: <X />` and `namespaces`. */
function routes(): Route[] {
  const out: Route[] = [];
  for (const [file, src] of files) {
    const m = /^features\/([a-z-]+)\/index\.tsx$/.exec(file);
    if (!m) continue;
    const pages = new Map<string, string>();
    for (const l of src.matchAll(/const (\w+) = lazy\(\(\) => import\('([^']+)'\)\)/g)) pages.set(l[1] ?? '', l[2] ?? '');
    for (const l of src.matchAll(/import (\w+) from '([^']+)'/g)) pages.set(l[1] ?? '', l[2] ?? '');
    for (const line of src.split('\n')) {
      const r = /\{\s*path: ([^,]+), element: <(\w+)[^>]*\/>.*\}/.exec(line);
      if (!r) continue;
      const spec = pages.get(r[2] ?? '');
      const module = spec ? resolve(file, spec) : null;
      if (!module) throw new Error(`${file}: cannot find the module of <${r[2]} />`);
      const ns = /namespaces: \[([^\]]*)\]/.exec(line)?.[1] ?? '';
      out.push({ feature: m[1] ?? '', path: r[1] ?? '', module, declared: [...ns.matchAll(/'([a-z-]+)'/g)].map((x) => x[1] ?? '') });
    }
  }
  return out;
}

describe('route catalogues', () => {
  const all = routes();

  it('finds the routes', () => {
    expect(all.length).toBeGreaterThan(25);
    expect(all.find((r) => r.module === 'features/violations/pages/RecordPage.tsx')).toBeDefined();
  });

  it('each route declares the other features catalogues its page can show', () => {
    const problems: string[] = [];
    for (const r of all) {
      const needed = [...namespacesOf(r.module)].filter((ns) => ns !== r.feature && files.has(`features/${ns}/index.tsx`));
      const missing = needed.filter((ns) => !r.declared.includes(ns)).sort();
      if (missing.length > 0) problems.push(`${r.feature} ${r.path}: add namespaces ${missing.map((n) => `'${n}'`).join(', ')}`);
    }
    expect(problems).toEqual([]);
  });
});
